import TouchSchoolCore

/// Where a running game's taps go, as the game loop sees it: handing changes over never waits,
/// and the answers come back as events for `update`. The local battle (a state file shared by
/// the games on one machine) is one; a server is another.
public protocol BattleConnection: AnyObject, Sendable {
    /// Hands over the changes of a `.sync` command; returns at once. Each is answered by exactly
    /// one `.synced` or `.syncFailed`, in the order handed over.
    func submit(_ changes: PendingChanges)
    /// Playing on a server: asks it for the rows of this page of a league as they change (answered
    /// with `.viewed` events), instead of the page asked for before; nil for none.
    func watch(_ page: PageWatch?)
    /// Playing on a server: asks it for the map's glow from now (answered with `.mapReported`
    /// events), or no longer. Asked after any `watch` of the same turn, and kept in that order.
    func showMap(_ shows: Bool)
    /// Playing on a server: asks it to rank my school's view and the page watched by `period`
    /// from now (the season's numbers or all time's); sent in line with the watches.
    func rankBy(_ period: RankingPeriod)
    /// The events that arrived since the last call, in order.
    func takeEvents() -> [GameEvent]
    /// Calls `wake` whenever events arrive from now on (from the thread they arrive on), so that a
    /// loop asleep waiting for input takes them at once.
    func whenEventsArrive(_ wake: @escaping @Sendable () -> Void)
    /// Waits until everything handed over is answered, at most `timeoutNanoseconds`; false if
    /// it was not by then.
    func finish(timeoutNanoseconds: Int64) -> Bool
}
