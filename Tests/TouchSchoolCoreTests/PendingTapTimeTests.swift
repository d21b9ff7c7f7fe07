import Testing
import TouchSchoolTestSupport
import TouchSchoolCore

/// Pending taps know when their first tap was made, so that a batch does not claim the idle time
/// before it (a round would count a race's first taps partly before its start).
@Suite(.onOwnThreads) struct PendingTapTimeTests {
    @Test func mergedChangesKeepTheEarliestFirstTapAndEqualityLeavesTheTimeOut() {
        let earlier = PendingChanges(player: "a", scoreDeltas: ["T0001": 2], playerTaps: 2, firstTapAt: Instant(nanoseconds: 5))
        let later = PendingChanges(player: "a", scoreDeltas: ["T0001": 1], playerTaps: 1, firstTapAt: Instant(nanoseconds: 9))
        #expect(earlier.merged(with: later).firstTapAt == Instant(nanoseconds: 5))
        #expect(later.merged(with: PendingChanges(player: "a")).firstTapAt == Instant(nanoseconds: 9))
        #expect(earlier == PendingChanges(player: "a", scoreDeltas: ["T0001": 2], playerTaps: 2))
    }
}
