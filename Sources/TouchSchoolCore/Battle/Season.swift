/// How long a season of the national battle lasts (issue 50): none (the board only adds up, as it
/// always has), a week or a month. Set for a server, or for a database of servers, by the operator.
public enum SeasonLength: String, CaseIterable, Sendable {
    case none, week, month
}

/// A season: its length, its number (weeks since the week of 5 January 1970, months since January
/// 1970) and its window `[startsAtMs, endsAtMs)` in milliseconds since 1970. Seasons follow Korea's
/// calendar (UTC+9, no daylight saving), whatever the server's zone: a week starts on Monday at
/// 00:00, a month on its first day at 00:00, the same instant for every server of a database.
public struct Season: Equatable, Hashable, Sendable {
    public var length: SeasonLength
    public var number: Int64
    public var startsAtMs: Int64
    public var endsAtMs: Int64

    /// Korea's offset from UTC.
    public static let koreaOffsetMs: Int64 = 9 * 3_600_000
    static let dayMs: Int64 = 86_400_000
    /// 5 January 1970, the first Monday, in days since 1970.
    static let firstMonday: Int64 = 4

    /// The season of `length` holding the instant `ms`; nil for `.none`.
    public static func at(_ length: SeasonLength, ms: Int64) -> Season? {
        let day = floorDivide(ms + koreaOffsetMs, dayMs)
        switch length {
        case .none:
            return nil
        case .week:
            return numbered(.week, floorDivide(day - firstMonday, 7))
        case .month:
            let (year, month, _) = civil(day: day)
            return numbered(.month, (year - 1970) * 12 + month - 1)
        }
    }

    /// The season of `length` numbered `number`; nil for `.none`.
    public static func numbered(_ length: SeasonLength, _ number: Int64) -> Season? {
        func ms(day: Int64) -> Int64 { day * dayMs - koreaOffsetMs }
        switch length {
        case .none:
            return nil
        case .week:
            let first = firstMonday + number * 7
            return Season(length: .week, number: number, startsAtMs: ms(day: first), endsAtMs: ms(day: first + 7))
        case .month:
            let year = 1970 + floorDivide(number, 12), month = number - floorDivide(number, 12) * 12 + 1
            let next = month == 12 ? (year + 1, Int64(1)) : (year, month + 1)
            return Season(length: .month, number: number, startsAtMs: ms(day: days(year: year, month: month, day: 1)),
                          endsAtMs: ms(day: days(year: next.0, month: next.1, day: 1)))
        }
    }

    /// How many of `taps`, made over `startMs...endMs` (a batch's time as judged), each season of
    /// `length` counts, in order, seasons without any left out; empty for `.none`. The taps are
    /// spread evenly over the batch's time as a round takes them (`Round.counted`): the i-th of n
    /// (from 1) made at `startMs + i × (endMs − startMs) / n`, so a batch of no length is made at
    /// its end. Every tap counts in exactly one season: the counts add up to `taps`.
    public static func cut(taps: UInt64, startMs: Int64, endMs: Int64, _ length: SeasonLength) -> [(season: Season, taps: UInt64)] {
        guard taps > 0, length != .none else { return [] }
        let start = min(startMs, endMs), span = UInt64(endMs - start)
        /// When the i-th tap is made, to the millisecond below.
        func madeAt(_ tap: UInt64) -> Int64 {
            guard span > 0 else { return endMs }
            // ⌊tap × span / taps⌋ ≤ span: it fits.
            return start + Int64(taps.dividingFullWidth(tap.multipliedFullWidth(by: span)).quotient)
        }
        // How many taps are made before the instant `ms` (to the millisecond below, as `madeAt`).
        func madeBefore(_ ms: Int64) -> UInt64 {
            guard span > 0 else { return ms > endMs ? taps : 0 }
            guard ms > start else { return 0 }
            // #{i ≥ 1 : start + ⌊i × span / n⌋ < ms} = #{i : i × span < n × (ms − start)} = ⌈n(ms − start) / span⌉ − 1.
            let elapsed = UInt64(ms - start)
            let product = taps.multipliedFullWidth(by: elapsed)
            guard product.high < span else { return taps }
            let (quotient, remainder) = span.dividingFullWidth(product)
            return min(taps, remainder == 0 ? quotient - 1 : quotient)
        }
        var cut: [(season: Season, taps: UInt64)] = []
        var counted: UInt64 = 0
        while counted < taps, let season = at(length, ms: madeAt(counted + 1)) {
            let through = madeBefore(season.endsAtMs)
            cut.append((season, through - counted))
            counted = through
        }
        return cut
    }

    /// The season's id in a path and a command (`week-2960`): its length and number.
    public var id: String { "\(length.rawValue)-\(number)" }

    /// The season an id names (nil: no length of seasons, or no number).
    public static func named(_ id: String) -> Season? {
        guard let dash = id.firstIndex(of: "-"), let length = SeasonLength(rawValue: String(id[..<dash])),
              let number = Int64(id[id.index(after: dash)...]) else { return nil }
        return numbered(length, number)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// The proleptic Gregorian date of a day since 1970, and the day of a date (Howard Hinnant's
    /// `civil_from_days` and `days_from_civil`).
    static func civil(day: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = day + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth)
    }

    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
