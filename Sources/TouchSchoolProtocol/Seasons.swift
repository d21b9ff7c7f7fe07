import TouchSchoolCore

/// Seasons on the wire (docs/protocol.md, "Seasons"): what `GET /v1/seasons` lists and
/// `GET /v1/seasons/LENGTH-NUMBER` shows.
public enum SeasonAnswer {
    /// A season: its length (`week`, `month`), its number, its id as the path names it
    /// (`week-2960`), its window in milliseconds since 1970, and the grace after it in which
    /// batches made inside it still count in its hall of fame.
    public struct Summary: Codable, Equatable, Sendable {
        public var id: String
        public var length: String
        public var number: Int64
        public var startsAtMs: Int64
        public var endsAtMs: Int64
        public var graceMs: Int64

        public init(_ season: Season) {
            id = season.id
            length = season.length.rawValue
            number = season.number
            startsAtMs = season.startsAtMs
            endsAtMs = season.endsAtMs
            graceMs = Round.graceMs
        }
    }

    /// A school in a season's hall of fame: its league (as a `watch` names it), its place there
    /// (1 to 3, ties broken as the leaderboard breaks them), its rank (ties share one), its total
    /// when the hall was taken.
    public struct Famed: Codable, Equatable, Sendable {
        public var league: LeagueName
        public var place: Int
        public var rank: Int
        public var school: String
        public var total: UInt64

        public init(league: LeagueName, place: Int, rank: Int, school: String, total: UInt64) {
            self.league = league
            self.place = place
            self.rank = rank
            self.school = school
            self.total = total
        }
    }

    /// `GET /v1/seasons`: the length set now (`none`, `week`, `month`), the server's clock, and the
    /// seasons that counted taps (the current one first when it has not yet), newest first, each
    /// with its national hall (empty until taken).
    public struct List: Codable, Equatable, Sendable {
        public var length: String
        public var nowMs: Int64
        public var seasons: [Listed]

        public init(length: String, nowMs: Int64, seasons: [Listed]) {
            self.length = length
            self.nowMs = nowMs
            self.seasons = seasons
        }
    }

    public struct Listed: Codable, Equatable, Sendable {
        public var season: Summary
        public var fame: [Famed]

        public init(season: Summary, fame: [Famed]) {
            self.season = season
            self.fame = fame
        }
    }

    /// `GET /v1/seasons/ID`: the season, its schools by total (at most `Standing.shownSchools`,
    /// ties by school id; `schoolCount` is how many had taps), and its whole hall.
    public struct Standing: Codable, Equatable, Sendable {
        public var season: Summary
        public var nowMs: Int64
        public var schoolCount: Int
        public var schools: [RoundAnswer.Place]
        public var fame: [Famed]

        /// The most schools a season's standing lists.
        public static let shownSchools = 100

        public init(season: Summary, nowMs: Int64, schoolCount: Int, schools: [RoundAnswer.Place], fame: [Famed]) {
            self.season = season
            self.nowMs = nowMs
            self.schoolCount = schoolCount
            self.schools = schools
            self.fame = fame
        }
    }
}
