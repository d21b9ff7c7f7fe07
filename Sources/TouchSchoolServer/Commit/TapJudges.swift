import TouchSchoolCore

/// What a server's commits judge taps by, kept in memory from one save to the next and updated
/// only by a save that succeeded: each device's history and each address's budget.
struct TapJudges: Sendable {
    var devices: [String: DeviceTapHistory] = [:]
    /// The taps all devices of one address may have accepted together (`AddressLimitPolicy`'s
    /// `tapsPerSecond` and `tapBurst`).
    var addresses: AddressBudgets

    init(addresses policy: AddressLimitPolicy) {
        addresses = AddressBudgets(perSecond: policy.tapsPerSecond, burst: policy.tapBurst)
    }
}
