import TouchSchoolCore
import TouchSchoolProtocol

/// A view as a connection watches it: its key and the numbers it ranks by. `period` is `.allTime`
/// whenever the battle has no season (`BoardRanking.watched`), so that both periods share one view.
struct WatchedView: Hashable, Sendable {
    var key: BoardViewKey
    var period: RankingPeriod
}

/// The board ranked for the views of protocol 2: the catalog's schools in a `Leaderboard` kept in
/// step with the saved totals (O(log n) a changed school), and the views watched, computed once
/// an interval and encoded once each, whatever number of players watch them (the players of one
/// school share its view, byte for byte). While a season runs, a second leaderboard ranks the
/// schools by the season's totals (`season`): the views of the season are computed from it, in the
/// same shape and bytes as all time's.
///
/// The views are kept in `slices`: each view key belongs to one (`slice(of:)`), and a slice is
/// computed and sent as a whole, so that the hall can send one slice at a time instead of every
/// view at once.
struct BoardRanking: Sendable {
    let catalog: Catalog
    let slices: Int
    private(set) var leaderboard: Leaderboard
    /// The season's ranking (nil: no season runs).
    private(set) var season: Leaderboard?
    /// Ids the catalog lists as aliases, by the position they count for: a school's count is its
    /// own id's total plus its aliases' (as `SavedState.counts(in:)` adds them).
    private let aliasesOf: [Int: [String]]
    /// Each school's id by position, taken from the catalog once: a view names seven schools, and
    /// taking a whole `School` out of the catalog for each id cost more than computing the view.
    private let ids: [String]
    /// By period, then slice: the views computed at the slice's last `refresh`; by slice, their
    /// encodings (made when first sent) and the board version they were computed at.
    private var views: [RankingPeriod: [BoardViews]]
    private var encoded: [[WatchedView: String]]
    private var encodedVersion: [UInt64]

    init(catalog: Catalog, scores: [String: UInt64], season seasonScores: [String: UInt64]? = nil, slices: Int = 1) {
        self.catalog = catalog
        self.slices = max(1, slices)
        views = Dictionary(uniqueKeysWithValues: RankingPeriod.allCases.map { ($0, Array(repeating: BoardViews(), count: max(1, slices))) })
        encoded = Array(repeating: [:], count: self.slices)
        encodedVersion = Array(repeating: 0, count: self.slices)
        leaderboard = Leaderboard(catalog: catalog, counts: SavedState(scores: scores, players: [:]).counts(in: catalog))
        season = seasonScores.map { Leaderboard(catalog: catalog, counts: SavedState(scores: $0, players: [:]).counts(in: catalog)) }
        var aliasesOf: [Int: [String]] = [:]
        for alias in catalog.aliases.keys {
            if let position = catalog.position(ofID: alias) { aliasesOf[position, default: []].append(alias) }
        }
        self.aliasesOf = aliasesOf
        ids = (0..<catalog.count).map { catalog[$0].id }
    }

    /// The totals of `ids` changed: their schools take their new counts.
    mutating func take(changed ids: some Sequence<String>, scores: [String: UInt64]) {
        Self.take(changed: ids, scores: scores, into: &leaderboard, catalog: catalog, aliasesOf: aliasesOf)
    }

    /// The season's totals of `ids` changed (no season runs: nothing to take).
    mutating func takeSeason(changed ids: some Sequence<String>, scores: [String: UInt64]) {
        guard season != nil else { return }
        Self.take(changed: ids, scores: scores, into: &season!, catalog: catalog, aliasesOf: aliasesOf)
    }

    private static func take(changed ids: some Sequence<String>, scores: [String: UInt64], into board: inout Leaderboard,
                             catalog: Catalog, aliasesOf: [Int: [String]]) {
        var positions = Set<Int>()
        for id in ids { if let position = catalog.position(ofID: id) { positions.insert(position) } }
        for position in positions {
            var total = scores[catalog[position].id] ?? 0
            for alias in aliasesOf[position] ?? [] { total = total.addingSaturating(scores[alias] ?? 0) }
            if board.count(of: position) != total { board.setCount(total, of: position) }
        }
    }

    /// A season begins (its totals so far), or none runs any more (nil): the season's views are
    /// computed again from the next refresh.
    mutating func startSeason(_ scores: [String: UInt64]?) {
        season = scores.map { Leaderboard(catalog: catalog, counts: SavedState(scores: $0, players: [:]).counts(in: catalog)) }
        views[.season] = Array(repeating: BoardViews(), count: slices)
        encoded = Array(repeating: [:], count: slices)
    }

    /// The view a connection watching `key` by `period` is sent: all time's when no season runs.
    func watched(_ key: BoardViewKey, _ period: RankingPeriod) -> WatchedView {
        WatchedView(key: key, period: season == nil ? .allTime : period)
    }

    /// The leaderboard a period ranks by.
    func board(_ period: RankingPeriod) -> Leaderboard {
        period == .season ? season ?? leaderboard : leaderboard
    }

    /// Why a `watch` names no page.
    struct WatchRefusal: Error {
        let message: String
    }

    /// The page a `watch` names, within `Watch`'s bounds; nil for none.
    static func key(of watch: Watch) throws(WatchRefusal) -> BoardViewKey? {
        guard let name = watch.league else { return nil }
        guard let league = League(name) else { throw WatchRefusal(message: "watch: no such level (elementary, middle or high)") }
        guard (0...Watch.maximumFrom).contains(watch.from), (1...Watch.maximumCount).contains(watch.count) else {
            throw WatchRefusal(message: "watch: from 0 to \(Watch.maximumFrom), 1 to \(Watch.maximumCount) places")
        }
        guard (name.province?.utf8.count ?? 0) <= 64 else { throw WatchRefusal(message: "watch: a province of at most 64 bytes") }
        return .page(league, places: watch.from..<(watch.from + watch.count))
    }

    /// The key of a school's view, by its id (nil for an id the catalog does not have).
    func key(ofSchool id: String) -> BoardViewKey? {
        catalog.position(ofID: id).map { .school($0) }
    }

    /// The slice a view belongs to: a school's by its place in the catalog, a page's by its
    /// number in its league (pages are few; most are a league's first).
    func slice(of key: BoardViewKey) -> Int {
        switch key {
        case let .school(position): position % slices
        case let .page(_, places): places.lowerBound / max(1, places.count) % slices
        }
    }

    /// Whether its slice's last `refresh` computed this view.
    func computed(_ view: WatchedView) -> Bool { views[view.period]![slice(of: view.key)].views[view.key] != nil }

    /// Computes every watched view of `slice` (all of that slice) and returns those whose view
    /// changed since the slice's last refresh (a view watched for the first time included).
    mutating func refresh(slice: Int, watching watched: Set<WatchedView>, version: UInt64) -> Set<WatchedView> {
        var changed = Set<WatchedView>()
        for period in RankingPeriod.allCases {
            let keys = Set(watched.lazy.filter { $0.period == period }.map(\.key))
            // A period nobody watches keeps its views: they are as last computed.
            guard !keys.isEmpty || !views[period]![slice].views.isEmpty else { continue }
            let board = board(period)
            for key in views[period]![slice].refresh(watching: keys, on: board).keys { changed.insert(WatchedView(key: key, period: period)) }
        }
        encoded[slice] = [:]
        encodedVersion[slice] = version
        return changed
    }

    /// The message of a view computed at its slice's last `refresh`, encoded once a refresh.
    mutating func message(_ watched: WatchedView) -> String? {
        let slice = slice(of: watched.key)
        if let text = encoded[slice][watched] { return text }
        guard let view = views[watched.period]![slice].views[watched.key] else { return nil }
        let text = encode(view, version: encodedVersion[slice])
        encoded[slice][watched] = text
        return text
    }

    /// A view computed now, for `GET /v1/view` and `/v1/page`: the same message a watcher is sent.
    func messageNow(_ watched: WatchedView, version: UInt64) -> String {
        encode(board(watched.period).view(watched.key), version: version)
    }

    private func encode(_ view: BoardView, version: UInt64) -> String {
        switch view {
        case let .school(school): MessageCoding.encodeSchoolView(message(school, version: version))
        case let .page(page): MessageCoding.encodePage(message(page, version: version))
        }
    }

    private func row(_ row: RankedSchool) -> RankedRow {
        RankedRow(rank: row.rank, school: ids[row.position], total: row.count)
    }

    func message(_ view: SchoolView, version: UInt64) -> SchoolViewMessage {
        SchoolViewMessage(
            version: version, school: ids[view.school], total: view.count,
            ranks: view.standings.map { Standing(rank: $0.rank, size: $0.size, gap: $0.gap) },
            above: view.above.map(row), below: view.below.map(row), top: view.top.map(row)
        )
    }

    func message(_ page: PageView, version: UInt64) -> PageMessage {
        PageMessage(version: version, league: LeagueName(page.league), from: page.places.lowerBound, size: page.size,
                    rows: page.rows.map(row))
    }
}
