import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

/// A game on a server (protocol 2) shows ranks from the views the server sends, not from the
/// totals it holds (which are only those the views named); locally nothing of this happens.
@Suite(.onOwnThreads) struct ServedViewTests {
    /// 서울고등학교 (S1) at 100, 500th of 12,011 nationally, 40 taps behind 휘문고등학교 (S2).
    static let schoolView = SchoolView(
        school: 0, count: 100,
        standings: [LeagueStanding(league: .national, rank: 500, size: 12_011, gap: 40),
                    LeagueStanding(league: .level(.high), rank: 120, size: 2_400, gap: 40),
                    LeagueStanding(league: .province("서울특별시"), rank: 60, size: 1_300, gap: 40),
                    LeagueStanding(league: .levelInProvince(.high, "서울특별시"), rank: 20, size: 320, gap: 40)],
        above: [RankedSchool(position: 5, rank: 498, count: 150), RankedSchool(position: 1, rank: 499, count: 140)],
        below: [RankedSchool(position: 2, rank: 501, count: 90), RankedSchool(position: 6, rank: 502, count: 80)],
        top: [RankedSchool(position: 7, rank: 1, count: 9_000), RankedSchool(position: 3, rank: 2, count: 8_000),
              RankedSchool(position: 4, rank: 3, count: 7_000)])

    /// A game playing on a server, as the network starts it: the totals it knows are the view's.
    static func served(_ language: Language, viewed: Bool = true) -> GameState {
        let players = ["tester": PlayerRecord(schoolID: "S1", taps: 5, bestTapsPerSecond: 9)]
        var state = GameState(catalog: Fixture.catalog, saved: SavedState(scores: ["S1": 100], players: players), player: "tester",
                              language: language, now: Fixture.start, columns: 120, rows: 40, seed: 42)
        state.connection = .online
        if viewed { _ = update(&state, .viewed(.school(schoolView), catalogGeneration: 0), now: Fixture.start) }
        return state
    }

    @Test(arguments: Language.allCases)
    func theHeaderSaysTheViewsRankAndChaseWithMyUnsavedTaps(language: Language) {
        var state = Self.served(language)
        var grid = view(state, now: Fixture.start)
        let before = language == .korean ? ["전국 500위", "학교 합계 100", "휘문고등학교까지 41번"]
            : ["#500 nationally", "School total 100", "41 taps to overtake 휘문고등학교"]
        for text in before { #expect(grid.contains(text), "\(text)") }
        // Ten taps not yet in any view: on the total, off the chase.
        let end = Fixture.tap(10, into: &state, from: Fixture.start)
        grid = view(state, now: end)
        let after = language == .korean ? ["학교 합계 110", "휘문고등학교까지 31번"] : ["School total 110", "31 taps to overtake 휘문고등학교"]
        for text in after { #expect(grid.contains(text), "\(text)") }
    }

    @Test(arguments: Language.allCases)
    func beforeTheFirstViewNoRankIsMadeUp(language: Language) {
        let grid = view(Self.served(language, viewed: false), now: Fixture.start)
        #expect(grid.contains(language == .korean ? "아직 순위 없음" : "no rank yet"))
        #expect(!grid.contains(language == .korean ? "1위!" : "#1!"))
        #expect(!grid.contains(language == .korean ? "까지" : "to overtake"))
    }

    /// The school above is not among the rows sent (a crowd tied with mine between): the chase
    /// says the taps without a name.
    @Test func aChaseWhoseSchoolIsNotSentHasNoName() {
        var tied = Self.schoolView
        tied.above = tied.above.map { RankedSchool(position: $0.position, rank: 499, count: 100) }
        var state = Self.served(.korean, viewed: false)
        _ = update(&state, .viewed(.school(tied), catalogGeneration: 0), now: Fixture.start)
        #expect(view(state, now: Fixture.start).contains("다음 순위까지 41번"))
    }

    @Test func thePanelShowsTheViewsTopAndNeighbours() {
        let state = Self.served(.korean)
        let grid = view(state, now: Fixture.start)
        let panel = state.layout.leaderboardPanel
        let rows = (panel.y + 1..<(panel.y + panel.height)).map { String(grid.lines[$0].dropFirst(panel.x + 1)) }
        let shown = rows.prefix { !$0.allSatisfy { $0 == " " } }
        #expect(shown.count == 9, "\(shown)")
        let expected = ["대전중학교", "금성초등학교", "경기고등학교", "...", "한국과학", "휘문고등학교", "서울고등학교", "금성초등학교", "세종과학예술영재학교"]
        for (row, name) in zip(shown, expected) { #expect(row.contains(name), "\(row)") }
        #expect(shown[6].contains("500") && shown[6].contains("100"))
    }

    @Test func theRankingWatchesThePageItShowsAndDrawsIt() {
        var state = Self.served(.korean)
        let commands = update(&state, .key(.tab), now: Fixture.start)
        let height = state.layout.rankingList.height
        // Mine (rank 500) in the middle of the screen.
        let first = 499 - height / 2
        #expect(commands == [.watch(PageWatch(league: .national, places: first..<(first + height)))])
        var grid = view(state, now: Fixture.start)
        #expect(grid.lines[0].hasSuffix("내 학교 500위 / 12,011 "))
        #expect(!grid.contains("휘문고등학교"), "no rows before the page")
        let page = PageView(league: .national, places: first..<(first + 2), size: 12_011,
                            rows: [RankedSchool(position: 1, rank: first + 1, count: 777), RankedSchool(position: 2, rank: first + 2, count: 776)])
        _ = update(&state, .viewed(.page(page), catalogGeneration: 0), now: Fixture.start)
        grid = view(state, now: Fixture.start)
        let list = state.layout.rankingList
        #expect(grid.lines[list.y].contains("휘문고등학교") && grid.lines[list.y].contains("777"))
        #expect(grid.lines[list.y + 1].contains("금성초등학교"))
        // Scrolling asks for the page below; the next league, for its own; leaving, for none.
        #expect(update(&state, .key(.down), now: Fixture.start) == [.watch(PageWatch(league: .national, places: (first + 1)..<(first + 1 + height)))])
        let high = update(&state, .key(.right), now: Fixture.start)
        #expect(high.count == 1 && { if case let .watch(watch?) = high[0] { watch.league == .level(.high) } else { false } }(), "\(high)")
        // Back on the game screen, the side panel's page (its panel is taller than the view).
        #expect(update(&state, .key(.escape), now: Fixture.start) == [.watch(state.panelPage)] && state.panelPage != nil)
        // A key that moves nothing asks for nothing.
        #expect(update(&state, .key(.character("a")), now: Fixture.start) == [])
    }

    /// The arrows compare with the page of a moment ago: a school that climbed a place since shows
    /// ▲1 until the next baseline.
    @Test func theRankingsArrowsCompareWithThePageOfAMomentAgo() {
        var state = Self.served(.korean)
        _ = update(&state, .key(.tab), now: Fixture.start)
        let first = state.ranking.scroll
        func page(_ rows: [RankedSchool]) -> GameEvent {
            .viewed(.page(PageView(league: .national, places: first..<(first + rows.count), size: 12_011, rows: rows)), catalogGeneration: 0)
        }
        _ = update(&state, page([RankedSchool(position: 2, rank: first + 1, count: 777), RankedSchool(position: 1, rank: first + 2, count: 776)]),
                   now: Fixture.start)
        let list = state.layout.rankingList
        #expect(!view(state, now: Fixture.start).lines[list.y].contains("▲"), "a first page is its own baseline")
        _ = update(&state, page([RankedSchool(position: 1, rank: first + 1, count: 800), RankedSchool(position: 2, rank: first + 2, count: 777)]),
                   now: Fixture.start)
        var grid = view(state, now: Fixture.start)
        #expect(grid.lines[list.y].contains("휘문고등학교") && grid.lines[list.y].contains("▲1"))
        #expect(grid.lines[list.y + 1].contains("▼1"))
        let later = Fixture.start.adding(milliseconds: GameTiming.movementBaselineNanoseconds / 1_000_000)
        _ = update(&state, .tick, now: later)
        grid = view(state, now: later)
        #expect(!grid.lines[list.y].contains("▲") && !grid.lines[list.y + 1].contains("▼"))
    }

    /// The arrows count schools passed, as the page and a local game count them: joining a tie
    /// passes no one, though the shared rank is a place higher (`BattleRules.pageMovements`).
    @Test func joiningATieOnAServedPageShowsNoArrow() {
        var state = Self.served(.korean)
        _ = update(&state, .key(.tab), now: Fixture.start)
        let first = state.ranking.scroll
        func page(_ rows: [RankedSchool]) -> GameEvent {
            .viewed(.page(PageView(league: .national, places: first..<(first + rows.count), size: 12_011, rows: rows)), catalogGeneration: 0)
        }
        _ = update(&state, page([RankedSchool(position: 2, rank: first + 1, count: 777), RankedSchool(position: 1, rank: first + 2, count: 700)]),
                   now: Fixture.start)
        _ = update(&state, page([RankedSchool(position: 2, rank: first + 1, count: 777), RankedSchool(position: 1, rank: first + 1, count: 777)]),
                   now: Fixture.start)
        let grid = view(state, now: Fixture.start)
        let list = state.layout.rankingList
        #expect(grid.lines[list.y + 1].contains("휘문고등학교"), "\(grid.text)")
        #expect(!grid.lines[list.y].contains("▲") && !grid.lines[list.y + 1].contains("▲") && !grid.lines[list.y + 1].contains("▼"), "\(grid.text)")
    }

    @Test func aLocalGameNeverWatches() {
        var state = Fixture.game(.korean, columns: 120, rows: 40)
        #expect(update(&state, .key(.tab), now: Fixture.start) == [])
        #expect(update(&state, .key(.down), now: Fixture.start) == [])
        #expect(update(&state, .key(.escape), now: Fixture.start) == [])
    }

    /// A crowd of 200 on a server, mine (학교101) 101st, with the view the server sends of it.
    static func servedCrowd(columns: Int, rows: Int) -> GameState {
        var state = Fixture.crowd(200, myPlace: 100, .korean, columns: columns, rows: rows)
        state.connection = .online
        func row(_ place: Int) -> RankedSchool { RankedSchool(position: place, rank: place + 1, count: UInt64((200 - place) * 10)) }
        let schoolView = SchoolView(school: 100, count: 1_000,
                                    standings: [LeagueStanding(league: .national, rank: 101, size: 200, gap: 10)],
                                    above: [row(98), row(99)], below: [row(101), row(102)], top: [row(0), row(1), row(2)])
        _ = update(&state, .viewed(.school(schoolView), catalogGeneration: 0), now: Fixture.start)
        return state
    }

    /// A panel taller than the view (the top three and mine ±2) asks the server for the national
    /// places around mine, and fills with them: every row a school, mine among them.
    @Test(arguments: [(160, 48), (80, 24)])
    func aTallPanelOnAServerFillsFromThePageAroundMine(size: (columns: Int, rows: Int)) throws {
        var state = Self.servedCrowd(columns: size.columns, rows: size.rows)
        let watch = try #require(state.watchedPage, "the game screen asks for the panel's page")
        let rows = state.layout.leaderboardPanel.height - 1
        #expect(watch.league == .national && watch.places.contains(100) && watch.places.count == rows - 4, "\(watch)")
        // Before the page: the view's rows.
        var places = GameViewTests.panelPlaces(view(state, now: Fixture.start), state)
        #expect(places.compactMap { $0 } == [0, 1, 2, 98, 99, 100, 101, 102], "\(places)")

        let page = PageView(league: .national, places: watch.places, size: 200,
                            rows: watch.places.map { RankedSchool(position: $0, rank: $0 + 1, count: UInt64((200 - $0) * 10)) })
        _ = update(&state, .viewed(.page(page), catalogGeneration: 0), now: Fixture.start)
        let end = Fixture.tap(3, into: &state, from: Fixture.start)
        let grid = view(state, now: end)
        places = GameViewTests.panelPlaces(grid, state)
        #expect(places.count == rows && places[3] == nil && places.filter { $0 == nil }.count == 1, "\(places)")
        let shown = places.compactMap { $0 }
        #expect(Array(shown.prefix(3)) == [0, 1, 2])
        #expect(Array(shown.dropFirst(3)) == Array(watch.places.prefix(rows - 4)), "\(places)")
        // My row: my count with the taps not yet in any view.
        let panel = state.layout.leaderboardPanel
        let mine = try #require(places.firstIndex(of: 100))
        let myRow = grid.text(row: panel.y + 1 + mine, columns: panel.x..<(panel.x + panel.width))
        #expect(myRow.contains("101 ") && myRow.hasSuffix("1,003 "), "\(myRow)")
        expectWholeColumns(grid)
    }

    /// Climbing a few places does not ask for another page; climbing past a quarter of it does.
    @Test func thePanelsPageMovesInSteps() {
        var state = Self.servedCrowd(columns: 160, rows: 48)
        let first = state.watchedPage
        func viewed(rank: Int) -> [GameCommand] {
            let schoolView = SchoolView(school: 100, count: 1_000, standings: [LeagueStanding(league: .national, rank: rank, size: 200, gap: 10)],
                                        above: [], below: [], top: [])
            return update(&state, .viewed(.school(schoolView), catalogGeneration: 0), now: Fixture.start)
        }
        #expect(viewed(rank: 100) == [] && viewed(rank: 102) == [], "a place up or down")
        let moved = viewed(rank: 80)
        #expect(moved.count == 1 && state.watchedPage != first && state.watchedPage?.places.contains(79) == true, "\(moved)")
        // Not on a narrow terminal, whose panel the view fills.
        var narrow = Self.servedCrowd(columns: 60, rows: 24)
        #expect(narrow.watchedPage == nil)
        _ = update(&narrow, .key(.tab), now: Fixture.start)
        _ = update(&narrow, .key(.tab), now: Fixture.start)
        #expect(narrow.watchedPage == nil)
    }

    /// A school without a tap has no rank, and no movement: its shared rank drops as others make
    /// their first taps, which passes no one (no ▼ beside "-").
    @Test func aSchoolWithoutTapsNeitherRanksNorMoves() throws {
        var state = Self.servedCrowd(columns: 80, rows: 24)
        let watch = try #require(state.watchedPage)
        func page(myCount: UInt64) -> GameEvent {
            // Every school of the page at 0 but mine: all share rank 94 until mine has taps.
            let rows = watch.places.map { place in
                place == 100 ? RankedSchool(position: place, rank: 94, count: myCount)
                    : RankedSchool(position: place, rank: myCount == 0 ? 94 : 95, count: 0)
            }
            return .viewed(.page(PageView(league: .national, places: watch.places, size: 200, rows: rows)), catalogGeneration: 0)
        }
        _ = update(&state, page(myCount: 0), now: Fixture.start)
        _ = update(&state, page(myCount: 5), now: Fixture.start)
        let grid = view(state, now: Fixture.start)
        let panel = state.layout.leaderboardPanel
        let rows = (panel.y + 1..<(panel.y + panel.height)).map { grid.text(row: $0, columns: (panel.x + 1)..<(panel.x + panel.width)) }
        let unranked = rows.filter { $0.hasSuffix(" 0 ") }
        #expect(unranked.count > 5, "\(rows)")
        for row in unranked { #expect(row.split(separator: " ").prefix(2) == ["-", "-"], "\(row)") }
    }
}
