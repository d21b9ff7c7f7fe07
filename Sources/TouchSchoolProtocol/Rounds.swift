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
