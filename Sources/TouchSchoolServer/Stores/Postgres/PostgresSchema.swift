import Foundation
import Logging
import PostgresNIO

/// The tables the servers share in PostgreSQL, created and changed by numbered migrations at
/// every server's start. A transaction-scoped advisory lock lets one server at a time migrate:
/// servers starting together wait for the first, then find the schema current.
public enum PostgresSchema {
    /// What the catalog served is called when it was imported into the database.
    static let catalogSource = "PostgreSQL"
    /// The advisory lock's key (any constant of ours; "TSCH").
    static let migrationLock: Int64 = 0x5453_4348

    /// The migrations, in order; never edit one that was released: add the next.
    static let migrations: [(version: Int32, sql: [String])] = [
        (1, [
            // The board's version orders every change of the totals: one row, updated last.
            "CREATE TABLE touchschool_board (id int PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)",
            "INSERT INTO touchschool_board (id, version) VALUES (1, 0)",
            // Each school's total and the board version it last changed at (what a poll reads).
            """
            CREATE TABLE touchschool_scores (school text PRIMARY KEY, total bigint NOT NULL CHECK (total >= 0),
                version bigint NOT NULL)
            """,
            "CREATE INDEX touchschool_scores_by_version ON touchschool_scores (version)",
            // Each device's last applied batch (exactly once), its judge's last time, its player.
            """
            CREATE TABLE touchschool_devices (device text PRIMARY KEY, last_seq bigint NOT NULL DEFAULT 0,
                last_end_ms bigint NOT NULL DEFAULT 0, player text NOT NULL DEFAULT '', school text,
                taps bigint NOT NULL DEFAULT 0, best int NOT NULL DEFAULT 0)
            """,
            // The imported catalog file (`touchschool import --postgres`), served as it is.
            """
            CREATE TABLE touchschool_catalog (id int PRIMARY KEY CHECK (id = 1), bytes bytea NOT NULL,
                etag text NOT NULL, edition text, imported_at timestamptz NOT NULL DEFAULT now())
            """,
            // Data directories whose scores were moved in (`serve --from`): once each, and once at all.
            """
            CREATE TABLE touchschool_moves (id int PRIMARY KEY CHECK (id = 1), directory text NOT NULL,
                schools int NOT NULL, devices int NOT NULL, taps numeric NOT NULL,
                moved_at timestamptz NOT NULL DEFAULT now())
            """,
        ]),
        (2, [
            // The battle's identity, made once by the first server (clients keep their outbox
            // under it); pg_dump and a restore keep it, so a restored database is the same battle.
            "CREATE TABLE touchschool_battle (id int PRIMARY KEY CHECK (id = 1), battle text NOT NULL)",
            "INSERT INTO touchschool_battle (id, battle) VALUES (1, replace(gen_random_uuid()::text, '-', ''))",
        ]),
        (3, [
            // The taps each device had accepted for each school (what the totals got from it),
            // and how many an operator took off again (a ban with removeTaps).
            """
            CREATE TABLE touchschool_device_school_taps (device text NOT NULL, school text NOT NULL,
                taps bigint NOT NULL CHECK (taps >= 0), removed bigint NOT NULL DEFAULT 0 CHECK (removed >= 0),
                PRIMARY KEY (device, school))
            """,
            // Each device's tally for the operator (DeviceActivity), its public id (a hash of the
            // key) and its ban; written under the lock of the device's row, as its batches are.
            """
            CREATE TABLE touchschool_device_activity (device text PRIMARY KEY, public_id text NOT NULL UNIQUE,
                accepted bigint NOT NULL, refused bigint NOT NULL, hour bigint NOT NULL, hour_accepted bigint NOT NULL,
                hour_refused bigint NOT NULL, addresses text[] NOT NULL, banned boolean NOT NULL DEFAULT false)
            """,
            "CREATE TABLE touchschool_banned_addresses (address text PRIMARY KEY)",
        ]),
        (4, [
            // What each device last played with (terminal, web, ssh; '' before a hello said),
            // for the operator's list.
            "ALTER TABLE touchschool_device_activity ADD COLUMN client text NOT NULL DEFAULT ''",
        ]),
        (5, [
            // The operator's rounds (`Round`), the newest the current one; its window is
            // [starts_at_ms, ends_at_ms) in ms since 1970, ends_at_ms moved earlier by a stop. The
            // id comes from the identity's sequence: servers starting rounds at once never share one.
            """
            CREATE TABLE touchschool_rounds (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, title text,
                starts_at_ms bigint NOT NULL, ends_at_ms bigint NOT NULL CHECK (ends_at_ms >= starts_at_ms))
            """,
            // What each round counted per device and school, added to by the commit that saved the
            // batches (so once each, under the lock of the device's row), and when the count was
            // last reached (ties are told apart by it).
            """
            CREATE TABLE touchschool_round_taps (round bigint NOT NULL, device text NOT NULL, school text NOT NULL,
                taps bigint NOT NULL CHECK (taps >= 0), reached_ms bigint NOT NULL, PRIMARY KEY (round, device, school))
            """,
            // Who each counted device was in the round: its public id, its player's name and school
            // as of its last counted batch.
            """
            CREATE TABLE touchschool_round_players (round bigint NOT NULL, device text NOT NULL, public_id text NOT NULL,
                player text NOT NULL, school text, PRIMARY KEY (round, device))
            """,
        ]),
        (6, [
            // The battle's settings, one row each: `season_length` (`SeasonLength`: none, week,
            // month; no row: none), set by `serve --season` and read by every commit of every server.
            "CREATE TABLE touchschool_meta (key text PRIMARY KEY, value text NOT NULL)",
            // Each season's school totals (`Season`: its length and number), beside all time.
            """
            CREATE TABLE touchschool_season_scores (length text NOT NULL, number bigint NOT NULL, school text NOT NULL,
                total bigint NOT NULL CHECK (total >= 0), PRIMARY KEY (length, number, school))
            """,
            // What each device counted in each season per school, added to by the commit that saved
            // the batches (under the lock of the device's row, so once each): a ban with removeTaps
            // takes exactly these off the season's totals.
            """
            CREATE TABLE touchschool_season_players (length text NOT NULL, number bigint NOT NULL, device text NOT NULL,
                school text NOT NULL, taps bigint NOT NULL CHECK (taps >= 0), PRIMARY KEY (length, number, device, school))
            """,
            // The seasons whose hall of fame was taken: once each, by the first commit of any server
            // after the season's end and grace (`SeasonFame.due`); a second server's insert waits
            // for the first's transaction, then finds the row and takes nothing.
            "CREATE TABLE touchschool_season_fame_taken (length text NOT NULL, number bigint NOT NULL, PRIMARY KEY (length, number))",
            // Each season's hall (`SeasonFame`): per league (level and province, '' for none), the
            // first three schools, their ranks and totals as taken.
            """
            CREATE TABLE touchschool_season_fame (length text NOT NULL, number bigint NOT NULL, level text NOT NULL,
                province text NOT NULL, place int NOT NULL, rank int NOT NULL, school text NOT NULL, total bigint NOT NULL,
                PRIMARY KEY (length, number, level, province, place))
            """,
        ]),
    ]

    /// Brings the database's schema to the newest migration; refuses a database migrated by a
    /// newer release.
    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS touchschool_migrations (version int PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            var current: Int32 = 0
            for try await version in try await connection.query("SELECT coalesce(max(version), 0) FROM touchschool_migrations",
                                                                  logger: logger).decode(Int32.self) {
                current = version
            }
            let newest = migrations.last?.version ?? 0
            guard current <= newest else {
                throw PostgresSetupError(message: "the database's schema is version \(current), newer than this release knows (\(newest)): update touchschool")
            }
            for migration in migrations where migration.version > current {
                logger.info("Migrating the PostgreSQL schema", metadata: ["version": "\(migration.version)"])
                for statement in migration.sql {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO touchschool_migrations (version) VALUES (\(migration.version))", logger: logger)
            }
        }
    }

    /// What a PostgreSQL URL names (`postgres://user:password@host:port/database?sslmode=disable|prefer|require`).
    struct Target {
        var host: String
        var port: Int
        var user: String
        var password: String?
        var database: String?
        /// disable, prefer or require.
        var tls: String

        init(url: String) throws(PostgresSetupError) {
            guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
                  let user = components.user, !user.isEmpty else {
                throw PostgresSetupError(message: "\(redacted(url)) is not a PostgreSQL URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
            }
            let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
            switch mode {
            case "disable": tls = "disable"
            case "prefer", "allow": tls = "prefer"
            case "require", "verify-ca", "verify-full": tls = "require"
            default: throw PostgresSetupError(message: "sslmode=\(mode) is not one of disable, prefer, require")
            }
            host = components.host.map { $0.isEmpty ? "localhost" : $0 } ?? "localhost"
            port = components.port ?? 5432
            self.user = user
            password = components.password
            self.database = database.isEmpty ? nil : database
        }
    }

    /// A client for `url` (`postgres://user:password@host:port/database?sslmode=disable|prefer|require`).
    public static func configuration(url: String) throws(PostgresSetupError) -> PostgresClient.Configuration {
        let target = try Target(url: url)
        let tls: PostgresClient.Configuration.TLS = switch target.tls {
        case "disable": .disable
        case "require": .require(.makeClientConfiguration())
        default: .prefer(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(host: target.host, port: target.port, username: target.user,
                                                         password: target.password, database: target.database, tls: tls)
        // An unreachable database is noticed in seconds: batches wait, players are told "saving delayed".
        configuration.options.connectTimeout = .seconds(3)
        configuration.options.maximumConnections = 8
        return configuration
    }

    /// Connects once, on a connection of its own, and closes: a database that refuses, is not
    /// there, or refuses the user is said at once in PostgreSQL's words. The client's pool tries
    /// again and again in silence, so that a start waited its whole 15 s to say "no answer".
    static func checkConnecting(url: String, logger: Logger) async throws {
        let target = try Target(url: url)
        let tls: PostgresConnection.Configuration.TLS = switch target.tls {
        case "disable": .disable
        case "require": .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        default: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(host: target.host, port: target.port, username: target.user,
                                                             password: target.password, database: target.database, tls: tls)
        configuration.options.connectTimeout = .seconds(3)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        try? await connection.close()
    }

    /// Checks that the database answers (`checkConnecting`), then migrates it within 15 s.
    static func prepare(_ client: PostgresClient, url: String, logger: Logger) async throws {
        try await withTimeout(.seconds(15)) {
            try await checkConnecting(url: url, logger: logger)
            try await migrate(client, logger: logger)
        }
    }

    /// The URL without its password, for messages.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "…"
        return components.string ?? url
    }

    /// `body`, or an error once `limit` has passed (`body` is cancelled then).
    static func withTimeout<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw PostgresSetupError(message: "no answer within \(limit)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// PostgresNIO's errors hide the server's message from `description`: say what it said.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            // The socket's own reason: refused is the usual one (PostgreSQL not running, or on another port).
            if error.code == .connectionError, let underlying = error.underlying {
                let text = "\(underlying)"
                return text.contains("Connection refused") ? "connection refused (is PostgreSQL running there, on that port?)"
                    : "cannot connect: \(text)"
            }
            return "\(error.code)"
        }
        if let error = error as? PostgresTransactionError {
            if let closure = error.closureError { return describe(closure) }
            if let commit = error.commitError { return describe(commit) }
            if let begin = error.beginError { return describe(begin) }
        }
        return "\(error)"
    }
}

public struct PostgresSetupError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
