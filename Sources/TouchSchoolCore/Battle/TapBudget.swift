/// A budget of taps over a clock of milliseconds: refilled evenly at `perSecond`, holding at most
/// `burst`, spent by what is accepted. Exact integer arithmetic, in thousandths of a tap.
public struct TapBudget: Equatable, Sendable {
    public let perSecond: UInt64
    public let burst: UInt64
    /// Thousandths of a tap held at `atMs`: `perSecond` of them refill every millisecond.
    private var milliTaps: UInt64
    /// The time `milliTaps` was reckoned at; a clock that moves back refills nothing.
    private var atMs: Int64

    /// The largest rate or burst: far beyond any server's, and small enough that thousandths of
    /// it never overflow.
    public static let maximum: UInt64 = 1 << 40

    /// A full budget at `atMs`.
    public init(perSecond: UInt64, burst: UInt64, atMs: Int64) {
        precondition((1...Self.maximum).contains(perSecond) && (1...Self.maximum).contains(burst))
        self.perSecond = perSecond
        self.burst = burst
        milliTaps = burst * 1_000
        self.atMs = atMs
    }

    /// The taps that may be accepted at `ms`.
    public func available(atMs ms: Int64) -> UInt64 { held(at: ms) / 1_000 }

    /// Whether the budget is full at `ms`: it then says nothing a new one would not.
    public func isFull(atMs ms: Int64) -> Bool { held(at: ms) == burst * 1_000 }

    /// Spends `taps` at `ms`, at most what is available.
    public mutating func spend(_ taps: UInt64, atMs ms: Int64) {
        let held = held(at: ms)
        milliTaps = held - min(taps, held / 1_000) * 1_000
        atMs = max(atMs, ms)
    }

    private func held(at ms: Int64) -> UInt64 {
        let capacity = burst * 1_000
        guard ms > atMs else { return milliTaps }
        // A refill longer than it takes to fill the budget fills it: a long absence is not
        // multiplied (nor overflows).
        let elapsed = UInt64(ms - atMs)
        guard elapsed < (capacity - milliTaps) / perSecond + 1 else { return capacity }
        return min(capacity, milliTaps + elapsed * perSecond)
    }
}
