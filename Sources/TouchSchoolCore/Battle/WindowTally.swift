/// Taps counted in a window that moves with a clock of milliseconds, kept in `slotCount` slots of
/// equal length: constant memory, and work bounded by `slotCount` per move.
///
/// The window is the newest `slotCount` slots, which span at most its length: whoever keeps to
/// "at most L in any window" is never counted above L. In every window aligned to the slots the
/// limit holds exactly; a window straddling two aligned ones may hold up to twice the limit, never
/// more (the price of not keeping every batch).
struct WindowTally: Equatable, Sendable {
    private let slotMs: Int64
    private var slots: ContiguousArray<UInt32>
    /// The number of the newest slot (milliseconds / `slotMs`).
    private var newest: Int64
    /// The taps in the window.
    private(set) var total: UInt64 = 0

    init(windowMs: Int64, slotCount: Int, atMs: Int64) {
        precondition(slotCount >= 1 && windowMs >= Int64(slotCount))
        slotMs = windowMs / Int64(slotCount)
        slots = ContiguousArray(repeating: 0, count: slotCount)
        newest = Self.floorDivide(atMs, slotMs)
    }

    /// Moves the window on so that its newest slot holds `ms`; a time before it changes nothing
    /// (the clock never moves the window back).
    mutating func advance(to ms: Int64) {
        let slot = Self.floorDivide(ms, slotMs)
        guard slot > newest else { return }
        let steps = min(slot - newest, Int64(slots.count))
        for step in 1...steps {
            let index = self.index(newest + step)
            total -= UInt64(slots[index])
            slots[index] = 0
        }
        newest = slot
    }

    /// Counts `taps` in the newest slot; the caller keeps them within its limit, which fits a slot.
    mutating func add(_ taps: UInt64) {
        guard taps > 0 else { return }
        let index = self.index(newest)
        slots[index] = UInt32(clamping: UInt64(slots[index]) + taps)
        total += taps
    }

    private func index(_ slot: Int64) -> Int {
        let count = Int64(slots.count)
        return Int(((slot % count) + count) % count)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
