import Foundation
import Testing
import TouchSchoolCore

/// Seasons (issue 50): their windows on Korea's calendar, checked against Foundation's calendar in
/// Asia/Seoul (an independent reckoning), and the cut of a batch's taps between seasons against a
/// recount tap by tap.
@Suite struct SeasonTests {
    static let seoul: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
        calendar.firstWeekday = 2 // Monday
        calendar.minimumDaysInFirstWeek = 1
        return calendar
    }()

    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000).rounded()) }

    /// Foundation's window of the week or month holding `ms`, in Korea.
    static func window(_ length: SeasonLength, ms: Int64) -> (Int64, Int64) {
        let interval = seoul.dateInterval(of: length == .week ? .weekOfYear : .month, for: Date(timeIntervalSince1970: Double(ms) / 1_000))!
        return (Self.ms(interval.start), Self.ms(interval.end))
    }

    @Test func aWeekStartsOnMondayAndAMonthOnItsFirstAtMidnightInKorea() throws {
        // Sunday 29 November 2026, 23:59 in Seoul (14:59 UTC).
        let now = Self.ms(Self.seoul.date(from: DateComponents(year: 2026, month: 11, day: 29, hour: 23, minute: 59))!)
        let week = try #require(Season.at(.week, ms: now))
        #expect(week.startsAtMs == 1_795_359_600_000, "Monday 23 November 2026 00:00 KST = 22 November 15:00 UTC")
        #expect(week.endsAtMs == week.startsAtMs + 7 * 86_400_000)
        let month = try #require(Season.at(.month, ms: now))
        #expect(month.startsAtMs == 1_793_458_800_000, "1 November 2026 00:00 KST = 31 October 15:00 UTC")
        #expect(month.number == (2026 - 1970) * 12 + 10)
        // One millisecond later it is Monday in Seoul: the next week, the same month.
        #expect(Season.at(.week, ms: week.endsAtMs)?.number == week.number + 1)
        #expect(Season.at(.week, ms: week.endsAtMs - 1)?.number == week.number)
        #expect(Season.at(.none, ms: now) == nil)
    }

    @Test(arguments: [SeasonLength.week, .month])
    func everySeasonIsFoundationsWeekOrMonthInSeoulAndTheyFollowOneAnother(_ length: SeasonLength) throws {
        var random = RandomSource(seed: 50)
        for _ in 0..<2_000 {
            // From 1990 to 2100: Korea kept summer time in 1987 and 1988 (UTC+10), which seasons, all
            // of them since, need not know.
            let ms = Int64.random(in: 631_152_000_000...4_102_444_800_000, using: &random)
            let season = try #require(Season.at(length, ms: ms))
            #expect((season.startsAtMs, season.endsAtMs) == Self.window(length, ms: ms), "\(length) at \(ms)")
            #expect(Season.numbered(length, season.number) == season)
            #expect(Season.numbered(length, season.number + 1)?.startsAtMs == season.endsAtMs)
            #expect(Season.at(length, ms: season.startsAtMs) == season && Season.at(length, ms: season.endsAtMs - 1) == season)
        }
    }

    @Test func aBatchAcrossMidnightOnMondayIsCutWhereItsTapsWereMade() throws {
        let week = try #require(Season.at(.week, ms: 1_795_359_600_000))
        let boundary = week.startsAtMs
        // Ten taps over the ten seconds around the boundary: made at 1 s, 2 s … 10 s from the
        // batch's start; the fifth exactly at midnight, the new week's.
        let cut = Season.cut(taps: 10, startMs: boundary - 5_000, endMs: boundary + 5_000, .week)
        #expect(cut.map(\.season.number) == [week.number - 1, week.number])
        #expect(cut.map(\.taps) == [4, 6])
        // A batch of no length is made at its end; a batch inside one season counts whole there.
        #expect(Season.cut(taps: 7, startMs: boundary, endMs: boundary, .week).map(\.taps) == [7])
        #expect(Season.cut(taps: 7, startMs: boundary, endMs: boundary, .week).first?.season == week)
        #expect(Season.cut(taps: 7, startMs: boundary + 1, endMs: boundary + 9_000, .month).map(\.taps) == [7])
        #expect(Season.cut(taps: 7, startMs: boundary - 9_000, endMs: boundary + 9_000, .none).isEmpty)
        #expect(Season.cut(taps: 0, startMs: boundary - 9_000, endMs: boundary + 9_000, .week).isEmpty)
    }

    @Test(arguments: [SeasonLength.week, .month])
    func theCutCountsEveryTapInExactlyTheSeasonARecountTapByTapFindsIt(_ length: SeasonLength) throws {
        var random = RandomSource(seed: 5_000)
        for _ in 0..<1_500 {
            let taps = UInt64.random(in: 1...600, using: &random)
            // Batches of up to a few hours (an offline phone's), many of them across an edge.
            let edge = try #require(Season.at(length, ms: Int64.random(in: 1_700_000_000_000...1_900_000_000_000, using: &random)))
            let start = edge.startsAtMs - Int64.random(in: 0...10_000_000, using: &random)
            let end = start + (Bool.random(using: &random) ? Int64.random(in: 0...20_000, using: &random) : Int64.random(in: 0...20_000_000, using: &random))
            let cut = Season.cut(taps: taps, startMs: start, endMs: end, length)
            #expect(cut.reduce(0) { $0 + $1.taps } == taps, "every tap once")
            #expect(cut.allSatisfy { $0.taps > 0 })
            // The recount: the i-th tap made at start + ⌊i × span / n⌋, its season by Foundation.
            var recount: [Int64: UInt64] = [:]
            for tap in 1...taps {
                let made = end == start ? end : start + Int64(tap * UInt64(end - start) / taps)
                recount[Self.window(length, ms: made).0, default: 0] += 1
            }
            #expect(Dictionary(uniqueKeysWithValues: cut.map { ($0.season.startsAtMs, $0.taps) }) == recount,
                    "\(taps) taps over \(start)...\(end)")
        }
    }
}
