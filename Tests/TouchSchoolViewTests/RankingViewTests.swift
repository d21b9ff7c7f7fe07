import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

@Suite(.onOwnThreads) struct RankingViewTests {
    @Test(arguments: Language.allCases)
    func leftAndRightWalkThroughMyLeagues(language: Language) {
        var state = Fixture.state(on: .ranking, language, columns: 120, rows: 40)
        let titles = language == .korean
            ? ["순위 · 전국 (1/4)", "순위 · 고등학교 (2/4)", "순위 · 서울특별시 (3/4)", "순위 · 서울특별시 고등학교 (4/4)", "순위 · 전국 (1/4)"]
            : ["Ranking · National (1/4)", "Ranking · High schools (2/4)", "Ranking · Seoul (3/4)",
               "Ranking · High schools in Seoul (4/4)", "Ranking · National (1/4)"]
        let sizes = ["8", "5", "3", "3", "8"]
        for (title, size) in zip(titles, sizes) {
            let grid = view(state, now: Fixture.start)
            #expect(grid.lines[0].hasPrefix(" " + title))
            #expect(grid.lines[0].hasSuffix((language == .korean ? "내 학교 2위 / \(size)" : "mine #2 of \(size)") + " "))
            expectWholeColumns(grid)
            _ = update(&state, .key(.right), now: Fixture.start)
        }
        // Five steps right made it the second league; two steps left wrap round to the last.
        _ = update(&state, .key(.left), now: Fixture.start)
        #expect(view(state, now: Fixture.start).lines[0].hasPrefix(" " + titles[0]))
        _ = update(&state, .key(.left), now: Fixture.start)
        #expect(view(state, now: Fixture.start).lines[0].hasPrefix(" " + titles[3]))
        // A league in a province holds only schools of that province.
        let seoul = view(state, now: Fixture.start)
        #expect(seoul.contains("휘문고등학교") && !seoul.contains("금성초등학교") && !seoul.contains("대전중학교"))
    }

    @Test func rowsAlignScoresRightAndHighlightMine() {
        let state = Fixture.state(on: .ranking, .korean, columns: 120, rows: 40)
        let grid = view(state, now: Fixture.start)
        let list = state.layout.rankingList
        let rows = (list.y..<(list.y + 8)).map { grid.lines[$0] }
        #expect(rows[0].contains("휘문고등학교") && rows[0].contains("2,000,000"))
        #expect(rows[3].contains("…"), "the long name is cut")
        #expect(rows[5].contains("세종특별자치시"))
        // Scores end in one column, whatever their width: the rows have equal display width up to it.
        let ends = rows.map { TerminalWidth.of(String($0.reversed().drop { $0 == " " }.reversed())) }
        #expect(Set(ends).count == 1)
        let heading = grid.lines[list.y - 1]
        #expect(TerminalWidth.of(String(heading.reversed().drop { $0 == " " }.reversed())) == ends[0])
        // Mine is 서울고 at place 3 (tied second).
        let mineRow = list.y + 2
        #expect(grid.lines[mineRow].contains("서울고등학교"))
        #expect(grid[1, mineRow].style == .mine && grid[ends[0] - 1, mineRow].style == .mine)
        #expect(grid[1, mineRow - 1].style == .normal)
        #expect(grid.lines[mineRow - 1].contains("    2 ") && grid.lines[mineRow].contains("    2 "))
    }

    /// Two 금성초등학교: where the district (then the province) column is dropped, each says where
    /// it is after its name; a unique name does not.
    @Test(arguments: [40, 64])
    func sameNamedSchoolsKeepTheirRegionInNarrowRankings(columns: Int) {
        let grid = view(Fixture.state(on: .ranking, .korean, columns: columns, rows: 20), now: Fixture.start)
        // At 40 columns both are cut, the name keeping the larger part.
        let busan = try! #require(grid.row(containing: "금성초"))
        let jeonnam = try! #require(grid.lines.lastIndex { $0.contains("금성초") })
        #expect(busan != jeonnam)
        #expect(grid.lines[busan].contains(columns == 40 ? "부산" : "금성초등학교  금정구"), "\(grid.lines[busan])")
        #expect(grid.lines[jeonnam].contains(columns == 40 ? "전라" : "금성초등학교  담양군"), "\(grid.lines[jeonnam])")
        let daejeon = try! #require(grid.row(containing: "대전중학교"))
        #expect(!grid.lines[daejeon].contains("중구"))
        expectWholeColumns(grid)
    }

    /// The game's side panel has no region columns: a same-named school there says where it is.
    @Test func sameNamedSchoolsKeepTheirRegionInTheSidePanel() {
        let grid = view(Fixture.state(on: .game, .korean, columns: 120, rows: 40), now: Fixture.start)
        let row = try! #require(grid.row(containing: "금성초등학교"))
        #expect(grid.lines[row].contains("부산"), "\(grid.lines[row])")
        let seoul = try! #require(grid.row(containing: "휘문고등학교"))
        #expect(grid.lines[seoul].components(separatedBy: "휘문고등학교").count == 2)
        expectWholeColumns(grid)
    }

    @Test func narrowTerminalsDropTheDistrictThenTheProvince() {
        func headings(_ columns: Int) -> String {
            view(Fixture.state(on: .ranking, .english, columns: columns, rows: 20), now: Fixture.start).lines[2]
        }
        #expect(headings(120).contains("Province") && headings(120).contains("District"))
        #expect(headings(64).contains("Province") && !headings(64).contains("District"))
        #expect(!headings(40).contains("Province") && !headings(40).contains("District"))
        for columns in 40...130 {
            let grid = view(Fixture.state(on: .ranking, .korean, columns: columns, rows: 14), now: Fixture.start)
            expectWholeColumns(grid, "\(columns) columns")
            #expect(grid.contains("1,234,567"), "scores always show at \(columns) columns")
        }
    }

    @Test func pagingShowsLaterPlacesAndThousandsSeparators() {
        var state = Fixture.crowd(300, myPlace: 150, .english, columns: 80, rows: 24)
        _ = update(&state, .key(.tab), now: Fixture.start)
        var grid = view(state, now: Fixture.start)
        let list = state.layout.rankingList
        // Following my school puts it mid-page.
        let mine = try! #require(grid.row(containing: "학교151"))
        #expect(list.contains(column: 1, row: mine))
        #expect(grid[1, mine].style == .mine)

        _ = update(&state, .key(.home), now: Fixture.start)
        grid = view(state, now: Fixture.start)
        #expect(grid.lines[list.y].contains("학교01") && grid.lines[list.y].contains("3,000"))
        #expect(grid.lines[list.y + list.height - 1].contains("학교\(list.height)"))
        #expect(!grid.lines[list.y + list.height].contains("학교"))

        _ = update(&state, .key(.pageDown), now: Fixture.start)
        grid = view(state, now: Fixture.start)
        #expect(grid.lines[list.y].contains("학교\(list.height + 1)"))

        _ = update(&state, .key(.end), now: Fixture.start)
        grid = view(state, now: Fixture.start)
        #expect(grid.lines[list.y + list.height - 1].contains("학교300"))
        #expect(grid.lines[list.y + list.height - 1].contains(" 10 "))
    }

    /// A school without a tap has no rank, as `touchschool rank` says: "-" in the rank column of the
    /// ranking and of the game's panel, not the place every school at 0 shares (7 here).
    @Test(arguments: Language.allCases)
    func aSchoolWithoutTapsHasNoRank(language: Language) {
        func rank(in grid: CellGrid, of name: String, from column: Int, width: Int) -> String? {
            guard let row = grid.lines.lastIndex(where: { $0.contains(name) }) else { return nil }
            return grid.text(row: row, columns: column..<(column + width)).split(separator: " ").first.map(String.init)
        }
        let ranking = Fixture.state(on: .ranking, language, columns: 120, rows: 40)
        let list = ranking.layout.rankingList
        let table = view(ranking, now: Fixture.start)
        let width = DisplayWidth.of(Strings(language).rankHeading)
        #expect(rank(in: table, of: "휘문고등학교", from: list.x + 1, width: width) == "1")
        #expect(rank(in: table, of: "세종과학예술영재학교", from: list.x + 1, width: width) == "6")
        // 금성초등학교 of 전라남도 (the second of the name) and 대전중학교 have no tap.
        #expect(rank(in: table, of: "금성초등학교", from: list.x + 1, width: width) == "-", "\(table.text)")
        #expect(rank(in: table, of: "대전중학교", from: list.x + 1, width: width) == "-", "\(table.text)")

        let game = Fixture.state(on: .game, language, columns: 120, rows: 40)
        let panel = game.layout.leaderboardPanel
        let grid = view(game, now: Fixture.start)
        #expect(rank(in: grid, of: "휘문고등학교", from: panel.x + 1, width: 4) == "1", "\(grid.text)")
        #expect(rank(in: grid, of: "대전중학교", from: panel.x + 1, width: 4) == "-", "\(grid.text)")
        #expect(rank(in: grid, of: "금성초등학교  전라", from: panel.x + 1, width: 4) == "-", "\(grid.text)")
    }

    /// My school without a tap: the ranking's title says it has no rank yet, as the game's header does.
    @Test(arguments: Language.allCases)
    func myRankBeforeMyFirstTapIsNone(language: Language) {
        let players = ["tester": PlayerRecord(schoolID: "S8", taps: 0)]
        var state = GameState(catalog: Fixture.catalog, saved: SavedState(scores: Fixture.scores, players: players), player: "tester",
                              language: language, now: Fixture.start, columns: 120, rows: 40, seed: 1)
        _ = update(&state, .key(.tab), now: Fixture.start)
        let title = view(state, now: Fixture.start).lines[0]
        #expect(title.hasSuffix(Strings(language).noRankYet + " "), "\(title)")
        #expect(!title.contains(language == .korean ? "7위" : "#7"), "\(title)")
    }
}
