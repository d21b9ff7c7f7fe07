/// The admin API's answers (`/v1/admin/`, docs/protocol.md "The admin API"), in one place for the
/// server that writes them and `touchschool admin` that reads them.
public enum AdminAnswer {
    /// A device as `GET /v1/admin/devices` lists it: a public id (never the key), its player and
    /// school, taps accepted and refused in all and in the current hour, the addresses it played
    /// from (the last few), banned or not.
    public struct Device: Codable, Equatable, Sendable {
        public var id: String
        public var player: String
        public var school: String?
        public var accepted: UInt64
        public var refused: UInt64
        public var acceptedLastHour: UInt64
        public var refusedLastHour: UInt64
        public var addresses: [String]
        public var banned: Bool
        /// What the device last played with (`ClientKind`'s raw value); nil before a hello said.
        public var client: String?

        public init(id: String, player: String, school: String?, accepted: UInt64, refused: UInt64, acceptedLastHour: UInt64,
                    refusedLastHour: UInt64, addresses: [String], banned: Bool, client: String? = nil) {
            self.id = id
            self.player = player
            self.school = school
            self.accepted = accepted
            self.refused = refused
            self.acceptedLastHour = acceptedLastHour
            self.refusedLastHour = refusedLastHour
            self.addresses = addresses
            self.banned = banned
            self.client = client
        }
    }

    /// A device banned or unbanned, with the taps a ban took off each school.
    public struct Ban: Codable, Equatable, Sendable {
        public var id: String
        public var banned: Bool
        /// Taps taken off each school by this request.
        public var removed: [String: UInt64]

        public init(id: String, banned: Bool, removed: [String: UInt64]) {
            self.id = id
            self.banned = banned
            self.removed = removed
        }
    }

    /// An address banned or unbanned.
    public struct Address: Codable, Equatable, Sendable {
        public var address: String
        public var banned: Bool

        public init(address: String, banned: Bool) {
            self.address = address
            self.banned = banned
        }
    }
}
