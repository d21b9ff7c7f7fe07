import Testing
import TouchSchoolTestSupport
import TouchSchoolCore

@Suite(.onOwnThreads) struct TapCounterTests {
    @Test func countsSessionAndMyTaps() {
        var counter = TapCounter(myTaps: 40, bestTapsPerSecond: 3)
        for tap in 0..<5 { counter.record(at: .seconds(Double(tap))) }
        #expect(counter.sessionTaps == 5)
        #expect(counter.myTaps == 45)
        counter.restartMyCount()
        #expect(counter.myTaps == 0)
        #expect(counter.sessionTaps == 5)
        counter.record(at: .seconds(10))
        #expect(counter.myTaps == 1)
        #expect(counter.sessionTaps == 6)
        #expect(counter.bestTapsPerSecond == 3)
    }

    @Test func myTapsSaturate() {
        var counter = TapCounter(myTaps: .max - 1)
        counter.record(at: .milliseconds(0))
        counter.record(at: .milliseconds(100))
        #expect(counter.myTaps == .max)
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func speedIsTheTapsOfTheLastSecond(seed: UInt64) {
        var generator = RandomSource(seed: seed)
        var counter = TapCounter()
        var times: [Int64] = []
        var best = 0
        var now: Int64 = 0
        func tapsInLastSecond(at now: Int64) -> Int { times.suffix(300).filter { now - $0 < 1_000_000_000 }.count }
        for _ in 0..<3_000 {
            // Bursts and pauses, never faster than the guard lets through (4 ms apart: 250 a second).
            now += Int.random(in: 0..<20, using: &generator) != 0
                ? Int64.random(in: 4_000_000...12_000_000, using: &generator)
                : Int64.random(in: 50_000_000...1_500_000_000, using: &generator)
            times.append(now)
            counter.record(at: Instant(nanoseconds: now))
            best = max(best, tapsInLastSecond(at: now))
            #expect(counter.bestTapsPerSecond == best)
            let later = now + Int64.random(in: 0...1_200_000_000, using: &generator)
            #expect(counter.tapsPerSecond(at: Instant(nanoseconds: later)) == tapsInLastSecond(at: later))
        }
        #expect(best > 50)
    }

    @Test func aTapExactlyOneSecondAgoIsOut() {
        var counter = TapCounter()
        counter.record(at: .milliseconds(0))
        counter.record(at: .milliseconds(500))
        #expect(counter.tapsPerSecond(at: .milliseconds(999)) == 2)
        #expect(counter.tapsPerSecond(at: .milliseconds(1_000)) == 1)
        #expect(counter.tapsPerSecond(at: .milliseconds(1_500)) == 0)
        #expect(counter.bestTapsPerSecond == 2)
    }

    @Test func speedIsCappedAtTheRecentCapacity() {
        var counter = TapCounter()
        for _ in 0..<1_000 { counter.record(at: .milliseconds(7)) }
        #expect(counter.tapsPerSecond(at: .milliseconds(7)) == TapCounter.recentCapacity)
        #expect(counter.bestTapsPerSecond == TapCounter.recentCapacity)
        #expect(counter.sessionTaps == 1_000)
    }
}
