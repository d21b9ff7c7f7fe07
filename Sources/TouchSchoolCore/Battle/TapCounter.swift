/// My taps: this session, since I chose my school, and my speed.
public struct TapCounter: Sendable, Equatable {
    /// How many recent tap times are kept for the speed: more than `TapGuard` ever counts in one
    /// second (its burst limit, 230), so the speed is exact for counted taps. Faster recording
    /// reads as this many taps a second.
    public static let recentCapacity = 256
    private static let secondNanoseconds: Int64 = 1_000_000_000

    public private(set) var sessionTaps: UInt64
    /// Since I chose my current school; restarts from 0 when I switch (as in the original).
    public private(set) var myTaps: UInt64
    public private(set) var bestTapsPerSecond: Int

    /// The times of the last `recentCapacity` taps, tap number `k` in slot `k % recentCapacity`.
    private var recentTimes: ContiguousArray<Int64>
    /// How many taps were ever recorded (the next tap's number).
    private var recorded = 0
    /// The number of the first tap still inside the last second at the latest `record`: taps
    /// before it never count again, so each `record` moves it forward by O(1) amortized.
    private var firstInLastSecond = 0

    public init(myTaps: UInt64 = 0, bestTapsPerSecond: Int = 0) {
        self.sessionTaps = 0
        self.myTaps = myTaps
        self.bestTapsPerSecond = bestTapsPerSecond
        self.recentTimes = ContiguousArray(repeating: 0, count: Self.recentCapacity)
    }

    /// One counted tap at `now`. Saturating.
    public mutating func record(at now: Instant) {
        sessionTaps = sessionTaps == .max ? .max : sessionTaps + 1
        myTaps = myTaps == .max ? .max : myTaps + 1
        recentTimes[recorded % Self.recentCapacity] = now.nanoseconds
        recorded += 1
        firstInLastSecond = max(firstInLastSecond, recorded - Self.recentCapacity)
        while now.nanoseconds - recentTimes[firstInLastSecond % Self.recentCapacity] >= Self.secondNanoseconds {
            firstInLastSecond += 1
        }
        bestTapsPerSecond = max(bestTapsPerSecond, recorded - firstInLastSecond)
    }

    /// Taps in the last second before `now`: those less than one second old (a tap exactly one
    /// second ago is out). Binary search over the kept times: O(log recentCapacity).
    public func tapsPerSecond(at now: Instant) -> Int {
        // Tap times only grow, so the taps still inside the second are a suffix of the kept ones.
        var low = max(firstInLastSecond, recorded - Self.recentCapacity)
        var high = recorded
        while low < high {
            let middle = (low + high) / 2
            if now.nanoseconds - recentTimes[middle % Self.recentCapacity] >= Self.secondNanoseconds {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return recorded - low
    }

    public mutating func restartMyCount() { myTaps = 0 }

    /// My taps as the store counts them (a reset elsewhere brings them down).
    public mutating func setMyTaps(_ taps: UInt64) { myTaps = taps }
}
