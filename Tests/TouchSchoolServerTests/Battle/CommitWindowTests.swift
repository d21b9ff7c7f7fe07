import Testing
@testable import TouchSchoolServer

/// The commit window alone: when the next commit may start, what it takes, what a failure puts back.
@Suite struct CommitWindowTests {
    typealias T = BattleHallTests

    @Test func theWindowRunsFromTheOldestBatchAndFromTheLastStart() {
        var window = CommitWindow()
        #expect(window.due(now: T.at(0), final: false) == nil, "nothing waits")
        window.add(T.batch(1, "device-1", seq: 1, taps: 1), now: T.at(10))
        window.add(T.batch(2, "device-2", seq: 1, taps: 1), now: T.at(30))
        #expect(window.due(now: T.at(30), final: false) == T.at(60))
        let started = window.start(now: T.at(60), final: false)
        #expect(started.map(\.device) == ["device-1", "device-2"])
        #expect(window.inFlight == ["device-1", "device-2"] && window.pending.isEmpty && window.commitComing)
        window.add(T.batch(1, "device-1", seq: 2, taps: 1), now: T.at(65))
        #expect(window.due(now: T.at(65), final: false) == nil, "one commit at a time")
        let saved = window.saved()
        #expect(saved?.count == 2)
        // A window after the last start (110) and after the oldest batch (115): the later.
        #expect(window.due(now: T.at(80), final: false) == T.at(115))
    }

    @Test func aFullWindowIsDueAtOnce() {
        var window = CommitWindow()
        for seq in 1...BattleHall.commitBatchLimit { window.add(T.batch(1, "device-1", seq: UInt64(seq), taps: 1), now: T.at(0)) }
        #expect(window.due(now: T.at(1), final: false) == T.at(1))
    }

    @Test func aFailedCommitPutsItsBatchesBackFirstAndWaitsItsRetry() {
        var window = CommitWindow()
        window.add(T.batch(1, "device-1", seq: 1, taps: 1), now: T.at(0))
        _ = window.start(now: T.at(50), final: false)
        window.add(T.batch(2, "device-2", seq: 1, taps: 1), now: T.at(60))
        #expect(window.holds(device: "device-1") && window.holds(device: "device-2") && !window.holds(device: "device-3"))
        let failed = window.failed(now: T.at(70))
        #expect(failed)
        #expect(window.pending.map(\.device) == ["device-1", "device-2"] && window.pendingSince == T.at(0) && window.inFlight.isEmpty)
        #expect(window.due(now: T.at(80), final: false) == T.at(70) + BattleHall.retryDelay)
        let failedAgain = window.failed(now: T.at(90))
        #expect(!failedAgain, "none under way")
    }

    @Test func theFinalSaveIsTriedItsTimesThenGivenUp() {
        var window = CommitWindow()
        window.add(T.batch(1, "device-1", seq: 1, taps: 1), now: T.at(0))
        var now = 0
        for _ in 0..<BattleHall.finalTries {
            let due = window.due(now: T.at(now), final: true)
            #expect(due != nil && due! <= T.at(now) + BattleHall.finalRetryDelay, "no commit window for the final save")
            _ = window.start(now: T.at(now), final: true)
            let failed = window.failed(now: T.at(now + 10))
            #expect(failed)
            now += 10 + 200
        }
        #expect(window.due(now: T.at(now), final: true) == nil)
        #expect(window.pending.count == 1, "never saved, never acknowledged")
    }

    @Test func aClosedConnectionsBatchesAreDropped() {
        var window = CommitWindow()
        window.add(T.batch(1, "device-1", seq: 1, taps: 1), now: T.at(0))
        window.add(T.batch(1, "device-1", seq: 2, taps: 1), now: T.at(5))
        window.drop(connection: 1)
        #expect(window.pending.isEmpty && window.pendingSince == nil && window.due(now: T.at(100), final: false) == nil)
    }
}
