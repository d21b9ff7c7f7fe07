import Logging
import PostgresNIO
import TouchSchoolBattleDatabase

/// The operator's part of the battle in PostgreSQL: the devices' tallies written with each
/// commit, the list, bans, and a cheater's taps taken off the totals. Everything that touches a
/// device's tally holds its row in `touchschool_devices` first, as a commit does, and takes the
/// hot rows (the board, then the schools in id order) last.
enum PostgresOperator {
    /// The tallies of `devices` (whose rows the commit holds) and which of them are banned.
    static func activities(of devices: [String], on connection: PostgresConnection,
                           logger: Logger) async throws -> (activities: [String: DeviceActivity], banned: Set<String>) {
        var activities: [String: DeviceActivity] = [:]
        var banned: Set<String> = []
        let rows = try await connection.query("""
            SELECT device, accepted, refused, hour, hour_accepted, hour_refused, addresses, banned, client
            FROM touchschool_device_activity WHERE device = ANY(\(devices)::text[])
            """, logger: logger)
        for try await (device, accepted, refused, hour, hourAccepted, hourRefused, addresses, isBanned, client)
            in rows.decode((String, Int64, Int64, Int64, Int64, Int64, [String], Bool, String).self) {
            activities[device] = DeviceActivity(accepted: UInt64(max(0, accepted)), refused: UInt64(max(0, refused)), hour: hour,
                                                hourAccepted: UInt64(max(0, hourAccepted)), hourRefused: UInt64(max(0, hourRefused)),
                                                addresses: addresses, client: client)
            if isBanned { banned.insert(device) }
        }
        return (activities, banned)
    }

    /// Writes a commit's tallies (`CommitTransaction.plan`) and adds its taps per school.
    static func saveActivities(_ writes: [CommitTransaction.ActivityWrite], on connection: PostgresConnection, logger: Logger) async throws {
        guard !writes.isEmpty else { return }
        let devices = writes.map(\.device)
        let activities = writes.map(\.activity)
        // Addresses as one text per device (newline-separated): unnest cannot take an array of arrays.
        try await connection.query("""
            INSERT INTO touchschool_device_activity AS a (device, public_id, accepted, refused, hour, hour_accepted, hour_refused, addresses,
                client)
            SELECT device, public_id, accepted, refused, hour, hour_accepted, hour_refused, string_to_array(addresses, E'\\n'), client
            FROM unnest(\(devices)::text[], \(writes.map(\.publicID))::text[],
                        \(activities.map { Int64(clamping: $0.accepted) })::bigint[], \(activities.map { Int64(clamping: $0.refused) })::bigint[],
                        \(activities.map(\.hour))::bigint[], \(activities.map { Int64(clamping: $0.hourAccepted) })::bigint[],
                        \(activities.map { Int64(clamping: $0.hourRefused) })::bigint[],
                        \(activities.map { $0.addresses.joined(separator: "\n") })::text[], \(activities.map(\.client))::text[])
                AS u(device, public_id, accepted, refused, hour, hour_accepted, hour_refused, addresses, client)
            ON CONFLICT (device) DO UPDATE SET accepted = EXCLUDED.accepted, refused = EXCLUDED.refused, hour = EXCLUDED.hour,
                hour_accepted = EXCLUDED.hour_accepted, hour_refused = EXCLUDED.hour_refused, addresses = EXCLUDED.addresses,
                client = EXCLUDED.client
            """, logger: logger)
        var keys: [String] = [], schools: [String] = [], taps: [Int64] = []
        for write in writes {
            for (school, count) in write.addedBySchool.sorted(by: { $0.key < $1.key }) where count > 0 {
                keys.append(write.device)
                schools.append(school)
                taps.append(Int64(clamping: count))
            }
        }
        guard !keys.isEmpty else { return }
        try await connection.query("""
            INSERT INTO touchschool_device_school_taps AS t (device, school, taps)
            SELECT * FROM unnest(\(keys)::text[], \(schools)::text[], \(taps)::bigint[])
            ON CONFLICT (device, school) DO UPDATE SET taps = t.taps + EXCLUDED.taps
            """, logger: logger)
    }

    static func listDevices(hour: Int64, top: Int, on connection: PostgresConnection, logger: Logger) async throws -> [ListedDevice] {
        let rows = try await connection.query("""
            SELECT a.public_id, d.player, d.school, a.accepted, a.refused, a.hour, a.hour_accepted, a.hour_refused, a.addresses, a.banned,
                a.client
            FROM touchschool_device_activity AS a JOIN touchschool_devices AS d ON d.device = a.device
            ORDER BY CASE WHEN a.hour = \(hour) THEN a.hour_accepted ELSE 0 END DESC, a.accepted DESC, a.public_id
            LIMIT \(Int64(top))
            """, logger: logger)
        var listed: [ListedDevice] = []
        for try await (id, player, school, accepted, refused, rowHour, hourAccepted, hourRefused, addresses, banned, client)
            in rows.decode((String, String, String?, Int64, Int64, Int64, Int64, Int64, [String], Bool, String).self) {
            listed.append(ListedDevice(
                publicID: id, player: player, school: school,
                activity: DeviceActivity(accepted: UInt64(max(0, accepted)), refused: UInt64(max(0, refused)), hour: rowHour,
                                         hourAccepted: UInt64(max(0, hourAccepted)), hourRefused: UInt64(max(0, hourRefused)),
                                         addresses: addresses, client: client),
                banned: banned))
        }
        return listed
    }

    /// Sets the ban of the device with this public id, its row held first; with `removeTaps`,
    /// takes off the totals the taps it still counts for, and its player's own count for its
    /// school, and takes it out of the rounds it counted in. Nil when no device has the id.
    static func setBan(_ publicID: String, banned: Bool, removeTaps: Bool, on connection: PostgresConnection,
                       logger: Logger) async throws -> BanOutcome? {
        var device: String?
        for try await key in try await connection.query("""
            SELECT d.device FROM touchschool_devices AS d JOIN touchschool_device_activity AS a ON a.device = d.device
            WHERE a.public_id = \(publicID) FOR UPDATE OF d
            """, logger: logger).decode(String.self) {
            device = key
        }
        guard let device else { return nil }
        try await connection.query("UPDATE touchschool_device_activity SET banned = \(banned) WHERE device = \(device)", logger: logger)
        guard removeTaps else { return BanOutcome(removed: [:], board: nil) }
        try await PostgresRounds.remove(device: device, on: connection, logger: logger)
        try await PostgresSeasons.remove(device: device, on: connection, logger: logger)
        var removed: [String: UInt64] = [:]
        for try await (school, owed) in try await connection.query("""
            SELECT school, taps - removed FROM touchschool_device_school_taps WHERE device = \(device) AND taps > removed FOR UPDATE
            """, logger: logger).decode((String, Int64).self) {
            removed[school] = UInt64(max(0, owed))
        }
        guard !removed.isEmpty else { return BanOutcome(removed: [:], board: nil) }
        try await connection.query("UPDATE touchschool_device_school_taps SET removed = taps WHERE device = \(device)", logger: logger)
        let version = try await PostgresAdministration.nextBoardVersion(connection, logger: logger)
        var board = StoredBoard(version: UInt64(max(0, version)), scores: [:])
        for (school, taps) in removed.sorted(by: { $0.key < $1.key }) {
            for try await total in try await connection.query("""
                UPDATE touchschool_scores SET total = greatest(0, total - \(Int64(clamping: taps))), version = \(version)
                WHERE school = \(school) RETURNING total
                """, logger: logger).decode(Int64.self) {
                board.scores[school] = UInt64(max(0, total))
            }
            // The player's own count for its school comes off too: "my taps" never above the school's total.
            try await connection.query("""
                UPDATE touchschool_devices SET taps = greatest(0, taps - \(Int64(clamping: taps))) WHERE device = \(device) AND school = \(school)
                """, logger: logger)
        }
        try await connection.query("SELECT pg_notify(\(PostgresBattleStore.notificationChannel), \(String(version)))", logger: logger)
        return BanOutcome(removed: removed, board: board)
    }
}

/// The operator's requests, each in one transaction.
extension PostgresBattleStore {
    func devices(top: Int, nowMs: Int64) async throws(BattleStoreError) -> [ListedDevice] {
        let (client, logger) = (self.client, self.logger)
        return try await run("list the devices") {
            try await client.withConnection { connection in
                try await PostgresOperator.listDevices(hour: DeviceActivity.hour(ofMs: nowMs), top: top, on: connection, logger: logger)
            }
        }
    }

    func ban(device publicID: String, removeTaps: Bool) async throws(BattleStoreError) -> BanOutcome? {
        let (client, logger) = (self.client, self.logger)
        return try await run("ban the device") {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresOperator.setBan(publicID, banned: true, removeTaps: removeTaps, on: connection, logger: logger)
            }
        }
    }

    func unban(device publicID: String) async throws(BattleStoreError) -> Bool {
        let (client, logger) = (self.client, self.logger)
        return try await run("lift the device's ban") {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresOperator.setBan(publicID, banned: false, removeTaps: false, on: connection, logger: logger) != nil
            }
        }
    }

    func isBanned(address: String) async throws(BattleStoreError) -> Bool {
        let (client, logger) = (self.client, self.logger)
        return try await run("read the banned addresses") {
            for try await _ in try await client.query("SELECT 1 FROM touchschool_banned_addresses WHERE address = \(address)",
                                                      logger: logger).decode(Int32.self) {
                return true
            }
            return false
        }
    }

    func setBanned(address: String, _ banned: Bool) async throws(BattleStoreError) {
        let (client, logger) = (self.client, self.logger)
        try await run("change the banned addresses") {
            if banned {
                _ = try await client.query("INSERT INTO touchschool_banned_addresses (address) VALUES (\(address)) ON CONFLICT DO NOTHING", logger: logger)
            } else {
                _ = try await client.query("DELETE FROM touchschool_banned_addresses WHERE address = \(address)", logger: logger)
            }
        }
    }
}
