import TouchSchoolCore

/// What a server's commits judge taps by, kept in memory from one save to the next and updated
/// only by a save that succeeded: each device's history and each address's budget.
struct TapJudges: Sendable {
    var devices: [String: DeviceTapHistory] = [:]
    var addresses: AddressTapBudgets

    init(addresses policy: AddressLimitPolicy) {
        addresses = AddressTapBudgets(policy: policy)
    }
}
