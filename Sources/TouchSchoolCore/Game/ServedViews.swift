/// The battle as a server shows it to this game (protocol 2), by position in the game's catalog:
/// its school's view and the page of the league the ranking screen watches. On a server the game
/// never holds every school's total, so ranks come from these, not from the local leaderboard.
public struct ServedViews: Equatable, Sendable {
    /// The last view of a school (mine, or the one before a switch the server has not seen yet).
    public var school: SchoolView?
    /// The last page of the league watched.
    public var page: PageView?
    /// The views as they were a moment ago (`GameTiming.movementBaselineNanoseconds`), for the
    /// movement arrows: the server says ranks, not where a school stood before.
    public var earlierSchool: SchoolView?
    public var earlierPage: PageView?

    public init(school: SchoolView? = nil, page: PageView? = nil) {
        self.school = school
        self.page = page
    }

    mutating func markMovementBaseline() {
        earlierSchool = school
        earlierPage = page
    }

    /// The next views are of other numbers (another period, a new season): each is its own
    /// baseline when it comes, rather than the views of before.
    mutating func forgetMovementBaseline() {
        earlierSchool = nil
        earlierPage = nil
    }

    /// Places `position` climbed in `league` since the baseline, by the rule the page applies to
    /// its pages (`BattleRules.pageMovements`, as the local leaderboard's `movement` counts them):
    /// on the page of `league` shown, against that league's page of a moment ago; nationally off
    /// the page, against my school's view of a moment ago, whose rows are no one page from the top
    /// (a school new among them may have come from either side: unmoved). 0 for a school neither shows.
    func movement(of position: Int, in league: League) -> Int {
        let rows: [RankedSchool], then: [RankedSchool]?, from: Int
        if let page, page.league == league, page.rows.contains(where: { $0.position == position }) {
            (rows, from) = (page.rows, page.places.lowerBound)
            then = earlierPage.flatMap { $0.league == league ? $0.rows : nil }
        } else if league == .national, let school {
            (rows, from) = (Self.rows(of: school), 1)
            then = earlierSchool.map(Self.rows(of:))
        } else {
            return 0
        }
        return BattleRules.pageMovements(rows: rows, from: from, then: then).first { $0.position == position }?.climbed ?? 0
    }

    /// A school's view as rows in rank order: the top, those above, the school, those below, each once.
    private static func rows(of view: SchoolView) -> [RankedSchool] {
        var seen = Set<Int>()
        let mine = RankedSchool(position: view.school, rank: view.national.rank, count: view.count)
        return (view.top + view.above + [mine] + view.below).filter { seen.insert($0.position).inserted }
    }
}

extension BattleRules {
    /// Where my school stands nationally, as the game's header says it on a server, from the
    /// server's last view of it (its `count`, national `rank` and `gap` to the school above then,
    /// nil for a leader; `above`, the national rows just above it, nearest last) and its `total`
    /// now, with the taps since. The rank climbs past each school of `above` those taps passed; the
    /// school to overtake is the nearest one ahead of that total, of `hidden` (the rows of a page
    /// naming a school that schools tied with mine hid from `above`) or `above`, one tap more than
    /// the difference (a tie only shares the place); with none named, only how far the view said
    /// the next place was, less the taps since (`school` nil), and nothing once passed. The page
    /// applies the same rule (`rules.js`'s `standing`): both give every `standing` case of
    /// `Tests/Vectors/battle-rules.json`.
    public static func standing(total: UInt64, count: UInt64, rank: Int, gap: UInt64?, above: [RankedSchool],
                                hidden: [RankedSchool] = []) -> (rank: Int, chase: NationalStanding.Chase?) {
        let passed = above.filter { $0.count > count && $0.count <= total }.count
        let rank = rank - passed
        if let ahead = (hidden + above).last(where: { $0.count > total }) {
            return (rank, NationalStanding.Chase(school: ahead.position, taps: ahead.count - total + 1))
        }
        guard let gap, passed == 0 else { return (rank, nil) }
        // Signed: a total below the view's (a view newer than the taps counted) leaves more to go.
        let left = Int64(clamping: gap) - (Int64(clamping: total) - Int64(clamping: count)) + 1
        return (rank, left > 0 ? NationalStanding.Chase(school: nil, taps: UInt64(left)) : nil)
    }
}

extension BattleRules {
    /// ▲/▼ of each school of a page of a league (`rows`, the page starting at place `from`,
    /// 0-based) since the same page a moment ago (`then`: its rows then; nil when none was seen:
    /// the page is its own baseline): one place for each other school of the page ahead then and
    /// behind now, less one for each behind then and ahead now (strictly: joining a tie passes no
    /// one), in the page's order. A school not on the page then came from below it when the page
    /// starts at the top; on a later page it may have come from either side, and is taken as
    /// unmoved. The page applies the same rule (`rules.js`'s `pageMovements`): both give every
    /// `pageMovements` case of `Tests/Vectors/battle-rules.json`.
    public static func pageMovements(rows: [RankedSchool], from: Int, then: [RankedSchool]?) -> [(position: Int, climbed: Int)] {
        let before = Dictionary((then ?? rows).map { ($0.position, Int64(clamping: $0.count)) }, uniquingKeysWith: { first, _ in first })
        let counts = rows.map { row in
            (position: row.position, now: Int64(clamping: row.count),
             before: before[row.position] ?? (from == 0 ? -1 : Int64(clamping: row.count)))
        }
        return counts.map { mine in
            var climbed = 0
            for other in counts {
                if other.before > mine.before && other.now < mine.now { climbed += 1 }
                else if other.before < mine.before && other.now > mine.now { climbed -= 1 }
            }
            return (mine.position, climbed)
        }
    }
}

/// The page of a league the ranking screen shows: what a game on a server asks it to send.
public struct PageWatch: Hashable, Sendable {
    public var league: League
    /// The places on screen (0-based).
    public var places: Range<Int>

    public init(league: League, places: Range<Int>) {
        self.league = league
        self.places = places
    }
}

/// Where my school stands nationally, as the game screen's header says it.
public struct NationalStanding: Equatable, Sendable {
    /// Its total, with the taps this game has not had saved yet.
    public var total: UInt64
    /// Its national rank; nil before a server has said it.
    public var rank: Int?
    /// The school to overtake; nil for a leader.
    public var chase: Chase?

    public struct Chase: Equatable, Sendable {
        /// Its catalog position; nil when the rows a server sent do not name it (a crowd tied
        /// with mine stands between).
        public var school: Int?
        /// The taps that overtake it (one more than the difference: a tie only shares the place).
        public var taps: UInt64
    }
}

extension GameState {
    /// Playing on a server: the ranks come from its views.
    public var isOnServer: Bool { connection != nil }

    /// The server's view of my school; nil locally, before the first view, or while it is of the
    /// school before a switch.
    public var myView: SchoolView? {
        guard isOnServer, let view = served.school, view.school == mySchool else { return nil }
        return view
    }

    /// Where `school` (mine) stands nationally: locally from the leaderboard, on a server from its
    /// view, with the taps not yet in the view added to the total and taken off the chase.
    public func nationalStanding(of school: Int) -> NationalStanding {
        let total = leaderboard.count(of: school)
        guard isOnServer else {
            let chase = leaderboard.schoolAbove(school, in: .national).map { above in
                let behind = above.count - min(above.count, total)
                return NationalStanding.Chase(school: above.position, taps: behind.addingSaturating(1))
            }
            return NationalStanding(total: total, rank: leaderboard.rank(of: school, in: .national), chase: chase)
        }
        guard let view = myView else { return NationalStanding(total: total, rank: nil, chase: nil) }
        let standing = BattleRules.standing(total: total, count: view.count, rank: view.national.rank, gap: view.national.gap, above: view.above)
        return NationalStanding(total: total, rank: standing.rank, chase: standing.chase)
    }

    /// How many schools `league` holds, as far as this game knows: on a server, the watched
    /// page's or my view's size (0 before either arrived).
    public func size(of league: League) -> Int {
        guard isOnServer else { return leaderboard.size(of: league) }
        if let page = served.page, page.league == league { return page.size }
        return myView?.standings.first { $0.league == league }?.size ?? 0
    }

    /// My school's rank in `league`, when it is in it and known.
    public func myRank(in league: League) -> Int? {
        guard let mySchool, league.contains(catalog[mySchool]) else { return nil }
        guard isOnServer else { return leaderboard.rank(of: mySchool, in: league) }
        return myView?.standings.first { $0.league == league }?.rank
    }

    /// The ranking screen's rows at `places` of `league`: locally from the leaderboard; on a server
    /// those of the watched page that fall in `places` (a page asked for after scrolling comes
    /// at the next interval), each with its place.
    public func rankingRows(in league: League, places: Range<Int>) -> [(place: Int, entry: RankedSchool)] {
        guard isOnServer else {
            return leaderboard.entries(in: league, places: places).enumerated().map { (places.lowerBound + $0.offset, $0.element) }
        }
        guard let page = served.page, page.league == league else { return [] }
        return page.rows.enumerated().map { (page.places.lowerBound + $0.offset, $0.element) }.filter { places.contains($0.place) }
    }

    /// Places `school` climbed in `league` since a moment ago.
    public func movement(of school: Int, in league: League) -> Int {
        isOnServer ? served.movement(of: school, in: league) : leaderboard.movement(of: school, in: league)
    }

    /// The page a game on a server asks for: the one the ranking screen shows; on the game
    /// screen, the side panel's (`panelPage`); none on the map (the server's map marks the
    /// national leaders, and my school's view names them) and on other screens.
    var wantedPage: PageWatch? {
        guard isOnServer else { return nil }
        switch screen {
        case .ranking where ranking.tab == .map: return nil
        case .ranking: return PageWatch(league: ranking.league, places: ranking.scroll..<(ranking.scroll + max(1, layout.rankingList.height)))
        case .game: return panelPage
        default: return nil
        }
    }

    /// How many of the league's leaders the map marks.
    public static let mapLeaders = 3

    /// The national places a side panel taller than my school's view (the top three, "...", mine
    /// ±2) shows around mine, so that it fills: the rows under the top and its gap, from the top
    /// itself when mine is near it. They move in steps of a quarter of them, not at every place
    /// mine climbs, so that a player mashing asks again now and then, not at every new rank. Nil
    /// when the view fills the panel, and before the view says where mine stands. The server sends
    /// the page within a player's byte budget for pages (`BattleHall.PageBudget`).
    public var panelPage: PageWatch? {
        let rows = layout.leaderboardPanel.height - 1
        let top = SchoolView.topCount
        guard rows > top + 2 + 2 * SchoolView.neighbourCount, let view = myView else { return nil }
        let window = rows - top - 1
        let myPlace = view.national.rank - 1
        let step = max(1, window / 4)
        var start = (myPlace - (window - 1) / 2) / step * step
        start = min(start, view.national.size - window)
        if start <= top + 1 { return PageWatch(league: .national, places: 0..<rows) }
        return PageWatch(league: .national, places: start..<(start + window))
    }
}
