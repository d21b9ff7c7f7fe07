import TouchSchoolBattleDatabase

/// What the operator does to the battle through the admin API; the store keeps it, and the
/// totals a ban changed go to the hall (`BattleHall.Event.banned`), out on the board feed like a
/// commit's (within `broadcastInterval`).
extension BattleHallRuntime {
    func listDevices(top: Int, nowMs: Int64) async throws(BattleStoreError) -> [ListedDevice] {
        try await operatorStore.devices(top: top, nowMs: nowMs)
    }

    func ban(device publicID: String, removeTaps: Bool) async throws(BattleStoreError) -> BanOutcome? {
        let outcome = try await operatorStore.ban(device: publicID, removeTaps: removeTaps)
        if let outcome { handle(.banned(outcome)) }
        // The taps taken off were counted in rounds too, settled ones included.
        if removeTaps { roundAnswers.forgetSettled() }
        return outcome
    }

    func unban(device publicID: String) async throws(BattleStoreError) -> Bool {
        try await operatorStore.unban(device: publicID)
    }

    func setBanned(address: String, _ banned: Bool) async throws(BattleStoreError) {
        try await operatorStore.setBanned(address: address, banned)
    }
}
