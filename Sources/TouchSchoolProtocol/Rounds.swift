/// Rounds on the wire (docs/protocol.md, "Rounds"): what `GET /v1/rounds` lists and
/// `GET /v1/rounds/ID` shows, and what the operator's start and stop answer.
public enum RoundAnswer {
    /// A round as listed: its window in milliseconds since 1970 by the server's clock, and the
    /// grace after it in which batches made inside it still count.
    public struct Summary: Codable, Equatable, Sendable {
        public var id: Int64
        public var title: String?
        public var startsAtMs: Int64
        public var endsAtMs: Int64
        public var graceMs: Int64

        public init(id: Int64, title: String?, startsAtMs: Int64, endsAtMs: Int64, graceMs: Int64) {
            self.id = id
            self.title = title
            self.startsAtMs = startsAtMs
            self.endsAtMs = endsAtMs
            self.graceMs = graceMs
        }
    }

    /// A row of a round's standings: a player (by the device's public id, with the player's name
    /// and school) or a school (by its id).
    public struct Place: Codable, Equatable, Sendable {
        public var place: Int
        public var id: String
        public var count: UInt64
        public var player: String?
        public var school: String?

        public init(place: Int, id: String, count: UInt64, player: String? = nil, school: String? = nil) {
            self.place = place
            self.id = id
            self.count = count
            self.player = player
            self.school = school
        }
    }

    /// A round and its standings as counted so far; `nowMs`: the server's clock when it answered.
    public struct Results: Codable, Equatable, Sendable {
        public var round: Summary
        public var nowMs: Int64
        public var players: [Place]
        /// Empty when one school or none played.
        public var schools: [Place]

        public init(round: Summary, nowMs: Int64, players: [Place], schools: [Place]) {
            self.round = round
            self.nowMs = nowMs
            self.players = players
            self.schools = schools
        }
    }
}

/// `round` (server → player, docs/protocol.md "Rounds"): the operator's round, sent after the
/// welcome while a round is current or ended less than `RoundMessage.shownForMs` ago, and again
/// whenever it changes (a new round, one stopped early). Its times are the server's clock:
/// the countdown runs over the `Round.countdownMs` before `startsAtMs`, the race until `endsAtMs`.
public struct RoundMessage: Codable, Equatable, Sendable {
    public var id: Int64
    public var title: String?
    public var startsAtMs: Int64
    public var endsAtMs: Int64
    public var graceMs: Int64
    /// The server's clock when it sent this: a client without a `pong` measured yet takes its
    /// offset from it.
    public var nowMs: Int64
    /// This player's place, as `roundPlace` carries it (`RoundStanding`).
    public var place: Int?
    public var count: UInt64
    public var players: Int
    public var final: Bool

    public init(id: Int64, title: String?, startsAtMs: Int64, endsAtMs: Int64, graceMs: Int64, nowMs: Int64,
                place: Int?, count: UInt64, players: Int, final: Bool) {
        self.id = id
        self.title = title
        self.startsAtMs = startsAtMs
        self.endsAtMs = endsAtMs
        self.graceMs = graceMs
        self.nowMs = nowMs
        self.place = place
        self.count = count
        self.players = players
        self.final = final
    }

    /// How long after its grace a round is still sent to a player who connects: its result stays
    /// something to see for the rest of a lesson's break, not forever.
    public static let shownForMs: Int64 = 10 * 60_000
    /// `roundPlace` (server → player, a `RoundStanding`): the player's place in round `id`
    /// changed. Sent at most this often to a player, at once when final: small, because it comes
    /// on top of the views within the per-player byte budget.
    public static let placeIntervalMs: Int64 = 1_000
}

/// The `round` event of a page stream (`GET /v1/board?count=…`, the projector): the round with
/// its first places, at most `RoundLive.shownPlaces` players and schools, and how many players
/// have a place. Sent when the stream opens (a round current or recent) and whenever it changes.
public struct RoundLive: Codable, Equatable, Sendable {
    public var id: Int64
    public var title: String?
    public var startsAtMs: Int64
    public var endsAtMs: Int64
    public var graceMs: Int64
    public var nowMs: Int64
    public var final: Bool
    public var playerCount: Int
    public var players: [RoundAnswer.Place]
    /// Empty when one school or none played.
    public var schools: [RoundAnswer.Place]

    public init(id: Int64, title: String?, startsAtMs: Int64, endsAtMs: Int64, graceMs: Int64, nowMs: Int64, final: Bool,
                playerCount: Int, players: [RoundAnswer.Place], schools: [RoundAnswer.Place]) {
        self.id = id
        self.title = title
        self.startsAtMs = startsAtMs
        self.endsAtMs = endsAtMs
        self.graceMs = graceMs
        self.nowMs = nowMs
        self.final = final
        self.playerCount = playerCount
        self.players = players
        self.schools = schools
    }

    /// The places a projector shows: a podium and the rest of a class's first rows.
    public static let shownPlaces = 10
}
