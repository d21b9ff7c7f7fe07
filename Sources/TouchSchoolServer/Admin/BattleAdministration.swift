import TouchSchoolCore
import TouchSchoolBattleDatabase

/// What the operator does to the battle through the admin API; the store keeps it, and what
/// changed enters the hall as an event: the totals a ban changed (`BattleHall.Event.banned`), out
/// on the board feed like a commit's (within `broadcastInterval`); a round started or stopped
/// (`.roundChanged`), read at once rather than at the next read. The rounds are read through here too.
extension BattleHallRuntime {
    func listDevices(top: Int, nowMs: Int64) async throws(BattleStoreError) -> [ListedDevice] {
        try await store.devices(top: top, nowMs: nowMs)
    }

    func ban(device publicID: String, removeTaps: Bool) async throws(BattleStoreError) -> BanOutcome? {
        let outcome = try await store.ban(device: publicID, removeTaps: removeTaps)
        if let outcome { handle(.banned(outcome)) }
        // The taps taken off were counted in rounds too, settled ones included.
        if removeTaps { roundAnswers.forgetSettled() }
        return outcome
    }

    func unban(device publicID: String) async throws(BattleStoreError) -> Bool {
        try await store.unban(device: publicID)
    }

    func setBanned(address: String, _ banned: Bool) async throws(BattleStoreError) {
        try await store.setBanned(address: address, banned)
    }

    /// Starts a round at the server's time (nil: `seconds` out of range); every screen hears of it now.
    func startRound(title: String?, seconds: Int) async throws(BattleStoreError) -> Round? {
        let round = try await store.startRound(title: title, seconds: seconds, nowMs: clock.wallMs())
        if round != nil { handle(.roundChanged) }
        return round
    }

    /// Stops the current round at the server's time (nil: none was ever started).
    func stopRound() async throws(BattleStoreError) -> Round? {
        let round = try await store.stopRound(nowMs: clock.wallMs())
        if round != nil { handle(.roundChanged) }
        return round
    }

    /// The rounds, newest first, at most `limit`.
    func rounds(limit: Int) async throws(BattleStoreError) -> [Round] { try await store.rounds(limit: limit) }

    /// A round and what it counted per device (nil: no round has this id).
    func round(_ id: Int64) async throws(BattleStoreError) -> (Round, [RoundPlayerCount])? { try await store.round(id) }
}
