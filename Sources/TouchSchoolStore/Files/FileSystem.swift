#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCore

/// What one `stat` says about a version of a file. Every save replaces a file by rename, which
/// gives it a new inode; inodes are reused, so size and modification time are compared too.
public struct FileStamp: Equatable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int

    public init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }
}

/// An exclusive lock held on a lock file; released by `release()` or when the process dies.
public struct HeldLock: Sendable {
    public let release: @Sendable () -> Void
    public init(release: @escaping @Sendable () -> Void) { self.release = release }
}

/// The file system as the stores see it: a value, so that tests can make a full disk, a stuck
/// lock or a slow fsync by replacing one operation, without root and without a real fault.
/// `live` is the real one; every store takes one of these instead of calling the system.
public struct FileSystem: Sendable {
    /// The whole file; more than `limit` bytes is an error (`EFBIG`), so that `/dev/zero` or a
    /// wrong file cannot exhaust memory.
    public var read: @Sendable (_ path: String, _ limit: Int) throws(FileError) -> [UInt8]
    public var exists: @Sendable (_ path: String) -> Bool
    public var stamp: @Sendable (_ path: String) -> FileStamp?
    /// Creates or truncates `path`, writes `bytes`, and flushes them to the disk (fsync).
    public var writeDurably: @Sendable (_ path: String, _ bytes: [UInt8]) throws(FileError) -> Void
    /// `rename(2)`, then a flush of the directory so that the new name survives a crash.
    public var rename: @Sendable (_ from: String, _ to: String) throws(FileError) -> Void
    public var remove: @Sendable (_ path: String) -> Void
    /// Names in a directory, `.` and `..` left out; empty when it cannot be read.
    public var list: @Sendable (_ directory: String) -> [String]
    /// `mkdir -p`.
    public var createDirectory: @Sendable (_ path: String) throws(FileError) -> Void
    /// Tries once, without waiting, to take the exclusive lock of the lock file `path` (created if
    /// missing). nil: another process holds it. `readOnly` is set in the error's code `EROFS`/`EACCES`
    /// when the lock file cannot be created.
    public var tryLock: @Sendable (_ path: String) throws(FileError) -> HeldLock?
    /// Takes the exclusive lock of the lock file `path`, waiting in line for as long as another
    /// process holds it: only for a thread that nothing waits on (a game's saving thread).
    public var waitForLock: @Sendable (_ path: String) throws(FileError) -> HeldLock

    public init(
        read: @escaping @Sendable (String, Int) throws(FileError) -> [UInt8],
        exists: @escaping @Sendable (String) -> Bool,
        stamp: @escaping @Sendable (String) -> FileStamp?,
        writeDurably: @escaping @Sendable (String, [UInt8]) throws(FileError) -> Void,
        rename: @escaping @Sendable (String, String) throws(FileError) -> Void,
        remove: @escaping @Sendable (String) -> Void,
        list: @escaping @Sendable (String) -> [String],
        createDirectory: @escaping @Sendable (String) throws(FileError) -> Void,
        tryLock: @escaping @Sendable (String) throws(FileError) -> HeldLock?,
        waitForLock: @escaping @Sendable (String) throws(FileError) -> HeldLock
    ) {
        self.read = read
        self.exists = exists
        self.stamp = stamp
        self.writeDurably = writeDurably
        self.rename = rename
        self.remove = remove
        self.list = list
        self.createDirectory = createDirectory
        self.tryLock = tryLock
        self.waitForLock = waitForLock
    }

    /// The real file system.
    public static let live = FileSystem(
        read: { (path, limit) throws(FileError) in try FileIO.read(path, limit: limit) },
        exists: { FileIO.exists($0) },
        stamp: { FileIO.stamp($0) },
        writeDurably: { (path, bytes) throws(FileError) in try FileIO.writeDurably(path, bytes) },
        rename: { (from, to) throws(FileError) in try FileIO.rename(from, to) },
        remove: { unlink($0) },
        list: { FileIO.list($0) },
        createDirectory: { (path) throws(FileError) in try FileIO.createDirectory(path) },
        tryLock: { (path) throws(FileError) in try FileIO.lock(path, wait: false) },
        waitForLock: { (path) throws(FileError) in try FileIO.lock(path, wait: true)! }
    )

    // MARK: - Built from the operations above

    /// Writes `bytes` beside `path`, flushed, then renames over `path`: a reader, or a kill at any
    /// moment, sees the old file or the new one, never a mix. The temporary name carries the
    /// process id; one left by a killed process is removed by `removeTemporaries(of:)`.
    public func replaceAtomically(_ path: String, with bytes: [UInt8]) throws(FileError) {
        let temporary = "\(path).tmp-\(getpid())"
        do {
            try writeDurably(temporary, bytes)
            try rename(temporary, path)
        } catch {
            remove(temporary)
            throw error
        }
    }

    /// Removes `path.tmp-*` left by writes that a kill interrupted. Only under the lock that
    /// guards `path`, where no other writer can be halfway through.
    public func removeTemporaries(of path: String) {
        let (directory, name) = FileIO.split(path)
        for entry in list(directory) where entry.hasPrefix("\(name).tmp-") {
            remove("\(directory)/\(entry)")
        }
    }

    /// A free name `path.SUFFIX[-N]`.
    public func freeName(_ path: String, suffix: String) -> String {
        var candidate = "\(path).\(suffix)"
        var attempt = 1
        while exists(candidate) {
            attempt += 1
            candidate = "\(path).\(suffix)-\(attempt)"
        }
        return candidate
    }

    /// Renames `path` to a free name `path.SUFFIX[-N]` and returns it: keeps a bad file instead
    /// of overwriting it.
    public func setAside(_ path: String, suffix: String) throws(FileError) -> String {
        let candidate = freeName(path, suffix: suffix)
        try rename(path, candidate)
        return candidate
    }

    /// Copies `bytes` (the file at `path` as read) to a free name `path.SUFFIX[-N]` and returns it.
    public func keepCopy(of path: String, bytes: [UInt8], suffix: String) throws(FileError) -> String {
        let candidate = freeName(path, suffix: suffix)
        try replaceAtomically(candidate, with: bytes)
        return candidate
    }

    /// Waits for the lock: tries, and while another process holds it, sleeps a little and tries
    /// again, up to `timeoutNanoseconds`; nil when it stayed held that long. Without a timeout,
    /// waits in line (`waitForLock`): polling is not fair, and under a stream of saves from other
    /// games a poller can starve.
    public func lock(_ path: String, clock: StoreClock, timeoutNanoseconds: Int64?) throws(FileError) -> HeldLock? {
        guard let timeoutNanoseconds else { return try waitForLock(path) }
        let deadline = clock.monotonicNanoseconds() &+ timeoutNanoseconds
        while true {
            if let held = try tryLock(path) { return held }
            if clock.monotonicNanoseconds() >= deadline { return nil }
            clock.sleep(StoreClock.lockPollNanoseconds)
        }
    }
}

/// The monotonic clock the core's `Instant`s come from (the games', the stores' waits, a batch's span).
public enum MonotonicClock {
    public static func now() -> Instant { Instant(nanoseconds: nanoseconds()) }

    /// Nanoseconds on a clock that never goes back.
    public static func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// Time as the stores see it, passed in so that tests control it.
public struct StoreClock: Sendable {
    /// Nanoseconds on a clock that never goes back.
    public var monotonicNanoseconds: @Sendable () -> Int64
    /// Seconds since 1970, for the names of kept files.
    public var wallSeconds: @Sendable () -> Int
    public var sleep: @Sendable (_ nanoseconds: Int64) -> Void

    public init(monotonicNanoseconds: @escaping @Sendable () -> Int64, wallSeconds: @escaping @Sendable () -> Int,
                sleep: @escaping @Sendable (Int64) -> Void) {
        self.monotonicNanoseconds = monotonicNanoseconds
        self.wallSeconds = wallSeconds
        self.sleep = sleep
    }

    /// How often a waiting lock is tried again: short against a lock held for one save (a few ms).
    static let lockPollNanoseconds: Int64 = 5_000_000

    public static let live = StoreClock(
        monotonicNanoseconds: MonotonicClock.nanoseconds,
        wallSeconds: { Int(time(nil)) },
        sleep: { nanoseconds in
            var remaining = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
            while true {
                var request = remaining
                guard nanosleep(&request, &remaining) != 0, errno == EINTR else { return }
            }
        }
    )

    /// UTC, `20260320T101530Z`: names kept files so that they sort by time.
    public func timestamp() -> String {
        var now = time_t(wallSeconds())
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
