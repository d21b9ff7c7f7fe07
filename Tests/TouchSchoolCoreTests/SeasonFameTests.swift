import Testing
import TouchSchoolCore

/// A season's hall of fame (issue 50): when it is due, and what it keeps: the first three with taps
/// of every league a school with taps is in, ranked and ordered as the leaderboard ranks them.
@Suite struct SeasonFameTests {
    @Test func theHallOfASeasonIsDueAfterItsEndAndGrace() throws {
        let season = try #require(Season.numbered(.week, 2_960))
        #expect(SeasonFame.due(.week, atMs: season.endsAtMs + Round.graceMs - 1) == Season.numbered(.week, 2_959))
        #expect(SeasonFame.due(.week, atMs: season.endsAtMs + Round.graceMs) == season)
        #expect(SeasonFame.due(.none, atMs: season.endsAtMs + Round.graceMs) == nil)
        #expect(Season.named(season.id) == season && season.id == "week-2960")
        #expect(Season.named("month-682") == Season.numbered(.month, 682))
        #expect(Season.named("year-1") == nil && Season.named("none-3") == nil && Season.named("week-") == nil)
    }

    @Test func theHallKeepsTheFirstThreeOfEveryLeagueWithTaps() {
        func school(_ id: String, _ name: String, _ level: SchoolLevel, _ province: String) -> School {
            School(id: id, name: name, level: level, province: province, district: "", address: "")
        }
        let catalog = Catalog(schools: [
            school("S1", "가고", .high, "서울특별시"), school("S2", "나고", .high, "서울특별시"), school("S3", "다고", .high, "서울특별시"),
            school("S4", "라고", .high, "서울특별시"), school("M1", "가중", .middle, "부산광역시"), school("M2", "나중", .middle, "부산광역시"),
        ], source: .starter)
        // S2 and S3 tie: they share the rank, listed as the leaderboard lists them (by name).
        let hall = SeasonFame.of(totals: ["S1": 5, "S2": 9, "S3": 9, "S4": 1, "M1": 7, "unknown": 99], catalog: catalog)
        let national = hall.filter { $0.league == .national }
        #expect(national.map(\.school) == ["S2", "S3", "M1"])
        #expect(national.map(\.rank) == [1, 1, 3] && national.map(\.place) == [1, 2, 3] && national.map(\.total) == [9, 9, 7])
        // Every league a school with taps is in, in a fixed order; M2 (no taps) in none.
        #expect(hall.map(\.league).reduce(into: [League]()) { if $0.last != $1 { $0.append($1) } } == [
            .national, .level(.middle), .level(.high), .province("부산광역시"), .province("서울특별시"),
            .levelInProvince(.middle, "부산광역시"), .levelInProvince(.high, "서울특별시"),
        ])
        #expect(hall.filter { $0.league == .levelInProvince(.middle, "부산광역시") }.map(\.school) == ["M1"])
        #expect(hall.filter { $0.league == .province("서울특별시") }.map(\.school) == ["S2", "S3", "S1"])
        #expect(!hall.contains { $0.school == "M2" || $0.school == "unknown" || $0.school == "S4" })
        #expect(hall == hall.sorted(by: SeasonFame.order))
        #expect(SeasonFame.of(totals: [:], catalog: catalog).isEmpty)
    }
}
