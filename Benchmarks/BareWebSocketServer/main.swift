// The load benchmark's baseline (issue 9): a bare Hummingbird WebSocket server that speaks the
// play protocol's messages but only acknowledges and broadcasts. Hello is answered with a
// welcome, every `taps` batch at once with an ack counting all its taps, encoded as the real
// server encodes its acks (no judging, no saving, no order check), and every `--broadcast-ms`
// the schools whose totals changed go to every connection as one `board` message encoded once:
// the least a server of this protocol must do on this stack. `--board-schools N` caps each broadcast at N of the changed schools (8: about
// 200 bytes, the size of what a player's screen shows, as issue 25 measures the views against;
// the leading school first among them, as the national top is in every view).
// `GET /v1/scores` gives the totals, as the real server does, for the loss check.
//
//   BareWebSocketServer [--port 0] [--broadcast-ms 250] [--board-schools N]
//
// Prints "listening on http://127.0.0.1:PORT" like `touchschool serve`; SIGTERM/SIGINT stop it.
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization
import TouchSchoolProtocol

var port = 0
var broadcastMilliseconds = 250
var boardSchools = Int.max
do {
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = arguments.next() {
        switch argument {
        case "--port": port = Int(arguments.next() ?? "") ?? 0
        case "--broadcast-ms": broadcastMilliseconds = max(10, Int(arguments.next() ?? "") ?? 250)
        case "--board-schools": boardSchools = max(1, Int(arguments.next() ?? "") ?? Int.max)
        default:
            FileHandle.standardError.write(Data("usage: BareWebSocketServer [--port N] [--broadcast-ms N] [--board-schools N]\n".utf8))
            exit(2)
        }
    }
}

/// The connected players and the totals, behind one lock.
final class Hub: Sendable {
    private struct State {
        var outboxes: [UInt64: AsyncStream<String>.Continuation] = [:]
        var next: UInt64 = 1
        var scores: [String: UInt64] = [:]
        var changed: Set<String> = []
        var version: UInt64 = 0
        /// The school with the most taps: in every broadcast it is among (when it changed), as
        /// the national top is in every view of protocol 2, so that the load benchmark's probe
        /// (the leader) is timed on the bare server's screens too.
        var leader: String?
        var leaderTotal: UInt64 = 0
    }
    private let state = Mutex(State())

    func add(_ outbox: AsyncStream<String>.Continuation) -> UInt64 {
        state.withLock { state in
            let id = state.next
            state.next += 1
            state.outboxes[id] = outbox
            return id
        }
    }

    func remove(_ id: UInt64) {
        state.withLock { $0.outboxes.removeValue(forKey: id) }?.finish()
    }

    func add(_ batch: TapBatch) {
        state.withLock { state in
            for (school, taps) in batch.taps where taps > 0 {
                state.scores[school, default: 0] += taps
                state.changed.insert(school)
                if let total = state.scores[school], total > state.leaderTotal {
                    state.leader = school
                    state.leaderTotal = total
                }
            }
        }
    }

    var board: Board { state.withLock { Board(version: $0.version, scores: $0.scores) } }

    func broadcast(atMost limit: Int) {
        let (text, outboxes): (String?, [AsyncStream<String>.Continuation]) = state.withLock { state in
            guard !state.changed.isEmpty else { return (nil, []) }
            state.version += 1
            var scores: [String: UInt64] = [:]
            if let leader = state.leader, state.changed.contains(leader) { scores[leader] = state.scores[leader] }
            for school in state.changed where scores.count < limit { scores[school] = state.scores[school] }
            state.changed = []
            // The changed totals as protocol 1's `changes` carried them (the server's protocol has
            // no whole-board message any more): the load generator counts them by their leading
            // `{"scores":`.
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let changes = (try? encoder.encode(Changes(version: state.version, scores: scores))).map { String(decoding: $0, as: UTF8.self) }
            return (changes, Array(state.outboxes.values))
        }
        guard let text else { return }
        for outbox in outboxes { outbox.yield(text) }
    }
}

/// Static, so that the handlers (nonisolated) may use it.
enum Shared { static let hub = Hub() }
let hub = Shared.hub
let logger = { var logger = Logger(label: "bare"); logger.logLevel = .warning; return logger }()

let router = Router()
router.get("/v1/scores") { _, _ -> Response in
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return Response(status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(Shared.hub.board))))
}

let playRouter = Router(context: BasicWebSocketRequestContext.self)
playRouter.ws(RouterPath(PlayProtocol.playPath)) { inbound, outbound, _ in
    // One writer per connection, fed by the acks (from the reader) and the broadcasts.
    let (stream, outbox) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(1_024))
    let id = Shared.hub.add(outbox)
    defer { Shared.hub.remove(id) }
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            for await text in stream { try await outbound.writeTextMessage(text) }
        }
        group.addTask {
            defer { outbox.finish() }
            for try await message in inbound.messages(maxSize: PlayProtocol.maximumClientMessageBytes) {
                guard case let .text(text) = message, let decoded = try? MessageCoding.decodeClient(text) else { return }
                switch decoded {
                case let .hello(hello):
                    let welcome = Welcome(protocol: hello.protocol, battle: "bare-websocket-server", lastSeq: 0,
                                          player: PlayerState(schoolID: nil, taps: 0, bestTapsPerSecond: 0), catalog: "bare")
                    outbox.yield(MessageCoding.encode(.welcome(welcome)))
                case let .taps(batch):
                    Shared.hub.add(batch)
                    let ack = Acknowledgement(seq: batch.seq, accepted: batch.totalTaps, refused: 0,
                                              player: PlayerState(schoolID: batch.taps.keys.first, taps: batch.playerTaps, bestTapsPerSecond: batch.bestTapsPerSecond))
                    outbox.yield(MessageCoding.encodeAck(ack))
                case .ping:
                    outbox.yield(MessageCoding.encode(.pong(nowMs: nil)))
                case .watch, .showMap:
                    // The baseline has no pages and no map: what a screen watches changes nothing here.
                    break
                }
            }
        }
        try await group.next()
        group.cancelAll()
    }
}

let app = Application(
    router: router,
    server: .http1WebSocketUpgrade(webSocketRouter: playRouter, configuration: .init(maxFrameSize: 1 << 16)),
    configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
    onServerRunning: { [port] channel in
        FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)\n".utf8))
    },
    logger: logger
)

// Four times a second on time, as the real server's broadcasts come (they wake on a thread of their
// own): a sleep of 250 ms after each broadcast woke late on the pool busy with thousands of
// connections, and at 4,000 players this baseline broadcast 3 times a second instead of 4
// (BENCHMARKS.md, "The baseline on time").
let broadcaster = Task {
    let interval = Duration.milliseconds(broadcastMilliseconds)
    var next = ContinuousClock.now + interval
    while !Task.isCancelled {
        try? await Task.sleep(until: next, clock: .continuous)
        hub.broadcast(atMost: boardSchools)
        next += interval
        // More than an interval late: the schedule starts again from now rather than catch up.
        if next < ContinuousClock.now { next = ContinuousClock.now + interval }
    }
}
try await app.runService()
broadcaster.cancel()

/// The schools whose totals changed since the previous broadcast, with their new totals.
struct Changes: Encodable {
    var version: UInt64
    var scores: [String: UInt64]
}
