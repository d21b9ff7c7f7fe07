import Testing
import TouchSchoolTestSupport
import TouchSchoolCore

/// The views worked out the slow way, from `LeaderboardOracle`'s full sort of each league.
extension LeaderboardOracle {
    func row(_ school: Int, in order: [Int]) -> RankedSchool {
        RankedSchool(position: school, rank: 1 + order.filter { counts[$0] > counts[school] }.count, count: counts[school])
    }

    func schoolView(of school: Int) -> SchoolView {
        let standings = League.leagues(of: catalog[school]).map { league in
            let order = order(of: league)
            // The school to overtake has the smallest count of those greater than the school's.
            let gap = order.map { counts[$0] }.filter { $0 > counts[school] }.min().map { $0 - counts[school] }
            return LeagueStanding(league: league, rank: row(school, in: order).rank, size: order.count, gap: gap)
        }
        let national = order(of: .national)
        let place = national.firstIndex(of: school)!
        return SchoolView(school: school, count: counts[school], standings: standings,
                          above: national[max(0, place - 2)..<place].map { row($0, in: national) },
                          below: national[(place + 1)..<min(national.count, place + 3)].map { row($0, in: national) },
                          top: national.prefix(3).map { row($0, in: national) })
    }

    func pageView(of league: League, places: Range<Int>) -> PageView {
        let order = order(of: league)
        let rows = order.indices.filter { places.contains($0) }.map { row(order[$0], in: order) }
        return PageView(league: league, places: places, size: order.count, rows: rows)
    }

    func view(_ key: BoardViewKey) -> BoardView {
        switch key {
        case let .school(school): .school(schoolView(of: school))
        case let .page(league, places): .page(pageView(of: league, places: places))
        }
    }
}

@Suite(.onOwnThreads) struct BoardViewsTests {
    /// Four schools: three in 부산 (two of them named alike, so the tie order falls back on the
    /// province and the id), one alone in 서울; all high schools.
    static let schools = [
        School(id: "B3", name: "가", level: .high, province: "서울", district: "", address: ""),
        School(id: "B2", name: "가", level: .high, province: "부산", district: "", address: ""),
        School(id: "B1", name: "가", level: .high, province: "부산", district: "", address: ""),
        School(id: "B0", name: "나", level: .high, province: "부산", district: "", address: ""),
    ]

    /// B1 leads with 9; B2, B3 and B0 tie at 5, in that order nationally (name, then province,
    /// then id).
    static func tiedBoard() -> (Leaderboard, Catalog) {
        let catalog = Catalog(schools: schools, source: .starter)
        return (Leaderboard(catalog: catalog, counts: [5, 5, 9, 5]), catalog)
    }

    @Test func theLastOfATieIsBehindTheLeaderByTheDifference() {
        let (board, _) = Self.tiedBoard()
        let view = board.schoolView(of: 3)
        let leader = RankedSchool(position: 2, rank: 1, count: 9)
        let b2 = RankedSchool(position: 1, rank: 2, count: 5), b3 = RankedSchool(position: 0, rank: 2, count: 5)
        #expect(view.count == 5)
        #expect(view.top == [leader, b2, b3])
        // Nationally B0 is last of four: two rows above (both tied with it), none below.
        #expect(view.above == [b2, b3])
        #expect(view.below == [])
        #expect(view.standings == [
            LeagueStanding(league: .national, rank: 2, size: 4, gap: 4),
            LeagueStanding(league: .level(.high), rank: 2, size: 4, gap: 4),
            // In 부산 (without B3): the leader, B2, then B0.
            LeagueStanding(league: .province("부산"), rank: 2, size: 3, gap: 4),
            LeagueStanding(league: .levelInProvince(.high, "부산"), rank: 2, size: 3, gap: 4),
        ])
    }

    @Test func theLeaderHasNoGapAndNoRowsAbove() {
        let (board, _) = Self.tiedBoard()
        let view = board.schoolView(of: 2)
        #expect(view.national == LeagueStanding(league: .national, rank: 1, size: 4, gap: nil))
        #expect(view.above == [])
        #expect(view.below == [RankedSchool(position: 1, rank: 2, count: 5), RankedSchool(position: 0, rank: 2, count: 5)])
        #expect(view.standings[2] == LeagueStanding(league: .province("부산"), rank: 1, size: 3, gap: nil))
    }

    @Test func aSchoolAloneInItsLeagueLeadsIt() {
        let (board, _) = Self.tiedBoard()
        let view = board.schoolView(of: 0)
        #expect(view.standings[2] == LeagueStanding(league: .province("서울"), rank: 1, size: 1, gap: nil))
        #expect(view.standings[3] == LeagueStanding(league: .levelInProvince(.high, "서울"), rank: 1, size: 1, gap: nil))
        // Nationally B3 sits in the middle of the tie: one row on either side of it is tied too.
        #expect(view.national == LeagueStanding(league: .national, rank: 2, size: 4, gap: 4))
        #expect(view.above == [RankedSchool(position: 2, rank: 1, count: 9), RankedSchool(position: 1, rank: 2, count: 5)])
        #expect(view.below == [RankedSchool(position: 3, rank: 2, count: 5)])
    }

    /// A school tied with the leader leads too: no gap, though a row stands above it.
    @Test func aSchoolTiedWithTheLeaderHasNoGap() {
        let catalog = Catalog(schools: Self.schools, source: .starter)
        let board = Leaderboard(catalog: catalog, counts: [0, 0, 0, 0])
        let view = board.schoolView(of: 3)
        #expect(view.national.rank == 1)
        #expect(view.national.gap == nil)
        #expect(view.above == [RankedSchool(position: 1, rank: 1, count: 0), RankedSchool(position: 0, rank: 1, count: 0)])
        #expect(view.top == [RankedSchool(position: 2, rank: 1, count: 0), RankedSchool(position: 1, rank: 1, count: 0),
                             RankedSchool(position: 0, rank: 1, count: 0)])
    }

    @Test func aPageLeavesOutPlacesPastTheEnd() {
        let (board, _) = Self.tiedBoard()
        #expect(board.pageView(of: .national, places: 1..<3) == PageView(
            league: .national, places: 1..<3, size: 4,
            rows: [RankedSchool(position: 1, rank: 2, count: 5), RankedSchool(position: 0, rank: 2, count: 5)]
        ))
        #expect(board.pageView(of: .province("부산"), places: 2..<10) == PageView(
            league: .province("부산"), places: 2..<10, size: 3, rows: [RankedSchool(position: 3, rank: 2, count: 5)]
        ))
        #expect(board.pageView(of: .national, places: 4..<8) == PageView(league: .national, places: 4..<8, size: 4, rows: []))
        #expect(board.pageView(of: .province("없는도"), places: 0..<5) == PageView(league: .province("없는도"), places: 0..<5, size: 0, rows: []))
    }

    @Test func refreshTellsOnlyTheViewsThatChanged() {
        let (start, _) = Self.tiedBoard()
        var board = start
        var views = BoardViews()
        let watched: Set<BoardViewKey> = [.school(0), .school(3), .page(.province("서울"), places: 0..<10)]
        #expect(Set(views.refresh(watching: watched, on: board).keys) == watched)
        #expect(views.refresh(watching: watched, on: board).isEmpty)

        // A tap for B0 (position 3, in 부산) changes its view and that of B3, whose neighbour it
        // is nationally; the 서울 page holds only B3 and stays as it was.
        board.add(1, to: 3)
        let changed = views.refresh(watching: watched, on: board)
        #expect(Set(changed.keys) == [.school(0), .school(3)])
        guard case let .school(b0)? = changed[.school(3)] else {
            Issue.record("B0's view is a school's view")
            return
        }
        #expect(b0.count == 6)
        #expect(b0.national.rank == 2 && b0.national.gap == 3)

        // A view no longer watched is forgotten, and counts as new when it is watched again.
        #expect(views.refresh(watching: [.school(3)], on: board).isEmpty)
        #expect(Set(views.views.keys) == [.school(3)])
        #expect(Set(views.refresh(watching: watched, on: board).keys) == [.school(0), .page(.province("서울"), places: 0..<10)])
    }

    /// Many rounds of random taps, with ties made on purpose and counts crossing (some set lower):
    /// after each round every watched view, and which of them changed, match the slow way.
    @Test(arguments: [1 as UInt64, 2, 3])
    func viewsMatchAFullRecomputation(seed: UInt64) {
        let schoolCount = 150
        let catalog = synthesizedCatalog(schoolCount: schoolCount, provinces: 4)
        var generator = RandomSource(seed: seed)
        var oracle = LeaderboardOracle(catalog: catalog, counts: Array(repeating: 0, count: schoolCount))
        var board = Leaderboard(catalog: catalog, counts: oracle.counts)
        let leagues = oracle.leagues
        var views = BoardViews()
        var expectedBefore: [BoardViewKey: BoardView] = [:]
        for round in 0..<60 {
            for _ in 0..<Int.random(in: 0..<40, using: &generator) {
                let school = Int.random(in: 0..<schoolCount, using: &generator)
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<6:
                    board.add(1, to: school)
                    oracle.counts[school] += 1
                case 6..<8:
                    // Ties: the count of another school, often one in the same leagues.
                    let count = oracle.counts[Int.random(in: 0..<schoolCount, using: &generator)]
                    board.setCount(count, of: school)
                    oracle.counts[school] = count
                case 8:
                    let taps = UInt64.random(in: 0...25, using: &generator)
                    board.add(taps, to: school)
                    oracle.counts[school] += taps
                default:
                    // Down, past the schools it had passed.
                    let count = oracle.counts[school] / 2
                    board.setCount(count, of: school)
                    oracle.counts[school] = count
                }
            }
            // Some schools (a few players watch the same), and some pages, some past a league's end.
            var watched = Set<BoardViewKey>()
            for _ in 0..<40 { watched.insert(.school(Int.random(in: 0..<schoolCount, using: &generator))) }
            for _ in 0..<12 {
                let league = leagues[Int.random(in: 0..<leagues.count, using: &generator)]
                let start = Int.random(in: 0..<(board.size(of: league) + 3), using: &generator)
                watched.insert(.page(league, places: start..<(start + Int.random(in: 1...12, using: &generator))))
            }

            let changed = views.refresh(watching: watched, on: board)
            var expected: [BoardViewKey: BoardView] = [:]
            for key in watched { expected[key] = oracle.view(key) }
            #expect(views.views == expected, "round \(round)")
            let expectedChanged = watched.filter { expectedBefore[$0] != expected[$0] }
            #expect(Set(changed.keys) == expectedChanged, "round \(round)")
            for key in expectedChanged { #expect(changed[key] == expected[key], "round \(round), \(key)") }
            expectedBefore = expected
        }
    }
}
