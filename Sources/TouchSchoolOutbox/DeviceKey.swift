#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TouchSchoolCore
import TouchSchoolStore

/// The installation's device key: 32 random bytes as 43 base64url characters, in
/// `<data dir>/device.key`, readable by its owner only (mode 0600). A server knows a player by it,
/// so that "my taps" follow the player from one game to the next; it is made once and kept.
public enum DeviceKey {
    public static let fileName = "device.key"

    public static func path(inDataDirectory directory: String) -> String { "\(directory)/\(fileName)" }

    /// The key of the installation, made on first use. A key file that others may read is made
    /// private (0600).
    public static func loadOrCreate(dataDirectory directory: String) throws(DeviceKeyError) -> String {
        let path = path(inDataDirectory: directory)
        if let key = try load(path: path) { return key }
        do { try FileIO.createDirectory(directory) } catch { throw DeviceKeyError("cannot create \(directory): \(error)") }
        // Written under a temporary name with mode 0600 from the start, then linked in place: the
        // key is never readable by others, and of two games making one at once, one key wins.
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DeviceKeyError("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        defer { unlink(temporary) }
        let bytes = Array((generate() + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else { throw DeviceKeyError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        if link(temporary, path) != 0, errno != EEXIST {
            throw DeviceKeyError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        guard let key = try load(path: path) else { throw DeviceKeyError("\(path) vanished as it was made") }
        return key
    }

    /// The key in `path`, nil when there is none; its mode is made 0600 if it was not.
    static func load(path: String) throws(DeviceKeyError) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw DeviceKeyError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if info.st_mode & 0o077 != 0, chmod(path, 0o600) != 0 {
            throw DeviceKeyError("\(path) can be read by others and its mode cannot be changed: \(String(cString: strerror(errno)))")
        }
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: 1024) } catch { throw DeviceKeyError("cannot read \(path): \(error)") }
        let key = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard BattleRules.isValidDeviceKey(key) else {
            throw DeviceKeyError("\(path) does not hold a device key (22 to 64 base64url characters); move it away to make a new one")
        }
        return key
    }

    /// 32 bytes from the system's secure random source, base64url without padding (also an SSH
    /// player's key for one session, when their client offers no key of its own).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// 32 bytes as a device key: base64url without padding, 43 characters (the server also makes
    /// an SSH player's key this way, from their public key).
    public static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

public struct DeviceKeyError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
