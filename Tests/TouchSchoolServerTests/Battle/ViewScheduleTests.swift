import Testing
@testable import TouchSchoolServer

/// When the views go out, alone: a slice an interval after its last send, ticks a tick apart, a
/// stale tick waiting for the commit coming, the slice ready the longest first.
@Suite struct ViewScheduleTests {
    typealias T = BattleHallTests

    static let interval = BattleHall.broadcastInterval

    @Test func nothingToSendAsksForNoTick() {
        let schedule = ViewSchedule(slices: 5, now: T.at(0))
        #expect(schedule.nextTick(roundAt: nil, commitComing: true, HallConnections()) == nil)
        #expect(schedule.tickInterval == .milliseconds(50))
    }

    @Test func aSliceGoesAnIntervalAfterItsLastSendAndTicksATickApart() {
        var schedule = ViewSchedule(slices: 5, now: T.at(0))
        schedule.schoolViewDue(1, slice: 2)
        #expect(schedule.readyAt(2, HallConnections()) == T.at(0) + Self.interval)
        #expect(schedule.nextTick(roundAt: nil, commitComing: false, HallConnections()) == T.at(250))
        #expect(schedule.sliceReady(now: T.at(249), HallConnections()) == nil)
        #expect(schedule.sliceReady(now: T.at(250), HallConnections()) == 2)
        let sent = schedule.send(2, now: T.at(250))
        #expect(sent.schoolViewsDue == [1] && !sent.changed)
        schedule.ticked(now: T.at(250))
        // Every slice changed: the next goes a tick after the last tick, not at once.
        schedule.totalsChanged(now: T.at(260))
        #expect(schedule.nextTick(roundAt: nil, commitComing: false, HallConnections()) == T.at(300))
        #expect(schedule.sliceReady(now: T.at(300), HallConnections()) == 0, "the one ready the longest; the first of equals")
        // The round's news ready at once still waits for the tick.
        #expect(schedule.nextTick(roundAt: T.at(100), commitComing: false, HallConnections()) == T.at(300))
    }

    @Test func aStaleTickWaitsForTheCommitComing() {
        var schedule = ViewSchedule(slices: 5, now: T.at(0))
        schedule.totalsChanged(now: T.at(0))
        // The change is a whole interval old at the tick: wait for the commit, a window at most.
        #expect(schedule.nextTick(roundAt: nil, commitComing: true, HallConnections()) == T.at(250) + BattleHall.commitWindow)
        #expect(schedule.nextTick(roundAt: nil, commitComing: false, HallConnections()) == T.at(250))
        // A fresh change (within half a tick of the tick) goes without waiting.
        schedule.totalsChanged(now: T.at(240))
        #expect(schedule.nextTick(roundAt: nil, commitComing: true, HallConnections()) == T.at(250))
    }

    @Test func aHeldPageIsReadyWhenItsBudgetLetsIt() {
        var connections = HallConnections()
        connections.add(1, Connection(kind: .player))
        connections.setNextPageAt(1, T.at(900))
        var schedule = ViewSchedule(slices: 1, now: T.at(0))
        schedule.hold(1, slice: 0)
        #expect(schedule.readyAt(0, connections) == T.at(900))
        schedule.forget(1)
        #expect(schedule.readyAt(0, connections) == nil && schedule.slices[0] == ViewSchedule.Slice(sentAt: T.at(0)))
    }
}
