import Foundation
import Synchronization

/// Monotonic nanoseconds.
func nowNanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Milliseconds since 1970, the clock batches are stamped with.
func wallMillis() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

enum ProcFS {
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// utime + stime of a process, in clock ticks.
    static func cpuTicks(pid: pid_t) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime field 14, stime field 15.
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        return user + system
    }

    /// utime + stime of a process and of its children (PostgreSQL's backends under the
    /// postmaster), in clock ticks; children that ended in between are not counted.
    static func treeCPUTicks(root: pid_t) -> UInt64 {
        var total = cpuTicks(pid: root) ?? 0
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry), pid != root,
                  let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { continue }
            let fields = text[text.index(after: close)...].split(separator: " ")
            // Field 4 is the parent's pid.
            guard fields.count > 12, pid_t(fields[1]) == root, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { continue }
            total += user + system
        }
        return total
    }

    /// VmRSS of a process, in kB.
    static func residentKB(pid: pid_t) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return UInt64(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// `write_bytes` of /proc/<pid>/io: what the process caused to be written to storage (its
    /// files and, for SQLite, the log and the checkpoints), whichever thread wrote it.
    static func writtenBytes(pid: pid_t) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
            return UInt64(line.dropFirst(12).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// The whole machine's busy and total clock ticks (all cores), from /proc/stat.
    static func machineTicks() -> (busy: UInt64, total: UInt64)? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
        let values = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
        guard values.count == 8 else { return nil }
        let total = values.reduce(0, +)
        return (total - values[3] - values[4], total)
    }

    /// This process's own CPU (user + system), in seconds.
    static func selfCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// Raises the open-file limit to the hard limit; children inherit it.
func raiseOpenFileLimit() -> UInt64 {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    return UInt64(limit.rlim_cur)
}

func percentile(_ sorted: [UInt32], _ p: Double) -> Double? {
    guard !sorted.isEmpty else { return nil }
    let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))
    return Double(sorted[index]) / 1000  // µs → ms
}

/// The server under test: spawned with its output in files, stopped with SIGTERM and, after a
/// bound, SIGKILL.
final class ServerUnderTest: @unchecked Sendable {
    let pid: pid_t
    let port: Int
    let logDirectory: String
    private var reaped = false

    private init(pid: pid_t, port: Int, logDirectory: String) {
        self.pid = pid
        self.port = port
        self.logDirectory = logDirectory
    }

    static func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ServerUnderTest {
        let logs = makeTemporaryDirectory("touchschool-load-logs")
        let outputPath = "\(logs)/out", errorPath = "\(logs)/err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw LoadError("cannot run \(arguments[0]): \(String(cString: strerror(result)))") }
        let deadline = nowNanos() + 60_000_000_000
        while nowNanos() < deadline {
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            if let range = output.range(of: "listening on http://127.0.0.1:") {
                let digits = output[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), output[range.upperBound...].dropFirst(digits.count).first != nil {
                    return ServerUnderTest(pid: pid, port: port, logDirectory: logs)
                }
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
                throw LoadError("the server ended before listening: \(errors)")
            }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        throw LoadError("the server did not say where it listens within 60 s")
    }

    var errors: String { (try? String(contentsOfFile: "\(logDirectory)/err", encoding: .utf8)) ?? "" }

    /// SIGTERM, then SIGKILL if it has not ended within `timeout` seconds; reaps it. Returns how
    /// it ended (exit status, or 128 + signal).
    @discardableResult
    func stop(timeout: Double = 15) -> Int32 {
        guard !reaped else { return 0 }
        reaped = true
        kill(pid, SIGTERM)
        let deadline = nowNanos() + UInt64(timeout * 1e9)
        var status: Int32 = 0
        while nowNanos() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return 128 + SIGKILL
    }
}

struct LoadError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func makeTemporaryDirectory(_ prefix: String) -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}

/// A plain HTTP/1.1 GET on loopback (the scores for the loss check); the body, or nil.
func httpGet(port: Int, path: String, timeoutSeconds: Int = 10) -> String? {
    httpRequest("GET", port: port, path: path, timeoutSeconds: timeoutSeconds)
}

/// A request with `headers` (lines without their CRLF); the body of a 200 answer, else nil.
func httpRequest(_ method: String, port: Int, path: String, headers: [String] = [], timeoutSeconds: Int = 10) -> String? {
    guard let (status, body) = httpExchange(method, port: port, path: path, headers: headers, timeoutSeconds: timeoutSeconds),
          status == 200 else { return nil }
    return body
}

/// A request from `source` (a loopback address of this machine, which the server sees as the
/// client's; nil: 127.0.0.1); the status and body, nil when no answer came.
func httpExchange(_ method: String, port: Int, path: String, headers: [String] = [], timeoutSeconds: Int = 10,
                  source: String? = nil) -> (status: Int, body: String)? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    if let source {
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { return nil }
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return nil }
    let extra = headers.map { $0 + "\r\n" }.joined()
    let request = Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\n\(extra)\r\n".utf8)
    guard request.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == request.count else { return nil }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        response.append(contentsOf: buffer[0..<count])
    }
    let text = String(decoding: response, as: UTF8.self)
    guard text.hasPrefix("HTTP/1.1 "), let status = Int(text.dropFirst(9).prefix(3)), let split = text.range(of: "\r\n\r\n") else { return nil }
    return (status, String(text[split.upperBound...]))
}

/// PostgreSQL's own counts: transactions committed and rows written to the battle's tables.
struct PostgresStats {
    var commits: UInt64
    var rows: UInt64

    static func read(url: String) -> PostgresStats? {
        let sql = """
            SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) || ' ' ||
                   (SELECT coalesce(sum(n_tup_ins + n_tup_upd), 0) FROM pg_stat_user_tables
                    WHERE relname IN ('touchschool_devices', 'touchschool_scores', 'touchschool_board'))
            """
        // Statistics reach the views when a backend reports them: ask for a fresh snapshot.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", "-A", "-t", url, "-c", "SELECT pg_stat_clear_snapshot()", "-c", sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last ?? ""
        let parts = line.split(separator: " ").compactMap { UInt64($0) }
        guard parts.count == 2 else { return nil }
        return PostgresStats(commits: parts[0], rows: parts[1])
    }
}

/// A board stream read on a thread of its own (`--map`: a projector beside the players): the
/// bytes it receives in the run's window, and of those its `map` events' (`event: map` and its
/// data line).
final class BoardStreamReader: Sendable {
    struct Counts { var bytes = 0, mapBytes = 0, mapEvents = 0 }
    private let counts = Mutex(Counts())
    private let done = Atomic<Bool>(false)
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    static func start(port: Int, path: String, run: Run) -> BoardStreamReader? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        guard connected == 0, request.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == request.count else {
            close(fd)
            return nil
        }
        let reader = BoardStreamReader(fd: fd)
        Thread.detachNewThread { reader.read(run: run) }
        return reader
    }

    private func read(run: Run) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var line: [UInt8] = []
        var inMapEvent = false
        while !done.load(ordering: .relaxed) {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 { continue }
            let inWindow = run.inWindow(nowNanos())
            for byte in buffer[0..<count] {
                line.append(byte)
                guard byte == UInt8(ascii: "\n") else { continue }
                let text = String(decoding: line, as: UTF8.self)
                if text.hasPrefix("event: ") { inMapEvent = text == "event: map\n" }
                if inWindow {
                    counts.withLock { counts in
                        counts.bytes += line.count
                        if inMapEvent { counts.mapBytes += line.count }
                        if inMapEvent, text.hasPrefix("data: ") { counts.mapEvents += 1 }
                    }
                }
                if text == "\n" { inMapEvent = false }
                line.removeAll(keepingCapacity: true)
            }
        }
        close(fd)
    }

    /// Stops reading; what it read in the window.
    func stop() -> Counts {
        done.store(true, ordering: .relaxed)
        shutdown(fd, Int32(SHUT_RDWR))
        return counts.withLock { $0 }
    }
}
