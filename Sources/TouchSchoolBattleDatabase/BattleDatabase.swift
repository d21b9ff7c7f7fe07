#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite
import TouchSchoolCore
import TouchSchoolStore

/// A server's battle in its data directory: `battle.sqlite` (SQLite, in WAL mode), the one
/// place its scores, devices and players live. The server writes it (`write`), one transaction
/// per commit window with only the rows that changed; `rank`, `stats` and `search` read it
/// (`openForReading`). `battle.id` stays a file beside it (`BattleIdentityFile`).
///
/// Totals and counts are kept as SQLite's 64-bit signed integers: they stop at 2^63 − 1, as
/// PostgreSQL's `bigint` does.
public final class BattleDatabase {
    public static let fileName = "battle.sqlite"

    public static func path(inDataDirectory directory: String) -> String { "\(directory)/\(fileName)" }

    public let path: String
    let connection: SQLiteConnection
    /// The tables of changes as this connection knows them, read at their first use (`uncompactedDevices`).
    private var uncompacted: UncompactedDevices?

    /// How many rows `device_changes` may hold before the next commits compact it, a slice each
    /// (`Writing.compactIfDue`): at 2,000 players a window adds about 100 rows, so 20,000 starts a
    /// compaction every 10 s or so. Each compaction rewrites the pages of the devices it moves,
    /// once however often they played (BENCHMARKS.md, "Writes that follow what changed").
    public var compactionRows = 20_000

    private init(path: String, connection: SQLiteConnection) {
        self.path = path
        self.connection = connection
    }

    /// What the first start moved in from the directory's `state.json`.
    public struct Move: Equatable, Sendable {
        public var schools: Int
        public var devices: Int
        public var taps: UInt64
    }

    // MARK: - Opening

    /// The server's database, made at the first start: then the directory's `state.json`, if
    /// any, is moved in within the same transaction (its scores, devices and the devices'
    /// players) and recorded, and `state.json` is left as it was. A database that cannot be read
    /// is refused with the reason and left as it is.
    ///
    /// Every commit is durable before it returns: WAL with `synchronous=FULL` syncs the log at
    /// each commit.
    ///
    /// `battle`: the identity the directory's `battle.id` held before this start, if any. Such a
    /// battle has kept its scores here since its first start, so a database that is missing or
    /// empty (and no `state.json` to move in) is one that was lost: refused, changing nothing,
    /// rather than played on from zero with every score gone.
    public static func openForServer(dataDirectory directory: String,
                                     battle: String? = nil) throws(StoreError) -> (database: BattleDatabase, moved: Move?) {
        let path = path(inDataDirectory: directory)
        let isNew = !FileIO.exists(path)
        let lostIfEmpty = battle.map { battle in !FileIO.exists(StateStore(directory: directory).path) ? battle : nil } ?? nil
        if isNew, let battle = lostIfEmpty {
            throw StoreError(message: "cannot open the battle database \(path): it is missing, " + lost(battle: battle, directory: directory))
        }
        let database = try open(path, readOnly: false)
        let moved: Move?
        do throws(SQLiteError) {
            // Another process (a command reading) waits at most this long for the write lock.
            try database.connection.execute("PRAGMA busy_timeout = 10000")
            // Before anything is written (the log's mode is kept in the file): another
            // program's file stays as it was.
            if try database.checkOwnership() == 0, let battle = lostIfEmpty {
                throw SQLiteError(code: 0, message: "it is empty, " + lost(battle: battle, directory: directory))
            }
            // Takes effect only on a database being made.
            try database.connection.execute("PRAGMA page_size = \(BattleDatabaseSchema.pageSize)")
            try database.connection.execute("PRAGMA journal_mode = WAL")
            try database.connection.execute("PRAGMA synchronous = FULL")
            // Debian builds SQLite with SECURE_DELETE, which writes zeros over every page a delete
            // frees: each compaction's emptied `device_changes` would be written once more (7 MB
            // instead of 1.3 MB at 2,000 players). FAST zeros only what costs no more I/O.
            try database.connection.execute("PRAGMA secure_delete = FAST")
            moved = try database.connection.transaction(immediate: true) { () throws(SQLiteError) -> Move? in
                let version = try database.checkOwnership()
                guard version < BattleDatabaseSchema.newest else { return nil }
                try database.migrate()
                return version == 0 ? try database.moveIn(from: directory) : nil
            }
        } catch {
            throw database.failure("cannot open", error)
        }
        // A file made now is named in the directory durably too.
        if isNew { syncDirectory(directory) }
        return (database, moved)
    }

    /// Why a missing or empty database is refused, and the operator's two ways on.
    private static func lost(battle: String, directory: String) -> String {
        "but \(BattleIdentityFile.path(inDataDirectory: directory)) says this directory holds battle \(battle), whose scores were "
            + "kept there: restore \(fileName) from a backup (docs/operations.md, \"Backups\"), or, to begin a new battle here, "
            + "move \(BattleIdentityFile.fileName) away (players' waiting taps stay with the old battle)"
    }

    /// The database for a command that only reads (`rank`, `stats`, `search`, a move into
    /// PostgreSQL); nil when the directory has none, or only one whose making did not finish.
    /// Nothing is written.
    public static func openForReading(dataDirectory directory: String) throws(StoreError) -> BattleDatabase? {
        let path = path(inDataDirectory: directory)
        guard FileIO.exists(path) else { return nil }
        let database = try open(path, readOnly: true)
        do throws(SQLiteError) {
            try database.connection.execute("PRAGMA busy_timeout = 10000")
            // 0: made by a server whose first start did not finish; the battle is still in state.json.
            guard try database.checkOwnership() > 0 else { return nil }
        } catch {
            throw database.failure("cannot read", error)
        }
        return database
    }

    private static func open(_ path: String, readOnly: Bool) throws(StoreError) -> BattleDatabase {
        do {
            return BattleDatabase(path: path, connection: try SQLiteConnection(path: path, readOnly: readOnly, create: !readOnly))
        } catch {
            throw StoreError(message: "cannot open the battle database \(path): \(error.message)")
        }
    }

    /// The schema version of a database of ours (0: a new, empty file); refuses another
    /// program's file and one made by a newer release.
    private func checkOwnership() throws(SQLiteError) -> Int64 {
        let application = try single("PRAGMA application_id")
        let version = try single("PRAGMA user_version")
        if application == 0 && version == 0 {
            guard try single("SELECT count(*) FROM sqlite_schema") == 0 else {
                throw SQLiteError(code: 0, message: "it holds tables of another program, not a TouchSchool battle")
            }
            return 0
        }
        guard application == BattleDatabaseSchema.applicationID else {
            throw SQLiteError(code: 0, message: "it is another program's database (application id \(application)), not a TouchSchool battle")
        }
        guard version <= BattleDatabaseSchema.newest else {
            throw SQLiteError(code: 0, message: "it was made by a newer release (schema \(version); this one knows up to \(BattleDatabaseSchema.newest))")
        }
        return version
    }

    /// Applies the migrations not yet applied (inside the caller's transaction).
    private func migrate() throws(SQLiteError) {
        let current = try single("PRAGMA user_version")
        for migration in BattleDatabaseSchema.migrations where migration.version > current {
            try connection.execute(migration.sql)
            try connection.execute("PRAGMA user_version = \(migration.version)")
        }
        try connection.execute("PRAGMA application_id = \(BattleDatabaseSchema.applicationID)")
    }

    /// Moves `state.json` in (inside the creating transaction); nil when there is none.
    private func moveIn(from directory: String) throws(SQLiteError) -> Move? {
        let store = StateStore(directory: directory)
        guard FileIO.exists(store.path) else { return nil }
        let state: SavedState
        do throws(StoreError) {
            let (read, problems) = try store.read()
            for case let .notRepaired(details) in problems {
                throw StoreError(message: "\(store.path) needs repair before it can move in (\(details.joined(separator: "; "))): "
                                 + "play one local game on this directory (its first save repairs the file and keeps a copy), then start the server again")
            }
            state = read
        } catch {
            throw SQLiteError(code: 0, message: error.message)
        }
        // Into the device tables themselves: the database is being made, `device_changes` is empty.
        let write = Writing(connection: connection, uncompacted: UncompactedDevices(), compactionRows: compactionRows)
        for (device, record) in state.devices {
            try write.save(device: device, record: record, player: state.players[device] ?? PlayerRecord())
        }
        let scores = state.scores.filter { $0.value > 0 }
        for (school, total) in scores {
            try connection.statement("INSERT INTO scores (school, total) VALUES (?1, ?2)").bind(.text(school), .integer(Int64(clamping: total))).run()
        }
        try connection.statement("UPDATE board SET version = ?1").bind(.integer(Int64(clamping: state.boardVersion))).run()
        let taps = scores.values.reduce(UInt64(0)) { $0.addingSaturating($1) }
        try connection.statement("""
            INSERT INTO moves (source, schools, devices, taps, moved_at) VALUES (?1, ?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
            """).bind(.text(store.path), .integer(Int64(scores.count)), .integer(Int64(state.devices.count)),
                      .integer(Int64(clamping: taps))).run()
        return Move(schools: scores.count, devices: state.devices.count, taps: taps)
    }

    // MARK: - Reading

    /// The whole battle as a `SavedState`: scores, devices, and the devices' players keyed by
    /// device key (as a server's `state.json` keeps them).
    public func savedState() throws(StoreError) -> SavedState {
        do {
            return try connection.transaction(immediate: false) { () throws(SQLiteError) -> SavedState in
                var state = SavedState()
                // Read in this transaction, not from `uncompacted`: a reading command's connection
                // sees what the server committed since.
                let changes = try UncompactedDevices.read(connection)
                let board = try readBoard(changes)
                state.scores = board.scores
                state.boardVersion = board.version
                let rows = try connection.statement("SELECT device, last_seq, last_end_ms, player, school, taps, best FROM devices")
                while try rows.step() {
                    let device = rows.text(0) ?? ""
                    let (record, player) = Self.device(rows, from: 1)
                    state.devices[device] = record
                    state.players[device] = player
                }
                for (device, change) in changes.devices {
                    guard let record = change.record else { continue }
                    state.devices[device] = record
                    state.players[device] = change.player ?? PlayerRecord()
                }
                return state
            }
        } catch {
            throw failure("cannot read", error)
        }
    }

    /// The board: its version and every school's total above 0.
    public func board() throws(StoreError) -> (version: UInt64, scores: [String: UInt64]) {
        do {
            return try connection.transaction(immediate: false) { () throws(SQLiteError) in
                try readBoard(try UncompactedDevices.read(connection))
            }
        } catch {
            throw failure("cannot read", error)
        }
    }

    /// `scores` with what the rows of changes (`changes`, read in the same transaction) add.
    private func readBoard(_ changes: UncompactedDevices) throws(SQLiteError) -> (version: UInt64, scores: [String: UInt64]) {
        let version = try single("SELECT version FROM board WHERE id = 1")
        var scores = changes.pendingTotals.filter { $0.value > 0 }
        let rows = try connection.statement("SELECT school, total FROM scores WHERE total > 0")
        while try rows.step() {
            let school = rows.text(0) ?? ""
            scores[school] = UInt64(max(0, rows.int64(1))).addingSaturating(scores[school] ?? 0)
        }
        return (UInt64(max(0, version)), scores)
    }

    /// A device's record and its player, nil for a device never seen.
    public func device(_ key: String) throws(StoreError) -> (DeviceRecord, PlayerRecord)? {
        do {
            return try connection.transaction(immediate: false) { () throws(SQLiteError) in
                try Writing(connection: connection, uncompacted: try uncompactedDevices(), compactionRows: compactionRows).device(key)
            }
        } catch {
            throw failure("cannot read", error)
        }
    }

    /// Whether the operator banned `address`: a read, beside any writer (WAL).
    public func isAddressBanned(_ address: String) throws(StoreError) -> Bool {
        do { return try Self.isAddressBanned(address, connection) } catch {
            throw failure("cannot read", error)
        }
    }

    /// How many devices the battle holds.
    public func deviceCount() throws(StoreError) -> Int {
        do {
            return Int(try single("""
                SELECT count(*) FROM (SELECT device FROM devices UNION SELECT device FROM device_numbers WHERE number IN
                    (SELECT device FROM device_changes WHERE last_seq IS NOT NULL
                        UNION SELECT device FROM device_changes_compacting WHERE last_seq IS NOT NULL))
                """))
        } catch {
            throw failure("cannot read", error)
        }
    }

    // MARK: - Writing

    /// `body` in one transaction, durable when this returns; nothing of it is kept when it throws.
    public func write<T>(_ body: (Writing) throws(SQLiteError) -> T) throws(StoreError) -> T {
        do {
            return try connection.transaction(immediate: true) { () throws(SQLiteError) -> T in
                try body(Writing(connection: connection, uncompacted: try uncompactedDevices(), compactionRows: compactionRows))
            }
        } catch {
            // The transaction changed `uncompacted` as it went: read it again from what was kept.
            uncompacted = nil
            throw failure("cannot save to", error)
        }
    }

    /// The tables of changes as this connection knows them: read in the caller's transaction the first
    /// time, then kept up by the transactions of `write` (the server's is the only connection
    /// that writes).
    private func uncompactedDevices() throws(SQLiteError) -> UncompactedDevices {
        if let uncompacted { return uncompacted }
        let read = try UncompactedDevices.read(connection)
        uncompacted = read
        return read
    }

    /// The changes of one transaction (`write`).
    public struct Writing {
        let connection: SQLiteConnection
        /// `device_changes` as this transaction leaves it so far.
        let uncompacted: UncompactedDevices
        let compactionRows: Int

        /// A device's record and player, nil for a device never seen.
        public func device(_ key: String) throws(SQLiteError) -> (DeviceRecord, PlayerRecord)? {
            if let change = changed(key), let record = change.record { return (record, change.player ?? PlayerRecord()) }
            return try connection.statement("SELECT last_seq, last_end_ms, player, school, taps, best FROM devices WHERE device = ?1")
                .bind(.text(key)).row { BattleDatabase.device($0, from: 0) }
        }

        /// Saves a device's record and its player (made or replaced).
        public func save(device key: String, record: DeviceRecord, player: PlayerRecord) throws(SQLiteError) {
            try connection.statement("""
                INSERT INTO devices (device, last_seq, last_end_ms, player, school, taps, best) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                ON CONFLICT (device) DO UPDATE SET last_seq = excluded.last_seq, last_end_ms = excluded.last_end_ms,
                    player = excluded.player, school = excluded.school, taps = excluded.taps, best = excluded.best
                """).bind(.text(key), .integer(Int64(clamping: record.lastSeq)), .integer(record.lastEndMs), .text(record.player),
                          player.schoolID.map { .text($0) } ?? .null, .integer(Int64(clamping: player.taps)),
                          .integer(Int64(max(0, player.bestTapsPerSecond)))).run()
        }

        /// The board's next version and the totals of `schools` at it, as the changes appended
        /// in this transaction (`appendChange`) leave them, nil when `schools` is empty. Nothing
        /// is written but the version: the taps are in the rows of changes until a compaction.
        public func newBoard(changing schools: some Collection<String>) throws(SQLiteError) -> (version: UInt64, scores: [String: UInt64])? {
            guard !schools.isEmpty else { return nil }
            let version = try nextBoardVersion()
            var totals: [String: UInt64] = [:]
            for school in schools {
                let stored = try connection.statement("SELECT total FROM scores WHERE school = ?1").bind(.text(school))
                    .row { UInt64(max(0, $0.int64(0))) } ?? 0
                totals[school] = stored.addingSaturating(uncompacted.pending(school))
            }
            return (version, totals)
        }

        /// Adds `increments` to the schools' rows in `scores` (saturating): the new values.
        @discardableResult
        func addToScores(_ increments: [String: UInt64]) throws(SQLiteError) -> [String: UInt64] {
            var totals: [String: UInt64] = [:]
            for (school, taps) in increments.sorted(by: { $0.key < $1.key }) where taps > 0 {
                totals[school] = try connection.statement("""
                    INSERT INTO scores (school, total) VALUES (?1, ?2) ON CONFLICT (school) DO UPDATE SET total =
                        CASE WHEN total > 9223372036854775807 - excluded.total THEN 9223372036854775807 ELSE total + excluded.total END
                    RETURNING total
                    """).bind(.text(school), .integer(Int64(clamping: taps))).row { UInt64(max(0, $0.int64(0))) }
            }
            return totals
        }

        /// Moves the totals kept under former ids to the ids they point to, as
        /// `StateStore.followAliases` does in `state.json`: the former id's row goes and its
        /// taps are added to the target's; players who chose a former id now have its target.
        /// The changed totals (0 for a former id) at a new board version, nil when no former id
        /// had a total.
        public func followAliases(_ aliases: [String: String]) throws(SQLiteError) -> (version: UInt64, scores: [String: UInt64])? {
            guard !aliases.isEmpty else { return nil }
            // The players' schools are changed where they lie: in the tables alone.
            try compact()
            var moved: [String: UInt64] = [:]
            var removed: [String] = []
            for (former, target) in aliases.sorted(by: { $0.key < $1.key }) {
                guard let total = try connection.statement("DELETE FROM scores WHERE school = ?1 RETURNING total").bind(.text(former))
                    .row({ UInt64(max(0, $0.int64(0))) }) else { continue }
                moved[target, default: 0] = moved[target, default: 0].addingSaturating(total)
                removed.append(former)
            }
            // The players' schools: one pass over the devices that chose one (no index on school).
            let chosen = try connection.statement("SELECT device, school FROM devices WHERE school IS NOT NULL")
                .rows { row in (row.text(0) ?? "", row.text(1) ?? "") }
            for (device, school) in chosen {
                guard let target = aliases[school] else { continue }
                try connection.statement("UPDATE devices SET school = ?2 WHERE device = ?1").bind(.text(device), .text(target)).run()
            }
            guard !removed.isEmpty else { return nil }
            // Compacted above: `scores` holds every tap.
            var board = (version: try nextBoardVersion(), scores: try addToScores(moved))
            for former in removed { board.scores[former] = 0 }
            return board
        }

        func nextBoardVersion() throws(SQLiteError) -> UInt64 {
            guard let version = try connection.statement("UPDATE board SET version = version + 1 WHERE id = 1 RETURNING version")
                .row({ $0.int64(0) }) else { throw SQLiteError(code: 0, message: "the board's row is missing") }
            return UInt64(max(0, version))
        }
    }

    // MARK: - Plumbing

    /// A device's columns from `first` on: last_seq, last_end_ms, player, school, taps, best.
    static func device(_ row: SQLiteStatement, from first: Int32) -> (DeviceRecord, PlayerRecord) {
        (DeviceRecord(lastSeq: UInt64(max(0, row.int64(first))), player: row.text(first + 2) ?? "", lastEndMs: row.int64(first + 1)),
         PlayerRecord(schoolID: row.text(first + 3), taps: UInt64(max(0, row.int64(first + 4))),
                      bestTapsPerSecond: Int(clamping: row.int64(first + 5))))
    }

    private func single(_ sql: String) throws(SQLiteError) -> Int64 {
        guard let value = try connection.statement(sql).row({ $0.int64(0) }) else {
            throw SQLiteError(code: 0, message: "\(sql) returned nothing")
        }
        return value
    }

    private func failure(_ what: String, _ error: SQLiteError) -> StoreError {
        var message = "\(what) the battle database \(path): \(error.message)"
        if error.code == SQLITE_CORRUPT || error.code == SQLITE_NOTADB {
            message += ". It is left as it is: restore it from a backup (docs/operations.md)"
        }
        return StoreError(message: message)
    }

    /// Syncs `directory` so that a file just made in it survives a power cut.
    private static func syncDirectory(_ directory: String) {
        let descriptor = Glibc.open(directory, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
