import Foundation

/// A real `touchschool serve` process (the program beside the test bundle), for what needs one:
/// signals, kill -9 and restarts, several servers on one PostgreSQL, SSH, and the games under tmux
/// and the browser that connect to it. Everything else runs the server in process
/// (`InProcessServer` in the server's tests). It listens on `host` (loopback by default) on a free
/// port, logs at debug level; its output and its log are kept in files in `folder`. `stop()` ends
/// it, and so does its deinit: every process a test starts is gone when the test ends.
public final class ServerProcess: @unchecked Sendable {
    /// `touchschool` beside the test bundle.
    public static let binary: String = {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("touchschool").path
    }()

    public let dataDirectory: String
    /// The server's own files: its output and its log (and what a test keeps beside them).
    public let folder: String
    /// `--host`, when the test gives one (the server's default is loopback).
    public let host: String?
    /// Where it listens: the port it chose at its first start, and kept for a restart.
    public private(set) var port: Int
    /// With `--ssh-port`: the port its SSH listens on, as its greeting says.
    public private(set) var sshPort: Int?
    public private(set) var pid: pid_t
    private let arguments: [String]
    private let environment: [String: String]
    private let openFiles: (soft: Int, hard: Int)?
    /// Its exit status once reaped: the status, or 128 + the signal.
    private var exitStatus: Int32?

    public var outputPath: String { "\(folder)/out" }
    public var errorPath: String { "\(folder)/err" }
    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// Its log (standard error).
    public var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
    /// Everything it printed: its output, then its log.
    public var printed: String { output + errors }
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts a server on `dataDirectory` (a new one by default) and waits until it listens.
    public static func start(dataDirectory: String? = nil, host: String? = nil, port: Int = 0, arguments: [String] = [],
                             environment: [String: String] = [:], openFiles: (soft: Int, hard: Int)? = nil) throws -> ServerProcess {
        try launch(dataDirectory: dataDirectory, host: host, port: port, arguments: arguments, environment: environment,
                   openFiles: openFiles).listening()
    }

    /// Starts a server without waiting for it to listen (`listening()`): several can start at
    /// once, and a start that must fail can be watched failing. The environment's DATABASE_URL is
    /// not passed on: a server uses PostgreSQL only when a test says so (`--postgres`).
    /// `openFiles`: the server's limits on open files, set by util-linux's prlimit, which then runs
    /// the server in its own place (the pid is the server's).
    public static func launch(dataDirectory: String? = nil, host: String? = nil, port: Int = 0, arguments: [String] = [],
                              environment: [String: String] = [:], openFiles: (soft: Int, hard: Int)? = nil) throws -> ServerProcess {
        let server = ServerProcess(dataDirectory: dataDirectory ?? TemporaryDirectory().path, host: host, port: port,
                                   arguments: arguments, environment: environment, openFiles: openFiles)
        try server.spawn()
        return server
    }

    private init(dataDirectory: String, host: String?, port: Int, arguments: [String], environment: [String: String],
                 openFiles: (soft: Int, hard: Int)?) {
        self.dataDirectory = dataDirectory
        folder = TemporaryDirectory().path
        self.host = host
        self.port = port
        self.arguments = arguments
        self.environment = environment
        self.openFiles = openFiles
        pid = 0
    }

    private func spawn() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_LEVEL"] = "debug"
        environment["DATABASE_URL"] = nil
        environment.merge(self.environment) { $1 }
        var command = [Self.binary, "serve"] + (host.map { ["--host", $0] } ?? []) + ["--port", "\(port)", "--data-dir", dataDirectory] + arguments
        if let openFiles { command = ["/usr/bin/prlimit", "--nofile=\(openFiles.soft):\(openFiles.hard)", "--"] + command }
        switch Subprocess.start(command[0], Array(command.dropFirst()), environment: environment, outputPath: outputPath, errorPath: errorPath) {
        case let .success(pid):
            self.pid = pid
            exitStatus = nil
        case let .failure(failure): throw Failure(description: failure.description)
        }
    }

    /// Waits for its line "listening on http://127.0.0.1:PORT" (or, on every interface, "listening
    /// on every interface, port PORT"), printed once HTTP and SSH (with `--ssh-port`) both listen.
    /// A server that ends first, or says nothing within 30 s, is a failure with its log.
    @discardableResult
    public func listening() throws -> ServerProcess {
        var found: (port: Int, ssh: Int?)?
        let listens = Wait.untilBlocking(timeout: 30) {
            found = Self.listeningPorts(in: output)
            return found != nil || waitForExit(timeout: 0) != nil
        }
        if let found {
            port = found.port
            sshPort = found.ssh
            return self
        }
        if listens { throw Failure(description: "the server ended before listening: \(errors)") }
        stop()
        throw Failure(description: "the server did not say where it listens within 30 s: \(errors)")
    }

    /// Starts it again, on its port and data directory, after `kill9()` or `stop()`, and waits
    /// until it listens.
    public func restart() throws {
        try spawn()
        try listening()
    }

    /// The port of its listening line, and of the `ssh -p PORT` its greeting lists.
    static func listeningPorts(in output: String) -> (port: Int, ssh: Int?)? {
        guard let range = output.range(of: "listening on http://127.0.0.1:") ?? output.range(of: "listening on every interface, port ") else { return nil }
        let digits = output[range.upperBound...].prefix { $0.isNumber }
        guard let port = Int(digits), output[range.upperBound...].dropFirst(digits.count).first == " " else { return nil }
        let ssh = output.range(of: "ssh -p ").flatMap { Int(output[$0.upperBound...].prefix { $0.isNumber }) }
        return (port, ssh)
    }

    public func signal(_ signal: Int32) { if pid > 0, exitStatus == nil { kill(pid, signal) } }

    /// Waits for the process to end; its exit status, or 128 + the signal; nil if still running
    /// after `timeout` seconds.
    public func waitForExit(timeout: TimeInterval) -> Int32? {
        _ = Wait.untilBlocking(timeout: timeout, every: .milliseconds(10)) { reaped(blocking: false) }
        return exitStatus
    }

    /// kill -9, and waits until it is gone.
    public func kill9() {
        signal(SIGKILL)
        _ = reaped(blocking: true)
    }

    /// Ends it as an operator does: SIGTERM, then SIGKILL if it still runs after five seconds;
    /// waits until it is gone.
    public func stop() {
        signal(SIGTERM)
        if waitForExit(timeout: 5) == nil { kill9() }
    }

    /// Whether it has ended (reaped now, or before).
    private func reaped(blocking: Bool) -> Bool {
        guard pid > 0, exitStatus == nil else { return true }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return false }
        exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return true
    }

    deinit { stop() }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }
}
