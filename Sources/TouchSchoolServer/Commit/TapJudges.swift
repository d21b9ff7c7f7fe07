import TouchSchoolCore

/// What a server's commits judge taps by, kept in memory from one save to the next and updated
/// only by a save that succeeded: each device's history and each address's budget.
///
/// A commit is given the judges of its own batches (`judging`) and its answer is put back over
/// them (`update`): handed the whole, a commit that changed one device copied every device's
/// judge (the hall still holding the original), a cost of all the devices ever seen, per commit.
struct TapJudges: Sendable {
    var devices: [String: DeviceTapHistory] = [:]
    /// The taps all devices of one address may have accepted together (`AddressLimitPolicy`'s
    /// `tapsPerSecond` and `tapBurst`).
    var addresses: AddressBudgets

    init(addresses policy: AddressLimitPolicy) {
        addresses = AddressBudgets(perSecond: policy.tapsPerSecond, burst: policy.tapBurst)
    }

    /// The judges of `batches`' devices and networks alone: all a commit of them reads or changes.
    func judging(_ batches: [ReceivedBatch]) -> TapJudges {
        var judging = self
        judging.devices = [:]
        for batch in batches { judging.devices[batch.device] = devices[batch.device] }
        judging.addresses = addresses.only(Set(batches.map(\.network)))
        return judging
    }

    /// These judges with a commit's (of `judging`) over them.
    mutating func update(with judged: TapJudges) {
        devices.merge(judged.devices) { $1 }
        addresses.update(with: judged.addresses)
    }
}
