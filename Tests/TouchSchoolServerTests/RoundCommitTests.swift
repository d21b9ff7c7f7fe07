import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// A round counted by the commit that saves its batches: each accepted tap inside the window
/// once, the national totals as always.
@Suite(.onOwnThreads, .tags(.postgres)) struct RoundCommitTests {
    let catalog = storeTestCatalog
    /// The round's window: [now, now + 60 s).
    let now: Int64 = 1_800_000_000_000
    var round: Round { Round(id: 7, title: nil, startsAtMs: now, endsAtMs: now + 60_000) }

    func received(_ seq: UInt64, _ taps: [String: UInt64], device: String = "d1", switchedTo: String? = "A",
                  startMs: Int64, endMs: Int64) -> ReceivedBatch {
        ReceivedBatch(connection: 1, device: device, player: "p\(device)",
                      batch: TapBatch(seq: seq, taps: taps, playerTaps: taps.values.reduce(0, +), switchedToSchool: switchedTo,
                                      bestTapsPerSecond: 5, startMs: startMs, endMs: endMs),
                      address: "10.0.0.\(device.count)")
    }

    /// Taps before the window count for the totals only; inside, for both; a batch arriving in
    /// the grace still counts, one arriving after it counts for the totals only.
    @Test func theRulesCountTheTapsInsideTheWindow() {
        var state = SavedState()
        var histories = TapJudges(addresses: .standard)
        let before = CommitRules.apply([received(1, ["A": 4], startMs: now - 2_000, endMs: now - 1_000)], to: &state,
                                       histories: &histories, catalog: catalog, nowMs: now - 900, rounds: [round])
        #expect(before.accepted == 4)
        #expect(before.rounds.isEmpty)
        let inside = CommitRules.apply([received(2, ["A": 5, "B": 2], startMs: now + 1_000, endMs: now + 2_000)], to: &state,
                                       histories: &histories, catalog: catalog, nowMs: now + 2_100, rounds: [round])
        #expect(inside.accepted == 7)
        #expect(inside.rounds[7]?["d1"] == CommitRules.RoundWindow(bySchool: ["A": 5, "B": 2], reachedMs: now + 2_000))
        let inGrace = CommitRules.apply([received(3, ["A": 3], startMs: now + 59_000, endMs: now + 59_500)], to: &state,
                                        histories: &histories, catalog: catalog, nowMs: now + 64_999, rounds: [round])
        #expect(inGrace.rounds[7]?["d1"]?.counted == 3)
        let late = CommitRules.apply([received(4, ["A": 3], startMs: now + 59_600, endMs: now + 59_900)], to: &state,
                                     histories: &histories, catalog: catalog, nowMs: now + 65_000, rounds: [round])
        #expect(late.accepted == 3)
        #expect(late.rounds.isEmpty)
        #expect(state.scores == ["A": 15, "B": 2])
    }

    /// Issue 48: a round the next start closed keeps its grace. A batch made in its window and
    /// received after that start counts in it; one spanning both windows counts its share in each.
    @Test func aClosedRoundKeepsItsGraceBesideTheNextOne() {
        let closed = Round(id: 7, title: nil, startsAtMs: now, endsAtMs: now + 10_000)
        let next = Round(id: 8, title: nil, startsAtMs: now + 13_000, endsAtMs: now + 43_000)
        var state = SavedState()
        var histories = TapJudges(addresses: .standard)
        let inFlight = CommitRules.apply([received(1, ["A": 4], startMs: now + 8_200, endMs: now + 9_000)], to: &state,
                                         histories: &histories, catalog: catalog, nowMs: now + 10_500, rounds: [closed, next])
        #expect(inFlight.rounds == [7: ["d1": CommitRules.RoundWindow(bySchool: ["A": 4], reachedMs: now + 9_000)]])
        // 10 taps over [9 s, 14 s): 1 s of them in the closed window, 1 s in the next one's.
        let spanning = CommitRules.apply([received(2, ["A": 10], startMs: now + 9_000, endMs: now + 14_000)], to: &state,
                                         histories: &histories, catalog: catalog, nowMs: now + 14_900, rounds: [closed, next])
        #expect(spanning.accepted == 10)
        #expect(spanning.rounds == [7: ["d1": CommitRules.RoundWindow(bySchool: ["A": 2], reachedMs: now + 10_000)],
                                    8: ["d1": CommitRules.RoundWindow(bySchool: ["A": 2], reachedMs: now + 14_000)]])
        // Past the closed round's grace, only the next one counts.
        let after = CommitRules.apply([received(3, ["A": 2], startMs: now + 14_000, endMs: now + 15_000)], to: &state,
                                      histories: &histories, catalog: catalog, nowMs: now + 15_000, rounds: [closed, next])
        #expect(after.rounds.keys.sorted() == [8])
    }

    /// The rounds a commit reads: the newest ones still in their window or grace, oldest first,
    /// read further while every round read still takes batches.
    @Test func theRoundsTakingBatchesAreTheNewestOpenOnes() {
        let rounds = [Round(id: 3, title: nil, startsAtMs: now + 13_000, endsAtMs: now + 43_000),
                      Round(id: 2, title: nil, startsAtMs: now + 12_000, endsAtMs: now + 12_000),
                      Round(id: 1, title: nil, startsAtMs: now, endsAtMs: now + 10_000)]
        #expect(CommitTransaction.roundsTakingBatches(newestFirst: rounds, limit: 3, atMs: now + 14_000) == nil)
        #expect(CommitTransaction.roundsTakingBatches(newestFirst: rounds, limit: 4, atMs: now + 14_000)?.map(\.id) == [1, 2, 3])
        #expect(CommitTransaction.roundsTakingBatches(newestFirst: Array(rounds.prefix(2)), limit: 2, atMs: now + 14_000) == nil)
        #expect(CommitTransaction.roundsTakingBatches(newestFirst: rounds, limit: 3, atMs: now + 16_000)?.map(\.id) == [2, 3])
        #expect(CommitTransaction.roundsTakingBatches(newestFirst: rounds, limit: 3, atMs: now + 48_000)?.isEmpty == true)
    }

    /// A batch saved, then sent again (its acknowledgement lost) through another store on the same
    /// storage (another server of the database), is counted by the round once.
    @Test(arguments: [StoreKind.sqlite, .sqliteCompacting, .postgres, .memory])
    func aRetriedBatchCountsOnceInTheStore(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let rounds = try #require(fixture.store as? any RoundStore)
            let started = try #require(try await rounds.startRound(title: nil, seconds: 60, nowMs: now - Round.countdownMs))
            #expect(started.startsAtMs == now)
            let other = try await fixture.restarted()
            let batch = received(1, ["A": 6], startMs: now + 1_000, endMs: now + 2_000)
            _ = try await fixture.store.commit([batch], histories: TapJudges(addresses: .standard), catalog: catalog, nowMs: now + 2_100)
            _ = try await other.commit([batch], histories: TapJudges(addresses: .standard), catalog: catalog, nowMs: now + 2_200)
            let second = received(2, ["A": 2], startMs: now + 3_000, endMs: now + 3_500)
            _ = try await other.commit([second, received(1, ["B": 1], device: "d2", startMs: now + 3_000, endMs: now + 3_100)],
                                       histories: TapJudges(addresses: .standard), catalog: catalog, nowMs: now + 3_600)
            let (_, counts) = try #require(try await rounds.round(started.id))
            #expect(counts.map(\.device) == ["d1", "d2"])
            #expect(counts.map(\.bySchool) == [["A": 8], ["B": 1]])
            #expect(counts.first?.reachedMs == now + 3_500)
            #expect(counts.first?.school == "A")
            #expect(try await fixture.store.board().scores == ["A": 8, "B": 1])
        }
    }

    /// Issue 48: a batch made inside a round that the next start closed, still in flight when
    /// that start was saved, lands in the closed round's grace: it counts there, in every store
    /// (the next round's window has not opened, so it counts nowhere else).
    @Test(arguments: [StoreKind.sqlite, .sqliteCompacting, .postgres, .memory])
    func aBatchInTheClosedRoundsGraceCountsThereAfterTheNextStart(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let rounds = fixture.store
            let first = try #require(try await rounds.startRound(title: nil, seconds: 60, nowMs: now - Round.countdownMs))
            let next = try #require(try await rounds.startRound(title: nil, seconds: 30, nowMs: now + 10_000))
            let late = received(1, ["A": 4], startMs: now + 9_000, endMs: now + 9_800)
            _ = try await fixture.store.commit([late], histories: TapJudges(addresses: .standard), catalog: catalog, nowMs: now + 10_500)
            let (closed, counts) = try #require(try await rounds.round(first.id))
            #expect(closed.endsAtMs == now + 10_000)
            #expect(counts.map(\.bySchool) == [["A": 4]])
            #expect(counts.map(\.reachedMs) == [now + 9_800])
            #expect(try await rounds.round(next.id)?.1.isEmpty == true)
            #expect(try await fixture.store.board().scores == ["A": 4])
        }
    }
}
