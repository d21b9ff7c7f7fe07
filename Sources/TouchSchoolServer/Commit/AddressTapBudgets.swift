import TouchSchoolCore

/// The taps all devices of one address may have accepted together (`AddressLimitPolicy`'s
/// `tapsPerSecond` and `tapBurst`): one `TapBudget` per address, kept in this server's memory
/// (servers sharing a store each keep their own), by the server's clock.
struct AddressTapBudgets: Sendable {
    private let perSecond: UInt64
    private let burst: UInt64
    private var budgets: [String: TapBudget] = [:]
    private var sweptAtMs = Int64.min

    /// How often full budgets are forgotten: memory follows the addresses playing now.
    static let sweepIntervalMs: Int64 = 60_000

    init(policy: AddressLimitPolicy) {
        perSecond = UInt64(policy.tapsPerSecond)
        burst = UInt64(policy.tapBurst)
    }

    /// The taps `address` may still have accepted at `nowMs`.
    func available(to address: String, atMs nowMs: Int64) -> UInt64 {
        budgets[address]?.available(atMs: nowMs) ?? burst
    }

    mutating func spend(_ taps: UInt64, by address: String, atMs nowMs: Int64) {
        guard taps > 0 else { return }
        budgets[address, default: TapBudget(perSecond: perSecond, burst: burst, atMs: nowMs)].spend(taps, atMs: nowMs)
        if nowMs &- sweptAtMs >= Self.sweepIntervalMs {
            // A full budget says nothing a new one would not.
            budgets = budgets.filter { !$0.value.isFull(atMs: nowMs) }
            sweptAtMs = nowMs
        }
    }
}
