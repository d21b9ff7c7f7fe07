#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error from the file system, with the path and the system's own words.
public struct FileError: Error, Equatable, CustomStringConvertible, Sendable {
    public var path: String
    public var operation: String
    public var code: Int32
    public var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }

    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    public var isMissing: Bool { code == ENOENT }
}

/// Reading whole files and replacing them atomically: the one way the project writes a file.
public enum FileIO {
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    public static func read(_ path: String) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, operation: "open", code: errno) }
        defer { close(fd) }
        var info = stat()
        // Read straight into an array of the file's size (plus one byte, to see the end in the same
        // pass): the catalog is read at the start of every command, and copying it from a chunk
        // buffer cost a second pass and twice the page faults.
        var capacity = fstat(fd, &info) == 0 && info.st_size > 0 ? Int(info.st_size) + 1 : 1 << 16
        var result: [UInt8] = []
        while true {
            var failure: Int32?
            result = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initializedCount in
                initializedCount = result.count
                if initializedCount > 0 {
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[..<initializedCount]).initialize(from: result)
                }
                while initializedCount < buffer.count {
                    let got = Glibc.read(fd, buffer.baseAddress! + initializedCount, buffer.count - initializedCount)
                    if got < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    if got == 0 { return }
                    initializedCount += got
                }
            }
            if let failure { throw FileError(path: path, operation: "read", code: failure) }
            // Stopped before filling the buffer: the end of the file.
            if result.count < capacity { return result }
            capacity *= 2
        }
    }

    /// Writes `bytes` beside `path`, flushes them to disk, then renames over `path`: a reader, or
    /// a kill at any moment, sees the old file or the new one, never a mix.
    public static func replaceAtomically(_ path: String, with bytes: [UInt8]) throws(FileError) {
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: temporary, operation: "create", code: errno) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                unlink(temporary)
                throw FileError(path: temporary, operation: "write", code: code)
            }
            written += result
        }
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            unlink(temporary)
            throw FileError(path: temporary, operation: "fsync", code: code)
        }
        close(fd)
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw FileError(path: path, operation: "rename", code: code)
        }
        syncDirectory(of: path)
    }

    /// Renames `path` to a free name `path.SUFFIX[-N]` and returns that name. Used to keep a bad or
    /// replaced file instead of overwriting it.
    public static func setAside(_ path: String, suffix: String) throws(FileError) -> String {
        var candidate = "\(path).\(suffix)"
        var attempt = 1
        while exists(candidate) {
            attempt += 1
            candidate = "\(path).\(suffix)-\(attempt)"
        }
        guard rename(path, candidate) == 0 else { throw FileError(path: path, operation: "rename", code: errno) }
        syncDirectory(of: path)
        return candidate
    }

    /// Copies `path` to a free name `path.SUFFIX[-N]` and returns that name.
    public static func copyAside(_ path: String, suffix: String) throws(FileError) -> String {
        var candidate = "\(path).\(suffix)"
        var attempt = 1
        while exists(candidate) {
            attempt += 1
            candidate = "\(path).\(suffix)-\(attempt)"
        }
        try replaceAtomically(candidate, with: try read(path))
        return candidate
    }

    /// Creates `path` and its parents (`mkdir -p`).
    public static func createDirectory(_ path: String) throws(FileError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/\(component)"
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw FileError(path: current, operation: "mkdir", code: errno)
            }
        }
    }

    private static func syncDirectory(of path: String) {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let fd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
