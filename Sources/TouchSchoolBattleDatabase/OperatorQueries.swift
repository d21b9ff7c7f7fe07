import TouchSchoolCore

/// A device as the operator sees it: named by its public id, never by its key.
public struct ListedDevice: Equatable, Sendable {
    public var publicID: String
    public var player: String
    public var school: String?
    public var activity: DeviceActivity
    public var banned: Bool

    public init(publicID: String, player: String, school: String?, activity: DeviceActivity, banned: Bool) {
        self.publicID = publicID
        self.player = player
        self.school = school
        self.activity = activity
        self.banned = banned
    }
}

/// The operator's queries (the tally kept with each commit, bans, the removal of a cheater's
/// taps), inside a `write` transaction like the commit's own. Those that read or change the
/// tallies, the taps per school or the players in their tables compact `device_changes` first:
/// an operator's rare request pays for it, not every commit.
extension BattleDatabase.Writing {
    /// A device's tally, nil before its first save with one.
    public func activity(device key: String) throws(SQLiteError) -> (activity: DeviceActivity, banned: Bool)? {
        let saved = try savedActivity(device: key)
        // A ban is set in the tables alone (`setBanned` compacts first).
        if let change = changed(key), let activity = change.activity { return (activity, saved?.banned ?? false) }
        return saved
    }

    private func savedActivity(device key: String) throws(SQLiteError) -> (activity: DeviceActivity, banned: Bool)? {
        try connection.statement("""
            SELECT accepted, refused, hour, hour_accepted, hour_refused, addresses, banned, client FROM device_activity WHERE device = ?1
            """).bind(.text(key)).row { row in
            (DeviceActivity(accepted: UInt64(max(0, row.int64(0))), refused: UInt64(max(0, row.int64(1))), hour: row.int64(2),
                            hourAccepted: UInt64(max(0, row.int64(3))), hourRefused: UInt64(max(0, row.int64(4))),
                            addresses: (row.text(5) ?? "").split(separator: "\n").map(String.init), client: row.text(7) ?? ""),
             row.int64(6) != 0)
        }
    }

    /// Saves a device's tally in its table (made or replaced; its ban is kept).
    public func saveActivity(device key: String, publicID: String, activity: DeviceActivity) throws(SQLiteError) {
        try connection.statement("""
            INSERT INTO device_activity (device, public_id, accepted, refused, hour, hour_accepted, hour_refused, addresses, client)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            ON CONFLICT (device) DO UPDATE SET accepted = excluded.accepted, refused = excluded.refused, hour = excluded.hour,
                hour_accepted = excluded.hour_accepted, hour_refused = excluded.hour_refused, addresses = excluded.addresses,
                client = excluded.client
            """).bind(.text(key), .text(publicID), .integer(Int64(clamping: activity.accepted)), .integer(Int64(clamping: activity.refused)),
                      .integer(activity.hour), .integer(Int64(clamping: activity.hourAccepted)),
                      .integer(Int64(clamping: activity.hourRefused)), .text(activity.addresses.joined(separator: "\n")),
                      .text(activity.client)).run()
    }

    /// Adds `acceptedBySchool` to a device's taps per school in their table.
    public func addSchoolTaps(device key: String, _ acceptedBySchool: [String: UInt64]) throws(SQLiteError) {
        for (school, taps) in acceptedBySchool where taps > 0 {
            try connection.statement("""
                INSERT INTO device_school_taps (device, school, taps) VALUES (?1, ?2, ?3)
                ON CONFLICT (device, school) DO UPDATE SET taps = taps + excluded.taps
                """).bind(.text(key), .text(school), .integer(Int64(clamping: taps))).run()
        }
    }

    /// The devices by taps accepted in the hour `hour` (then in all), at most `top`.
    public func listDevices(hour: Int64, top: Int) throws(SQLiteError) -> [ListedDevice] {
        try compact()
        return try connection.statement("""
            SELECT a.public_id, d.player, d.school, a.accepted, a.refused, a.hour, a.hour_accepted, a.hour_refused, a.addresses, a.banned,
                a.client
            FROM device_activity AS a JOIN devices AS d ON d.device = a.device
            ORDER BY CASE WHEN a.hour = ?1 THEN a.hour_accepted ELSE 0 END DESC, a.accepted DESC, a.public_id
            LIMIT ?2
            """).bind(.integer(hour), .integer(Int64(top))).rows { row in
            ListedDevice(publicID: row.text(0) ?? "", player: row.text(1) ?? "", school: row.text(2),
                         activity: DeviceActivity(accepted: UInt64(max(0, row.int64(3))), refused: UInt64(max(0, row.int64(4))),
                                                  hour: row.int64(5), hourAccepted: UInt64(max(0, row.int64(6))),
                                                  hourRefused: UInt64(max(0, row.int64(7))),
                                                  addresses: (row.text(8) ?? "").split(separator: "\n").map(String.init),
                                                  client: row.text(10) ?? ""),
                         banned: row.int64(9) != 0)
        }
    }

    /// The key of the device with this public id, nil for none.
    public func device(publicID: String) throws(SQLiteError) -> String? {
        try compact()
        return try connection.statement("SELECT device FROM device_activity WHERE public_id = ?1").bind(.text(publicID)).row { $0.text(0) ?? "" }
    }

    public func setBanned(device key: String, _ banned: Bool) throws(SQLiteError) {
        try compact()
        try connection.statement("UPDATE device_activity SET banned = ?2 WHERE device = ?1").bind(.text(key), .integer(banned ? 1 : 0)).run()
    }

    /// Takes the taps a device had accepted and not yet had taken off the schools' totals
    /// (saturating at 0), and off its player's own count for its school, once: a second call takes nothing. The taps taken per school, and the
    /// new totals at a new board version (nil when nothing was taken).
    public func removeTaps(device key: String) throws(SQLiteError) -> (removed: [String: UInt64], board: (version: UInt64, scores: [String: UInt64])?) {
        try compact()
        // The rounds it counted in lose it too, in the same transaction: standings without the
        // cheater, whatever they had counted (the rounds count accepted taps only).
        try connection.statement("DELETE FROM round_taps WHERE device = ?1").bind(.text(key)).run()
        try connection.statement("DELETE FROM round_players WHERE device = ?1").bind(.text(key)).run()
        let owed = try connection.statement("SELECT school, taps - removed FROM device_school_taps WHERE device = ?1 AND taps > removed")
            .bind(.text(key)).rows { ($0.text(0) ?? "", UInt64(max(0, $0.int64(1)))) }
        guard !owed.isEmpty else { return ([:], nil) }
        try connection.statement("UPDATE device_school_taps SET removed = taps WHERE device = ?1").bind(.text(key)).run()
        let version = try nextBoardVersion()
        var removed: [String: UInt64] = [:]
        var totals: [String: UInt64] = [:]
        for (school, taps) in owed {
            removed[school] = taps
            totals[school] = try connection.statement("UPDATE scores SET total = max(0, total - ?2) WHERE school = ?1 RETURNING total")
                .bind(.text(school), .integer(Int64(clamping: taps))).row { UInt64(max(0, $0.int64(0))) } ?? 0
            // The player's own count for its school comes off too: "my taps" never above the school's total.
            try connection.statement("UPDATE devices SET taps = max(0, taps - ?3) WHERE device = ?1 AND school = ?2")
                .bind(.text(key), .text(school), .integer(Int64(clamping: taps))).run()
        }
        return (removed, (version, totals))
    }

    public func setAddressBanned(_ address: String, _ banned: Bool) throws(SQLiteError) {
        try connection.statement(banned ? "INSERT OR IGNORE INTO banned_addresses (address) VALUES (?1)"
                                        : "DELETE FROM banned_addresses WHERE address = ?1").bind(.text(address)).run()
    }
}

extension BattleDatabase {
    /// Read outside a `write` transaction: every new connection asks, beside the commits.
    static func isAddressBanned(_ address: String, _ connection: SQLiteConnection) throws(SQLiteError) -> Bool {
        try connection.statement("SELECT 1 FROM banned_addresses WHERE address = ?1").bind(.text(address)).row { _ in true } ?? false
    }
}
