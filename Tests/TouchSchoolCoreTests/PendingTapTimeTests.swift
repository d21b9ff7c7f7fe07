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

/// A batch claims the time before its first tap only as far as the server's judge needs for its
/// taps: judged over the claim, every tap is accepted, and none is placed before the first tap
/// needlessly (a round counts a batch's taps spread over its claim).
@Suite struct BatchStartTests {
    @Test func theClaimReachesBackOnlyAsFarAsTheJudgeNeeds() {
        let policy = TapGuardPolicy.standard
        // Up to a chord's worth of taps: from the first tap (the round counts them all from there).
        #expect(BattleRules.batchStartMs(after: 1_000, firstTapMs: 1_400, taps: 6, nowMs: 1_450) == 1_400)
        // 16 taps: 10 past the chord at 230 per 5 s take 218 ms (rounded up): from 218 ms before now.
        #expect(BattleRules.batchStartMs(after: 1_000, firstTapMs: 1_400, taps: 16, nowMs: 1_450) == 1_450 - 218)
        // Never before the previous batch's end, nor without a first tap known.
        #expect(BattleRules.batchStartMs(after: 1_300, firstTapMs: 1_400, taps: 60, nowMs: 1_450) == 1_300)
        #expect(BattleRules.batchStartMs(after: 1_000, firstTapMs: nil, taps: 3, nowMs: 1_450) == 1_000)
        // Whatever the count, the judge takes them all over the claim (the rate is the policy's own).
        for taps in [1, 6, 7, 20, 46, 100] as [UInt64] {
            let start = BattleRules.batchStartMs(after: 0, firstTapMs: 9_900, taps: taps, nowMs: 10_000, policy: policy)
            var judge = DeviceTapHistory(firstSeenMs: 0, policy: policy)
            #expect(judge.judge(taps: taps, startMs: start, endMs: 10_000, nowMs: 10_000).accepted == taps, "\(taps) taps from \(start)")
        }
    }
}
