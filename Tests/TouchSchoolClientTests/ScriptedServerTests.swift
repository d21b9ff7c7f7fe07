import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import Synchronization
import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolClient
@testable import TouchSchoolOutbox
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore

/// A WebSocket server at `/v1/play` that answers each client message as its script says: the
/// client's side of what the real server does, and of what it never does (another version).
final class ScriptedServer: Sendable {
    typealias Script = @Sendable (ClientMessage) -> [ScriptedReply]
    /// What the client sent, in order.
    final class Log: Sendable {
        private let messages = Mutex<[ClientMessage]>([])
        func append(_ message: ClientMessage) { messages.withLock { $0.append(message) } }
        var all: [ClientMessage] { messages.withLock { $0 } }
    }
    let received: Log
    private let task: Task<Void, any Error>
    let port: Int

    struct Context: RequestContext, WebSocketRequestContext {
        var coreContext: CoreRequestContextStorage
        let webSocket: WebSocketHandlerReference<Self>
        init(source: ApplicationRequestContextSource) {
            coreContext = .init(source: source)
            webSocket = .init()
        }
    }

    /// - Parameter catalog: served at `GET /v1/catalog` with its ETag, when given, once
    ///   `beforeCatalog` has returned.
    init(catalog: (bytes: [UInt8], etag: String)? = nil, beforeCatalog: @escaping @Sendable () async -> Void = {},
         script: @escaping Script) async throws {
        let received = Log()
        self.received = received
        let router = Router(context: Context.self)
        router.ws(RouterPath(PlayProtocol.playPath)) { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case let .text(text) = message, let decoded = try? MessageCoding.decodeClient(text) else { continue }
                received.append(decoded)
                for reply in script(decoded) {
                    switch reply {
                    case let .send(message): try await outbound.write(.text(MessageCoding.encode(message)))
                    case let .wait(duration): try await Task.sleep(for: duration)
                    case let .close(code):
                        try await outbound.close(.init(codeNumber: Int(code)), reason: nil)
                        return
                    }
                }
            }
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let http = Router()
        if let catalog {
            http.get("/v1/catalog") { request, _ -> Response in
                await beforeCatalog()
                if request.headers[.ifNoneMatch] == catalog.etag { return Response(status: .notModified, headers: [.eTag: catalog.etag]) }
                return Response(status: .ok, headers: [.eTag: catalog.etag], body: .init(byteBuffer: ByteBuffer(bytes: catalog.bytes)))
            }
        }
        let app = Application(
            router: http,
            server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "scripted-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        task = Task { try await app.runService() }
        var iterator = stream.makeAsyncIterator()
        port = await iterator.next() ?? 0
    }

    func stop() { task.cancel() }
}

enum ScriptedReply: Sendable {
    case send(ServerMessage)
    /// Nothing for this long (a server slow to answer).
    case wait(Duration)
    case close(UInt16)
}

@Suite(.onOwnThreads) struct ScriptedServerTests {
    static let catalog = BoardMirrorTests.catalog
    static let me = PlayerState(schoolID: "S1", taps: 0, bestTapsPerSecond: 0)
    static let battleID = "scripted-battle-0001"

    /// A view of S1 (of `catalog`) at `total`, first of the two; `top` as given.
    static func view(total: UInt64, top: [RankedRow] = []) -> ServerMessage {
        .schoolView(SchoolViewMessage(version: total, school: "S1", total: total, ranks: Array(repeating: Standing(rank: 1, size: 2, gap: nil), count: 4),
                                above: [], below: [], top: top))
    }

    func battle(on port: Int, in directory: TemporaryDirectory, outbox: Outbox = Outbox(),
                handshakeSeconds: Double = NetworkBattle.standardHandshakeSeconds) -> (NetworkBattle, BattleFolder) {
        let folder = BattleFolder(dataDirectory: directory.path, battle: Self.battleID, servers: [ServerAddress(secure: false, host: "127.0.0.1", port: port)])
        let battle = NetworkBattle(folder: folder, device: String(repeating: "B", count: 43), player: "p", catalog: Self.catalog,
                                   catalogETag: "\"c\"", board: BoardMirror(), outbox: outbox, handshakeSeconds: handshakeSeconds)
        return (battle, folder)
    }

    func collect(_ battle: NetworkBattle, until done: ([GameEvent]) -> Bool) async throws -> [GameEvent] {
        var all: [GameEvent] = []
        for _ in 0..<1000 {
            all += battle.takeEvents()
            if done(all) { break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        return all
    }

    @Test func aServerOfAnotherProtocolVersionIsSaidAndTheGamePlaysOnOffline() async throws {
        let server = try await ScriptedServer { message in
            guard case .hello = message else { return [] }
            return [.send(.error(ProtocolError(code: CloseCode.unsupportedVersion, message: "protocol 2 is not spoken here"))),
                    .close(CloseCode.unsupportedVersion)]
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (battle, folder) = battle(on: server.port, in: directory)
        battle.start()
        battle.submit(PendingChanges(player: "p", scoreDeltas: ["S1": 4], playerTaps: 4, bestTapsPerSecond: 1, switchedToSchool: "S1"))
        let events = try await collect(battle) { $0.contains(.connectionChanged(.unsupportedProtocol(waitingTaps: 4))) }
        #expect(events.contains(.connectionChanged(.unsupportedProtocol(waitingTaps: 4))), "\(events)")
        #expect(events.contains { if case .synced(.some) = $0 { true } else { false } })
        // No retrying against it; the taps wait in the outbox for a game that speaks its version.
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(server.received.all.count == 1)
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
        #expect(try folder.outbox.load().waitingTaps == 4)
    }

    @Test func aWelcomeDropsWhatTheServerHasTheRestIsSentInOrderAndRefusalsAreSaid() async throws {
        let server = try await ScriptedServer { message in
            switch message {
            case .hello:
                return [.send(.welcome(Welcome(battle: Self.battleID, lastSeq: 1, player: Self.me, catalog: "\"c\""))),
                        .send(Self.view(total: 900, top: [RankedRow(rank: 1, school: "S1", total: 900), RankedRow(rank: 2, school: "S2", total: 70)]))]
            case let .taps(batch):
                let refused: UInt64 = batch.seq == 3 ? 2 : 0
                let total = batch.totalTaps
                return [.send(.ack(Acknowledgement(seq: batch.seq, accepted: total - refused, refused: refused,
                                                    player: PlayerState(schoolID: "S1", taps: 100 + batch.seq, bestTapsPerSecond: 3)))),
                        .send(Self.view(total: 1000 + batch.seq))]
            case .ping:
                return [.send(.pong(nowMs: nil))]
            case .watch, .showMap:
                return []
            }
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var outbox = Outbox()
        for taps in [1, 2, 3] as [UInt64] {
            outbox.append(PendingChanges(player: "p", scoreDeltas: ["S1": taps], playerTaps: taps, bestTapsPerSecond: 3), startMs: 0, endMs: 1)
        }
        let (battle, folder) = battle(on: server.port, in: directory, outbox: outbox)
        battle.start()
        let events = try await collect(battle) { $0.contains(.tapsRefusedByServer(2)) && $0.contains(.connectionChanged(.online)) }
        #expect(events.contains(.tapsRefusedByServer(2)), "\(events)")
        for _ in 0..<200 where battle.waitingTaps > 0 { try await Task.sleep(nanoseconds: 10_000_000) }
        // Batch 1 was the server's already: only 2 and 3 were sent, in order.
        let sent = server.received.all.compactMap { message -> UInt64? in if case let .taps(batch) = message { batch.seq } else { nil } }
        #expect(sent == [2, 3])
        #expect(battle.waitingTaps == 0)
        try await Task.sleep(nanoseconds: 100_000_000)
        battle.submit(PendingChanges(player: "p"))
        let answer = try await collect(battle) { $0.contains { if case .synced = $0 { true } else { false } } }
        let board = answer.compactMap { event -> SyncedBoard? in if case let .synced(board?) = event { board } else { nil } }.last
        #expect(board?.counts == [1003, 70])
        #expect(board?.player == PlayerRecord(schoolID: "S1", taps: 103, bestTapsPerSecond: 3))
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
        #expect(try folder.outbox.load() == Outbox(nextSeq: 4, batches: []))
    }

    /// An acknowledgement of a banned device's batch is the operator's ban to the game, not its
    /// tap guard: the refused taps come as `tapsRefusedByOperator`, never `tapsRefusedByServer`.
    @Test func aBannedDevicesRefusalIsSaidAsTheOperatorsBan() async throws {
        let server = try await ScriptedServer { message in
            switch message {
            case .hello:
                return [.send(.welcome(Welcome(battle: Self.battleID, lastSeq: 0, player: Self.me, catalog: "\"c\"")))]
            case let .taps(batch):
                return [.send(.ack(Acknowledgement(seq: batch.seq, accepted: 0, refused: batch.totalTaps, player: Self.me, banned: true)))]
            case .ping:
                return [.send(.pong(nowMs: nil))]
            case .watch, .showMap:
                return []
            }
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var outbox = Outbox()
        outbox.append(PendingChanges(player: "p", scoreDeltas: ["S1": 4], playerTaps: 4, bestTapsPerSecond: 3), startMs: 0, endMs: 1)
        let (battle, _) = battle(on: server.port, in: directory, outbox: outbox)
        battle.start()
        let events = try await collect(battle) { $0.contains(.tapsRefusedByOperator(4)) }
        #expect(events.contains(.tapsRefusedByOperator(4)), "\(events)")
        #expect(!events.contains { if case .tapsRefusedByServer = $0 { true } else { false } }, "\(events)")
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
    }

    /// A server that upgrades the connection, reads the hello and welcomes it only after the
    /// game's handshake deadline (a server slow to read its store): the game gives that
    /// connection up, connects again and is welcomed on the new one, and its taps are sent once,
    /// there. Giving up once shut the connection's event loop under the live WebSocket, whose
    /// closing then waited for ever on the stopped loop: the game stayed "connecting".
    @Test func aConnectionNotWelcomedByTheDeadlineIsGivenUpAndTheGameConnectsAgain() async throws {
        // The first hello is answered 8 s late, past a 3 s deadline; later ones at once (within
        // the deadline even on a loaded machine).
        let lateWelcome = Duration.seconds(8)
        let hellos = Mutex(0)
        let welcome = ServerMessage.welcome(Welcome(battle: Self.battleID, lastSeq: 0, player: Self.me, catalog: "\"c\""))
        let server = try await ScriptedServer { message in
            switch message {
            case .hello:
                let first = hellos.withLock { count in
                    count += 1
                    return count == 1
                }
                return first ? [.wait(lateWelcome), .send(welcome)] : [.send(welcome)]
            case let .taps(batch):
                return [.send(.ack(Acknowledgement(seq: batch.seq, accepted: batch.totalTaps, refused: 0,
                                                    player: PlayerState(schoolID: "S1", taps: batch.totalTaps, bestTapsPerSecond: 3))))]
            case .ping:
                return [.send(.pong(nowMs: nil))]
            case .watch, .showMap:
                return []
            }
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var outbox = Outbox()
        outbox.append(PendingChanges(player: "p", scoreDeltas: ["S1": 6], playerTaps: 6, bestTapsPerSecond: 3), startMs: 0, endMs: 1)
        let (battle, folder) = battle(on: server.port, in: directory, outbox: outbox, handshakeSeconds: 3)
        let start = ContinuousClock.now
        battle.start()
        var events: [GameEvent] = []
        while battle.waitingTaps > 0 || !events.contains(.connectionChanged(.online)), ContinuousClock.now - start < .seconds(60) {
            events += battle.takeEvents()
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(events.contains(.connectionChanged(.offline(waitingTaps: 6))), "the first connection was given up: \(events)")
        #expect(events.contains(.connectionChanged(.online)), "\(events); its connection: \(battle.connectionPhase)")
        #expect(battle.waitingTaps == 0)
        // Past the first connection's late welcome, which is not taken: batch 1 was sent once,
        // on a later connection.
        try await Task.sleep(until: start + lateWelcome + .seconds(2))
        let sent = server.received.all.compactMap { message -> UInt64? in if case let .taps(batch) = message { batch.seq } else { nil } }
        #expect(sent == [1])
        #expect(hellos.withLock { $0 } >= 2)
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
        #expect(try folder.outbox.load() == Outbox(nextSeq: 2, batches: []))
    }

    @Test func anotherCatalogOnTheServerIsFetchedKeptAndReplacesTheGamesBeforeTheNextAnswer() async throws {
        let newer = Catalog(schools: Self.catalog.schools + [
            School(id: "S3", name: "경기고등학교", level: .high, province: "서울특별시", district: "강남구", address: ""),
        ], source: .official(edition: "2026-03-20"))
        let server = try await ScriptedServer(catalog: (CatalogFile.encode(newer), "\"d\"")) { message in
            guard case .hello = message else { return [] }
            return [.send(.welcome(Welcome(battle: Self.battleID, lastSeq: 0, player: Self.me, catalog: "\"d\""))),
                    .send(Self.view(total: 0, top: [RankedRow(rank: 1, school: "S3", total: 9)]))]
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (battle, folder) = battle(on: server.port, in: directory)
        battle.start()
        var events = try await collect(battle) { $0.contains { if case .catalogReplaced = $0 { true } else { false } } }
        battle.submit(PendingChanges(player: "p"))
        events += try await collect(battle) { $0.contains { if case .synced = $0 { true } else { false } } }
        let replaced = events.firstIndex { if case let .catalogReplaced(replacement) = $0 { replacement.generation == 1 } else { false } }
        let answered = events.firstIndex { if case let .synced(board?) = $0 { board.catalogGeneration == 1 } else { false } }
        #expect(replaced != nil && answered != nil && replaced! < answered!, "\(events)")
        if case let .synced(board?)? = answered.map({ events[$0] }) { #expect(board.counts == [0, 0, 9]) }
        // The view, read again in the new catalog, names S3 there.
        let reread = events.compactMap { event -> SchoolView? in
            if case let .viewed(.school(view), generation) = event, generation == 1 { view } else { nil }
        }
        #expect(reread.last?.top == [RankedSchool(position: 2, rank: 1, count: 9)], "\(events)")
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
        // Kept for the next game, with its tag.
        #expect(folder.cachedCatalog()?.catalog.count == 3)
        #expect(folder.cachedCatalog()?.etag == "\"d\"")
    }

    /// Protocol 2: the game says hello with it, is shown its school's view and the page it
    /// watches, stops watching when asked, and watches its page again on a new connection (a
    /// server forgets what a closed connection watched).
    @Test func theGameIsShownItsViewAndThePageItWatchesAgainOnEveryConnection() async throws {
        let page = PageMessage(version: 3, league: LeagueName(level: "high"), from: 0, size: 2,
                               rows: [RankedRow(rank: 1, school: "S2", total: 8), RankedRow(rank: 2, school: "S1", total: 5)])
        let watches = Mutex(0)
        let server = try await ScriptedServer { message in
            switch message {
            case .hello:
                return [.send(.welcome(Welcome(battle: Self.battleID, lastSeq: 0, player: Self.me, catalog: "\"c\""))),
                        .send(Self.view(total: 5))]
            case let .watch(watch):
                // The third watch (the page again) ends the first connection.
                if watches.withLock({ count in count += 1; return count == 3 }) { return [.close(CloseCode.goingAway)] }
                return watch.league == nil ? [] : [.send(.page(page))]
            case .taps, .ping, .showMap:
                return []
            }
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (battle, folder) = battle(on: server.port, in: directory)
        battle.start()
        var events = try await collect(battle) { $0.contains { if case .viewed(.school, _) = $0 { true } else { false } } }
        let school = try #require(SchoolView(SchoolViewMessage(version: 5, school: "S1", total: 5,
                                                               ranks: Array(repeating: Standing(rank: 1, size: 2, gap: nil), count: 4),
                                                               above: [], below: [], top: []), in: Self.catalog))
        #expect(events.contains(.viewed(.school(school), catalogGeneration: 0)), "\(events)")
        let highSchools = PageWatch(league: .level(.high), places: 0..<20)
        battle.watch(highSchools)
        events = try await collect(battle) { $0.contains { if case .viewed(.page, _) = $0 { true } else { false } } }
        let shown = try #require(PageView(page, in: Self.catalog))
        #expect(events == [.viewed(.page(shown), catalogGeneration: 0)])
        battle.watch(nil)
        for _ in 0..<500 where watches.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        battle.watch(highSchools)
        // Four watches (the clock's pings come between them).
        for _ in 0..<1000 where server.received.all.filter({ if case .watch = $0 { true } else { false } }).count < 4 {
            try await Task.sleep(for: .milliseconds(10))
        }
        let sent = server.received.all
        let watched = Watch(league: LeagueName(level: "high"), from: 0, count: 20)
        #expect(sent.map { if case let .hello(hello) = $0 { hello.protocol } else { nil } }.compactMap { $0 } == [PlayProtocol.version, PlayProtocol.version])
        #expect(sent.compactMap { if case let .watch(watch) = $0 { watch } else { nil } }
                == [watched, Watch(league: nil), watched, watched], "\(sent)")
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
        // Kept for a game started offline.
        #expect(folder.cachedBoard()?.page == page)
    }

    /// The server's clock, as the game measures it: a few pings at the start of a connection,
    /// each pong telling the server's clock, the sample of the shortest round trip kept. A server
    /// whose clock runs 42 s ahead (here, the script's) tells a round; the game takes it at the
    /// server's time now, within the kept sample's round trip, not at the message's own `nowMs`
    /// (set 30 s off on purpose) nor at its own clock. That round trip is unknown here, but every
    /// ping and pong happened between `before` and `after`: half that span bounds the error.
    @Test func aRoundIsTakenByTheServersClockMeasuredByPings() async throws {
        let ahead: Int64 = 42_000
        let pongs = Mutex(0)
        let server = try await ScriptedServer { message in
            switch message {
            case .hello:
                return [.send(.welcome(Welcome(battle: Self.battleID, lastSeq: 0, player: Self.me, catalog: "\"c\"")))]
            case .ping:
                let count = pongs.withLock { count in count += 1; return count }
                var replies: [ScriptedReply] = [.send(.pong(nowMs: BatchClock.wallClockMs() + ahead))]
                // Once the clock is measured, the round (its own clock 30 s off).
                if count == ServerClock.samplesWanted {
                    let now = BatchClock.wallClockMs() + ahead
                    replies.append(.send(.round(RoundMessage(id: 9, title: "3반", startsAtMs: now + 3_000, endsAtMs: now + 13_000, graceMs: 5_000,
                                                             nowMs: now - 30_000, place: nil, count: 0, players: 0, final: false))))
                    replies.append(.send(.roundPlace(RoundStanding(id: 9, place: 1, count: 4, players: 2, final: false))))
                }
                return replies
            case .taps, .watch, .showMap:
                return []
            }
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (battle, _) = battle(on: server.port, in: directory)
        let before = BatchClock.wallClockMs()
        battle.start()
        let events = try await collect(battle) { $0.contains { if case .roundPlaceTold = $0 { true } else { false } } }
        let after = BatchClock.wallClockMs()
        guard let news = events.lazy.compactMap({ event -> RoundNews? in if case let .roundTold(news) = event { news } else { nil } }).first else {
            Issue.record("the round: \(events)")
            return
        }
        #expect(news.id == 9 && news.title == "3반" && news.endsAtMs - news.startsAtMs == 10_000)
        let error = (after - before) / 2
        #expect(news.serverNowMs >= before + ahead - error && news.serverNowMs <= after + ahead + error,
                "the server's clock, not the message's: \(news.serverNowMs - before) ms after the start, \(after - before) ms in all")
        #expect(news.startsAtMs - news.serverNowMs > 0 && news.startsAtMs - news.serverNowMs <= 3_000 + error, "the countdown ahead")
        #expect(events.contains(.roundPlaceTold(RoundStanding(id: 9, place: 1, count: 4, players: 2, final: false))))
        // The pings were a second apart, then stopped: three samples.
        #expect(server.received.all.filter { $0 == .ping }.count == ServerClock.samplesWanted)
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
    }

    /// Issue 48: a game whose clock is off claims its batches' times on the server's clock, as
    /// measured by its pings: the server counts a round by the times claimed, so a clock 42 s
    /// slow or fast would otherwise put every tap outside the race. The batch's span is the taps'
    /// (`BattleRules.batchStartMs`), moved by the offset; every ping and pong happened between
    /// `before` and `after`, so half that span bounds the measure's error.
    @Test(arguments: [Int64(42_000), -42_000])
    func aBatchClaimsItsTimesOnTheServersClock(_ ahead: Int64) async throws {
        let server = try await ScriptedServer { message in
            switch message {
            case .hello:
                return [.send(.welcome(Welcome(battle: Self.battleID, lastSeq: 0, player: Self.me, catalog: "\"c\"")))]
            case .ping:
                return [.send(.pong(nowMs: BatchClock.wallClockMs() + ahead))]
            case let .taps(batch):
                return [.send(.ack(Acknowledgement(seq: batch.seq, accepted: batch.totalTaps, refused: 0, player: Self.me)))]
            case .watch, .showMap:
                return []
            }
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (battle, _) = battle(on: server.port, in: directory)
        let before = BatchClock.wallClockMs()
        battle.start()
        for _ in 0..<500 where battle.shared.withLock({ $0.serverOffsetMs }) == 0 { try await Task.sleep(nanoseconds: 10_000_000) }
        let tappedAt = BatchClock.wallClockMs()
        battle.submit(PendingChanges(player: "p", scoreDeltas: ["S1": 3], playerTaps: 3, bestTapsPerSecond: 3,
                                     firstTapAt: MonotonicClock.now()))
        for _ in 0..<500 where battle.waitingTaps > 0 || server.received.all.allSatisfy({ if case .taps = $0 { false } else { true } }) {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        let after = BatchClock.wallClockMs()
        let batch = try #require(server.received.all.lazy.compactMap { message -> TapBatch? in if case let .taps(batch) = message { batch } else { nil } }.first)
        let error = (after - before) / 2
        #expect(batch.endMs >= tappedAt + ahead - error && batch.endMs <= after + ahead + error,
                "claimed \(batch.endMs - tappedAt) ms after the tap by this machine's clock, the server's \(ahead) ms ahead (±\(error))")
        #expect(batch.startMs <= batch.endMs && batch.startMs >= tappedAt + ahead - error)
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
    }
    /// Issue 50: the game asks for the map after the page it lets go of (the server takes any
    /// watch to mean the map is not shown), again on every connection while it shows it, and
    /// no longer when it goes; the server's `map` messages come to it as events, but those of
    /// another catalog's grid (a server that moved on), whose cells are others.
    @Test func theGameAsksForTheMapAfterItsWatchOnEveryConnectionAndTakesItsGlow() async throws {
        let mine = MapReport(catalog: "c", marks: [3], mine: 3, cells: [MapCellGlow(cell: 5, glow: 2)], whole: true)
        let other = MapReport(catalog: "z", marks: [7], cells: [MapCellGlow(cell: 9, glow: 3)], whole: true)
        let later = MapReport(marks: [7], cells: [MapCellGlow(cell: 1, glow: 1)])
        let again = MapReport(catalog: "\"c\"", marks: [3], cells: [MapCellGlow(cell: 4, glow: 1)], whole: true)
        let shown = Mutex(0)
        let server = try await ScriptedServer { message in
            switch message {
            case .hello:
                return [.send(.welcome(Welcome(battle: Self.battleID, lastSeq: 0, player: Self.me, catalog: "\"c\"")))]
            case .showMap(true):
                // The first connection tells the map and ends; the second, of another grid first.
                if shown.withLock({ count in count += 1; return count == 1 }) { return [.send(.map(mine)), .close(CloseCode.goingAway)] }
                return [.send(.map(other)), .send(.map(later)), .send(.map(again))]
            case .taps, .ping, .watch, .showMap:
                return []
            }
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (battle, _) = battle(on: server.port, in: directory)
        battle.start()
        _ = try await collect(battle) { $0.contains(.connectionChanged(.online)) }
        let page = PageWatch(league: .national, places: 0..<20)
        battle.watch(page)
        for _ in 0..<500 where !server.received.all.contains(where: { if case .watch = $0 { true } else { false } }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        // As the game's commands come: the page let go of, then the map.
        battle.watch(nil)
        battle.showMap(true)
        let events = try await collect(battle) { $0.filter { if case .mapReported = $0 { true } else { false } }.count >= 2 }
        #expect(events.compactMap { if case let .mapReported(report, generation) = $0 { generation == 0 ? report : nil } else { nil } }
                == [mine, again], "\(events)")
        battle.showMap(false)
        func asked() -> [ClientMessage] { server.received.all.filter { if case .watch = $0 { true } else if case .showMap = $0 { true } else { false } } }
        for _ in 0..<500 where asked().count < 5 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(asked() == [.watch(Watch(page)), .watch(Watch(nil)), .showMap(true), .showMap(true), .showMap(false)], "\(server.received.all)")
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
    }
    /// A server that serves another catalog than the game's: its map is of that catalog's grid,
    /// not taken until the game has the catalog; then the game asks for the map again and the
    /// server's new sweep comes in the new catalog's generation.
    @Test func aMapOfAnotherCatalogWaitsForItAndIsAskedForAgain() async throws {
        let newer = Catalog(schools: Self.catalog.schools + [
            School(id: "S3", name: "경기고등학교", level: .high, province: "서울특별시", district: "강남구", address: ""),
        ], source: .official(edition: "2026-03-20"))
        let report = MapReport(catalog: "d", marks: [2], cells: [MapCellGlow(cell: 2, glow: 1)], whole: true)
        // The catalog comes only after the first map message (and a moment for the game to read it).
        let told = Mutex(false)
        let beforeCatalog: @Sendable () async -> Void = {
            while !told.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(10)) }
            try? await Task.sleep(for: .milliseconds(200))
        }
        let server = try await ScriptedServer(catalog: (CatalogFile.encode(newer), "\"d\""), beforeCatalog: beforeCatalog) { message in
            switch message {
            case .hello: return [.send(.welcome(Welcome(battle: Self.battleID, lastSeq: 0, player: Self.me, catalog: "\"d\"")))]
            case .showMap(true):
                defer { told.withLock { $0 = true } }
                return [.send(.map(report))]
            case .taps, .ping, .watch, .showMap: return []
            }
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (battle, _) = battle(on: server.port, in: directory)
        // Shown from the start: asked for once the connection is welcomed, before the new catalog comes.
        battle.showMap(true)
        battle.start()
        let events = try await collect(battle) { $0.contains { if case .mapReported = $0 { true } else { false } } }
        #expect(events.compactMap { if case let .mapReported(report, generation) = $0 { [generation: report] } else { nil } } == [[1: report]],
                "\(events)")
        #expect(events.contains { if case let .catalogReplaced(replacement) = $0 { replacement.generation == 1 } else { false } })
        let asked = server.received.all.filter { if case .showMap = $0 { true } else { false } }
        #expect(asked == [.showMap(true), .showMap(false), .showMap(true)], "\(server.received.all)")
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
    }
}
