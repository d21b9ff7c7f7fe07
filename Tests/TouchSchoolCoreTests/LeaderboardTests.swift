import Testing
import TouchSchoolTestSupport
import TouchSchoolCore


/// Schools spread over every level and `provinces` provinces, with names that repeat so that the
/// tie order must fall back on province and id.
func synthesizedCatalog(schoolCount: Int, provinces: Int = 17) -> Catalog {
    let schools = (0..<schoolCount).map { index in
        School(
            id: "T\(100_000 - index)", name: "학교\(index % 97)",
            level: SchoolLevel.allCases[index % 3], province: "도\((index / 3) % provinces)",
            district: "", address: ""
        )
    }
    return Catalog(schools: schools, source: .starter)
}

/// The leaderboard worked out the slow way: sort every league from scratch.
struct LeaderboardOracle {
    let catalog: Catalog
    var counts: [UInt64]

    func order(of league: League) -> [Int] {
        catalog.schools.indices.filter { league.contains(catalog[$0]) }.sorted { a, b in
            if counts[a] != counts[b] { return counts[a] > counts[b] }
            let x = catalog[a], y = catalog[b]
            return (x.name, x.province, x.id) < (y.name, y.province, y.id)
        }
    }

    func rank(of school: Int, in league: League) -> Int {
        1 + order(of: league).filter { counts[$0] > counts[school] }.count
    }

    /// Every row of the league, with the school each row has to overtake.
    func rows(of league: League) -> [(row: RankedSchool, above: RankedSchool?)] {
        let order = order(of: league)
        var rows: [(row: RankedSchool, above: RankedSchool?)] = []
        for school in order {
            let greater = order.filter { counts[$0] > counts[school] }
            let row = RankedSchool(position: school, rank: 1 + greater.count, count: counts[school])
            let above = greater.last.map { above in rows.first { $0.row.position == above }!.row }
            rows.append((row, above))
        }
        return rows
    }

    var leagues: [League] {
        var seen: [League] = []
        for school in catalog.schools {
            for league in League.leagues(of: school) where !seen.contains(league) { seen.append(league) }
        }
        return seen
    }
}

/// Compares every league's full order, ranks, places and school above with the oracle.
func expectMatches(_ board: Leaderboard, _ oracle: LeaderboardOracle, sourceLocation: SourceLocation = #_sourceLocation) {
    for league in oracle.leagues {
        let expected = oracle.rows(of: league)
        #expect(board.size(of: league) == expected.count, "\(league)", sourceLocation: sourceLocation)
        #expect(board.entries(in: league, places: 0..<expected.count) == expected.map(\.row), "\(league)", sourceLocation: sourceLocation)
        for (place, (row, above)) in expected.enumerated() {
            #expect(board.place(of: row.position, in: league) == place, sourceLocation: sourceLocation)
            #expect(board.rank(of: row.position, in: league) == row.rank, sourceLocation: sourceLocation)
            #expect(board.schoolAbove(row.position, in: league) == above, sourceLocation: sourceLocation)
        }
    }
}

@Suite(.onOwnThreads) struct LeaderboardTests {
    @Test func initialOrderMatchesTheOracle() {
        let catalog = synthesizedCatalog(schoolCount: 300)
        var generator = RandomSource(seed: 7)
        let counts = (0..<300).map { _ in UInt64.random(in: 0...20, using: &generator) }
        expectMatches(Leaderboard(catalog: catalog, counts: counts), LeaderboardOracle(catalog: catalog, counts: counts))
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func randomUpdatesMatchTheOracle(seed: UInt64) {
        let catalog = synthesizedCatalog(schoolCount: 240, provinces: 5)
        var generator = RandomSource(seed: seed)
        var oracle = LeaderboardOracle(catalog: catalog, counts: Array(repeating: 0, count: 240))
        var board = Leaderboard(catalog: catalog, counts: oracle.counts)
        for step in 1...4_000 {
            let school = Int.random(in: 0..<240, using: &generator)
            // Small counts keep many ties; some updates move a school down or far up.
            switch UInt64.random(in: 0..<10, using: &generator) {
            case 0..<7:
                board.add(1, to: school)
                oracle.counts[school] += 1
            case 7:
                let taps = UInt64.random(in: 0...30, using: &generator)
                board.add(taps, to: school)
                oracle.counts[school] += taps
            default:
                let count = UInt64.random(in: 0...40, using: &generator)
                board.setCount(count, of: school)
                oracle.counts[school] = count
            }
            #expect(board.count(of: school) == oracle.counts[school])
            if step % 1_000 == 0 { expectMatches(board, oracle) }
        }
    }

    @Test func tiesShareARankAndFollowTheTieOrder() {
        let schools = [
            School(id: "B3", name: "가", level: .high, province: "서울", district: "", address: ""),
            School(id: "B2", name: "가", level: .high, province: "부산", district: "", address: ""),
            School(id: "B1", name: "가", level: .high, province: "부산", district: "", address: ""),
            School(id: "B0", name: "나", level: .high, province: "부산", district: "", address: ""),
        ]
        let board = Leaderboard(catalog: Catalog(schools: schools, source: .starter), counts: [5, 5, 9, 5])
        // B1 leads; the three at 5 share rank 2, ordered by name, then province, then id.
        #expect(board.entries(in: .national, places: 0..<4) == [
            RankedSchool(position: 2, rank: 1, count: 9),
            RankedSchool(position: 1, rank: 2, count: 5),
            RankedSchool(position: 0, rank: 2, count: 5),
            RankedSchool(position: 3, rank: 2, count: 5),
        ])
        // Whom to overtake: the leader, whatever the place among the tied.
        #expect(board.schoolAbove(3, in: .national) == RankedSchool(position: 2, rank: 1, count: 9))
        #expect(board.schoolAbove(2, in: .national) == nil)
        #expect(board.rank(of: 3, in: .province("부산")) == 2)
        #expect(board.place(of: 3, in: .province("부산")) == 2)
        #expect(board.size(of: .province("서울")) == 1)
    }

    @Test func addingPastTheLeaderTakesTheLead() {
        let catalog = synthesizedCatalog(schoolCount: 30)
        var board = Leaderboard(catalog: catalog, counts: Array(repeating: 0, count: 30))
        board.setCount(3, of: 4)
        let last = board.entries(in: .national, places: 29..<30)[0].position
        #expect(board.schoolAbove(last, in: .national) == RankedSchool(position: 4, rank: 1, count: 3))
        board.add(3, to: last)
        #expect(board.rank(of: last, in: .national) == 1)
        #expect(board.rank(of: 4, in: .national) == 1)
        board.add(1, to: last)
        #expect(board.entries(in: .national, places: 0..<2).map(\.position) == [last, 4])
        #expect(board.entries(in: .national, places: 0..<2).map(\.rank) == [1, 2])
    }

    @Test func countsSaturate() {
        let catalog = synthesizedCatalog(schoolCount: 4)
        var board = Leaderboard(catalog: catalog, counts: [UInt64.max - 1, 0, 0, UInt64.max])
        board.add(5, to: 0)
        #expect(board.count(of: 0) == .max)
        board.add(.max, to: 1)
        board.add(1, to: 1)
        #expect(board.count(of: 1) == .max)
        #expect(board.entries(in: .national, places: 0..<4).map(\.rank) == [1, 1, 1, 4])
        var oracle = LeaderboardOracle(catalog: catalog, counts: [.max, .max, 0, .max])
        expectMatches(board, oracle)
        board.setCount(0, of: 3)
        oracle.counts[3] = 0
        expectMatches(board, oracle)
    }

    @Test func entriesLeaveOutPlacesPastTheEnd() {
        let catalog = synthesizedCatalog(schoolCount: 12)
        let board = Leaderboard(catalog: catalog, counts: Array(0..<12))
        #expect(board.entries(in: .national, places: 10..<20).map(\.count) == [1, 0])
        #expect(board.entries(in: .national, places: 20..<30).isEmpty)
        #expect(board.entries(in: .province("없는도"), places: 0..<10).isEmpty)
        #expect(board.size(of: .province("없는도")) == 0)
    }

    @Test func leaguesComeFromTheCatalog() {
        let catalog = synthesizedCatalog(schoolCount: 12_011)
        let board = Leaderboard(catalog: catalog, counts: Array(repeating: 0, count: 12_011))
        let oracle = LeaderboardOracle(catalog: catalog, counts: [])
        // 1 national + 3 levels + 17 provinces + 51 levels in provinces.
        #expect(oracle.leagues.count == 72)
        #expect(board.size(of: .national) == 12_011)
        for kind in [
            oracle.leagues.filter { if case .level = $0 { true } else { false } },
            oracle.leagues.filter { if case .province = $0 { true } else { false } },
            oracle.leagues.filter { if case .levelInProvince = $0 { true } else { false } },
        ] {
            #expect(kind.map { board.size(of: $0) }.reduce(0, +) == 12_011)
        }
    }

    /// Places climbed since the baseline, the slow way: one for each school of the league that
    /// was strictly ahead then and is strictly behind now, less one for each the other way round.
    static func climbed(_ school: Int, in league: League, from before: LeaderboardOracle, to now: LeaderboardOracle) -> Int {
        now.order(of: league).reduce(0) { climbed, other in
            if before.counts[other] > before.counts[school] && now.counts[other] < now.counts[school] { return climbed + 1 }
            if before.counts[other] < before.counts[school] && now.counts[other] > now.counts[school] { return climbed - 1 }
            return climbed
        }
    }

    @Test func movementCountsSchoolsPassedSinceTheBaseline() {
        let catalog = synthesizedCatalog(schoolCount: 60, provinces: 2)
        var generator = RandomSource(seed: 11)
        var oracle = LeaderboardOracle(catalog: catalog, counts: (0..<60).map { _ in UInt64.random(in: 0...10, using: &generator) })
        var board = Leaderboard(catalog: catalog, counts: oracle.counts)
        for school in 0..<60 { #expect(board.movement(of: school, in: .national) == 0) }

        for round in 0..<3 {
            let before = oracle
            for _ in 0..<200 {
                let school = Int.random(in: 0..<60, using: &generator)
                // Mostly taps; now and then a count set outright, down as well as up.
                if UInt64.random(in: 0..<8, using: &generator) == 0 {
                    let count = UInt64.random(in: 0...40, using: &generator)
                    board.setCount(count, of: school)
                    oracle.counts[school] = count
                } else {
                    board.add(1, to: school)
                    oracle.counts[school] += 1
                }
            }
            for school in 0..<60 {
                for league in League.leagues(of: catalog[school]) {
                    #expect(board.movement(of: school, in: league) == Self.climbed(school, in: league, from: before, to: oracle),
                            "round \(round), school \(school), \(league)")
                }
            }
            board.markMovementBaseline()
            for school in 0..<60 { #expect(board.movement(of: school, in: .national) == 0) }
        }
    }

    /// One school's first tap lifts it out of the crowd at 0; the rest of the crowd stays where it
    /// was (no ▼1 on every school), and so does a leader that another school comes to tie.
    @Test func leavingOrJoiningATieMovesNoOne() {
        let catalog = synthesizedCatalog(schoolCount: 12, provinces: 2)
        // Schools 0 and 6 share all four leagues: same level (index % 3), same province (index / 3 % 2).
        let (first, second) = (0, 6)
        #expect(League.leagues(of: catalog[first]) == League.leagues(of: catalog[second]))
        var board = Leaderboard(catalog: catalog, counts: Array(repeating: 0, count: 12))
        func expectMovements(_ expected: [Int: Int], _ comment: Comment) {
            for school in 0..<12 {
                for league in League.leagues(of: catalog[school]) {
                    #expect(board.movement(of: school, in: league) == expected[school, default: 0], "\(comment): school \(school), \(league)")
                }
            }
        }
        board.add(1, to: first)
        expectMovements([:], "the first leaves the crowd at 0")
        board.add(1, to: second)
        expectMovements([:], "the second ties the first")
        board.markMovementBaseline()
        board.add(1, to: second)
        expectMovements([:], "the second leaves its tie with the first")
        board.markMovementBaseline()
        board.add(2, to: first)
        expectMovements([first: 1, second: -1], "the first passes the second")
        board.add(1, to: second)
        expectMovements([:], "the second catches up: a tie again, which passes no one")
    }
}
