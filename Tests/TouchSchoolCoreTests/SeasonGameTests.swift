import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore

/// A game on a server running seasons (issue 50): it ranks by the season the server tells it,
/// `a` on the ranking's table switches to all time and back (the server is asked with the next
/// watch), and with no season nothing of this happens.
@Suite(.onOwnThreads) struct SeasonGameTests {
    /// The week of Monday 30 November 2026 (00:00 in Korea is 15:00 UTC on the Sunday before).
    static let week = Season.at(.week, ms: 1_795_964_400_000 + 3 * 86_400_000)!

    static func game(online: Bool = true) -> GameState {
        var game = GameState(catalog: GameTests.catalog, saved: SavedState(scores: ["S1": 5]), player: "tester", language: .korean,
                             now: .milliseconds(0), columns: 80, rows: 24, seed: 1, startingSchool: 0)
        if online { _ = update(&game, .connectionChanged(.online), now: .milliseconds(0)) }
        return game
    }

    @Test func theSeasonToldIsTheOneRankedByAndNothingIsAsked() {
        var game = Self.game()
        #expect(game.season == nil && game.shownPeriod == nil)
        #expect(update(&game, .seasonTold(Self.week), now: .milliseconds(0)) == [])
        #expect(game.season == Self.week && game.shownPeriod == .season)
    }

    @Test(arguments: ["a", "A", "ㅁ"] as [Character])
    func aOnTheRankingSwitchesToAllTimeAndBack(key: Character) {
        var game = Self.game()
        _ = update(&game, .seasonTold(Self.week), now: .milliseconds(0))
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        #expect(update(&game, .key(.character(key)), now: .milliseconds(0)) == [.rankBy(.allTime)])
        #expect(game.shownPeriod == .allTime && game.screen == .ranking)
        // Kept on the game screen: its rank line and panel are of the period chosen too.
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        #expect(game.shownPeriod == .allTime)
        // On the game screen it is a tap like any key.
        _ = update(&game, .key(.character(key)), now: .milliseconds(0))
        #expect(game.shownPeriod == .allTime && game.counter.sessionTaps == 1)
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        #expect(update(&game, .key(.character(key)), now: .milliseconds(0)) == [.rankBy(.season)])
        #expect(game.shownPeriod == .season)
    }

    /// The map is not ranked, and a watch (which carries the period) would hide the server's map.
    @Test func onTheMapAIsNothing() {
        var game = Self.game()
        _ = update(&game, .seasonTold(Self.week), now: .milliseconds(0))
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        _ = update(&game, .key(.character("v")), now: .milliseconds(0))
        #expect(update(&game, .key(.character("a")), now: .milliseconds(0)) == [])
        #expect(game.shownPeriod == .season)
    }

    @Test func withoutASeasonOrLocallyANothingChanges() {
        var online = Self.game()
        _ = update(&online, .key(.tab), now: .milliseconds(0))
        #expect(update(&online, .key(.character("a")), now: .milliseconds(0)) == [])
        #expect(online.period == .season && online.shownPeriod == nil)
        _ = update(&online, .seasonTold(nil), now: .milliseconds(0))
        #expect(online.shownPeriod == nil)

        var local = Self.game(online: false)
        _ = update(&local, .key(.tab), now: .milliseconds(0))
        #expect(update(&local, .key(.character("a")), now: .milliseconds(0)) == [])
        #expect(local.shownPeriod == nil)
    }

    /// The operator ends seasons (length none) while the ranking shows all time: the default
    /// again, which the server is told, so that the next season is ranked by as every game's is.
    @Test func seasonsEndingWhileShowingAllTimeGoBackToTheDefault() {
        var game = Self.game()
        _ = update(&game, .seasonTold(Self.week), now: .milliseconds(0))
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        _ = update(&game, .key(.character("a")), now: .milliseconds(0))
        #expect(update(&game, .seasonTold(nil), now: .milliseconds(0)) == [.rankBy(.season)])
        #expect(game.period == .season && game.shownPeriod == nil)
    }

    /// A new season's first page is its own baseline: a school that led last week and is behind
    /// now at 0 taps did not fall ▼ in a moment; nor does the first page of the other period.
    @Test func aNewSeasonOrTheOtherPeriodStartsTheArrowsAfresh() {
        var game = Self.game()
        _ = update(&game, .seasonTold(Self.week), now: .milliseconds(0))
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        func page(_ counts: [(position: Int, count: UInt64)]) -> GameEvent {
            var rank = 0
            let rows = counts.map { row in rank += 1; return RankedSchool(position: row.position, rank: rank, count: row.count) }
            return .viewed(.page(PageView(league: .national, places: 0..<rows.count, size: 4, rows: rows)), catalogGeneration: 0)
        }
        _ = update(&game, page([(1, 50), (2, 40), (0, 30)]), now: .milliseconds(0))
        // Within one season, a pass shows.
        _ = update(&game, page([(0, 60), (1, 50), (2, 40)]), now: .milliseconds(0))
        #expect(game.movement(of: 0, in: .national) == 2)

        let next = Season.numbered(.week, Self.week.number + 1)!
        _ = update(&game, .seasonTold(next), now: .milliseconds(0))
        _ = update(&game, page([(2, 3), (1, 2), (0, 0)]), now: .milliseconds(0))
        #expect(game.movement(of: 0, in: .national) == 0 && game.movement(of: 2, in: .national) == 0)

        _ = update(&game, .key(.character("a")), now: .milliseconds(0))
        _ = update(&game, page([(0, 63), (1, 52), (2, 43)]), now: .milliseconds(0))
        #expect(game.movement(of: 0, in: .national) == 0 && game.movement(of: 2, in: .national) == 0)
    }

    /// Korea's calendar, whatever the machine's zone: the week of 30 November 2026 ends on Sunday
    /// 6 December; a month's last day is its own, not the next month's first.
    @Test func aSeasonsDaysAreKoreas() {
        #expect(Self.week.days.first == Season.Day(month: 11, day: 30) && Self.week.days.last == Season.Day(month: 12, day: 6))
        // 2028 is a leap year: February ends on the 29th.
        let february = Season.at(.month, ms: 1_834_000_000_000)! // 13 February 2028
        #expect(february.days.first == Season.Day(month: 2, day: 1) && february.days.last == Season.Day(month: 2, day: 29))
    }
}
