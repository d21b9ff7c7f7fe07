import TouchSchoolCore
import TouchSchoolProtocol

/// One connection of the hall: a player (bound to a device by its welcome) or a board stream of
/// one page, and everything the hall keeps about it.
struct Connection: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case player
        /// A board stream of one page (`GET /v1/board?from=…`): its `page` events, without a device.
        case pageStream
    }

    enum HelloPhase: Equatable, Sendable {
        /// Waits for the device's batches waiting or being saved.
        case waiting(device: String)
        case reading(device: String)
    }

    var kind: Kind
    /// The device a welcome bound it to (nil before its hello, or once it is being closed).
    var device: String?
    /// Protocol 2: the player's school (its id, as saved), whose view it receives.
    var school: String?
    /// Protocol 2: the page of a league it watches.
    var page: BoardViewKey?
    /// The numbers its view and page rank by (`watch`'s `period`; a board stream's `?period=`).
    var period: RankingPeriod = .season
    /// The season its last `season` message told (nil inside: it told none runs; nil: told nothing yet).
    var seasonTold: Season??
    /// Its hello, not answered yet.
    var hello: HelloPhase?
    /// When it may be sent its next page (`BattleHall.PageBudget`).
    var nextPageAt: ContinuousClock.Instant?
    /// The round its last `round` message told (a player), and the place it last told with
    /// when; the round board's version its last `round` event showed (a page stream).
    var roundTold: Round?
    var placeTold: RoundStanding?
    var placeToldAt: ContinuousClock.Instant?
    var roundEventTold: UInt64 = 0
    /// Whether its screen shows the map (`MapNews`); how far the sweep of the cells glowing when
    /// it came has reached (nil: done); the catalog its last `map` message named.
    var showsMap = false
    var mapSweep: Int?
    var mapCatalogTold: String?

    var streamsPage: Bool { kind == .pageStream }
    var watchesViews: Bool { device != nil || streamsPage }
}

/// The hall's connections by id, with the device each is bound to and the list of who watches
/// which view. Every change goes through a method here, so that `remove` forgets a connection
/// everywhere at once and the list of watchers is dropped only by what changes it (a connection
/// come or gone, its device, school or page; not the round told it, nor its page's budget).
struct HallConnections: Sendable {
    private(set) var byID: [ConnectionID: Connection] = [:]
    /// The connection each device is bound to (the newest: another is closed).
    private(set) var connectionOfDevice: [String: ConnectionID] = [:]
    /// The connections whose hello waits for its answer.
    private(set) var helloing: Set<ConnectionID> = []
    /// The connections whose screen shows the map.
    private(set) var mapWatchers: Set<ConnectionID> = []
    /// The connections watching views, by slice: made at the first broadcast after a change to
    /// who watches what (and after a new catalog), so that in an interval with no such change the
    /// views go out without a pass over every connection's state.
    private var watchList: WatchList?

    subscript(id: ConnectionID) -> Connection? { byID[id] }
    var ids: Dictionary<ConnectionID, Connection>.Keys { byID.keys }
    /// Whether the list of watchers is made (for the tests: it is made again only after a change).
    var hasWatchList: Bool { watchList != nil }

    mutating func add(_ id: ConnectionID, _ connection: Connection) {
        byID[id] = connection
        watchList = nil
    }

    /// Forgets the connection; returns what it was.
    @discardableResult
    mutating func remove(_ id: ConnectionID) -> Connection? {
        guard let connection = byID.removeValue(forKey: id) else { return nil }
        helloing.remove(id)
        mapWatchers.remove(id)
        if let device = connection.device, connectionOfDevice[device] == id { connectionOfDevice[device] = nil }
        watchList = nil
        return connection
    }

    /// The device's connection from now (a welcome): the one it had before, if any, is unbound.
    mutating func bind(_ id: ConnectionID, device: String, school: String?) {
        if let other = connectionOfDevice[device], other != id { unbind(other) }
        connectionOfDevice[device] = id
        byID[id]?.device = device
        byID[id]?.school = school
        watchList = nil
    }

    /// The connection is being closed: what it still sends is not applied, it watches nothing.
    mutating func unbind(_ id: ConnectionID) {
        guard byID[id]?.device != nil else { return }
        byID[id]?.device = nil
        watchList = nil
    }

    mutating func setSchool(_ id: ConnectionID, _ school: String?) {
        byID[id]?.school = school
        watchList = nil
    }

    mutating func setPage(_ id: ConnectionID, _ page: BoardViewKey?) {
        byID[id]?.page = page
        watchList = nil
    }

    mutating func setPeriod(_ id: ConnectionID, _ period: RankingPeriod) {
        byID[id]?.period = period
        watchList = nil
    }

    mutating func toldSeason(_ id: ConnectionID, _ season: Season?) { byID[id]?.seasonTold = .some(season) }

    mutating func setHello(_ id: ConnectionID, _ phase: Connection.HelloPhase?) {
        guard byID[id] != nil else { return }
        byID[id]?.hello = phase
        if phase == nil { helloing.remove(id) } else { helloing.insert(id) }
    }

    mutating func setNextPageAt(_ id: ConnectionID, _ instant: ContinuousClock.Instant) { byID[id]?.nextPageAt = instant }

    mutating func toldRound(_ id: ConnectionID, _ round: Round, place: RoundStanding, at now: ContinuousClock.Instant) {
        byID[id]?.roundTold = round
        toldPlace(id, place, at: now)
    }

    mutating func toldPlace(_ id: ConnectionID, _ place: RoundStanding, at now: ContinuousClock.Instant) {
        byID[id]?.placeTold = place
        byID[id]?.placeToldAt = now
    }

    /// The screen shows the map from now (told it from the start), or no longer.
    mutating func setShowsMap(_ id: ConnectionID, _ shows: Bool) {
        guard byID[id] != nil else { return }
        byID[id]?.showsMap = shows
        if shows { mapWatchers.insert(id) } else { mapWatchers.remove(id) }
        mapToldNothing(id)
    }

    /// The connection's map is to be told again from the start (a new catalog, or it came).
    mutating func mapToldNothing(_ id: ConnectionID) {
        byID[id]?.mapSweep = 0
        byID[id]?.mapCatalogTold = nil
    }

    mutating func toldMap(_ id: ConnectionID, sweep: Int?, catalog: String) {
        byID[id]?.mapSweep = sweep
        byID[id]?.mapCatalogTold = catalog
    }

    mutating func toldRoundEvent(_ id: ConnectionID, version: UInt64) { byID[id]?.roundEventTold = version }

    /// The list of watchers in `ranking`'s slices, made when a change dropped it.
    mutating func watchers(in ranking: BoardRanking) -> WatchList {
        if let watchList { return watchList }
        let list = WatchList(byID, ranking: ranking)
        watchList = list
        return list
    }

    /// The ranking changed (a new catalog, a season begun or ended): the views' keys and slices with it.
    mutating func rankingChanged() { watchList = nil }
}

/// The connections watching views (`Connection.watchesViews`) by the slice of each view they
/// watch, in the order they are sent (by connection, a school's view before a page), with the
/// keys watched in each slice, in the ranking of the catalog served.
struct WatchList: Sendable {
    struct Watch: Sendable {
        let id: ConnectionID
        let view: WatchedView
        /// A page (`Connection.page`), not the connection's school's view.
        let isPage: Bool
        let streamsPage: Bool
    }

    var slices: [[Watch]]
    var watched: [Set<WatchedView>]

    init(_ connections: [ConnectionID: Connection], ranking: BoardRanking) {
        slices = Array(repeating: [], count: ranking.slices)
        watched = Array(repeating: [], count: ranking.slices)
        for (id, connection) in connections.sorted(by: { $0.key < $1.key }) where connection.watchesViews {
            if let school = connection.school.flatMap({ ranking.key(ofSchool: $0) }) {
                add(Watch(id: id, view: ranking.watched(school, connection.period), isPage: false, streamsPage: connection.streamsPage), ranking)
            }
            if let page = connection.page {
                add(Watch(id: id, view: ranking.watched(page, connection.period), isPage: true, streamsPage: connection.streamsPage), ranking)
            }
        }
    }

    private mutating func add(_ watch: Watch, _ ranking: BoardRanking) {
        let slice = ranking.slice(of: watch.view.key)
        slices[slice].append(watch)
        watched[slice].insert(watch.view)
    }
}
