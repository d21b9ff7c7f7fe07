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
    /// The cause first ("No space left on device"), then where: the cause is what a player acts on.
    public var description: String { "\(String(cString: strerror(code))) (\(operation) \(path))" }

    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// No such file, or a path through something that is not a directory: nothing saved there.
    public var isMissing: Bool { code == ENOENT || code == ENOTDIR }
}

/// The system calls behind `FileSystem.live`.
public enum FileIO {
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The absolute path with every symbolic link, `.` and `..` resolved; nil if it does not exist.
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The whole file, at most `limit` bytes: more is `EFBIG`, read no further.
    public static func read(_ path: String, limit: Int = .max) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, operation: "open", code: errno) }
        defer { close(fd) }
        var info = stat()
        // Read straight into an array of the file's size (plus one byte, to see the end in the same
        // pass): the catalog is read at the start of every command, and copying it from a chunk
        // buffer cost a second pass and twice the page faults.
        let regularSize = fstat(fd, &info) == 0 && info.st_size > 0 ? Int(info.st_size) : 0
        if regularSize > limit { throw FileError(path: path, operation: "read", code: EFBIG) }
        var capacity = regularSize > 0 ? regularSize + 1 : 1 << 16
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
            if result.count > limit { throw FileError(path: path, operation: "read", code: EFBIG) }
            // Stopped before filling the buffer: the end of the file.
            if result.count < capacity { return result }
            capacity = min(capacity * 2, limit == .max ? .max : limit + 1)
        }
    }

    public static func stamp(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                         modifiedSeconds: Int(info.st_mtim.tv_sec), modifiedNanoseconds: Int(info.st_mtim.tv_nsec))
    }

    public static func writeDurably(_ path: String, _ bytes: [UInt8]) throws(FileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: path, operation: "create", code: errno) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "write", code: errno)
            }
            written += result
        }
        guard fsync(fd) == 0 else { throw FileError(path: path, operation: "fsync", code: errno) }
    }

    /// Asks the kernel to drop the file's pages from the page cache (they are on the disk: call
    /// after `writeDurably`). A file just written sits in the cache in large folios, and a
    /// mapping of it then maps whole folios on the first touch of any page in them; read back from
    /// the disk under `MADV_RANDOM`, only the pages touched come in (BENCHMARKS.md, "Peak memory").
    /// Only advice: nothing is lost when the kernel ignores it.
    public static func dropFromPageCache(_ path: String) {
        #if os(Linux)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
        #endif
    }

    public static func rename(_ from: String, _ to: String) throws(FileError) {
        guard Glibc.rename(from, to) == 0 else { throw FileError(path: to, operation: "rename", code: errno) }
        let directory = split(to).directory
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    public static func list(_ directory: String) -> [String] {
        guard let listing = opendir(directory) else { return [] }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
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

    /// `flock(LOCK_EX)` on a lock file of its own: the data files are replaced by rename, and a
    /// lock on one of them would guard the old inode. Closing the descriptor releases the lock,
    /// which the system also does when the process dies, however it dies. Without `wait`, nil
    /// when another process holds it.
    public static func lock(_ path: String, wait: Bool) throws(FileError) -> HeldLock? {
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        // A lock file that exists in a directory we may not write to still locks, opened to read.
        let creating = errno
        if descriptor < 0 { descriptor = open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            // Missing and not creatable: why it could not be created is the cause to report.
            throw FileError(path: path, operation: "create the lock file", code: errno == ENOENT ? creating : errno)
        }
        while flock(descriptor, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw FileError(path: path, operation: "lock", code: code)
        }
        let held = descriptor
        return HeldLock { close(held) }
    }

    /// `/a/b/c.json` → (`/a/b`, `c.json`); a bare name is in `.`.
    public static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
