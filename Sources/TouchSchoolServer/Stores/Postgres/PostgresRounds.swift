import Logging
import PostgresNIO
import TouchSchoolBattleDatabase
import TouchSchoolCore

/// The operator's rounds in PostgreSQL (`touchschool_rounds`, `touchschool_round_taps`,
/// `touchschool_round_players`, the tables of SQLite's `RoundQueries`), shared by every server of
/// the database: a round started through one counts on all.
///
/// A start or a stop is one transaction that holds the rounds' table against the others (not
/// against reads, and commits only read it: none waits for another): two operators starting
/// rounds through two servers at once make two rounds, the later stopping the earlier, never two
/// running. A commit reads the rounds taking batches (`CommitTransaction.roundsTakingBatches`) without a
/// lock, in its own transaction: one under way when a round starts or stops counts by the rounds
/// it read, as if it had been saved a moment earlier (a start loses nothing by it: its window
/// opens after the countdown, and the round it stops keeps its grace).
enum PostgresRounds {
    /// The newest round, the current one (nil: none was ever started).
    static func current(on connection: PostgresConnection, logger: Logger) async throws -> Round? {
        try await rounds(connection.query("SELECT id, title, starts_at_ms, ends_at_ms FROM touchschool_rounds ORDER BY id DESC LIMIT 1",
                                          logger: logger)).first
    }

    /// The rounds, newest first, at most `limit`.
    static func list(limit: Int, on connection: PostgresConnection, logger: Logger) async throws -> [Round] {
        try await rounds(connection.query("""
            SELECT id, title, starts_at_ms, ends_at_ms FROM touchschool_rounds ORDER BY id DESC LIMIT \(Int64(limit))
            """, logger: logger))
    }

    /// Rows of (id, title, starts_at_ms, ends_at_ms).
    private static func rounds(_ rows: PostgresRowSequence) async throws -> [Round] {
        var rounds: [Round] = []
        for try await (id, title, startsAt, endsAt) in rows.decode((Int64, String?, Int64, Int64).self) {
            rounds.append(Round(id: id, title: title, startsAtMs: startsAt, endsAtMs: endsAt))
        }
        return rounds
    }

    /// The current round, read after taking the rounds' table from the other starts and stops
    /// until the transaction ends: a start or stop waiting for another reads the round it made.
    static func lockCurrent(on connection: PostgresConnection, logger: Logger) async throws -> Round? {
        try await connection.query("LOCK TABLE touchschool_rounds IN SHARE ROW EXCLUSIVE MODE", logger: logger)
        return try await current(on: connection, logger: logger)
    }

    /// Saves a new round, numbered by the table's identity; it becomes the current one.
    static func insert(title: String?, startsAtMs: Int64, endsAtMs: Int64, on connection: PostgresConnection,
                       logger: Logger) async throws -> Round {
        for try await id in try await connection.query("""
            INSERT INTO touchschool_rounds (title, starts_at_ms, ends_at_ms) VALUES (\(title), \(startsAtMs), \(endsAtMs)) RETURNING id
            """, logger: logger).decode(Int64.self) {
            return Round(id: id, title: title, startsAtMs: startsAtMs, endsAtMs: endsAtMs)
        }
        throw PostgresSetupError(message: "the new round's row was not returned")
    }

    /// Moves a round's window as `Round.stopped` moved it: its end, and its start too when it was
    /// stopped in its countdown.
    static func setWindow(of round: Round, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            UPDATE touchschool_rounds SET starts_at_ms = \(round.startsAtMs), ends_at_ms = \(round.endsAtMs) WHERE id = \(round.id)
            """, logger: logger)
    }

    /// Adds what a commit counted (`CommitTransaction.Plan.rounds`) to the devices' counts in the
    /// round, under the locks of the devices' rows the commit holds.
    static func add(_ writes: [CommitTransaction.RoundWrite], on connection: PostgresConnection, logger: Logger) async throws {
        guard !writes.isEmpty else { return }
        var rounds: [Int64] = [], devices: [String] = [], schools: [String] = [], taps: [Int64] = [], reached: [Int64] = []
        for write in writes {
            for (school, count) in write.bySchool.sorted(by: { $0.key < $1.key }) where count > 0 {
                rounds.append(write.round)
                devices.append(write.device)
                schools.append(school)
                taps.append(Int64(clamping: count))
                reached.append(write.reachedMs)
            }
        }
        if !rounds.isEmpty {
            try await connection.query("""
                INSERT INTO touchschool_round_taps AS t (round, device, school, taps, reached_ms)
                SELECT * FROM unnest(\(rounds)::bigint[], \(devices)::text[], \(schools)::text[], \(taps)::bigint[], \(reached)::bigint[])
                ON CONFLICT (round, device, school) DO UPDATE SET taps = t.taps + EXCLUDED.taps,
                    reached_ms = greatest(t.reached_ms, EXCLUDED.reached_ms)
                """, logger: logger)
        }
        try await connection.query("""
            INSERT INTO touchschool_round_players (round, device, public_id, player, school)
            SELECT round, device, public_id, player, NULLIF(school, '')
            FROM unnest(\(writes.map(\.round))::bigint[], \(writes.map(\.device))::text[], \(writes.map(\.publicID))::text[],
                        \(writes.map(\.player))::text[], \(writes.map { $0.school ?? "" })::text[])
                AS u(round, device, public_id, player, school)
            ON CONFLICT (round, device) DO UPDATE SET player = EXCLUDED.player, school = EXCLUDED.school
            """, logger: logger)
    }

    /// A round and what it counted per device (nil: no round has this id), read in one statement
    /// (one snapshot): every device with all its schools, as one commit left them.
    static func round(_ id: Int64, on connection: PostgresConnection, logger: Logger) async throws -> (Round, [RoundPlayerCount])? {
        let rows = try await connection.query("""
            SELECT r.id, r.title, r.starts_at_ms, r.ends_at_ms, p.device, p.public_id, p.player, p.school, t.school, t.taps, t.reached_ms
            FROM touchschool_rounds AS r
            LEFT JOIN touchschool_round_players AS p ON p.round = r.id
            LEFT JOIN touchschool_round_taps AS t ON t.round = p.round AND t.device = p.device
            WHERE r.id = \(id)
            """, logger: logger)
        var round: Round?
        var players: [String: RoundPlayerCount] = [:]
        for try await (id, title, startsAt, endsAt, device, publicID, player, school, tapsSchool, taps, reached)
            in rows.decode((Int64, String?, Int64, Int64, String?, String?, String?, String?, String?, Int64?, Int64?).self) {
            round = Round(id: id, title: title, startsAtMs: startsAt, endsAtMs: endsAt)
            guard let device else { continue }
            var count = players[device] ?? RoundPlayerCount(device: device, publicID: publicID ?? "", player: player ?? "",
                                                            school: school, bySchool: [:], reachedMs: 0)
            if let tapsSchool, let taps, let reached {
                count.bySchool[tapsSchool] = UInt64(max(0, taps))
                count.reachedMs = max(count.reachedMs, reached)
            }
            players[device] = count
        }
        return round.map { ($0, players.values.sorted { $0.device < $1.device }) }
    }

    /// Takes a device out of every round it counted in (a ban with `removeTaps`): standings
    /// without the cheater, whatever they had counted (the rounds count accepted taps only).
    static func remove(device: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("DELETE FROM touchschool_round_taps WHERE device = \(device)", logger: logger)
        try await connection.query("DELETE FROM touchschool_round_players WHERE device = \(device)", logger: logger)
    }
}

/// The operator's rounds, each request in one transaction (a read in one statement).
extension PostgresBattleStore {
    func startRound(title: String?, seconds: Int, nowMs: Int64) async throws(BattleStoreError) -> Round? {
        guard let asked = Round.starting(id: 0, title: title, seconds: seconds, nowMs: nowMs) else { return nil }
        let (client, logger) = (self.client, self.logger)
        return try await run("start a round") {
            try await client.withTransaction(logger: logger) { connection in
                // The next round stops the one still running: one round counts at a time.
                if let current = try await PostgresRounds.lockCurrent(on: connection, logger: logger), current.endsAtMs > nowMs {
                    try await PostgresRounds.setWindow(of: current.stopped(atMs: nowMs), on: connection, logger: logger)
                }
                return try await PostgresRounds.insert(title: asked.title, startsAtMs: asked.startsAtMs, endsAtMs: asked.endsAtMs,
                                                       on: connection, logger: logger)
            }
        }
    }

    func stopRound(nowMs: Int64) async throws(BattleStoreError) -> Round? {
        let (client, logger) = (self.client, self.logger)
        return try await run("stop the round") {
            try await client.withTransaction(logger: logger) { connection in
                guard let current = try await PostgresRounds.lockCurrent(on: connection, logger: logger) else { return nil }
                let stopped = current.stopped(atMs: nowMs)
                if stopped != current { try await PostgresRounds.setWindow(of: stopped, on: connection, logger: logger) }
                return stopped
            }
        }
    }

    func rounds(limit: Int) async throws(BattleStoreError) -> [Round] {
        let (client, logger) = (self.client, self.logger)
        return try await run("list the rounds") {
            try await client.withConnection { connection in try await PostgresRounds.list(limit: limit, on: connection, logger: logger) }
        }
    }

    func round(_ id: Int64) async throws(BattleStoreError) -> (Round, [RoundPlayerCount])? {
        let (client, logger) = (self.client, self.logger)
        return try await run("read the round") {
            try await client.withConnection { connection in try await PostgresRounds.round(id, on: connection, logger: logger) }
        }
    }
}
