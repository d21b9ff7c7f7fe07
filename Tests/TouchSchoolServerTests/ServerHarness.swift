import AsyncHTTPClient
import Foundation
import TouchSchoolTestSupport
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import TouchSchoolCore
import TouchSchoolProtocol

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

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

    static func connect(to server: some RunningServer) async throws -> TestPlayer {
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
    static func join(_ server: some RunningServer, device: TestDevice, client: ClientKind? = nil) async throws -> (TestPlayer, Welcome) {
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

    /// Watches the first page of the whole country (every school of a test catalog fits).
    func watchTheBoard() async throws {
        try await send(.watch(Watch(league: LeagueName(), from: 0, count: 100)))
    }

    /// The next page watched, from the message at `index` on, on which each school named has
    /// that total (a school not on it, 0).
    func page(_ what: String, totals: [String: UInt64], after index: Int = 0, timeout: TimeInterval = 20) async throws -> PageMessage {
        try await next(what, timeout: timeout, after: index) { message in
            guard case let .page(page) = message else { return nil }
            let shown = Dictionary(page.rows.map { ($0.school, $0.total) }, uniquingKeysWith: max)
            return totals.allSatisfy { (shown[$0.key] ?? 0) == $0.value } ? page : nil
        }
    }

    func ack(_ seq: UInt64, timeout: TimeInterval = 20) async throws -> Acknowledgement {
        try await next("ack \(seq)", timeout: timeout) { if case let .ack(ack) = $0, ack.seq == seq { ack } else { nil } }
    }

    /// The server's clock less this machine's, as a client measures it: a `ping`'s `pong`, read
    /// as made halfway through the round trip.
    func serverClockOffsetMs() async throws -> Int64 {
        let (asked, index) = (TestDevice.nowMs(), messages.count)
        try await send(.ping)
        let serverMs = try await next("a pong", after: index) { if case let .pong(nowMs?) = $0 { nowMs } else { nil } }
        return serverMs - (asked + TestDevice.nowMs()) / 2
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
        guard try await !Wait.until(timeout: timeout, every: .milliseconds(10), { state.withLock { condition($0) } }) else { return }
        let (messages, ended) = state.withLock { ($0.messages, $0.ended) }
        throw HarnessError("no \(what) within \(timeout) s (ended: \(ended); received: \(messages.map { "\($0)".prefix(200) }))")
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

    /// `GET /v1/scores`: all time's totals unless the season's are asked for (the server's default).
    static func scores(_ server: some RunningServer, period: RankingPeriod = .allTime) async throws -> Board {
        let response = try await get("\(server.baseURL)/v1/scores\(period == .allTime ? "?period=all" : "")")
        return try JSONDecoder().decode(Board.self, from: Data(response.body.utf8))
    }

    /// `GET /v1/battle`: the battle the server serves.
    static func battle(_ server: some RunningServer) async throws -> String {
        let response = try await get("\(server.baseURL)\(PlayProtocol.battlePath)")
        guard response.status == 200 else { throw HarnessError("GET \(PlayProtocol.battlePath): HTTP \(response.status)") }
        return try JSONDecoder().decode(BattleIdentity.self, from: Data(response.body.utf8)).battle
    }
}
