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

    /// The budgets of `addresses` alone, for a commit of their batches (`TapJudges.judging`).
    func only(_ addresses: Set<String>) -> AddressBudgets {
        var only = self
        only.budgets = [:]
        for address in addresses { only.budgets[address] = budgets[address] }
        return only
    }

    /// Takes the budgets of `judged` (from `only`), and when it swept, sweeps every address the
    /// same (a budget it forgot as full, full here too, goes with them).
    mutating func update(with judged: AddressBudgets) {
        budgets.merge(judged.budgets) { $1 }
        if judged.sweptAtMs > sweptAtMs {
            budgets = budgets.filter { !$0.value.isFull(atMs: judged.sweptAtMs) }
            sweptAtMs = judged.sweptAtMs
        }
    }

    /// Spends one if `address` has one left at `nowMs`; whether it had.
    mutating func take(by address: String, atMs nowMs: Int64) -> Bool {
        guard available(to: address, atMs: nowMs) >= 1 else { return false }
        spend(1, by: address, atMs: nowMs)
        return true
    }
}
