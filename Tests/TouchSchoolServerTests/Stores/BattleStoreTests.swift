import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// What every `BattleStore` promises, run against each: SQLite in a data directory, PostgreSQL,
/// and the in-memory store the battle's own tests use. Serialized: a PostgreSQL cluster per test
/// is enough for a two-core machine.
@Suite(.onOwnThreads, .tags(.postgres), .serialized) struct BattleStoreTests {
    static let now: Int64 = 1_800_000_000_000

    /// Batch `seq` of `device`, a tenth of a second long, the batches a tenth of a second apart.
    static func received(_ seq: UInt64, _ taps: [String: UInt64], device: String = "device-1-aaaaaaaaaaaaaaa", connection: UInt64 = 1,
                         player: String = "민지", switchedTo: String? = nil, best: Int = 5, address: String = "10.0.0.1",
                         client: ClientKind? = nil) -> ReceivedBatch {
        ReceivedBatch(connection: connection, device: device, player: player,
                      batch: TapBatch(seq: seq, taps: taps, playerTaps: taps.values.reduce(0, +), switchedToSchool: switchedTo, bestTapsPerSecond: best,
                                      startMs: now - 10_000 + Int64(seq) * 100, endMs: now - 9_900 + Int64(seq) * 100),
                      address: address, network: address, client: client)
    }

    static func commit(_ store: any BattleStore, _ batches: [ReceivedBatch]) async throws -> CommittedWindow {
        try await store.commit(batches, histories: TapJudges(addresses: .standard), catalog: storeTestCatalog, nowMs: now)
    }

    static func accepted(_ window: CommittedWindow) -> [UInt64?] {
        window.rules.outcomes.map { if case let .acknowledged(ack) = $0 { ack.accepted } else { nil } }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchIsAppliedOnceAndARepeatIsAcknowledgedWithNothing(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let store = fixture.store
            let first = try await Self.commit(store, [Self.received(1, ["A": 3], switchedTo: "A"), Self.received(2, ["A": 2]),
                                                      Self.received(2, ["A": 2])])
            #expect(Self.accepted(first) == [3, 2, 0], "the repeat in the same window counts nothing")
            #expect(first.board.scores == ["A": 5])

            let again = try await Self.commit(store, [Self.received(2, ["A": 2]), Self.received(1, ["A": 3], switchedTo: "A")])
            #expect(again.rules.outcomes == [.acknowledged(Acknowledgement(seq: 2, accepted: 0, refused: 0, player: PlayerState(schoolID: "A", taps: 5, bestTapsPerSecond: 5))),
                                             .acknowledged(Acknowledgement(seq: 1, accepted: 0, refused: 0, player: PlayerState(schoolID: "A", taps: 5, bestTapsPerSecond: 5)))])
            #expect(try await store.board().scores == ["A": 5])
            let (record, player) = try #require(try await store.device("device-1-aaaaaaaaaaaaaaa"))
            #expect(record.lastSeq == 2 && record.player == "민지")
            #expect(player == PlayerRecord(schoolID: "A", taps: 5, bestTapsPerSecond: 5))
        }
    }

    /// Seen before: every repeat forced a save. Now a window of nothing but repeats is
    /// answered from what the store holds, and nothing is written for it.
    @Test(arguments: [StoreKind.sqlite, .sqliteCompacting, .postgres])
    func aWindowOfRepeatsWritesNothing(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let store = fixture.store
            let other = "device-2-bbbbbbbbbbbbbbb"
            _ = try await Self.commit(store, [Self.received(1, ["A": 3], switchedTo: "A"), Self.received(1, ["B": 1], device: other, switchedTo: "B")])
            let before = try #require(try fixture.writeMark())
            let again = try await Self.commit(store, [Self.received(1, ["A": 3], switchedTo: "A"), Self.received(1, ["B": 1], device: other),
                                                      Self.received(1, ["A": 3])])
            #expect(Self.accepted(again) == [0, 0, 0])
            #expect(try fixture.writeMark() == before, "nothing written for repeats")
            // A window with one new batch among repeats writes that device alone.
            let mixed = try await Self.commit(store, [Self.received(1, ["A": 3]), Self.received(2, ["B": 2], device: other)])
            #expect(Self.accepted(mixed) == [0, 2])
            #expect(try fixture.writeMark() != before)
            #expect(try await store.deviceCount() == 2)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func batchesOutOfOrderAreRefusedAndChangeNothing(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let store = fixture.store
            _ = try await Self.commit(store, [Self.received(1, ["B": 4], switchedTo: "B")])
            let gap = try await Self.commit(store, [Self.received(3, ["B": 1], connection: 7), Self.received(2, ["B": 1], connection: 7)])
            #expect(gap.rules.outcomes == [.outOfOrder(expected: 2), .outOfOrder(expected: 2)], "a connection out of order is stopped")
            #expect(try await store.board().scores == ["B": 4])
            #expect(try await store.device("device-1-aaaaaaaaaaaaaaa")?.0.lastSeq == 1)
            // The next number, on a new connection, is applied.
            #expect(Self.accepted(try await Self.commit(store, [Self.received(2, ["B": 1], connection: 8)])) == [1])
            #expect(try await store.board().scores == ["B": 5])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedCommitChangesNothingAndTheSameWindowCountsOnceAfter(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let store = fixture.store
            _ = try await Self.commit(store, [Self.received(1, ["A": 3], switchedTo: "A")])
            let before = try await store.board()
            let window = [Self.received(2, ["A": 2]), Self.received(1, ["B": 4], device: "device-2-bbbbbbbbbbbbbbb", switchedTo: "B")]

            try await fixture.failCommits(true)
            await #expect(throws: BattleStoreError.self) { try await Self.commit(store, window) }
            try await fixture.failCommits(false)
            #expect(try await store.board() == before)
            #expect(try await store.device("device-1-aaaaaaaaaaaaaaa")?.0.lastSeq == 1)
            #expect(try await store.device("device-2-bbbbbbbbbbbbbbb") == nil)

            // The battle commits the same window again: each batch counted once.
            #expect(Self.accepted(try await Self.commit(store, window)) == [2, 4])
            #expect(try await store.board().scores == ["A": 5, "B": 4])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRestartedStoreSeesEverythingCommitted(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let store = fixture.store
            _ = try await Self.commit(store, [Self.received(1, ["A": 3], switchedTo: "A"),
                                              Self.received(1, ["C": 2], device: "device-2-bbbbbbbbbbbbbbb", player: "bob", switchedTo: "C")])
            _ = try await Self.commit(store, [Self.received(2, ["A": 1], best: 7)])
            let board = try await store.board()
            let battle = try await store.battleID()

            let restarted = try await fixture.restarted()
            #expect(try await restarted.battleID() == battle)
            #expect(try await restarted.board() == board)
            #expect(board.scores == ["A": 4, "C": 2])
            let (first, firstPlayer) = try #require(try await restarted.device("device-1-aaaaaaaaaaaaaaa"))
            #expect(first == DeviceRecord(lastSeq: 2, player: "민지", lastEndMs: Self.now - 9_700), "the end of batch 2, for the judge")
            #expect(firstPlayer == PlayerRecord(schoolID: "A", taps: 4, bestTapsPerSecond: 7))
            #expect(try await restarted.device("device-2-bbbbbbbbbbbbbbb")?.1 == PlayerRecord(schoolID: "C", taps: 2, bestTapsPerSecond: 5))
            // And it goes on from there: batch 2 again is a repeat, 3 is new.
            #expect(Self.accepted(try await Self.commit(restarted, [Self.received(2, ["A": 1]), Self.received(3, ["A": 1])])) == [0, 1])
        }
    }

    /// Windows of new batches and repeats, with restarts between them: on `sqliteCompacting`
    /// they cross compactions (every 3 rows of `device_changes`), some devices in the tables,
    /// some in the changes, some in both. Each batch counts once; every device, its player and
    /// the totals read the same from the store running on and from a restarted one.
    @Test(arguments: StoreKind.allCases)
    func windowsAcrossCompactionsAndRestartsCountEachBatchOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let (one, two, three) = ("device-1-aaaaaaaaaaaaaaa", "device-2-bbbbbbbbbbbbbbb", "device-3-ccccccccccccccc")
            var store = fixture.store
            for round: UInt64 in 1...7 {
                var window = [Self.received(round, ["A": 1], device: one, switchedTo: round == 1 ? "A" : nil),
                              Self.received(round, ["B": 2], device: two, player: "bob", switchedTo: round == 1 ? "B" : nil)]
                if round > 1 { window.append(Self.received(round - 1, ["A": 1], device: one)) }
                // The third device plays every third round: its rows lie where an earlier compaction left them.
                if round % 3 == 1 { window.append(Self.received(round / 3 + 1, ["C": 3], device: three, player: "cy", switchedTo: round == 1 ? "C" : nil)) }
                let accepted = Self.accepted(try await Self.commit(store, window))
                #expect(accepted == [1, 2] + (round > 1 ? [0] : []) + (round % 3 == 1 ? [3] : []), "round \(round)")
                if round % 2 == 0 { store = try await fixture.restarted() }
            }
            for reader in [store, try await fixture.restarted()] {
                #expect(try await reader.board().scores == ["A": 7, "B": 14, "C": 9])
                let (first, firstPlayer) = try #require(try await reader.device(one))
                #expect(first == DeviceRecord(lastSeq: 7, player: "민지", lastEndMs: Self.now - 9_200))
                #expect(firstPlayer == PlayerRecord(schoolID: "A", taps: 7, bestTapsPerSecond: 5))
                #expect(try await reader.device(two)?.1 == PlayerRecord(schoolID: "B", taps: 14, bestTapsPerSecond: 5))
                #expect(try await reader.device(three)?.0.lastSeq == 3)
                #expect(try await reader.deviceCount() == 3)
            }
        }
    }

    /// The largest window the battle commits (`Battle.commitBatchLimit`), from as many devices
    /// with the longest keys and names, and a best speed beyond belief.
    @Test(arguments: StoreKind.allCases)
    func theLargestWindowTheLongestKeysAndNamesAndAnUnbelievableBest(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let store = fixture.store
            let name = String(repeating: "학", count: 32)
            let keys = (0..<2_000).map { index in String(String(index).padding(toLength: 64, withPad: "-_aZ09", startingAt: 0).prefix(64)) }
            let window = keys.map { Self.received(1, ["B": 1], device: $0, player: name, switchedTo: "B", best: 10_000) }
            let committed = try await Self.commit(store, window)
            #expect(committed.rules.outcomes.count == 2_000 && Self.accepted(committed).allSatisfy { $0 == 1 })
            #expect(committed.board.scores == ["B": 2_000])

            let restarted = try await fixture.restarted()
            #expect(try await restarted.board().scores == ["B": 2_000])
            let (record, player) = try #require(try await restarted.device(keys[1_999]))
            #expect(record.lastSeq == 1 && record.player == name && keys[1_999].count == 64)
            #expect(player == PlayerRecord(schoolID: "B", taps: 1, bestTapsPerSecond: 230), "no more than the guard lets through in a burst window")
        }
    }
}
