import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

/// A game on a server running seasons, at 80×24 (issue 50): the ranking's title says which period
/// it ranks by, with the season's days where they fit, its hints say what `a` switches to, the
/// game's rank line and the help name it too; with no season every screen is as before.
@Suite(.onOwnThreads) struct SeasonViewTests {
    /// The week of Monday 30 November 2026, told on its Wednesday.
    static let week = Season.at(.week, ms: 1_795_964_400_000 + 2 * 86_400_000)!

    /// `ServedViewTests.served` (mine 500th of 12,011) at 80×24, with `season` told.
    static func served(_ language: Language, season: Season?) -> GameState {
        var state = ServedViewTests.served(language)
        _ = update(&state, .resize(columns: 80, rows: 24), now: Fixture.start)
        _ = update(&state, .seasonTold(season), now: Fixture.start)
        return state
    }

    @Test(arguments: Language.allCases)
    func theRankingsTitleNamesThePeriodAndItsHintTheOther(language: Language) {
        let ko = language == .korean
        var state = Self.served(language, season: Self.week)
        _ = update(&state, .key(.tab), now: Fixture.start)
        var grid = view(state, now: Fixture.start)
        let mine = ko ? "내 학교 500위 / 12,011 " : "mine #500 of 12,011 "
        #expect(grid.lines[0].hasPrefix(ko ? " 이번 주 (11월 30일–12월 6일) 순위 · 전국 (1/4)" : " Ranking · National (1/4) · This week (Nov 30 – Dec 6)"),
                "\(grid.lines[0])")
        #expect(grid.lines[0].hasSuffix(mine), "\(grid.lines[0])")
        #expect(grid.lines[1].contains(ko ? "v 지도  a 전체" : "v map  a all time"), "\(grid.lines[1])")
        expectWholeColumns(grid)

        #expect(update(&state, .key(.character(ko ? "ㅁ" : "a")), now: Fixture.start) == [.rankBy(.allTime)])
        grid = view(state, now: Fixture.start)
        #expect(grid.lines[0].hasPrefix(ko ? " 전체 순위 · 전국 (1/4)" : " Ranking · National (1/4) · All time"), "\(grid.lines[0])")
        #expect(!grid.lines[0].contains(ko ? "이번 주" : "This week") && !grid.lines[0].contains(ko ? "11월" : "Nov"))
        #expect(grid.lines[1].contains(ko ? "v 지도  a 이번 주" : "v map  a this week"), "\(grid.lines[1])")
        expectWholeColumns(grid)
    }

    /// The last league's name is long: the days give way, the period stays.
    @Test(arguments: Language.allCases)
    func withoutRoomForTheDaysTheTitleKeepsThePeriod(language: Language) {
        let ko = language == .korean
        var state = Self.served(language, season: Self.week)
        _ = update(&state, .key(.tab), now: Fixture.start)
        _ = update(&state, .key(.left), now: Fixture.start)
        let title = view(state, now: Fixture.start).lines[0]
        #expect(title.hasPrefix(ko ? " 이번 주 순위 · 서울특별시 고등학교 (4/4)" : " Ranking · High schools in Seoul (4/4) · This week "), "\(title)")
        #expect(!title.contains("…"))
    }

    @Test(arguments: Language.allCases)
    func theGamesRankLineNamesThePeriod(language: Language) {
        let ko = language == .korean
        var state = Self.served(language, season: Self.week)
        #expect(view(state, now: Fixture.start).contains(ko ? "전국 500위 · 이번 주" : "#500 nationally · This week"))
        _ = update(&state, .key(.tab), now: Fixture.start)
        _ = update(&state, .key(.character("a")), now: Fixture.start)
        _ = update(&state, .key(.tab), now: Fixture.start)
        let grid = view(state, now: Fixture.start)
        #expect(grid.contains(ko ? "전국 500위 · 전체" : "#500 nationally · All time"), "\(grid.text)")
        expectWholeColumns(grid)
    }

    @Test(arguments: Language.allCases)
    func theHelpListsTheKeyWhileASeasonRuns(language: Language) {
        let ko = language == .korean
        let line = ko ? "순위: 이번 주와 전체 오가기" : "ranking: switch between this week and all time"
        for season in [Self.week, nil] {
            var state = Self.served(language, season: season)
            _ = update(&state, .key(.help), now: Fixture.start)
            let grid = view(state, now: Fixture.start)
            let row = grid.row(containing: line)
            #expect((row != nil) == (season != nil), "\(grid.text)")
            if let row { #expect(grid.lines[row].hasPrefix("  a "), "\(grid.lines[row])") }
        }
        var month = Self.served(language, season: Season.numbered(.month, 0))
        _ = update(&month, .key(.help), now: Fixture.start)
        #expect(view(month, now: Fixture.start).contains(ko ? "순위: 이번 달과 전체 오가기" : "ranking: switch between this month and all time"))
    }

    /// The help at 80×24 of a game over SSH on a server running seasons (the longest help: the
    /// season's key, the SSH paragraph and the rounds') shows every paragraph to its end.
    @Test(arguments: Language.allCases)
    func theLongestHelpFitsEightyByTwentyFour(language: Language) {
        var state = Self.served(language, season: Self.week)
        _ = update(&state, .key(.help), now: Fixture.start)
        let grid = view(state, now: Fixture.start)
        #expect(grid.lines.count == 24)
        #expect(grid.contains(language == .korean ? "결과가 나옵니다." : "then the result."), "\(grid.text)")
        #expect(grid.contains("Home/End"), "\(grid.text)")
    }

    /// No season: the screens of before seasons, word for word.
    @Test(arguments: Language.allCases)
    func withoutASeasonNothingNamesAPeriod(language: Language) {
        let ko = language == .korean
        var state = Self.served(language, season: nil)
        let game = view(state, now: Fixture.start)
        #expect(game.contains(ko ? "전국 500위 " : "#500 nationally ") && !game.contains(ko ? "위 · " : "nationally · "), "\(game.text)")
        _ = update(&state, .key(.tab), now: Fixture.start)
        let ranking = view(state, now: Fixture.start)
        #expect(ranking.lines[0].hasPrefix(ko ? " 순위 · 전국 (1/4) " : " Ranking · National (1/4) "), "\(ranking.lines[0])")
        #expect(ranking.lines[1].trimmingTrailingSpaces == (ko ? " ←/→ 리그 바꾸기  Enter/m 내 학교  v 지도" : " ←/→ league  Enter/m my school  v map"))
    }
}

private extension String {
    var trimmingTrailingSpaces: String { String(reversed().drop { $0 == " " }.reversed()) }
}
