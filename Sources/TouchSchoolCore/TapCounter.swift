// CONTRACT STUB — owned by the battle-core work; replace the bodies, keep the signatures.

/// My taps: this session, since I chose my school, and my speed.
public struct TapCounter: Sendable, Equatable {
    public private(set) var sessionTaps: UInt64
    /// Since I chose my current school; restarts from 0 when I switch (as in the original).
    public private(set) var myTaps: UInt64
    public private(set) var bestTapsPerSecond: Int

    public init(myTaps: UInt64 = 0, bestTapsPerSecond: Int = 0) { fatalError("TapCounter not implemented yet") }

    /// One counted tap at `now`. Saturating.
    public mutating func record(at now: Instant) { fatalError() }
    /// Taps in the last second before `now`.
    public func tapsPerSecond(at now: Instant) -> Int { fatalError() }
    public mutating func restartMyCount() { fatalError() }
}
