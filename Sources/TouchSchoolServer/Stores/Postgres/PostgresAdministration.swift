import Foundation
import Logging
import PostgresNIO
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolStore

/// What is done to the shared battle in PostgreSQL outside of play: the official list imported
/// into its catalog (`touchschool import --postgres`) and an embedded server's data directory
/// moved in once (`touchschool serve --postgres URL --from DIR`). Each runs in one transaction,
/// all or nothing, with the same rules as the data directory's (`CatalogImport`, `followAliases`).
public enum PostgresAdministration {
    /// Folds `list` into the catalog kept in PostgreSQL (else the starter catalog at
    /// `starterCatalogPath`), as `touchschool import` does into a data directory: ids stable,
    /// renames followed, scores under starter ids moved to their official ids. Servers take the
    /// new catalog up within seconds.
    public static func importList(_ list: OfficialSchoolList, force: Bool, url: String, starterCatalogPath: String?,
                                  logger: Logger = Logger(label: "touchschool.postgres")) async throws -> ImportReport {
        try await withClient(url: url, logger: logger) { client in
            try await client.withTransaction(logger: logger) { connection in
                // One import at a time; servers keep playing meanwhile.
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock + 1))", logger: logger)
                let current = try await currentCatalog(connection, starterCatalogPath: starterCatalogPath, logger: logger)
                if !force { try CatalogImport.check(current: current, official: list) }
                var scored: Set<String> = []
                for try await school in try await connection.query(
                    "SELECT school FROM touchschool_scores WHERE total > 0 UNION SELECT school FROM touchschool_devices WHERE school IS NOT NULL",
                    logger: logger).decode(String.self) {
                    scored.insert(school)
                }
                let merged = CatalogImport.merge(current: current, official: list) { scored.contains($0) }
                let bytes = CatalogFile.encode(merged.catalog)
                try await saveCatalog(bytes, edition: list.edition, on: connection, logger: logger)
                try await followAliases(merged.catalog.aliases, on: connection, logger: logger)
                return merged.report
            }
        }
    }

    /// Moves the scores, devices and players of an embedded server's data directory (its
    /// `battle.sqlite`, else its `state.json`) and its imported catalog, when PostgreSQL has none,
    /// into PostgreSQL, once: a second move, from any directory, is refused and changes nothing. Totals are added to what PostgreSQL holds.
    public static func moveDataDirectory(_ directory: String, url: String,
                                         logger: Logger = Logger(label: "touchschool.postgres")) async throws -> String {
        let (state, problems) = try DataDirectoryBattle.read(directory: directory)
        for case let .notRepaired(details) in problems {
            throw PostgresSetupError(message: "the scores in \(directory) need repair first (\(details.joined(separator: "; "))): "
                                     + "run `touchschool stats --data-dir \(directory)` or a server on it once")
        }
        let catalogPath = CatalogFile.importedCatalogPath(inDataDirectory: directory)
        let catalogBytes = FileIO.exists(catalogPath) ? try FileIO.read(catalogPath) : nil
        let catalog = try catalogBytes.map { try CatalogFile.decode(bytes: $0) }
        return try await withClient(url: url, logger: logger) { client in
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock + 1))", logger: logger)
                for try await (from, at) in try await connection.query(
                    "SELECT directory, moved_at::text FROM touchschool_moves", logger: logger).decode((String, String).self) {
                    throw PostgresSetupError(message: "the scores of \(from) were moved into this database at \(at); "
                                             + "a second move would count them twice. Nothing was changed.")
                }
                // The devices first, as a commit locks them, then the hot rows.
                let devices = state.devices.keys.sorted()
                if !devices.isEmpty {
                    let records = devices.map { state.devices[$0]! }
                    let players = devices.map { state.players[$0] ?? PlayerRecord() }
                    // A device PostgreSQL knows already keeps the record with the later batch.
                    try await connection.query("""
                        INSERT INTO touchschool_devices AS d (device, last_seq, last_end_ms, player, school, taps, best)
                        SELECT device, last_seq, last_end_ms, player, NULLIF(school, ''), taps, best
                        FROM unnest(\(devices)::text[], \(records.map { Int64(clamping: $0.lastSeq) })::bigint[],
                                    \(records.map(\.lastEndMs))::bigint[], \(records.map(\.player))::text[],
                                    \(players.map { $0.schoolID ?? "" })::text[], \(players.map { Int64(clamping: $0.taps) })::bigint[],
                                    \(players.map { Int32(clamping: $0.bestTapsPerSecond) })::int[])
                            AS u(device, last_seq, last_end_ms, player, school, taps, best)
                        ORDER BY device
                        ON CONFLICT (device) DO UPDATE SET last_seq = EXCLUDED.last_seq, last_end_ms = EXCLUDED.last_end_ms,
                            player = EXCLUDED.player, school = EXCLUDED.school, taps = EXCLUDED.taps, best = EXCLUDED.best
                        WHERE EXCLUDED.last_seq > d.last_seq
                        """, logger: logger)
                }
                if let catalogBytes, let catalog {
                    var imported = false
                    for try await _ in try await connection.query("SELECT 1 FROM touchschool_catalog", logger: logger).decode(Int32.self) {
                        imported = true
                    }
                    if !imported {
                        let edition: String? = if case let .official(edition) = catalog.source { edition } else { nil }
                        try await saveCatalog(catalogBytes, edition: edition, on: connection, logger: logger)
                    }
                }
                let scores = state.scores.filter { $0.value > 0 }
                try await addToTotals(scores, on: connection, logger: logger)
                let taps = scores.values.reduce(UInt64(0)) { $0.addingSaturating($1) }
                try await connection.query("""
                    INSERT INTO touchschool_moves (id, directory, schools, devices, taps)
                    VALUES (1, \(directory), \(Int32(clamping: scores.count)), \(Int32(clamping: devices.count)), \(String(taps))::numeric)
                    """, logger: logger)
                return "Moved \(scores.count) schools' scores (\(taps) taps) and \(devices.count) devices from \(directory) into PostgreSQL."
            }
        }
    }

    /// Adds `increments` to the schools' totals at a new board version: the hot rows, taken
    /// last in a transaction (the board's row, then the schools in id order, then a NOTIFY that
    /// PostgreSQL sends at COMMIT to wake the other servers' polls). The new totals at that
    /// version, or nil for nothing to add. `version`: the board's version already taken.
    @discardableResult
    static func addToTotals(_ increments: [String: UInt64], at version: Int64? = nil, on connection: PostgresConnection,
                            logger: Logger) async throws -> StoredBoard? {
        let sorted = increments.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        guard !sorted.isEmpty else { return nil }
        let version = if let version { version } else { try await nextBoardVersion(connection, logger: logger) }
        let rows = try await connection.query("""
            INSERT INTO touchschool_scores (school, total, version)
            SELECT s, t, \(version) FROM unnest(\(sorted.map(\.key))::text[], \(sorted.map { Int64(clamping: $0.value) })::bigint[]) AS u(s, t)
            ORDER BY s
            ON CONFLICT (school) DO UPDATE SET total = touchschool_scores.total + EXCLUDED.total, version = EXCLUDED.version
            RETURNING school, total
            """, logger: logger)
        var board = StoredBoard(version: UInt64(max(0, version)), scores: [:])
        for try await (school, total) in rows.decode((String, Int64).self) { board.scores[school] = UInt64(max(0, total)) }
        try await connection.query("SELECT pg_notify(\(PostgresBattleStore.notificationChannel), \(String(version)))", logger: logger)
        return board
    }

    static func nextBoardVersion(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        for try await version in try await connection.query(
            "UPDATE touchschool_board SET version = version + 1 WHERE id = 1 RETURNING version", logger: logger).decode(Int64.self) {
            return version
        }
        throw PostgresSetupError(message: "the board's row is missing")
    }

    /// Moves the totals kept under former ids to the ids they point to, as
    /// `StateStore.followAliases` does in a data directory: the former id's total becomes 0 (at
    /// a new version, so that every server's poll sees it) and is added to the target's.
    /// The board's row is taken first, as a commit takes it before the schools' rows.
    static func followAliases(_ aliases: [String: String], on connection: PostgresConnection, logger: Logger) async throws {
        guard !aliases.isEmpty else { return }
        let formerIDs = aliases.keys.sorted()
        var found = false
        for try await _ in try await connection.query("""
            SELECT 1 FROM touchschool_scores WHERE school = ANY(\(formerIDs)::text[]) AND total > 0 LIMIT 1
            """, logger: logger).decode(Int32.self) {
            found = true
        }
        guard found else { return }
        let version = try await nextBoardVersion(connection, logger: logger)
        var moved: [String: UInt64] = [:]
        for try await (school, total) in try await connection.query("""
            SELECT school, total FROM touchschool_scores WHERE school = ANY(\(formerIDs)::text[]) AND total > 0 ORDER BY school FOR UPDATE
            """, logger: logger).decode((String, Int64).self) {
            if let target = aliases[school] { moved[target, default: 0] += UInt64(max(0, total)) }
        }
        try await addToTotals(moved, at: version, on: connection, logger: logger)
        try await connection.query("""
            UPDATE touchschool_scores SET total = 0, version = \(version) WHERE school = ANY(\(formerIDs)::text[]) AND total > 0
            """, logger: logger)
    }

    static func saveCatalog(_ bytes: [UInt8], edition: String?, on connection: PostgresConnection, logger: Logger) async throws {
        let etag = "\"" + CatalogResource.hash(bytes) + "\""
        try await connection.query("""
            INSERT INTO touchschool_catalog (id, bytes, etag, edition) VALUES (1, \(ByteBuffer(bytes: bytes)), \(etag), \(edition))
            ON CONFLICT (id) DO UPDATE SET bytes = EXCLUDED.bytes, etag = EXCLUDED.etag, edition = EXCLUDED.edition, imported_at = now()
            """, logger: logger)
    }

    static func currentCatalog(_ connection: PostgresConnection, starterCatalogPath: String?, logger: Logger) async throws -> Catalog {
        for try await bytes in try await connection.query("SELECT bytes FROM touchschool_catalog WHERE id = 1", logger: logger).decode(ByteBuffer.self) {
            return try CatalogFile.decode(bytes: Array(bytes.readableBytesView))
        }
        guard let starterCatalogPath else { throw PostgresSetupError(message: "the starter catalog is missing from the installation") }
        return try CatalogFile.load(path: starterCatalogPath)
    }

    /// A client for one command: migrated first (a new database works at once), closed after.
    static func withClient<T: Sendable>(url: String, logger: Logger, _ body: @Sendable (PostgresClient) async throws -> T) async throws -> T {
        let client = PostgresClient(configuration: try PostgresSchema.configuration(url: url), backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do {
                try await PostgresSchema.prepare(client, url: url, logger: logger)
                return try await body(client)
            } catch let error as PostgresSetupError {
                throw error
            } catch let error as PostgresTransactionError where error.closureError is ImportRefusal {
                // Said by the command in the user's language.
                throw error.closureError!
            } catch {
                throw PostgresSetupError(message: "PostgreSQL at \(PostgresSchema.redacted(url)): \(PostgresSchema.describe(error))")
            }
        }
    }
}
