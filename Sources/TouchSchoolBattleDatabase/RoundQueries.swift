import TouchSchoolCore

/// What a round counted for one device, as kept: who played and the taps per school.
public struct RoundPlayerCount: Equatable, Sendable {
    public var device: String
    public var publicID: String
    public var player: String
    public var school: String?
    public var bySchool: [String: UInt64]
    public var reachedMs: Int64

    public init(device: String, publicID: String, player: String, school: String?, bySchool: [String: UInt64], reachedMs: Int64) {
        self.device = device
        self.publicID = publicID
        self.player = player
        self.school = school
        self.bySchool = bySchool
        self.reachedMs = reachedMs
    }
}

extension BattleDatabase.Writing {
    /// The newest round, the current one (nil: none was ever started).
    public func currentRound() throws(SQLiteError) -> Round? {
        try connection.statement("SELECT id, title, starts_at_ms, ends_at_ms FROM rounds ORDER BY id DESC LIMIT 1")
            .row { Round(id: $0.int64(0), title: $0.text(1), startsAtMs: $0.int64(2), endsAtMs: $0.int64(3)) }
    }

    /// Saves a new round, numbered after the last; it becomes the current one.
    public func startRound(title: String?, startsAtMs: Int64, endsAtMs: Int64) throws(SQLiteError) -> Round {
        let id = (try currentRound()?.id ?? 0) + 1
        try connection.statement("INSERT INTO rounds (id, title, starts_at_ms, ends_at_ms) VALUES (?1, ?2, ?3, ?4)")
            .bind(.integer(id), title.map { .text($0) } ?? .null, .integer(startsAtMs), .integer(endsAtMs)).run()
        return Round(id: id, title: title, startsAtMs: startsAtMs, endsAtMs: endsAtMs)
    }

    /// Moves a round's window as `Round.stopped` moved it: its end, and its start too when it was
    /// stopped in its countdown.
    public func setRoundWindow(_ round: Round) throws(SQLiteError) {
        try connection.statement("UPDATE rounds SET starts_at_ms = ?2, ends_at_ms = ?3 WHERE id = ?1")
            .bind(.integer(round.id), .integer(round.startsAtMs), .integer(round.endsAtMs)).run()
    }

    /// Adds what a commit counted for a device to its counts in the round.
    public func addToRound(_ round: Int64, _ count: RoundPlayerCount) throws(SQLiteError) {
        for (school, taps) in count.bySchool where taps > 0 {
            try connection.statement("""
                INSERT INTO round_taps (round, device, school, taps, reached_ms) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (round, device, school) DO UPDATE SET taps = taps + excluded.taps,
                    reached_ms = max(reached_ms, excluded.reached_ms)
                """).bind(.integer(round), .text(count.device), .text(school), .integer(Int64(clamping: taps)),
                          .integer(count.reachedMs)).run()
        }
        try connection.statement("""
            INSERT INTO round_players (round, device, public_id, player, school) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (round, device) DO UPDATE SET player = excluded.player, school = excluded.school
            """).bind(.integer(round), .text(count.device), .text(count.publicID), .text(count.player),
                      count.school.map { .text($0) } ?? .null).run()
    }

    /// The rounds, newest first, at most `limit`.
    public func rounds(limit: Int) throws(SQLiteError) -> [Round] {
        try connection.statement("SELECT id, title, starts_at_ms, ends_at_ms FROM rounds ORDER BY id DESC LIMIT ?1")
            .bind(.integer(Int64(limit)))
            .rows { Round(id: $0.int64(0), title: $0.text(1), startsAtMs: $0.int64(2), endsAtMs: $0.int64(3)) }
    }

    /// A round and what it counted per device (nil: no round has this id).
    public func round(_ id: Int64) throws(SQLiteError) -> (Round, [RoundPlayerCount])? {
        guard let round = try connection.statement("SELECT id, title, starts_at_ms, ends_at_ms FROM rounds WHERE id = ?1")
            .bind(.integer(id))
            .row({ Round(id: $0.int64(0), title: $0.text(1), startsAtMs: $0.int64(2), endsAtMs: $0.int64(3)) }) else { return nil }
        var players: [String: RoundPlayerCount] = [:]
        for (device, publicID, player, school) in try connection.statement(
            "SELECT device, public_id, player, school FROM round_players WHERE round = ?1").bind(.integer(id))
            .rows({ ($0.text(0) ?? "", $0.text(1) ?? "", $0.text(2) ?? "", $0.text(3)) }) {
            players[device] = RoundPlayerCount(device: device, publicID: publicID, player: player, school: school, bySchool: [:], reachedMs: 0)
        }
        for (device, school, taps, reached) in try connection.statement(
            "SELECT device, school, taps, reached_ms FROM round_taps WHERE round = ?1").bind(.integer(id))
            .rows({ ($0.text(0) ?? "", $0.text(1) ?? "", UInt64(max(0, $0.int64(2))), $0.int64(3)) }) {
            guard var count = players[device] else { continue }
            count.bySchool[school] = taps
            count.reachedMs = max(count.reachedMs, reached)
            players[device] = count
        }
        return (round, players.values.sorted { $0.device < $1.device })
    }
}
