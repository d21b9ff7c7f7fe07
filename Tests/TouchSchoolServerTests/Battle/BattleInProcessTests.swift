import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// The battle actor in this process, on the in-memory store with failures and delays injected:
/// what it acknowledges, when, and what it does on shutdown; `/healthz` through Hummingbird's
/// test client.
@Suite(.onOwnThreads) struct BattleInProcessTests {
    static let device = "in-process-device-key-0001"

    /// A battle running as the server runs it (a service group, SIGTERM-like shutdown by
    /// `triggerGracefulShutdown`) on `storage`, with a player's connection whose messages are kept.
    final class RunningBattle: Sendable {
        let storage: InMemoryBattleStore.Storage
        let battle: BattleHallRuntime
        let metrics = ServerMetrics()
        let connection: ConnectionID
        private let group: ServiceGroup
        private let running: Task<Void, any Error>
        private let inbox = Inbox()
        private let reader: Task<Void, Never>

        init(storage: InMemoryBattleStore.Storage = .init(), clock: BattleClock = .system) async throws {
            self.storage = storage
            let catalog = try CatalogResource(bytes: CatalogFile.encode(storeTestCatalog), source: "test")
            let store = InMemoryBattleStore(storage: storage, catalog: catalog)
            let logger = Logger(label: "battle-test")
            battle = BattleHallRuntime(store: store, battleID: await store.battleID(), catalog: catalog, board: await store.board(),
                            metrics: metrics, logger: logger, clock: clock)
            group = ServiceGroup(configuration: .init(services: [battle], logger: logger))
            running = Task { [group] in try await group.run() }
            let (stream, sendQueue) = AsyncStream<Outgoing>.makeStream()
            connection = try #require(await battle.connect(sendQueue: .stream(sendQueue)))
            reader = Task { [inbox] in
                for await message in stream {
                    guard case let .text(text) = message, let decoded = try? MessageCoding.decodeServer(text) else { continue }
                    inbox.messages.withLock { $0.append(decoded) }
                }
            }
            guard case .welcome = await battle.hello(connection, device: Self.device) else {
                throw HarnessError("no welcome")
            }
        }

        static let device = BattleInProcessTests.device

        /// Batch `seq` with `taps` for school A, played in the last seconds.
        func submit(_ seq: UInt64, taps: UInt64) async {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            await battle.submit(ReceivedBatch(connection: connection, device: Self.device, player: "p", batch: TapBatch(
                seq: seq, taps: ["A": taps], playerTaps: taps, switchedToSchool: seq == 1 ? "A" : nil, bestTapsPerSecond: 5,
                startMs: now - 3_000 + Int64(seq) * 200, endMs: now - 2_900 + Int64(seq) * 200), address: "127.0.0.1"))
        }

        var messages: [ServerMessage] { inbox.messages.withLock { $0 } }
        var acks: [Acknowledgement] { messages.compactMap { if case let .ack(ack) = $0 { ack } else { nil } } }

        func shutDown() async throws {
            await group.triggerGracefulShutdown()
            try await running.value
            // The player's side of the connection ends, as a socket's writer ends it.
            await battle.disconnect(connection)
            await reader.value
        }

        /// `/healthz` as a client sees it.
        func health() async throws -> HTTPResponse.Status {
            let router = Router(context: HTTPRequestContext.self)
            Routes(battle: battle, metrics: ServerMetrics(), costly: .shared).add(to: router)
            return try await Application(router: router).test(.router) { client in
                try await client.execute(uri: "/healthz", method: .get) { $0.status }
            }
        }
    }

    /// What the battle sent the player, in order.
    final class Inbox: Sendable {
        let messages = Mutex<[ServerMessage]>([])
    }

    @Test func aFailedCommitAcknowledgesNothingAndIsRetriedUntilItIsSavedOnce() async throws {
        let storage = InMemoryBattleStore.Storage()
        storage.failCommits("the disk is full")
        let running = try await RunningBattle(storage: storage)
        await running.submit(1, taps: 3)
        #expect(try await Wait.until(timeout: 30) { storage.commitsAttempted >= 1 })
        #expect(try await Wait.until(timeout: 30) { try await running.health() == .serviceUnavailable })
        #expect(await running.battle.lastSaveError == "the disk is full")
        try await Task.sleep(for: .milliseconds(300))
        #expect(running.acks.isEmpty, "acknowledged without being saved")

        storage.failCommits(nil)
        #expect(try await Wait.until(timeout: 30) { running.acks.map(\.seq) == [1] })
        #expect(running.acks.first?.accepted == 3)
        #expect(storage.saved.scores == ["A": 3])
        #expect(try await running.health() == .ok)
        try await running.shutDown()
    }

    @Test func aSlowCommitHoldsItsAcksAndWhatArrivesMeanwhileIsSavedInTheNextWindow() async throws {
        let storage = InMemoryBattleStore.Storage()
        storage.delayCommits(.milliseconds(600))
        let running = try await RunningBattle(storage: storage)
        await running.submit(1, taps: 3)
        #expect(try await Wait.until(timeout: 30) { storage.commitsStarted == 1 })
        await running.submit(2, taps: 4)
        try await Task.sleep(for: .milliseconds(150))
        #expect(running.acks.isEmpty, "the first commit is not durable yet")
        #expect(try await Wait.until(timeout: 30) { running.acks.count == 2 })
        #expect(running.acks.map(\.seq) == [1, 2] && running.acks.map(\.accepted) == [3, 4])
        #expect(storage.commitsAttempted == 2, "batch 2 waited for the commit under way, then went in the next")
        #expect(storage.saved.scores == ["A": 7])
        try await running.shutDown()
    }

    /// What `serve`'s minute line says of saves (`ActivityCounts`): the longest save of the
    /// period, as long as the store took, then a new period from nothing.
    @Test func theLongestSaveOfAPeriodIsKeptForTheActivityLine() async throws {
        let storage = InMemoryBattleStore.Storage()
        let running = try await RunningBattle(storage: storage)
        #expect(running.metrics.activity.endPeriod().slowestSave == .zero, "nothing saved yet")
        storage.delayCommits(.milliseconds(300))
        await running.submit(1, taps: 3)
        #expect(try await Wait.until(timeout: 30) { running.acks.count == 1 })
        storage.delayCommits(.zero)
        await running.submit(2, taps: 4)
        #expect(try await Wait.until(timeout: 30) { running.acks.count == 2 })
        let period = running.metrics.activity.endPeriod()
        #expect(period.slowestSave >= .milliseconds(300) && period.slowestSave < .seconds(30))
        #expect(period.taps == 7)
        #expect(running.metrics.activity.endPeriod().slowestSave == .zero, "a new period")
        try await running.shutDown()
    }

    /// Batches reach the hall through a list its thread takes in turns (`submit`), not a call
    /// each: from many connections at once, each is applied once and acknowledged in its
    /// connection's order.
    @Test func batchesFromManyConnectionsAtOnceAreEachSavedOnceInTheirOrder() async throws {
        let running = try await RunningBattle()
        let players = 30, batches: UInt64 = 40
        let others = try await withThrowingTaskGroup(of: (ConnectionID, Inbox).self) { group in
            for player in 0..<players {
                group.addTask {
                    let inbox = Inbox()
                    let (stream, sendQueue) = AsyncStream<Outgoing>.makeStream()
                    let id = try #require(await running.battle.connect(sendQueue: .stream(sendQueue)))
                    Task {
                        for await case let .text(text) in stream {
                            if let message = try? MessageCoding.decodeServer(text) { inbox.messages.withLock { $0.append(message) } }
                        }
                    }
                    let device = "in-process-device-many-\(1_000 + player)"
                    guard case .welcome = await running.battle.hello(id, device: device) else { throw HarnessError("no welcome") }
                    let start = Int64(Date().timeIntervalSince1970 * 1000) - 30_000
                    for seq in 1...batches {
                        await running.battle.submit(ReceivedBatch(connection: id, device: device, player: "p", batch: TapBatch(
                            seq: seq, taps: ["A": 1], playerTaps: 1, switchedToSchool: seq == 1 ? "A" : nil, bestTapsPerSecond: 5,
                            startMs: start + Int64(seq) * 300, endMs: start + Int64(seq) * 300 + 100), address: "127.0.0.\(player % 3)"))
                    }
                    return (id, inbox)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        func acks(_ inbox: Inbox) -> [Acknowledgement] {
            inbox.messages.withLock { $0.compactMap { if case let .ack(ack) = $0 { ack } else { nil } } }
        }
        #expect(try await Wait.until(timeout: 30) { others.allSatisfy { acks($0.1).count == Int(batches) } })
        for (id, inbox) in others {
            #expect(acks(inbox).map(\.seq) == Array(1...batches), "connection \(id): every batch acknowledged once, in order")
            #expect(acks(inbox).map(\.accepted).reduce(0, +) == batches)
        }
        #expect(running.storage.saved.scores == ["A": UInt64(players) * batches])
        try await running.shutDown()
        // Their sockets end, as the harness's own does: their send queues finish.
        for (id, _) in others { await running.battle.disconnect(id) }
    }

    @Test func shutdownSavesAndAcknowledgesWhatArrivedThenSaysGoingAway() async throws {
        let storage = InMemoryBattleStore.Storage()
        storage.delayCommits(.milliseconds(200))
        let running = try await RunningBattle(storage: storage)
        await running.submit(1, taps: 3)
        await running.submit(2, taps: 2)
        try await running.shutDown()
        #expect(running.acks.map(\.seq) == [1, 2])
        #expect(storage.saved.scores == ["A": 5])
        #expect(storage.saved.devices[Self.device]?.lastSeq == 2)
        #expect(running.messages.last == .error(BattleHallRuntime.goingAway))
    }

    /// The battle's time is the clock it is given, not one it reads: a round started through it
    /// starts by that clock, and the player hears of it at once (the start enters the hall as an
    /// event), timed by that clock too.
    @Test func aRoundStartedThroughTheBattleIsTimedByItsClockAndToldAtOnce() async throws {
        let wallMs: Int64 = 1_900_000_000_000
        let clock = BattleClock(now: { .now }, wallMs: { wallMs }, monotonicMs: BattleClock.system.monotonicMs)
        let running = try await RunningBattle(clock: clock)
        let round = try #require(try await running.battle.startRound(title: "clock", seconds: 30))
        #expect(round.startsAtMs == wallMs + Round.countdownMs)
        // Told within the first ticks, well before the next read of the round would have come.
        #expect(try await Wait.until(timeout: 30) { running.messages.contains { if case .round = $0 { true } else { false } } })
        let told = try #require(running.messages.lazy.compactMap { if case let .round(message) = $0 { message } else { nil } }.first)
        #expect(told.id == round.id && told.startsAtMs == round.startsAtMs && told.nowMs >= wallMs && told.nowMs < wallMs + 10_000)
        #expect(try await running.battle.rounds(limit: 5).map(\.id) == [round.id])
        let stopped = try await running.battle.stopRound()
        #expect(stopped?.id == round.id && stopped?.endsAtMs == wallMs)
        try await running.shutDown()
    }

    /// A board stream that reads nothing cannot be queued its first page: it is dropped (an
    /// event that follows the turn which found it full, not one handled inside it) and the battle
    /// runs on for the others.
    @Test func aStreamTooSlowToReadIsDroppedAndTheBattleRunsOn() async throws {
        let running = try await RunningBattle()
        let (stream, sendQueue) = AsyncStream<Outgoing>.makeStream(bufferingPolicy: .bufferingOldest(0))
        let ended = Mutex(false)
        sendQueue.onTermination = { _ in ended.withLock { $0 = true } }
        let page = try #require(try BoardRanking.key(of: Watch(league: LeagueName(), from: 0, count: 11)))
        // An interval after the start, the page goes out in the very turn that opens the stream:
        // dropped then, it was opened all the same.
        try await Task.sleep(for: BattleHall.broadcastInterval + .milliseconds(50))
        _ = try #require(await running.battle.streamPage(page, period: .season, sendQueue: sendQueue))
        #expect(try await Wait.until(timeout: 30) { ended.withLock { $0 } }, "the stream ended by the battle")
        for await _ in stream {}
        await running.submit(1, taps: 3)
        #expect(try await Wait.until(timeout: 30) { running.acks.map(\.seq) == [1] }, "the player is answered as before")
        try await running.shutDown()
    }
}
