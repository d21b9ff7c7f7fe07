import Logging
import PostgresNIO
import TouchSchoolBattleDatabase
import TouchSchoolCore

/// The seasons in PostgreSQL (`touchschool_meta`, `touchschool_season_scores`,
/// `touchschool_season_players`, the tables of SQLite's `SeasonQueries`), shared by every server of
/// the database: each commit reads the length in its own transaction, so every server cuts at the
/// same boundaries from its next commit after a change.
enum PostgresSeasons {
    static func length(on connection: PostgresConnection, logger: Logger) async throws -> SeasonLength {
        for try await value in try await connection.query("SELECT value FROM touchschool_meta WHERE key = 'season_length'",
                                                          logger: logger).decode(String.self) {
            return SeasonLength(rawValue: value) ?? .none
        }
        return .none
    }

    static func setLength(_ length: SeasonLength, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            INSERT INTO touchschool_meta (key, value) VALUES ('season_length', \(length.rawValue))
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
            """, logger: logger)
    }

    /// Adds what a commit counted (`CommitTransaction.Plan.seasons`) to the devices' counts, under the
    /// locks of the devices' rows the commit holds, and its increments to the seasons' totals: one
    /// row per (season, school) touched, in key order.
    static func add(_ plan: CommitTransaction.Plan, on connection: PostgresConnection, logger: Logger) async throws {
        guard !plan.seasons.isEmpty else { return }
        var lengths: [String] = [], numbers: [Int64] = [], devices: [String] = [], schools: [String] = [], taps: [Int64] = []
        for write in plan.seasons {
            for (school, count) in write.bySchool.sorted(by: { $0.key < $1.key }) where count > 0 {
                lengths.append(write.season.length.rawValue)
                numbers.append(write.season.number)
                devices.append(write.device)
                schools.append(school)
                taps.append(Int64(clamping: count))
            }
        }
        try await connection.query("""
            INSERT INTO touchschool_season_players AS p (length, number, device, school, taps)
            SELECT * FROM unnest(\(lengths)::text[], \(numbers)::bigint[], \(devices)::text[], \(schools)::text[], \(taps)::bigint[])
            ON CONFLICT (length, number, device, school) DO UPDATE SET taps = p.taps + EXCLUDED.taps
            """, logger: logger)
        var totalLengths: [String] = [], totalNumbers: [Int64] = [], totalSchools: [String] = [], totals: [Int64] = []
        for (season, increments) in plan.seasonIncrements.sorted(by: { $0.key.number < $1.key.number }) {
            for (school, count) in increments.sorted(by: { $0.key < $1.key }) where count > 0 {
                totalLengths.append(season.length.rawValue)
                totalNumbers.append(season.number)
                totalSchools.append(school)
                totals.append(Int64(clamping: count))
            }
        }
        try await connection.query("""
            INSERT INTO touchschool_season_scores AS s (length, number, school, total)
            SELECT * FROM unnest(\(totalLengths)::text[], \(totalNumbers)::bigint[], \(totalSchools)::text[], \(totals)::bigint[])
            ON CONFLICT (length, number, school) DO UPDATE SET total = s.total + EXCLUDED.total
            """, logger: logger)
    }

    /// Takes what a device counted in every season off the seasons' totals, and its rows with it
    /// (a ban with removeTaps, under the lock of the device's row).
    static func remove(device: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            WITH gone AS (DELETE FROM touchschool_season_players WHERE device = \(device) RETURNING length, number, school, taps)
            UPDATE touchschool_season_scores AS s SET total = greatest(0, s.total - g.taps)
            FROM gone AS g WHERE s.length = g.length AND s.number = g.number AND s.school = g.school
            """, logger: logger)
    }

    /// Takes the hall of fame of `season` (`SeasonFame.due`) from its totals now, unless a server
    /// took it already: the marker's row first (a second server waits for the first's transaction,
    /// then takes nothing), then the totals, read after it. Before the board's row, the hot one.
    static func takeHallOfFame(_ season: Season, catalog: Catalog, on connection: PostgresConnection, logger: Logger) async throws {
        let (length, number) = (season.length.rawValue, season.number)
        // Read first without a lock: every commit after the first only reads.
        for try await _ in try await connection.query("""
            SELECT 1 FROM touchschool_season_fame_taken WHERE length = \(length) AND number = \(number)
            """, logger: logger) {
            return
        }
        var taken = false
        for try await _ in try await connection.query("""
            INSERT INTO touchschool_season_fame_taken (length, number) VALUES (\(length), \(number)) ON CONFLICT DO NOTHING RETURNING 1
            """, logger: logger) {
            taken = true
        }
        guard taken else { return }
        var totals: [String: UInt64] = [:]
        for try await (school, total) in try await connection.query("""
            SELECT school, total FROM touchschool_season_scores WHERE length = \(length) AND number = \(number) AND total > 0
            """, logger: logger).decode((String, Int64).self) {
            totals[school] = UInt64(max(0, total))
        }
        let entries = SeasonFame.of(totals: totals, catalog: catalog)
        guard !entries.isEmpty else { return }
        let columns = entries.map(\.league.storedColumns)
        try await connection.query("""
            INSERT INTO touchschool_season_fame (length, number, level, province, place, rank, school, total)
            SELECT \(length), \(number), * FROM unnest(\(columns.map(\.level))::text[], \(columns.map(\.province))::text[],
                \(entries.map { Int32($0.place) })::int[], \(entries.map { Int32($0.rank) })::int[], \(entries.map(\.school))::text[],
                \(entries.map { Int64(clamping: $0.total) })::bigint[])
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    /// A season's hall as taken, in `SeasonFame.order`; `nationalOnly`: the national league's alone.
    static func hallOfFame(_ season: Season, nationalOnly: Bool, on connection: PostgresConnection,
                           logger: Logger) async throws -> [SeasonFame.Entry] {
        var entries: [SeasonFame.Entry] = []
        for try await (level, province, place, rank, school, total) in try await connection.query("""
            SELECT level, province, place, rank, school, total FROM touchschool_season_fame
            WHERE length = \(season.length.rawValue) AND number = \(season.number) AND (NOT \(nationalOnly) OR (level = '' AND province = ''))
            """, logger: logger).decode((String, String, Int32, Int32, String, Int64).self) {
            guard let league = League(storedLevel: level, province: province) else { continue }
            entries.append(SeasonFame.Entry(league: league, place: Int(place), rank: Int(rank), school: school, total: UInt64(max(0, total))))
        }
        return entries.sorted(by: SeasonFame.order)
    }

    /// The seasons that counted taps, newest first (by their start), at most `limit`.
    static func list(limit: Int, on connection: PostgresConnection, logger: Logger) async throws -> [Season] {
        // Each length's newest `limit` numbers, one probe of the key each (a recursive skip over
        // the primary key, not a scan of every school's row of every season).
        var seasons: [Season] = []
        for length in SeasonLength.allCases where length != .none {
            for try await number in try await connection.query("""
                WITH RECURSIVE numbers (number, n) AS (
                    (SELECT number, 1 FROM touchschool_season_scores WHERE length = \(length.rawValue) ORDER BY number DESC LIMIT 1)
                    UNION ALL
                    SELECT (SELECT s.number FROM touchschool_season_scores AS s WHERE s.length = \(length.rawValue) AND s.number < numbers.number
                            ORDER BY s.number DESC LIMIT 1), n + 1
                    FROM numbers WHERE numbers.number IS NOT NULL AND n < \(Int64(limit)))
                SELECT number FROM numbers WHERE number IS NOT NULL
                """, logger: logger).decode(Int64.self) {
                if let season = Season.numbered(length, number) { seasons.append(season) }
            }
        }
        return Array(seasons.sorted { ($0.startsAtMs, $0.endsAtMs) > ($1.startsAtMs, $1.endsAtMs) }.prefix(limit))
    }

    /// A season's totals and hall, read in one snapshot (one transaction).
    static func standing(_ season: Season, on connection: PostgresConnection, logger: Logger) async throws -> SeasonStanding {
        var standing = SeasonStanding(season: season, totals: [:],
                                      fame: try await hallOfFame(season, nationalOnly: false, on: connection, logger: logger))
        for try await (school, total) in try await connection.query("""
            SELECT school, total FROM touchschool_season_scores WHERE length = \(season.length.rawValue) AND number = \(season.number)
                AND total > 0
            """, logger: logger).decode((String, Int64).self) {
            standing.totals[school] = UInt64(max(0, total))
        }
        return standing
    }

    /// A season's totals of `schools` (0 for those without a row).
    static func totals(_ season: Season, schools: [String], on connection: PostgresConnection,
                       logger: Logger) async throws -> [String: UInt64] {
        var totals = Dictionary(uniqueKeysWithValues: schools.map { ($0, UInt64(0)) })
        guard !schools.isEmpty else { return totals }
        for try await (school, total) in try await connection.query("""
            SELECT school, total FROM touchschool_season_scores WHERE length = \(season.length.rawValue) AND number = \(season.number)
                AND school = ANY(\(schools)::text[])
            """, logger: logger).decode((String, Int64).self) {
            totals[school] = UInt64(max(0, total))
        }
        return totals
    }

    /// What each device counted in a season, per school.
    static func players(_ season: Season, on connection: PostgresConnection, logger: Logger) async throws -> [String: [String: UInt64]] {
        var players: [String: [String: UInt64]] = [:]
        for try await (device, school, taps) in try await connection.query("""
            SELECT device, school, taps FROM touchschool_season_players WHERE length = \(season.length.rawValue)
                AND number = \(season.number)
            """, logger: logger).decode((String, String, Int64).self) {
            players[device, default: [:]][school] = UInt64(max(0, taps))
        }
        return players
    }
}

extension PostgresBattleStore {
    func seasonLength() async throws(BattleStoreError) -> SeasonLength {
        let (client, logger) = (self.client, self.logger)
        return try await run("read the season's length") {
            try await client.withConnection { connection in try await PostgresSeasons.length(on: connection, logger: logger) }
        }
    }

    func setSeasonLength(_ length: SeasonLength) async throws(BattleStoreError) {
        let (client, logger) = (self.client, self.logger)
        try await run("set the season's length") {
            try await client.withConnection { connection in try await PostgresSeasons.setLength(length, on: connection, logger: logger) }
        }
    }

    /// Reads the length at every poll (a length set through another server cuts here from the next
    /// commit: commits read it too) and takes the due hall when no server did.
    func takeHallOfFame(catalog: Catalog, nowMs: Int64) async throws(BattleStoreError) -> SeasonLength {
        let (client, logger) = (self.client, self.logger)
        let length = try await seasonLength()
        guard let due = SeasonFame.due(length, atMs: nowMs), hallTaken.withLock({ $0 }) != due else { return length }
        try await run("take the season's hall of fame") {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresSeasons.takeHallOfFame(due, catalog: catalog, on: connection, logger: logger)
            }
        }
        hallTaken.withLock { $0 = due }
        return length
    }

    func seasonTotals(_ season: Season, schools: [String]) async throws(BattleStoreError) -> [String: UInt64] {
        let (client, logger) = (self.client, self.logger)
        return try await run("read the season's totals") {
            try await client.withConnection { connection in
                try await PostgresSeasons.totals(season, schools: schools, on: connection, logger: logger)
            }
        }
    }

    func seasons(limit: Int) async throws(BattleStoreError) -> [ListedSeason] {
        let (client, logger) = (self.client, self.logger)
        return try await run("list the seasons") {
            try await client.withTransaction(logger: logger) { connection in
                var listed: [ListedSeason] = []
                for season in try await PostgresSeasons.list(limit: limit, on: connection, logger: logger) {
                    listed.append(ListedSeason(season: season, fame: try await PostgresSeasons.hallOfFame(season, nationalOnly: true,
                                                                                                          on: connection, logger: logger)))
                }
                return listed
            }
        }
    }

    func season(_ season: Season) async throws(BattleStoreError) -> SeasonStanding {
        let (client, logger) = (self.client, self.logger)
        return try await run("read the season") {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresSeasons.standing(season, on: connection, logger: logger)
            }
        }
    }

    func seasonPlayers(_ season: Season) async throws(BattleStoreError) -> [String: [String: UInt64]] {
        let (client, logger) = (self.client, self.logger)
        return try await run("read the season's players") {
            try await client.withConnection { connection in try await PostgresSeasons.players(season, on: connection, logger: logger) }
        }
    }
}
