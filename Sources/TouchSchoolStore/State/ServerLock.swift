#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One server per data directory, as `PlayerLock` is one game per name: two `serve` on one
/// directory's battle database both count every tap into it, but each keeps the live board of its
/// own players only, and the phones of one class see two different boards. A lock file
/// (`serve.lock`), held while the server runs and released by the system when it ends, however it
/// ends; beside it `serve.owner` says who holds it, for the second server to name.
public enum ServerLock {
    static let lockName = "serve.lock"
    static let ownerName = "serve.owner"

    public enum Outcome: Sendable {
        case held(HeldServerLock)
        /// Another server holds it: its process id and port, as it wrote them (nil when it has not
        /// yet, or the file is unreadable).
        case taken(pid: Int?, port: Int?)
    }

    /// Takes the lock of `dataDirectory` (which exists) for this process.
    public static func claim(dataDirectory: String, fileSystem: FileSystem = .live) throws(FileError) -> Outcome {
        guard let held = try fileSystem.tryLock("\(dataDirectory)/\(lockName)") else {
            let owner = (try? fileSystem.read("\(dataDirectory)/\(ownerName)", 200)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return .taken(pid: number(named: "pid", in: owner), port: number(named: "port", in: owner))
        }
        let lock = HeldServerLock(lock: held, ownerPath: "\(dataDirectory)/\(ownerName)", fileSystem: fileSystem)
        lock.announce(port: nil)
        return .held(lock)
    }

    /// `pid=123 port=8080`: the value of `name`.
    static func number(named name: String, in text: String) -> Int? {
        for field in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) where field.hasPrefix("\(name)=") {
            return Int(field.dropFirst(name.count + 1))
        }
        return nil
    }
}

/// A held `ServerLock`: released when the process ends (or by `lock.release`).
public struct HeldServerLock: Sendable {
    public let lock: HeldLock
    let ownerPath: String
    let fileSystem: FileSystem

    /// Says who holds the lock: this process, and its port once it listens. Written whole and
    /// renamed into place, so a second server reads one version or the other. Best effort: a
    /// server that cannot write it still holds the lock, and the second server's refusal names
    /// neither pid nor port.
    public func announce(port: Int?) {
        let text = "pid=\(getpid())" + (port.map { " port=\($0)" } ?? "") + "\n"
        try? fileSystem.replaceAtomically(ownerPath, with: Array(text.utf8))
    }
}
