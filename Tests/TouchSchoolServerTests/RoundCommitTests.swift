import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// A round counted by the commit that saves its batches: each accepted tap inside the window
/// once, the national totals as always.
@Suite(.onOwnThreads) struct RoundCommitTests {
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
                                       histories: &histories, catalog: catalog, nowMs: now - 900, round: round)
        #expect(before.accepted == 4)
        #expect(before.round.isEmpty)
        let inside = CommitRules.apply([received(2, ["A": 5, "B": 2], startMs: now + 1_000, endMs: now + 2_000)], to: &state,
                                       histories: &histories, catalog: catalog, nowMs: now + 2_100, round: round)
        #expect(inside.accepted == 7)
        #expect(inside.round["d1"] == CommitRules.RoundWindow(bySchool: ["A": 5, "B": 2], reachedMs: now + 2_000))
        let inGrace = CommitRules.apply([received(3, ["A": 3], startMs: now + 59_000, endMs: now + 59_500)], to: &state,
                                        histories: &histories, catalog: catalog, nowMs: now + 64_999, round: round)
        #expect(inGrace.round["d1"]?.counted == 3)
        let late = CommitRules.apply([received(4, ["A": 3], startMs: now + 59_600, endMs: now + 59_900)], to: &state,
                                     histories: &histories, catalog: catalog, nowMs: now + 65_000, round: round)
        #expect(late.accepted == 3)
        #expect(late.round.isEmpty)
        #expect(state.scores == ["A": 15, "B": 2])
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
}
