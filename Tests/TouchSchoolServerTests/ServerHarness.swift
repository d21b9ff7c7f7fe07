import AsyncHTTPClient
import Foundation
import TouchSchoolTestSupport
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import TouchSchoolProtocol

/// A real `touchschool serve` process on loopback with a free port, started beside the test
/// bundle; killed (SIGKILL) and reaped by `stop()` unless it already ended.
final class ServerProcess: @unchecked Sendable {
    static let binary: String = {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("touchschool").path
    }()

    let pid: pid_t
    let port: Int
    let dataDirectory: String
    let outputPath: String
    let errorPath: String
    private var reaped: Int32?

    private init(pid: pid_t, port: Int, dataDirectory: String, outputPath: String, errorPath: String) {
        self.pid = pid
        self.port = port
        self.dataDirectory = dataDirectory
        self.outputPath = outputPath
        self.errorPath = errorPath
    }

    /// Starts a server on `dataDirectory` (a new one by default) and waits for its line
    /// "listening on http://127.0.0.1:PORT" (or, with `--host 0.0.0.0`, "listening on every
    /// interface, port PORT").
    static func start(dataDirectory: String? = nil, arguments: [String] = [], environment: [String: String] = [:],
                      openFiles: (soft: Int, hard: Int)? = nil) throws -> ServerProcess {
        try launch(dataDirectory: dataDirectory, arguments: arguments, environment: environment, openFiles: openFiles).listening()
    }

    /// A server started but not yet listening: several can start at once.
    struct Launched {
        let pid: pid_t
        let directory: String
        let outputPath: String
        let errorPath: String

        /// Waits for its line "listening on http://127.0.0.1:PORT".
        func listening() throws -> ServerProcess {
            try ServerProcess.waitForListening(pid: pid, directory: directory, outputPath: outputPath, errorPath: errorPath)
        }
    }

    /// Starts a server without waiting for it. The environment's DATABASE_URL is not passed on:
    /// a server uses PostgreSQL only when a test says so (`--postgres`). `openFiles`: the
    /// server's limits on open files, set by util-linux's prlimit, which then runs the server
    /// in its own place (the pid is the server's).
    static func launch(dataDirectory: String? = nil, arguments: [String] = [], environment extra: [String: String] = [:],
                       openFiles: (soft: Int, hard: Int)? = nil) throws -> Launched {
        let directory = dataDirectory ?? makeTemporaryDirectory()
        let logs = makeTemporaryDirectory()
        let outputPath = "\(logs)/out", errorPath = "\(logs)/err"
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_LEVEL"] = "debug"
        environment["DATABASE_URL"] = nil
        environment.merge(extra) { $1 }
        var command = [binary, "serve", "--port", "0", "--data-dir", directory] + arguments
        if let openFiles { command = ["/usr/bin/prlimit", "--nofile=\(openFiles.soft):\(openFiles.hard)", "--"] + command }
        switch Subprocess.start(command[0], Array(command.dropFirst()), environment: environment,
                                outputPath: outputPath, errorPath: errorPath) {
        case let .success(pid): return Launched(pid: pid, directory: directory, outputPath: outputPath, errorPath: errorPath)
        case let .failure(failure): throw HarnessError(failure.description)
        }
    }

    private static func waitForListening(pid: pid_t, directory: String, outputPath: String, errorPath: String) throws -> ServerProcess {
        // Wait for the line with the port.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            if let range = output.range(of: "listening on http://127.0.0.1:") ?? output.range(of: "listening on every interface, port ") {
                let digits = output[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), output[range.upperBound...].dropFirst(digits.count).first == " " {
                    return ServerProcess(pid: pid, port: port, dataDirectory: directory, outputPath: outputPath, errorPath: errorPath)
                }
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
                throw HarnessError("the server ended before listening: \(errors)")
            }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        throw HarnessError("the server did not say where it listens within 30 s")
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var playURL: String { "ws://127.0.0.1:\(port)\(PlayProtocol.playPath)" }
    var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    func signal(_ signal: Int32) { if reaped == nil { kill(pid, signal) } }

    /// Waits for the process to end; its exit status, or 128 + the signal; nil if still running
    /// after `timeout` seconds.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        if let reaped { return reaped }
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
                reaped = code
                return code
            }
            usleep(10_000)
        } while Date() < deadline
        return nil
    }

    /// Kills and reaps the process if it still runs.
    func stop() {
        guard reaped == nil else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        reaped = 128 + SIGKILL
    }

    deinit { stop() }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Polls `condition` every 50 ms until it holds or `timeout` seconds pass; whether it held.
func eventually(_ what: String, timeout: TimeInterval = 30, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if (try? await condition()) == true { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return false
}

/// A new directory for one test's files, inside `testProcessDirectory`.
func makeTemporaryDirectory() -> String {
    var template = Array("\(testProcessDirectory)/XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}

/// Where this test process keeps its tests' directories, removed with everything in it when the
/// process exits: servers' data, backups and clients' folders are read back after a test's
/// processes end (and in its failure messages), so they go at the end rather than with each test.
let testProcessDirectory: String = {
    var template = Array("/tmp/touchschool-server-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    atexit { try? FileManager.default.removeItem(atPath: testProcessDirectory) }
    return path
}()

/// A player's connection speaking the protocol: what the server sent, kept in order, and how
/// the server closed it.
final class TestPlayer: Sendable {
    private struct State {
        var messages: [ServerMessage] = []
        var undecodable: [String] = []
        var writer: WebSocketOutboundWriter?
        var closeFrame: WebSocketCloseFrame?
        var ended = false
        var failure: String?
    }
    private let state = Mutex(State())
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    static func connect(to server: ServerProcess) async throws -> TestPlayer {
        try await connect(url: server.playURL)
    }

    static func connect(url: String) async throws -> TestPlayer {
        let player = TestPlayer()
        // On threads of its own: a reader on the cooperative pool waits behind whatever
        // synchronous test holds the pool's two threads, and misses the server's deadlines.
        let task = Task(executorPreference: ThreadPerJobExecutor.shared) {
            do {
                let frame = try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 22),
                                                              logger: Logger(label: "test-player")) { inbound, outbound, _ in
                    player.state.withLock { $0.writer = outbound }
                    for try await message in inbound.messages(maxSize: PlayProtocol.maximumServerMessageBytes) {
                        guard case let .text(text) = message else { continue }
                        do {
                            let decoded = try MessageCoding.decodeServer(text)
                            player.state.withLock { $0.messages.append(decoded) }
                        } catch {
                            player.state.withLock { $0.undecodable.append(text) }
                        }
                    }
                }
                player.state.withLock {
                    $0.closeFrame = frame
                    $0.ended = true
                }
            } catch {
                player.state.withLock {
                    $0.failure = "\(error)"
                    $0.ended = true
                }
            }
        }
        player.task.withLock { $0 = task }
        try await player.waitUntil(timeout: 30, "connected") { $0.writer != nil || $0.ended }
        if let failure = player.state.withLock({ $0.failure }) { throw HarnessError("cannot connect: \(failure)") }
        return player
    }

    /// Connects and says hello; returns the player and the welcome.
    /// The server closes a connection whose hello comes later than `PlayProtocol.helloTimeoutSeconds`
    /// (its own test checks that). At the start of a run, when the synchronous tmux suites hold both
    /// of the test process's cooperative threads, this process can be that late between connecting
    /// and saying hello: then it connects again, at most three times in all. Any other failure is
    /// the test's.
    static func join(_ server: ServerProcess, device: TestDevice, client: ClientKind? = nil) async throws -> (TestPlayer, Welcome) {
        for attempt in 1... {
            let player = try await connect(to: server)
            do {
                try await player.send(.hello(Hello(device: device.key, player: device.name, client: client)))
                let welcome = try await player.next("welcome") { if case let .welcome(welcome) = $0 { welcome } else { nil } }
                return (player, welcome)
            } catch {
                let helloWasLate = player.errorMessages.contains { $0.message.hasPrefix("no hello within") }
                    || (player.ended && player.messages.isEmpty)
                guard attempt < 3, helloWasLate else { throw error }
                await player.close()
            }
        }
        fatalError("unreachable")
    }

    func send(_ message: ClientMessage) async throws { try await sendText(MessageCoding.encode(message)) }

    func sendText(_ text: String) async throws {
        guard let writer = state.withLock({ $0.writer }) else { throw HarnessError("not connected") }
        try await writer.write(.text(text))
    }

    /// One text message sent as frames of `fragmentBytes` each.
    func sendFragmented(_ text: String, fragmentBytes: Int) async throws {
        guard let writer = state.withLock({ $0.writer }) else { throw HarnessError("not connected") }
        let bytes = Array(text.utf8)
        do {
            try await writer.withTextMessageWriter { write in
                for start in stride(from: 0, to: bytes.count, by: fragmentBytes) {
                    try await write(String(decoding: bytes[start..<min(start + fragmentBytes, bytes.count)], as: UTF8.self))
                }
            }
        } catch {
            // A server that closes the connection at its limit, before the last fragment, is
            // what an oversized message should meet: the caller checks the close code.
        }
    }

    func sendBinary(_ bytes: [UInt8]) async throws {
        guard let writer = state.withLock({ $0.writer }) else { throw HarnessError("not connected") }
        try await writer.write(.binary(ByteBuffer(bytes: bytes)))
    }

    var messages: [ServerMessage] { state.withLock { $0.messages } }
    var ended: Bool { state.withLock { $0.ended } }
    var closeCode: UInt16? {
        state.withLock { state in state.closeFrame.map { frame in UInt16(truncatingIfNeeded: Self.code(frame.closeCode)) } }
    }
    var errorMessages: [ProtocolError] { messages.compactMap { if case let .error(error) = $0 { error } else { nil } } }
    var acks: [Acknowledgement] { messages.compactMap { if case let .ack(ack) = $0 { ack } else { nil } } }

    /// The first message (in order) that `match` takes, waiting up to `timeout` seconds.
    /// The waits are generous: other suites' synchronous tests (tmux) may hold both threads of
    /// the test process's cooperative pool for seconds, so a wait measures the machine, not the
    /// server. How fast the server is, BENCHMARKS.md measures (`Benchmarks/load.sh`).
    func next<T>(_ what: String, timeout: TimeInterval = 20, after index: Int = 0, _ match: @escaping (ServerMessage) -> T?) async throws -> T {
        var found: T?
        try await waitUntil(timeout: timeout, what) { state in
            found = state.messages.dropFirst(index).lazy.compactMap(match).first
            return found != nil
        }
        return found!
    }

    func ack(_ seq: UInt64, timeout: TimeInterval = 20) async throws -> Acknowledgement {
        try await next("ack \(seq)", timeout: timeout) { if case let .ack(ack) = $0, ack.seq == seq { ack } else { nil } }
    }

    /// Waits for the server to close this connection; its close code.
    func closed(timeout: TimeInterval = 20) async throws -> UInt16? {
        try await waitUntil(timeout: timeout, "the close") { $0.ended }
        return closeCode
    }

    /// Closes the connection; gives up waiting for the server's side after a few seconds (the
    /// client task is cancelled then).
    func close() async {
        if let writer = state.withLock({ $0.writer }), !ended {
            try? await writer.close(.normalClosure, reason: "bye")
        }
        if (try? await waitUntil(timeout: 20, "the end of the connection", { $0.ended })) == nil {
            task.withLock { $0 }?.cancel()
        }
    }

    private func waitUntil(timeout: TimeInterval, _ what: String, _ condition: (State) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if state.withLock({ condition($0) }) { return }
            guard Date() < deadline else {
                let (messages, ended) = state.withLock { ($0.messages, $0.ended) }
                throw HarnessError("no \(what) within \(timeout) s (ended: \(ended); received: \(messages.map { "\($0)".prefix(200) }))")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private static func code(_ code: WebSocketErrorCode) -> Int {
        switch code {
        case .normalClosure: 1000
        case .goingAway: 1001
        case .protocolError: 1002
        case .unacceptableData: 1003
        case .dataInconsistentWithMessage: 1007
        case .policyViolation: 1008
        case .messageTooLarge: 1009
        case .missingExtension: 1010
        case .unexpectedServerError: 1011
        case let .unknown(value): Int(value)
        }
    }
}

/// One installation: its device key, name and the batches it numbers, with claimed times that
/// follow each other at a human pace.
final class TestDevice: @unchecked Sendable {
    let key: String
    let name: String
    private(set) var seq: UInt64 = 0
    private var lastEndMs: Int64 = 0

    init(name: String) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        key = String((0..<43).map { _ in alphabet.randomElement()! })
        self.name = name
    }

    static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// The next batch: `taps` for `school` over `durationMs`, starting where the last one ended
    /// (or three seconds ago at the earliest).
    func batch(_ school: String, taps: UInt64, durationMs: Int64 = 250, switchTo: Bool = false) -> TapBatch {
        seq += 1
        let start = max(lastEndMs, Self.nowMs() - 3_000)
        lastEndMs = start + durationMs
        return TapBatch(seq: seq, taps: [school: taps], playerTaps: taps, switchedToSchool: switchTo ? school : nil, bestTapsPerSecond: 8,
                        startMs: start, endMs: lastEndMs)
    }

    /// The next batch: `taps` for several schools over `durationMs`, none of them the player's own.
    func batch(_ taps: [String: UInt64], durationMs: Int64) -> TapBatch {
        seq += 1
        let start = max(lastEndMs, Self.nowMs() - 3_000)
        lastEndMs = start + durationMs
        return TapBatch(seq: seq, taps: taps, playerTaps: 0, bestTapsPerSecond: 8, startMs: start, endMs: lastEndMs)
    }
}

enum HTTP {
    static func get(_ url: String, headers: [(String, String)] = []) async throws -> (status: UInt, headers: [(String, String)], body: String) {
        try await send("GET", url, headers: headers)
    }

    static func post(_ url: String, headers: [(String, String)] = []) async throws -> (status: UInt, headers: [(String, String)], body: String) {
        try await send("POST", url, headers: headers)
    }

    static func send(_ method: String, _ url: String, headers: [(String, String)]) async throws -> (status: UInt, headers: [(String, String)], body: String) {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        var body = try await response.body.collect(upTo: 8 << 20)
        let text = body.readString(length: body.readableBytes) ?? ""
        return (response.status.code, response.headers.map { ($0.name, $0.value) }, text)
    }

    static func scores(_ server: ServerProcess) async throws -> Board {
        let response = try await get("\(server.baseURL)/v1/scores")
        return try JSONDecoder().decode(Board.self, from: Data(response.body.utf8))
    }

    /// `GET /v1/battle`: the battle the server serves.
    static func battle(_ server: ServerProcess) async throws -> String {
        let response = try await get("\(server.baseURL)\(PlayProtocol.battlePath)")
        guard response.status == 200 else { throw HarnessError("GET \(PlayProtocol.battlePath): HTTP \(response.status)") }
        return try JSONDecoder().decode(BattleIdentity.self, from: Data(response.body.utf8)).battle
    }
}
