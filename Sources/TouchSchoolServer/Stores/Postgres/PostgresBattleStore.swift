import Foundation
import Logging
import PostgresNIO
import Synchronization
import TouchSchoolCore
import TouchSchoolStore

/// The battle in PostgreSQL, shared by any number of servers (schema: `PostgresSchema`).
///
/// A commit window is one transaction, in an order that keeps servers from deadlocking and
/// holds the contended rows for the least time:
/// 1. the devices' rows, locked (and created) in device-key order, read, and the rounds taking batches;
/// 2. `CommitTransaction.plan` on them, as every store applies it (the scores start empty, so
///    what it adds are this window's increments);
/// 3. the devices' new last batch numbers and players written, their tallies, and what the
///    rounds counted;
/// 4. last, just before COMMIT, the hot rows: the board's version (one row: it orders every
///    change of the board) and the schools' totals, added to in school-id order;
/// 5. COMMIT, with a NOTIFY that wakes the other servers' polls. Only then is anything acknowledged.
/// A batch whose COMMIT was lost with the connection is sent again by its client and found
/// applied by its device's last number: counted once, in the totals and in each round.
final class PostgresBattleStore: BattleStore {
    let client: PostgresClient
    let logger: Logger
    /// The starter catalog's file: played with while no list has been imported into the database.
    let starterCatalogPath: String?
    /// The last season whose hall this store knows taken (`takeHallOfFame`, at each poll).
    let hallTaken = Mutex<Season?>(nil)

    static let notificationChannel = "touchschool_board"

    var name: String { "PostgreSQL" }

    /// How long one of the store's operations may take: PostgresNIO waits for a connection as
    /// long as the database is unreachable; the battle must hear of it to say so (`/healthz`).
    let operationTimeout: Duration
    /// `operationTimeout` unless a test shortens it (`ServerConfiguration.postgresTimeout`).
    static let standardOperationTimeout: Duration = .seconds(5)

    init(client: PostgresClient, starterCatalogPath: String?, logger: Logger, operationTimeout: Duration = standardOperationTimeout) {
        self.client = client
        self.starterCatalogPath = starterCatalogPath
        self.logger = logger
        self.operationTimeout = operationTimeout
    }

    func run<T: Sendable>(_ what: String, _ body: @escaping @Sendable () async throws -> T) async throws(BattleStoreError) -> T {
        do { return try await PostgresSchema.withTimeout(operationTimeout, body) } catch {
            throw BattleStoreError(message: "PostgreSQL: cannot \(what): \(PostgresSchema.describe(error))")
        }
    }

    func battleID() async throws(BattleStoreError) -> String {
        let (client, logger) = (self.client, self.logger)
        let id: String? = try await run("read the battle's identity") {
            for try await battle in try await client.query("SELECT battle FROM touchschool_battle WHERE id = 1", logger: logger)
                .decode(String.self) { return battle }
            return nil
        }
        guard let id, BattleRules.isValidBattleID(id) else {
            throw BattleStoreError(message: "PostgreSQL: touchschool_battle holds no battle identity (16 to 64 characters of A–Z a–z 0–9 - _)")
        }
        return id
    }

    /// The schools with a total above 0, as the other stores give them (a school whose taps an
    /// operator removed keeps its row at 0, for the polls of other servers).
    func board() async throws(BattleStoreError) -> StoredBoard {
        var board = try await changes(since: 0) ?? StoredBoard(version: 0, scores: [:])
        board.scores = board.scores.filter { $0.value > 0 }
        return board
    }

    func device(_ device: String) async throws(BattleStoreError) -> (DeviceRecord, PlayerRecord)? {
        let (client, logger) = (self.client, self.logger)
        return try await run("read a device") {
            let rows = try await client.query(
                "SELECT last_seq, last_end_ms, player, school, taps, best FROM touchschool_devices WHERE device = \(device)",
                logger: logger)
            for try await (lastSeq, lastEndMs, player, school, taps, best) in rows.decode((Int64, Int64, String, String?, Int64, Int32).self) {
                return (DeviceRecord(lastSeq: UInt64(max(0, lastSeq)), player: player, lastEndMs: lastEndMs),
                        PlayerRecord(schoolID: school, taps: UInt64(max(0, taps)), bestTapsPerSecond: Int(best)))
            }
            return nil
        }
    }

    func deviceCount() async throws(BattleStoreError) -> Int {
        let (client, logger) = (self.client, self.logger)
        return try await run("count the devices") {
            for try await count in try await client.query("SELECT count(*) FROM touchschool_devices", logger: logger).decode(Int64.self) {
                return Int(count)
            }
            return 0
        }
    }

    /// Every total changed after `version`, read with the board's version in one statement (one
    /// snapshot): the totals are those of that version.
    func changes(since version: UInt64) async throws(BattleStoreError) -> StoredBoard? {
        let (client, logger) = (self.client, self.logger)
        return try await run("read the board") {
            let since = Int64(clamping: version)
            let rows = try await client.query("""
                SELECT b.version, s.school, s.total FROM touchschool_board b
                LEFT JOIN touchschool_scores s ON s.version > \(since) WHERE b.id = 1
                """, logger: logger)
            var board: StoredBoard?
            for try await (boardVersion, school, total) in rows.decode((Int64, String?, Int64?).self) {
                if board == nil { board = StoredBoard(version: UInt64(max(0, boardVersion)), scores: [:]) }
                if let school, let total { board?.scores[school] = UInt64(max(0, total)) }
            }
            guard let board, board.version > version else { return nil }
            return board
        }
    }

    func commit(_ batches: [ReceivedBatch], histories: TapJudges, catalog: Catalog,
                nowMs: Int64) async throws(BattleStoreError) -> CommittedWindow {
        let (logger, client) = (self.logger, self.client)
        return try await run("save the scores") {
            try await client.withTransaction(logger: logger) { connection in
                try await Self.commit(batches, histories: histories, catalog: catalog, nowMs: nowMs, on: connection, logger: logger)
            }
        }
    }

    private static func commit(_ batches: [ReceivedBatch], histories: TapJudges, catalog: Catalog,
                               nowMs: Int64, on connection: PostgresConnection, logger: Logger) async throws -> CommittedWindow {
        // 1. The devices. A device whose every batch here is numbered at most its last applied
        // one only repeats: its row, read without a lock, answers it (the number only grows), and
        // nothing is written for it. The others are locked in key order, a new device's row
        // created (and so locked) too.
        var rows = CommitTransaction.Rows()
        let all = CommitTransaction.devices(of: batches)
        let read = try await connection.query("""
            SELECT device, last_seq, last_end_ms, player, school, taps, best FROM touchschool_devices WHERE device = ANY(\(all)::text[])
            """, logger: logger)
        try await Self.take(read, into: &rows)
        let devices = CommitTransaction.devicesToWrite(batches, saved: rows.devices)
        if !devices.isEmpty {
            let locked = try await connection.query("""
                INSERT INTO touchschool_devices (device) SELECT d FROM unnest(\(devices)::text[]) AS u(d) ORDER BY d
                ON CONFLICT (device) DO UPDATE SET device = EXCLUDED.device
                RETURNING device, last_seq, last_end_ms, player, school, taps, best
                """, logger: logger)
            try await Self.take(locked, into: &rows)
        }
        (rows.activities, rows.banned) = try await PostgresOperator.activities(of: devices, on: connection, logger: logger)
        // The rounds taking batches as saved now (`PostgresRounds`: read without a lock, a start or
        // a stop counts from the commits that read after it).
        var limit = CommitTransaction.roundsFirstRead
        while true {
            let newest = try await PostgresRounds.list(limit: limit, on: connection, logger: logger)
            if let open = CommitTransaction.roundsTakingBatches(newestFirst: newest, limit: limit, atMs: nowMs) {
                rows.rounds = open
                break
            }
            limit *= 4
        }
        rows.seasonLength = try await PostgresSeasons.length(on: connection, logger: logger)
        // 2. The rules, as every store applies them (`CommitTransaction.plan`); only the devices
        // locked can change (the others only repeat).
        let plan = CommitTransaction.plan(batches, rows: rows, histories: histories, catalog: catalog, nowMs: nowMs)
        // 3. The devices that changed, their tallies, their counts in the round.
        if !plan.devices.isEmpty {
            let changedDevices = plan.devices.map(\.device)
            let records = plan.devices.map(\.record)
            let players = plan.devices.map(\.player)
            try await connection.query("""
                UPDATE touchschool_devices AS d SET last_seq = u.last_seq, last_end_ms = u.last_end_ms, player = u.player,
                    school = NULLIF(u.school, ''), taps = u.taps, best = u.best
                FROM unnest(\(changedDevices)::text[], \(records.map { Int64(clamping: $0.lastSeq) })::bigint[],
                            \(records.map(\.lastEndMs))::bigint[], \(records.map(\.player))::text[],
                            \(players.map { $0.schoolID ?? "" })::text[], \(players.map { Int64(clamping: $0.taps) })::bigint[],
                            \(players.map { Int32(clamping: $0.bestTapsPerSecond) })::int[])
                    AS u(device, last_seq, last_end_ms, player, school, taps, best)
                WHERE d.device = u.device
                """, logger: logger)
        }
        try await PostgresOperator.saveActivities(plan.activities, on: connection, logger: logger)
        try await PostgresRounds.add(plan.rounds, on: connection, logger: logger)
        try await PostgresSeasons.add(plan, on: connection, logger: logger)
        if let due = SeasonFame.due(rows.seasonLength, atMs: nowMs) {
            try await PostgresSeasons.takeHallOfFame(due, catalog: catalog, on: connection, logger: logger)
        }
        // 4. The hot rows, last: the board's version, then the schools in id order (and the
        // NOTIFY sent at COMMIT).
        let board = try await PostgresAdministration.addToTotals(plan.increments, on: connection, logger: logger)
        let seasonTotals = if let season = plan.season {
            try await PostgresSeasons.totals(season, schools: plan.seasonSchools, on: connection, logger: logger)
        } else { [String: UInt64]() }
        return plan.committed(board: board, seasonTotals: seasonTotals)
    }

    /// The devices' rows (device, last_seq, last_end_ms, player, school, taps, best) into `state`.
    private static func take(_ rows: PostgresRowSequence, into state: inout CommitTransaction.Rows) async throws {
        for try await (device, lastSeq, lastEndMs, player, school, taps, best) in rows.decode((String, Int64, Int64, String, String?, Int64, Int32).self) {
            state.devices[device] = DeviceRecord(lastSeq: UInt64(max(0, lastSeq)), player: player, lastEndMs: lastEndMs)
            state.players[device] = PlayerRecord(schoolID: school, taps: UInt64(max(0, taps)), bestTapsPerSecond: Int(best))
        }
    }

    /// The catalog imported into the database (`touchschool import --postgres`), else the
    /// starter catalog; read again only when its ETag changed.
    func newCatalog(current: CatalogResource?) async throws(BattleStoreError) -> CatalogResource? {
        let (client, logger) = (self.client, self.logger)
        let etag: String? = try await run("read the catalog") {
            for try await value in try await client.query("SELECT etag FROM touchschool_catalog WHERE id = 1", logger: logger).decode(String.self) {
                return value
            }
            return nil
        }
        guard let etag else {
            if let current, current.path != PostgresSchema.catalogSource { return nil }
            guard let starterCatalogPath else { throw BattleStoreError(message: "the starter catalog is missing from the installation") }
            do { return try CatalogResource(path: starterCatalogPath) } catch {
                throw BattleStoreError(message: "cannot read the school catalog: \(error)")
            }
        }
        guard etag != current?.etag else { return nil }
        let bytes: [UInt8]? = try await run("read the catalog") {
            for try await value in try await client.query("SELECT bytes FROM touchschool_catalog WHERE id = 1", logger: logger).decode(ByteBuffer.self) {
                return Array(value.readableBytesView)
            }
            return nil
        }
        guard let bytes else { return nil }
        let resource: CatalogResource
        do { resource = try CatalogResource(bytes: bytes, source: PostgresSchema.catalogSource) } catch {
            throw BattleStoreError(message: "cannot read the catalog imported into PostgreSQL: \(error)")
        }
        // Totals this server (or another) added under starter ids before taking up the new
        // catalog move to their official ids; from now on this server adds to those directly.
        let aliases = resource.catalog.aliases
        try await run("move the scores of renamed ids") {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresAdministration.followAliases(aliases, on: connection, logger: logger)
            }
        }
        return resource
    }

    /// Wakes `battle`'s poll whenever another server commits, for as long as the server runs;
    /// listens again after losing the connection (notifications sent meanwhile are lost: the
    /// poll still finds the changes within its interval).
    func listen(waking battle: BattleHallRuntime) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.notificationChannel) { notifications in
                        for try await notification in notifications { await battle.boardChanged(to: UInt64(notification.payload)) }
                    }
                }
            } catch {
                logger.debug("Listening for other servers' changes failed; listening again", metadata: ["error": "\(PostgresSchema.describe(error))"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
