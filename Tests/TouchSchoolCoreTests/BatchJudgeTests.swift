import Testing
import TouchSchoolTestSupport
import TouchSchoolCore

/// The server's judge of a device's batches, with the server's time passed in.
@Suite(.onOwnThreads) struct BatchJudgeTests {
    /// The policy's numbers, written out: a change to them must show here.
    let hourCap: UInt64 = 36_000
    let minuteCap: UInt64 = 1_500
    let burstCap: UInt64 = 230
    /// A time on a whole minute, so that the minutes below are the judge's own.
    let start: Int64 = 1_800_000_000_000 - 1_800_000_000_000 % 60_000

    /// A key idle for a day claims the day at the fastest pace the 5-second and minute rules let
    /// through, in 5-second batches, all judged on its return: an hour's cap and no more.
    @Test func aDayAwayClaimsAtMostTheHoursCap() {
        var history = DeviceTapHistory(firstSeenMs: start)
        let back = start + 86_400_000
        var accepted: UInt64 = 0
        for batch in 0..<Int64(86_400 / 5) {
            accepted += history.judge(taps: 230, startMs: start + batch * 5_000, endMs: start + (batch + 1) * 5_000, nowMs: back).accepted
        }
        #expect(accepted == hourCap)
        // One batch claiming the whole day at once gets no more than one burst window.
        var whole = DeviceTapHistory(firstSeenMs: start)
        #expect(whole.judge(taps: 4_000_000, startMs: start, endMs: back, nowMs: back).accepted == burstCap)
    }

    /// Live play at the 5-second rule's pace (46 taps a second, a batch a second): every minute
    /// counts 1,500 taps and no more.
    @Test func atMostFifteenHundredInAMinute() {
        var history = DeviceTapHistory(firstSeenMs: start)
        var byMinute: [Int64: UInt64] = [:]
        for second in Int64(1)...300 {
            let end = start + second * 1_000
            byMinute[(end - start) / 60_000, default: 0] += history.judge(taps: 46, startMs: end - 1_000, endMs: end, nowMs: end).accepted
        }
        #expect((0..<5).map { byMinute[$0] ?? 0 } == Array(repeating: minuteCap, count: 5))
    }

    /// A real player's offline session of 50 minutes, 10 taps a second in one-second batches,
    /// delivered at once when the network is back, counts in full; 90 minutes count up to the cap.
    @Test func anHonestLongOfflineSessionCountsInFullUpToTheCap() {
        func session(minutes: Int64) -> (accepted: UInt64, refused: UInt64) {
            var history = DeviceTapHistory(firstSeenMs: start)
            let back = start + minutes * 60_000 + 1_000
            var total: (accepted: UInt64, refused: UInt64) = (0, 0)
            for second in 0..<minutes * 60 {
                let verdict = history.judge(taps: 10, startMs: start + second * 1_000, endMs: start + second * 1_000 + 900, nowMs: back)
                total = (total.accepted + verdict.accepted, total.refused + verdict.refused)
            }
            return total
        }
        let fifty = session(minutes: 50)
        #expect(fifty.accepted == 30_000 && fifty.refused == 0)
        let ninety = session(minutes: 90)
        #expect(ninety.accepted == hourCap && ninety.refused == 54_000 - hourCap)
    }

    /// The hour is the server's: once an hour has passed since the cap was reached, another
    /// hour's worth is accepted again.
    @Test func theHoursCapRefillsWithTheServersClock() {
        var history = DeviceTapHistory(firstSeenMs: start)
        var claimed = start
        func claim(_ batches: Int, at nowMs: Int64) -> UInt64 {
            var accepted: UInt64 = 0
            for _ in 0..<batches {
                accepted += history.judge(taps: 230, startMs: claimed, endMs: claimed + 5_000, nowMs: nowMs).accepted
                claimed += 5_000
            }
            return accepted
        }
        let now = start + 86_400_000
        #expect(claim(2_000, at: now) == hourCap)
        #expect(claim(100, at: now + 30 * 60_000) == 0)
        #expect(claim(2_000, at: now + 61 * 60_000) == hourCap)
    }

    /// The budget an address's devices share: a burst at once, then the rate.
    @Test func aTapBudgetGrantsItsBurstThenItsRate() {
        var budget = TapBudget(perSecond: 2_000, burst: 10_000, atMs: start)
        #expect(budget.available(atMs: start) == 10_000)
        budget.spend(10_000, atMs: start)
        #expect(budget.available(atMs: start) == 0)
        #expect(budget.available(atMs: start + 250) == 500)
        #expect(budget.available(atMs: start + 86_400_000) == 10_000, "a day away fills it, no more")
        budget.spend(400, atMs: start + 250)
        #expect(budget.available(atMs: start + 250) == 100)
        #expect(budget.available(atMs: start + 100) == 100, "a clock moving back refills nothing")
        #expect(!budget.isFull(atMs: start + 1_000) && budget.isFull(atMs: start + 5_200))
    }
}
