extension Season {
    /// A day of Korea's calendar (the seasons' own, UTC+9), as a screen names it.
    public struct Day: Equatable, Sendable {
        public var month: Int
        public var day: Int
    }

    /// The season's first and last days in Korea's calendar: what a screen shows beside its name.
    /// The last is the day of its last millisecond (`endsAtMs` is the next season's start).
    public var days: (first: Day, last: Day) {
        func day(_ ms: Int64) -> Day {
            let shifted = ms + Self.koreaOffsetMs
            // Floored: a day before 1970 is still the day it falls on.
            let date = Self.civil(day: shifted >= 0 ? shifted / Self.dayMs : (shifted + 1) / Self.dayMs - 1)
            return Day(month: Int(date.month), day: Int(date.day))
        }
        return (day(startsAtMs), day(endsAtMs - 1))
    }
}
