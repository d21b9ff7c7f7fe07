import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization
import Testing
import TouchSchoolTestSupport
import TouchSchoolProtocol

/// `GET /v1/board?count=N`, a page of the board as Server-Sent Events for a page that only shows it
/// (a projector), read by a real HTTP client from the server in process on loopback: the page
/// first, then again as each save changes it, a keep-alive comment on a quiet board, the
/// per-address connection limit shared with the play sockets, and the end of every stream on a
/// graceful shutdown. The whole board is no stream (400).
@Suite(.onOwnThreads, .tags(.process), .serialized) struct BoardStreamTests {
    let schoolA = "S0001"
    let schoolB = "S0002"

    /// A value of the server's `/metrics` (Prometheus text: `name value`).
    static func metric(_ name: String, on server: some RunningServer) async throws -> Double? {
        let text = try await HTTP.get("\(server.baseURL)/metrics").body
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    /// The value once it is `expected`, or the last one read after `within` seconds.
    static func metric(_ name: String, on server: some RunningServer, becomes expected: Double, within seconds: TimeInterval) async throws -> Double? {
        var value: Double?
        _ = try await Wait.until(timeout: seconds) {
            value = try await metric(name, on: server)
            return value == expected
        }
        return value
    }

    /// A page event's rows and version.
    static func page(_ event: BoardStreamReader.Event) throws -> PageMessage? {
        guard event.name == "page", case let .page(page) = try JSONDecoder().decode(ServerMessage.self, from: Data(event.data.utf8)) else {
            return nil
        }
        return page
    }

    @Test func theBoardStreamSendsItsPageThenEachChangeWithinTheAddressLimit() async throws {
        try await InProcessServer.with(configure: { $0.limits.connectionsPerAddress = 3 }) { server in
            let device = TestDevice(name: "projected")
            let (player, _) = try await TestPlayer.join(server, device: device)
            try await player.watchTheBoard()
            try await player.send(.taps(device.batch(schoolA, taps: 10, switchTo: true)))
            _ = try await player.ack(1)
            // Broadcast (a save's totals go out up to a quarter of a second after its ack): the
            // stream's next event is then the next save's.
            _ = try await player.page("the board with the first batch", totals: [schoolA: 10])
            let saved = try await HTTP.scores(server)

            // The whole board is not streamed: a page is named.
            let whole = try await BoardStreamReader.open(url: "\(server.baseURL)\(PlayProtocol.boardPath)")
            #expect(whole.status == 400)
            #expect(try await whole.ended())

            let stream = try await BoardStreamReader.open(server)
            #expect(stream.status == 200)
            #expect(stream.header("Content-Type") == "text/event-stream; charset=utf-8")
            #expect(stream.header("Cache-Control") == "no-cache")
            // Tells nginx (and proxies that honour it) not to hold the events back in a buffer.
            #expect(stream.header("X-Accel-Buffering") == "no")
            let first = try #require(try Self.page(try await stream.event(0)))
            #expect(first.version == saved.version && first.rows.first == RankedRow(rank: 1, school: schoolA, total: 10))

            // A save that changes the page sends it again.
            try await player.send(.taps(device.batch(schoolB, taps: 4, switchTo: true)))
            _ = try await player.ack(2)
            let second = try #require(try Self.page(try await stream.event(1)))
            #expect(Array(second.rows.prefix(2)) == [RankedRow(rank: 1, school: schoolA, total: 10), RankedRow(rank: 2, school: schoolB, total: 4)])
            #expect(second.version > saved.version)
            #expect(second.version == (try await HTTP.scores(server)).version)

            // The play socket and the stream: two of the address's three connections. A board
            // stream is no play connection (the gauge of those stays at one).
            #expect(try await Self.metric("touchschool_open_connections", on: server) == 1)
            #expect(try await Self.metric("touchschool_open_board_streams", on: server) == 1)
            let third = try await BoardStreamReader.open(server)
            #expect(third.status == 200)
            _ = try await third.event(0)
            let refused = try await BoardStreamReader.open(server)
            #expect(refused.status == 429)
            #expect(try await refused.ended())
            let refusedPlayer = try await TestPlayer.connect(to: server)
            try await refusedPlayer.send(.hello(Hello(protocol: PlayProtocol.version, device: TestDevice(name: "fourth").key, player: "fourth")))
            #expect(try await refusedPlayer.closed() == CloseCode.tooManyConnections)
            // A stream closed by its reader gives its place back at once, not when a write to it
            // fails (a keep-alive 15 s or more away): 0.04 to 0.6 s measured here, 10 s allowed
            // for a busy test process.
            await third.close()
            let replacing = try await BoardStreamReader.waitForAdmission(server, timeout: 10)
            _ = try await replacing.event(0)
            // The gauge falls when the closed stream's ending is done, which may follow its place
            // given back.
            #expect(try await Self.metric("touchschool_open_board_streams", on: server, becomes: 2, within: 10) == 2)

            // Shut down gracefully, as SIGTERM shuts `serve` down: every stream ends, and the
            // server ends without an error (the process's exit status 0).
            let shutdown = Task { try await server.shutDown() }
            #expect(try await stream.ended(timeout: 10))
            #expect(try await replacing.ended(timeout: 10))
            #expect(try await Wait.until(timeout: 10) { !server.isRunning }, "\(server.errors)")
            try await shutdown.value
            for reader in [stream, replacing, refused] { await reader.close() }
            await player.close()
            await refusedPlayer.close()
        }
    }

    /// A quiet board: a comment keeps the stream open through proxies, one at each look at the
    /// writes (`ConnectionTimeouts.writeStall`: 15 s in service, shortened here rather than waited
    /// out; the test above keeps the standard one, which a reader's place must not wait for).
    @Test func aQuietBoardsStreamGetsAKeepAliveCommentAtEachLook() async throws {
        let interval = 2.0
        try await InProcessServer.with(configure: { $0.timeouts.writeStall = .seconds(interval) }) { server in
            let stream = try await BoardStreamReader.open(server)
            #expect(stream.status == 200)
            _ = try await stream.event(0)
            #expect(try await stream.keepAlive(timeout: interval + 5))
            #expect(try await stream.keepAlive(timeout: interval + 5), "and at the next look")
            await stream.close()
        }
    }

    /// Through nginx with `docs/nginx-touchschool.conf`: each event reaches the reader as it
    /// happens, not when a proxy buffer fills.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "nginx not found: skipped"))
    func theBoardStreamPassesThroughNginxAsItHappens() async throws {
        try await InProcessServer.with { server in
            let nginx = try Nginx(upstreams: [server.port, server.port])
            defer { nginx.stop() }
            let stream = try await BoardStreamReader.open(url: "http://127.0.0.1:\(nginx.port)\(PlayProtocol.boardPath)?count=1")
            #expect(stream.status == 200)
            #expect(try await stream.event(0).name == "page")
            let device = TestDevice(name: "behind nginx")
            let (player, _) = try await TestPlayer.join(server, device: device)
            for seq in 1...3 {
                try await player.send(.taps(device.batch(schoolA, taps: 2, switchTo: seq == 1)))
                _ = try await player.ack(UInt64(seq))
                let change = try await stream.event(seq, timeout: 5)
                #expect(try Self.page(change)?.rows == [RankedRow(rank: 1, school: schoolA, total: UInt64(2 * seq))])
            }
            await stream.close()
            await player.close()
        }
    }
}

/// An `EventSource` as a test sees it: one `GET /v1/board` read as it arrives, its events and
/// comments kept in order.
final class BoardStreamReader: Sendable {
    struct Event: Equatable {
        var name: String
        var data: String
    }

    private struct State {
        var status: UInt?
        var headers: [(String, String)] = []
        var events: [Event] = []
        var comments = 0
        var ended = false
        var failure: String?
        /// What arrived after the last complete line.
        var partial = ""
        var eventName = "message"
        var data: [String] = []

        /// Reads the event stream format: `event:` and `data:` lines, an empty line ends an event,
        /// a line starting with `:` is a comment.
        mutating func take(_ text: String) {
            partial += text
            while let newline = partial.firstIndex(of: "\n") {
                let line = String(partial[..<newline])
                partial = String(partial[partial.index(after: newline)...])
                if line.isEmpty {
                    if !data.isEmpty { events.append(.init(name: eventName, data: data.joined(separator: "\n"))) }
                    eventName = "message"
                    data = []
                } else if line.hasPrefix(":") {
                    comments += 1
                } else if line.hasPrefix("event: ") {
                    eventName = String(line.dropFirst(7))
                } else if line.hasPrefix("data: ") {
                    data.append(String(line.dropFirst(6)))
                }
            }
        }
    }

    private let state = Mutex(State())
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Opens the server's stream and waits for the answer's head.
    /// The national top ten, as the projector's first page.
    static func open(_ server: some RunningServer) async throws -> BoardStreamReader {
        try await open(url: "\(server.baseURL)\(PlayProtocol.boardPath)?count=10")
    }

    static func open(url: String) async throws -> BoardStreamReader {
        let reader = BoardStreamReader()
        // On threads of its own: a reader on the cooperative pool waits behind whatever
        // synchronous test holds the pool's two threads, and misses the server's deadlines.
        let task = Task(executorPreference: ThreadPerJobExecutor.shared) {
            do {
                let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
                reader.state.withLock { state in
                    state.status = response.status.code
                    state.headers = response.headers.map { ($0.name, $0.value) }
                }
                for try await buffer in response.body {
                    reader.state.withLock { $0.take(String(buffer: buffer)) }
                }
                reader.state.withLock { $0.ended = true }
            } catch {
                reader.state.withLock { state in
                    state.failure = "\(error)"
                    state.ended = true
                }
            }
        }
        reader.task.withLock { $0 = task }
        try await reader.waitUntil("the answer's head", timeout: 20) { $0.status != nil || $0.ended }
        if let failure = reader.state.withLock({ $0.status == nil ? $0.failure : nil }) { throw HarnessError("no answer: \(failure)") }
        return reader
    }

    /// Opens streams until one is admitted (a place given back reaches the limits a moment after
    /// the reader closed its connection).
    static func waitForAdmission(_ server: some RunningServer, timeout: TimeInterval) async throws -> BoardStreamReader {
        let start = Date()
        var attempts: [String] = []
        while true {
            let reader = try await open(server)
            if reader.status == 200 { return reader }
            attempts.append(String(format: "%.2f s: %@", Date().timeIntervalSince(start), reader.status.map(String.init) ?? "no status"))
            await reader.close()
            guard Date().timeIntervalSince(start) < timeout else {
                let gauges = (try? await HTTP.get("\(server.baseURL)/metrics").body)?
                    .split(separator: "\n").filter { $0.hasPrefix("touchschool_open_") }.joined(separator: ", ") ?? "no metrics"
                throw HarnessError("no board stream admitted within \(timeout) s (answers: \(attempts.joined(separator: ", ")); "
                    + "\(gauges); the server's sockets: \(sockets(of: server)); server's log: \(server.errors))")
            }
            try await Task.sleep(for: .milliseconds(250))
        }
    }

    /// The server's TCP sockets with their queues and states (`ss`), for a failure's message: a
    /// stream its reader closed that the server still holds open, or a connection a program
    /// started meanwhile keeps open for the reader (`SubprocessTests`).
    static func sockets(of server: some RunningServer) -> String {
        Subprocess.run("/usr/bin/ss", ["-tnpi", "state", "all", "( sport = :\(server.port) )"]).output
    }

    var status: UInt? { state.withLock { $0.status } }

    func header(_ name: String) -> String? {
        state.withLock { $0.headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    /// The event at `index` (from 0), waiting for it.
    func event(_ index: Int, timeout: TimeInterval = 20) async throws -> Event {
        try await waitUntil("event \(index)", timeout: timeout) { $0.events.count > index }
        return state.withLock { $0.events[index] }
    }

    /// Whether a comment line arrives within `timeout` seconds.
    func keepAlive(timeout: TimeInterval) async throws -> Bool {
        let before = state.withLock { $0.comments }
        try await waitUntil("a keep-alive comment", timeout: timeout) { $0.comments > before }
        return true
    }

    /// Whether the server ended the stream within `timeout` seconds.
    func ended(timeout: TimeInterval = 20) async throws -> Bool {
        try await waitUntil("the end of the stream", timeout: timeout) { $0.ended }
        return true
    }

    func close() async {
        task.withLock { $0 }?.cancel()
        _ = try? await waitUntil("the end after closing", timeout: 10) { $0.ended }
    }

    private func waitUntil(_ what: String, timeout: TimeInterval, _ condition: (State) -> Bool) async throws {
        guard try await !Wait.until(timeout: timeout, every: .milliseconds(20), { state.withLock { condition($0) } }) else { return }
        let (events, ended, failure) = state.withLock { ($0.events, $0.ended, $0.failure) }
        throw HarnessError("no \(what) within \(timeout) s (events: \(events.map { "\($0.name) \($0.data.prefix(200))" }); ended: \(ended); \(failure ?? ""))")
    }
}
