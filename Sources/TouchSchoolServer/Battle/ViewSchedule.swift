import TouchSchoolCore

/// When the views go out: the slices they are sent in (`BattleHall.broadcastSlices`), each
/// slice at most once a `BattleHall.broadcastInterval`, one slice a tick, ticks at least an
/// interval over the slices apart; what each slice has to send (a total changed, views and
/// pages due, pages held by their budget); when the last tick was and the last total changed.
struct ViewSchedule: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// One slice of the views (`BoardRanking.slice(of:)`).
    struct Slice: Sendable, Equatable {
        /// A total changed since the slice was last sent: its views are computed again.
        var changed = false
        var sentAt: Instant
        /// Connections whose school's view, or page, has not been sent since they were
        /// welcomed, switched school or asked for another page: sent at the slice's next tick,
        /// changed or not.
        var schoolViewsDue: Set<ConnectionID> = []
        var pagesDue: Set<ConnectionID> = []
        /// Watchers whose page changed before their budget let them have it: sent when their
        /// time has come, changed again or not.
        var pagesHeld: Set<ConnectionID> = []

        /// Nothing to send and nobody to send it to.
        mutating func clear() {
            changed = false
            schoolViewsDue = []
            pagesDue = []
            pagesHeld = []
        }
    }

    private(set) var slices: [Slice]
    /// When the last tick sent a slice or the round's news.
    private(set) var lastBroadcast: Instant
    /// When a total last changed (a commit landed, a poll read another server's).
    private(set) var lastChange: Instant?

    init(slices count: Int, now: Instant) {
        slices = Array(repeating: Slice(sentAt: now), count: max(1, count))
        lastBroadcast = now
    }

    var count: Int { slices.count }
    /// The time between two ticks: a slice each.
    var tickInterval: Duration { BattleHall.broadcastInterval / slices.count }

    /// Totals changed at `now`: every slice's views are computed again.
    mutating func totalsChanged(now: Instant) {
        for slice in slices.indices { slices[slice].changed = true }
        lastChange = now
    }

    mutating func schoolViewDue(_ id: ConnectionID, slice: Int) { slices[slice].schoolViewsDue.insert(id) }
    mutating func pageDue(_ id: ConnectionID, slice: Int) { slices[slice].pagesDue.insert(id) }
    mutating func hold(_ id: ConnectionID, slice: Int) { slices[slice].pagesHeld.insert(id) }
    mutating func release(_ id: ConnectionID, slice: Int) { slices[slice].pagesHeld.remove(id) }

    /// The connection's page changed: none of it is held any more.
    mutating func releasePages(of id: ConnectionID) {
        for slice in slices.indices { slices[slice].pagesHeld.remove(id) }
    }

    /// The schools' views move between slices (a new catalog): none is due where it was.
    mutating func forgetSchoolViewsDue() {
        for slice in slices.indices { slices[slice].schoolViewsDue = [] }
    }

    /// The connection is gone.
    mutating func forget(_ id: ConnectionID) {
        for slice in slices.indices {
            slices[slice].schoolViewsDue.remove(id)
            slices[slice].pagesDue.remove(id)
            slices[slice].pagesHeld.remove(id)
        }
    }

    /// A slice nobody watches has nothing to send: it takes no tick.
    mutating func clearUnwatched(_ list: WatchList) {
        for slice in slices.indices where list.watched[slice].isEmpty { slices[slice].clear() }
    }

    /// When a slice has views to send: a total changed or a view is due, its last send an
    /// interval old; only pages held by their budget, when the soonest may go. Nil: nothing.
    func readyAt(_ slice: Int, _ connections: HallConnections) -> Instant? {
        let slice = slices[slice]
        let next = slice.sentAt + BattleHall.broadcastInterval
        if slice.changed || !slice.schoolViewsDue.isEmpty || !slice.pagesDue.isEmpty { return next }
        return slice.pagesHeld.compactMap { connections[$0]?.nextPageAt }.min().map { max(next, $0) }
    }

    /// The next tick: the soonest a slice or the round's news (`roundAt`) is ready, a tick after
    /// the last at the soonest; nil when nothing waits. When the last change is over half a tick
    /// older than that and a commit is coming, the tick waits for it to land (at most a commit
    /// window).
    ///
    /// Under load a commit lands every window, the ticks come every tick, and nothing else keeps
    /// them in step. A tick just before a landing sends its slice nothing new: that slice shows
    /// the commit's taps only an interval later, 250 ms after the landing. Ticks that follow the
    /// landings, half a tick late at most, show every slice a commit's taps within that half tick
    /// and the four ticks after: 225 ms (`BattleHallSlicesTests`).
    func nextTick(roundAt: Instant?, commitComing: Bool, _ connections: HallConnections) -> Instant? {
        var soonest = roundAt
        for slice in slices.indices { if let ready = readyAt(slice, connections) { soonest = min(soonest ?? ready, ready) } }
        guard let soonest else { return nil }
        let due = max(soonest, lastBroadcast + tickInterval)
        let stale = lastChange.map { due - $0 > tickInterval / 2 } ?? true
        return commitComing && stale ? due + BattleHall.commitWindow : due
    }

    /// The slice ready the longest at `now`, if any.
    func sliceReady(now: Instant, _ connections: HallConnections) -> Int? {
        var chosen: (slice: Int, ready: Instant)?
        for slice in slices.indices {
            guard let ready = readyAt(slice, connections), ready <= now, chosen.map({ ready < $0.ready }) ?? true else { continue }
            chosen = (slice, ready)
        }
        return chosen?.slice
    }

    /// The slice goes out at `now`: what it had to send, now sent (its held pages stay held).
    mutating func send(_ slice: Int, now: Instant) -> (changed: Bool, schoolViewsDue: Set<ConnectionID>, pagesDue: Set<ConnectionID>) {
        let sent = (slices[slice].changed, slices[slice].schoolViewsDue, slices[slice].pagesDue)
        slices[slice].changed = false
        slices[slice].schoolViewsDue = []
        slices[slice].pagesDue = []
        slices[slice].sentAt = now
        return sent
    }

    /// A tick sent something at `now`.
    mutating func ticked(now: Instant) { lastBroadcast = now }
}
