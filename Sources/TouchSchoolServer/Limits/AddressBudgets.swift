import TouchSchoolCore

/// A budget per address, all of one rate and burst (`TapBudget`, in whatever unit its owner
/// spends: taps accepted, requests answered), kept in this server's memory (servers sharing a
/// store each keep their own), by the server's clock.
struct AddressBudgets: Sendable {
    private let perSecond: UInt64
    private let burst: UInt64
    private var budgets: [String: TapBudget] = [:]
    private var sweptAtMs = Int64.min

    /// How often full budgets are forgotten: memory follows the addresses active now.
    static let sweepIntervalMs: Int64 = 60_000

    init(perSecond: Int, burst: Int) {
        self.perSecond = UInt64(perSecond)
        self.burst = UInt64(burst)
    }

    /// What `address` may still spend at `nowMs`.
    func available(to address: String, atMs nowMs: Int64) -> UInt64 {
        budgets[address]?.available(atMs: nowMs) ?? burst
    }

    mutating func spend(_ amount: UInt64, by address: String, atMs nowMs: Int64) {
        guard amount > 0 else { return }
        budgets[address, default: TapBudget(perSecond: perSecond, burst: burst, atMs: nowMs)].spend(amount, atMs: nowMs)
        if nowMs &- sweptAtMs >= Self.sweepIntervalMs {
            // A full budget says nothing a new one would not.
            budgets = budgets.filter { !$0.value.isFull(atMs: nowMs) }
            sweptAtMs = nowMs
        }
    }

    /// Spends one if `address` has one left at `nowMs`; whether it had.
    mutating func take(by address: String, atMs nowMs: Int64) -> Bool {
        guard available(to: address, atMs: nowMs) >= 1 else { return false }
        spend(1, by: address, atMs: nowMs)
        return true
    }
}
