/// A season's hall of fame (issue 50): when the season has ended, its first three schools in each
/// league, kept once. Taps of the season arriving after it was taken still count in the season's
/// totals, not in the hall.
public enum SeasonFame {
    /// How many of each league's first schools the hall keeps.
    public static let places = 3

    /// One school in a season's hall: its league, its place there (1-based, in the leaderboard's
    /// order, ties broken as the leaderboard breaks them), its rank (ties share one) and total.
    public struct Entry: Equatable, Hashable, Sendable {
        public var league: League
        public var place: Int
        public var rank: Int
        public var school: String
        public var total: UInt64

        public init(league: League, place: Int, rank: Int, school: String, total: UInt64) {
            self.league = league
            self.place = place
            self.rank = rank
            self.school = school
            self.total = total
        }
    }

    /// The season whose hall is due at `nowMs`: the one before the season holding `nowMs` less a
    /// round's grace (`Round.graceMs`), so that a batch in flight at the end still counts in the
    /// hall. Nil for `.none`.
    public static func due(_ length: SeasonLength, atMs nowMs: Int64) -> Season? {
        Season.at(length, ms: nowMs - Round.graceMs).flatMap { Season.numbered(length, $0.number - 1) }
    }

    /// The hall of a season whose schools made `totals` (by school id; ids the catalog does not
    /// know count nowhere): the first `places` schools with taps in every league one of them is
    /// in, the leagues in a fixed order (national, levels, provinces, levels in provinces, each
    /// by name).
    public static func of(totals: [String: UInt64], catalog: Catalog) -> [Entry] {
        var counts = [UInt64](repeating: 0, count: catalog.count)
        var leagues: Set<League> = []
        for (id, total) in totals where total > 0 {
            guard let position = catalog.position(ofID: id) else { continue }
            counts[position] = total
            leagues.formUnion(League.leagues(of: catalog[position]))
        }
        guard !leagues.isEmpty else { return [] }
        let board = Leaderboard(catalog: catalog, counts: counts)
        return leagues.sorted(by: precedes).flatMap { league in
            board.entries(in: league, places: 0..<places).enumerated().compactMap { index, row -> Entry? in
                guard row.count > 0 else { return nil }
                return Entry(league: league, place: index + 1, rank: row.rank, school: catalog[row.position].id, total: row.count)
            }
        }
    }

    /// The hall's order: by league (`precedes`), then place.
    public static func order(_ a: Entry, _ b: Entry) -> Bool {
        a.league != b.league ? precedes(a.league, b.league) : a.place < b.place
    }

    /// National, levels, provinces, levels in provinces; within each, by province then level.
    static func precedes(_ a: League, _ b: League) -> Bool {
        func key(_ league: League) -> (kind: Int, province: String, level: SchoolLevel?) {
            switch league {
            case .national: (0, "", nil)
            case let .level(level): (1, "", level)
            case let .province(province): (2, province, nil)
            case let .levelInProvince(level, province): (3, province, level)
            }
        }
        let (x, y) = (key(a), key(b))
        if (x.kind, x.province) != (y.kind, y.province) { return (x.kind, x.province) < (y.kind, y.province) }
        guard let first = x.level, let second = y.level else { return false }
        return first < second
    }
}
