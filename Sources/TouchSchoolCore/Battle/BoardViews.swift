/// Where one school stands in one of its leagues: its rank, how many schools the league holds
/// and how far the school above is.
public struct LeagueStanding: Equatable, Sendable {
    public var league: League
    /// 1-based; ties share a rank (`Leaderboard.rank(of:in:)`).
    public var rank: Int
    /// How many schools the league holds.
    public var size: Int
    /// Taps between the school's count and that of the school it has to overtake
    /// (`Leaderboard.schoolAbove(_:in:)`); nil for a leader, tied leaders included.
    public var gap: UInt64?

    public init(league: League, rank: Int, size: Int, gap: UInt64?) {
        self.league = league
        self.rank = rank
        self.size = size
        self.gap = gap
    }
}

/// What a player's screen shows of the board: the school's count, where it stands in each of its
/// four leagues, the schools around it nationally and the top of the national list (the game's
/// panel and the page's list show the national ranking; a screen showing more of a league asks for
/// a `PageView`). It names schools by catalog position; their names come from the directory the
/// clients already have.
public struct SchoolView: Equatable, Sendable {
    /// Rows shown on either side of the school nationally.
    public static let neighbourCount = 2
    /// Rows of the national list's top shown.
    public static let topCount = 3

    /// The school's position in the catalog.
    public var school: Int
    public var count: UInt64
    /// One per league of `League.leagues(of:)`, in that order (widest first).
    public var standings: [LeagueStanding]
    /// The national rows just above the school, nearest last: up to `neighbourCount`, fewer near
    /// the top.
    public var above: [RankedSchool]
    /// The national rows just below, nearest first: up to `neighbourCount`, fewer near the bottom.
    public var below: [RankedSchool]
    /// The first `topCount` rows of the national league (fewer in a smaller catalog).
    public var top: [RankedSchool]

    public init(school: Int, count: UInt64, standings: [LeagueStanding], above: [RankedSchool], below: [RankedSchool],
                top: [RankedSchool]) {
        self.school = school
        self.count = count
        self.standings = standings
        self.above = above
        self.below = below
        self.top = top
    }

    /// The national standing (the first).
    public var national: LeagueStanding { standings[0] }
}

/// One page of one league, for a screen showing more than a school's surroundings (the ranking).
public struct PageView: Equatable, Sendable {
    public var league: League
    /// The places asked for (0-based); `rows` leaves out those past the end of the league.
    public var places: Range<Int>
    /// How many schools the league holds, so that a screen knows how far it can scroll.
    public var size: Int
    public var rows: [RankedSchool]

    public init(league: League, places: Range<Int>, size: Int, rows: [RankedSchool]) {
        self.league = league
        self.places = places
        self.size = size
        self.rows = rows
    }
}

/// What a connection watches: a school's view (its players share it) or a page of a league.
public enum BoardViewKey: Hashable, Sendable {
    case school(Int)
    case page(League, places: Range<Int>)
}

/// A view as computed for one key.
public enum BoardView: Equatable, Sendable {
    case school(SchoolView)
    case page(PageView)
}

extension Leaderboard {
    /// The school's view. O(log n) per league, and one walk along the national order for the
    /// neighbours.
    public func schoolView(of school: Int) -> SchoolView {
        let place = place(of: school, in: .national)
        let neighbours = Self.neighbourPlaces(around: place)
        let rows = entries(in: .national, places: neighbours)
        // `entries` leaves out places past the end, not before the start: the school's own row
        // sits at `place - neighbours.lowerBound`.
        let own = place - neighbours.lowerBound
        return SchoolView(school: school, count: count(of: school), standings: standings(of: school), above: Array(rows[..<own]),
                          below: Array(rows[(own + 1)...]), top: entries(in: .national, places: 0..<SchoolView.topCount))
    }

    /// The places from `neighbourCount` above to `neighbourCount` below, the school's own included,
    /// cut at the top of the league (the bottom is cut by `entries`).
    private static func neighbourPlaces(around place: Int) -> Range<Int> {
        max(0, place - SchoolView.neighbourCount)..<(place + SchoolView.neighbourCount + 1)
    }

    /// A page of the league. O(log n + rows).
    public func pageView(of league: League, places: Range<Int>) -> PageView {
        PageView(league: league, places: places, size: size(of: league), rows: entries(in: league, places: places))
    }

    public func view(_ key: BoardViewKey) -> BoardView {
        switch key {
        case let .school(school): .school(schoolView(of: school))
        case let .page(league, places): .page(pageView(of: league, places: places))
        }
    }
}

/// The views watched, as computed at the last interval: each interval computes every watched view
/// once, however many connections watch it, and tells which ones changed, so that only those are
/// sent (the same bytes to every watcher).
public struct BoardViews: Sendable {
    /// The last interval's views, by key.
    public private(set) var views: [BoardViewKey: BoardView] = [:]

    public init() {}

    /// Computes every watched view from the board and returns those that differ from the last
    /// interval's, a view watched for the first time included. Views no longer watched are
    /// forgotten: watched again later, they count as new. O(watched × (log n + rows)).
    public mutating func refresh(watching watched: Set<BoardViewKey>, on board: Leaderboard) -> [BoardViewKey: BoardView] {
        var next: [BoardViewKey: BoardView] = [:]
        next.reserveCapacity(watched.count)
        var changed: [BoardViewKey: BoardView] = [:]
        for key in watched {
            let view = board.view(key)
            if views[key] != view { changed[key] = view }
            next[key] = view
        }
        views = next
        return changed
    }
}
