import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

/// The ranking screen's map (`v`): braille dots where the schools are, the glow, the marks, the
/// lit league, the legend, and the starter list's line.
@Suite(.onOwnThreads) struct MapViewTests {
    /// Three schools far apart, with coordinates: 서울고 (Seoul), 해운대고 (Busan), 제주고 (Jeju).
    static let placed = Catalog(schools: [
        School(id: "P1", name: "서울고등학교", level: .high, province: "서울특별시", district: "서초구", address: "", latitude: 37.49, longitude: 127.01),
        School(id: "P2", name: "해운대고등학교", level: .high, province: "부산광역시", district: "해운대구", address: "", latitude: 35.17, longitude: 129.16),
        School(id: "P3", name: "제주고등학교", level: .high, province: "제주특별자치도", district: "제주시", address: "", latitude: 33.50, longitude: 126.53),
        School(id: "P4", name: "강릉고등학교", level: .high, province: "강원특별자치도", district: "강릉시", address: "", latitude: 37.76, longitude: 128.90),
    ], source: .official(edition: "test"))

    static func mapOf(_ catalog: Catalog, _ language: Language, columns: Int = 80, rows: Int = 24,
                      scores: [String: UInt64] = [:], mine: String = "P1") -> GameState {
        var state = GameState(catalog: catalog, saved: SavedState(scores: scores, players: ["tester": PlayerRecord(schoolID: mine, taps: 0)]),
                              player: "tester", language: language, now: Fixture.start, columns: columns, rows: rows, seed: 1)
        _ = update(&state, .key(.tab), now: Fixture.start)
        _ = update(&state, .key(.character("v")), now: Fixture.start)
        return state
    }

    /// Where a school's cell is on the screen.
    static func screenCell(of school: Int, in state: GameState) throws -> (column: Int, row: Int) {
        let cell = try #require(state.mapCanvas?.cell(of: school))
        return (state.layout.rankingMap.x + 1 + cell.column, state.layout.rankingMap.y + cell.row)
    }

    /// The cells of the map's canvas that show braille (the legend's samples left out).
    static func dotCells(_ grid: CellGrid, _ state: GameState) -> [Cell] {
        guard let canvas = state.mapCanvas else { return [] }
        let pane = state.layout.rankingMap
        return (0..<canvas.rows).flatMap { row in (0..<canvas.columns).map { grid[pane.x + 1 + $0, pane.y + row] } }
            .filter { isBraille($0.character) }
    }

    static func isBraille(_ character: Character) -> Bool {
        character.unicodeScalars.first.map { (0x2801...0x28FF).contains($0.value) } ?? false
    }

    @Test(arguments: Language.allCases)
    func theStarterListsMapSaysWhereItsSchoolsAreAndHowToGetTheRealOne(language: Language) {
        let strings = Strings(language)
        let state = Self.mapOf(Fixture.catalog, language, scores: Fixture.scores, mine: "S1")
        let grid = view(state, now: Fixture.start)
        #expect(grid.lines[1].contains(strings.rankingMapHint))
        #expect(grid.lines[23].contains(strings.rankingMapKeys))
        #expect(grid.containsWrapped(strings.mapAtProvinceCentres), "\(grid)")
        #expect(grid.contains("touchschool import"))
        // Five provinces' seats (Seoul, Busan, 전남, Sejong, Daejeon); Seoul's holds the leaders and
        // mine, marked as mine with its place.
        #expect(Self.dotCells(grid, state).count >= 3, "\(grid)")
        #expect(grid.contains(strings.mapLeadersLegend(strings.leagueName(.national), count: 3)))
        let seoul = state.mapCanvas!.cell(of: Fixture.mySchool)!
        #expect(grid[seoul.column + 1, seoul.row + state.layout.rankingMap.y].style == .mine)
    }

    @Test(arguments: Language.allCases)
    func theTableSaysWhichKeyShowsTheMap(language: Language) {
        var state = Self.mapOf(Self.placed, language)
        _ = update(&state, .key(.character("v")), now: Fixture.start)
        let grid = view(state, now: Fixture.start)
        #expect(grid.lines[1].contains(language == .korean ? "Enter/m 내 학교  v 지도" : "Enter/m my school  v map"))
        #expect(!grid.text.contains(where: Self.isBraille))
    }

    @Test func schoolsSitWhereTheyAreAndTheLeadersAndMineAreMarked() throws {
        let state = Self.mapOf(Self.placed, .english, scores: ["P2": 50, "P3": 40, "P4": 30, "P1": 10])
        let grid = view(state, now: Fixture.start)
        let seoul = try Self.screenCell(of: 0, in: state), busan = try Self.screenCell(of: 1, in: state)
        let jeju = try Self.screenCell(of: 2, in: state), gangneung = try Self.screenCell(of: 3, in: state)
        // Seoul north-west of Busan, Jeju south of both, Gangneung east of Seoul.
        #expect(seoul.row < busan.row && seoul.column < busan.column && jeju.row > busan.row && gangneung.column > seoul.column)
        #expect(grid[busan.column, busan.row] == Cell("1", style: .mapLeader))
        #expect(grid[jeju.column, jeju.row] == Cell("2", style: .mapLeader))
        #expect(grid[gangneung.column, gangneung.row] == Cell("3", style: .mapLeader))
        #expect(grid[seoul.column, seoul.row] == Cell("*", style: .mine))
        #expect(grid.contains("1 해운대고등학교  50") && grid.contains("* my school · 서울고등학교"))
        #expect(!grid.containsWrapped(Strings(.english).mapAtProvinceCentres), "a list with coordinates is the real map")
    }

    @Test func schoolsTappingNowGlowByHowFast() throws {
        let start = Fixture.start
        let gangneung = try Self.screenCell(of: 3, in: Self.mapOf(Self.placed, .english))
        // 강릉고 (not among the leaders) makes 3 taps, then 100 more: it glows warm, then blazes.
        var quiet = Self.mapOf(Self.placed, .english, scores: ["P1": 1_000, "P2": 900, "P3": 800], mine: "P1")
        _ = update(&quiet, .tick, now: start)
        _ = update(&quiet, .synced(SyncedBoard(catalogGeneration: 0, counts: [1_000, 900, 800, 3], player: nil)), now: start)
        let warm = view(quiet, now: start.adding(milliseconds: 1_000))
        #expect(warm[gangneung.column, gangneung.row].style == .mapWarm)
        _ = update(&quiet, .synced(SyncedBoard(catalogGeneration: 0, counts: [1_000, 900, 800, 103], player: nil)), now: start.adding(milliseconds: 500))
        #expect(view(quiet, now: start.adding(milliseconds: 1_000))[gangneung.column, gangneung.row].style == .mapBlazing)
        // Five seconds later it has faded.
        #expect(view(quiet, now: start.adding(milliseconds: 6_000))[gangneung.column, gangneung.row].style == .normal)
    }

    @Test func aProvincesLeagueLightsItsSchools() throws {
        var state = Self.mapOf(Self.placed, .korean, mine: "P2")
        _ = update(&state, .key(.right), now: Fixture.start)
        _ = update(&state, .key(.right), now: Fixture.start)
        #expect(state.ranking.league == .province("부산광역시"))
        let grid = view(state, now: Fixture.start)
        let jeju = try Self.screenCell(of: 2, in: state), busan = try Self.screenCell(of: 1, in: state)
        #expect(grid[jeju.column, jeju.row].style == .dim)
        #expect(grid[busan.column, busan.row] == Cell("*", style: .mine))
        #expect(grid.contains("밝은 점: 부산광역시"))
    }

    @Test(arguments: [[80, 24], [40, 12], [40, 40], [200, 60]])
    func theMapFitsEveryTerminal(dimensions: [Int]) throws {
        let size = (columns: dimensions[0], rows: dimensions[1])
        for language in Language.allCases {
            let state = Self.mapOf(Self.placed, language, columns: size.columns, rows: size.rows, scores: ["P2": 5])
            let grid = view(state, now: Fixture.start)
            let canvas = try #require(state.mapCanvas)
            #expect(canvas.columns + 1 <= size.columns && canvas.rows <= size.rows - 3)
            // The dots stay inside the map's pane: none on the title, key or status lines.
            for row in [0, 1, size.rows - 1] { #expect(!grid.lines[row].contains(where: Self.isBraille)) }
            #expect(!Self.dotCells(grid, state).isEmpty)
        }
    }
    /// The map of a game on a server, the server's `map` messages told as `reports`.
    static func servedMapOf(_ language: Language, mine: String = "P1", leagueSteps: Int = 0, reports: [MapReport]) -> GameState {
        var state = GameState(catalog: placed, saved: SavedState(players: ["tester": PlayerRecord(schoolID: mine, taps: 0)]),
                              player: "tester", language: language, now: Fixture.start, columns: 80, rows: 24, seed: 1)
        _ = update(&state, .connectionChanged(.online), now: Fixture.start)
        _ = update(&state, .key(.tab), now: Fixture.start)
        _ = update(&state, .key(.character("v")), now: Fixture.start)
        for _ in 0..<leagueSteps { _ = update(&state, .key(.right), now: Fixture.start) }
        for report in reports { _ = update(&state, .mapReported(report, catalogGeneration: 0), now: Fixture.start) }
        return state
    }

    static func gridCell(of school: Int) throws -> Int { try #require(MapGrid(map: SchoolMap(catalog: placed)).cell(of: school)) }

    /// On a server the game hears of few schools' taps: the server's grid says which glow, and
    /// their own dots glow (강릉고 and 제주고, whose taps no view of this game told).
    @Test(arguments: Language.allCases)
    func onAServerTheWholeNationGlowsAsTheServerTellsIt(language: Language) throws {
        let report = MapReport(catalog: "c", marks: [], cells: [MapCellGlow(cell: try Self.gridCell(of: 3), glow: 3),
                                                              MapCellGlow(cell: try Self.gridCell(of: 2), glow: 1)], whole: true)
        let state = Self.servedMapOf(language, reports: [report])
        let grid = view(state, now: Fixture.start)
        let gangneung = try Self.screenCell(of: 3, in: state), jeju = try Self.screenCell(of: 2, in: state)
        let busan = try Self.screenCell(of: 1, in: state), seoul = try Self.screenCell(of: 0, in: state)
        #expect(grid[gangneung.column, gangneung.row].style == .mapBlazing, "\(grid)")
        #expect(grid[jeju.column, jeju.row].style == .mapWarm)
        #expect(grid[busan.column, busan.row].style == .normal, "a cell the server says nothing of does not glow")
        #expect(grid[seoul.column, seoul.row] == Cell("*", style: .mine))
        // The cell goes out when the server says so.
        let out = Self.servedMapOf(language, reports: [report, MapReport(marks: [], cells: [MapCellGlow(cell: try Self.gridCell(of: 3), glow: 0)])])
        #expect(view(out, now: Fixture.start)[gangneung.column, gangneung.row].style == .normal)
    }

    /// The server marks the nation's first three whatever the league shown; the legend says so.
    /// Before my school's view names them, its marks stand at their cells, unnamed.
    @Test(arguments: Language.allCases)
    func onAServerTheMarksAreTheNationsWhateverTheLeague(language: Language) throws {
        let strings = Strings(language)
        let report = MapReport(catalog: "c", marks: [try Self.gridCell(of: 2), try Self.gridCell(of: 3)], cells: [], whole: true)
        // Mine is 해운대고 (Busan): its province's league, two steps on.
        let state = Self.servedMapOf(language, mine: "P2", leagueSteps: 2, reports: [report])
        #expect(state.ranking.league == .province("부산광역시"))
        let grid = view(state, now: Fixture.start)
        let jeju = try Self.screenCell(of: 2, in: state), gangneung = try Self.screenCell(of: 3, in: state)
        #expect(grid[jeju.column, jeju.row] == Cell("1", style: .mapLeader), "\(grid)")
        #expect(grid[gangneung.column, gangneung.row] == Cell("2", style: .mapLeader))
        #expect(grid.contains(strings.mapLeadersLegend(strings.leagueName(.national), count: 3)), "\(grid)")
        #expect(!grid.contains(strings.mapLeadersLegend(strings.leagueName(.province("부산광역시")), count: 3)))
        // My school's view names them: 제주고 first, 강릉고 second, with their totals.
        var named = state
        let top = [RankedSchool(position: 2, rank: 1, count: 700), RankedSchool(position: 3, rank: 2, count: 500)]
        let view = SchoolView(school: 1, count: 3, standings: [LeagueStanding(league: .national, rank: 3, size: 4, gap: 497)],
                              above: top, below: [], top: top)
        _ = update(&named, .viewed(.school(view), catalogGeneration: 0), now: Fixture.start)
        let namedGrid = TouchSchoolView.view(named, now: Fixture.start)
        #expect(namedGrid[jeju.column, jeju.row] == Cell("1", style: .mapLeader))
        #expect(namedGrid.contains("1 제주고등학교  700") && namedGrid.contains("2 강릉고등학교  500"), "\(namedGrid)")
    }
}
