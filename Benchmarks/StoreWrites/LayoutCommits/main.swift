import SQLite3
import Workload

// Issue 25: which layout of battle.sqlite writes ≤ 64 KiB per commit at 2,000 players. The same
// windows as SystemSQLiteCommits, with everything the server's commit writes since the operator's
// tallies (migrations 2 and 3): each of the window's 100 devices has its row in `devices`, its
// tally in `device_activity` and its taps for its school in `device_school_taps`; then the
// schools' totals and the board's version. One layout per process (write_bytes is per process):
//
//   LayoutCommits tables PAGE_SIZE [AUTOCHECKPOINT]   the server's tables as they are (the schema
//                                                     of BattleDatabaseSchema 1–3)
//   LayoutCommits one-row PAGE_SIZE                   a device's row, tally and taps in one row
//   LayoutCommits changes PAGE_SIZE COMPACT_EVERY     the window's devices appended to a table,
//                                                     compacted into the tables every N commits
//
// `tables 1024` is what the server did before schema 4 (SystemSQLiteCommits runs the project's
// own statements as the server does now). The bytes include a checkpoint of what the WAL still
// holds at the end: it is written to the database later all the same.

/// The least of SQLite's C API: exec, and statements prepared once.
final class Database {
    let handle: OpaquePointer
    private var prepared: [String: OpaquePointer] = [:]

    init(path: String) {
        var opened: OpaquePointer?
        guard sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let opened else {
            fatalError("cannot open \(path)")
        }
        handle = opened
    }

    func execute(_ sql: String) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { fatalError("\(sql): \(String(cString: sqlite3_errmsg(handle)))") }
    }

    enum Value { case integer(Int64), text(String) }

    /// Runs `sql` with `values`; every row to `read`.
    func run(_ sql: String, _ values: Value..., read: (OpaquePointer) -> Void = { _ in }) {
        let statement: OpaquePointer
        if let cached = prepared[sql] { statement = cached } else {
            var raw: OpaquePointer?
            guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil) == SQLITE_OK, let raw else {
                fatalError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
            }
            prepared[sql] = raw
            statement = raw
        }
        defer { sqlite3_reset(statement) }
        for (index, value) in values.enumerated() {
            switch value {
            case let .integer(number): sqlite3_bind_int64(statement, Int32(index + 1), number)
            case let .text(text): sqlite3_bind_text(statement, Int32(index + 1), text, -1, sqlite3_transient())
            }
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { fatalError("\(sql): \(String(cString: sqlite3_errmsg(handle)))") }
            read(statement)
        }
    }

    func text(_ row: OpaquePointer, _ column: Int32) -> String { sqlite3_column_text(row, column).map { String(cString: $0) } ?? "" }
}

/// A device as the server keeps it: its record and player (`devices`), its tally
/// (`device_activity`), and the taps it added to its school since they were last written.
struct Device {
    var lastSeq: Int64 = 0, lastEndMs: Int64 = 0, player = "", school = "", taps: Int64 = 0, best: Int64 = 0
    var publicID = "", accepted: Int64 = 0, refused: Int64 = 0, hour: Int64 = 0, hourAccepted: Int64 = 0, hourRefused: Int64 = 0
    var addresses = "", client = ""

    /// One batch of 10 accepted taps a second later.
    mutating func play() {
        lastSeq += 1
        lastEndMs += 1_000
        taps += 10
        best = 10
        accepted += 10
        hourAccepted += 10
    }
}

let tapsPerBatch: Int64 = 10

func initial(_ index: Int) -> Device {
    Device(lastSeq: 1, lastEndMs: 1_764_000_000_000, player: "player \(index)", school: Workload.school(ofDevice: index), taps: 10,
           best: 10, publicID: String(String(UInt64(index + 7) &* 0xD6E8_FEB8_6659_FD93, radix: 16).suffix(24)),
           accepted: 10, refused: 0, hour: 490_000, hourAccepted: 10, hourRefused: 0, addresses: "127.0.0.1", client: "web")
}

/// BattleDatabaseSchema's migrations 1–3 as a server's database has them.
let schema = """
    CREATE TABLE board (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL CHECK (version >= 0));
    INSERT INTO board (id, version) VALUES (1, 0);
    CREATE TABLE scores (school TEXT PRIMARY KEY, total INTEGER NOT NULL CHECK (total >= 0)) WITHOUT ROWID;
    CREATE TABLE devices (device TEXT PRIMARY KEY, last_seq INTEGER NOT NULL CHECK (last_seq >= 0),
        last_end_ms INTEGER NOT NULL, player TEXT NOT NULL, school TEXT,
        taps INTEGER NOT NULL CHECK (taps >= 0), best INTEGER NOT NULL CHECK (best >= 0)) WITHOUT ROWID;
    CREATE TABLE device_school_taps (device TEXT NOT NULL, school TEXT NOT NULL,
        taps INTEGER NOT NULL CHECK (taps >= 0), removed INTEGER NOT NULL DEFAULT 0 CHECK (removed >= 0),
        PRIMARY KEY (device, school)) WITHOUT ROWID;
    CREATE TABLE device_activity (device TEXT PRIMARY KEY, public_id TEXT NOT NULL UNIQUE,
        accepted INTEGER NOT NULL, refused INTEGER NOT NULL, hour INTEGER NOT NULL,
        hour_accepted INTEGER NOT NULL, hour_refused INTEGER NOT NULL, addresses TEXT NOT NULL,
        banned INTEGER NOT NULL DEFAULT 0, client TEXT NOT NULL DEFAULT '');
    """

/// The statements of the server's commit for one device (BattleDatabase.Writing.save and
/// saveActivity): its row, its tally, and what it added to its school.
func writeTables(_ database: Database, _ key: String, _ device: Device, added: Int64) {
    database.run("""
        INSERT INTO devices (device, last_seq, last_end_ms, player, school, taps, best) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        ON CONFLICT (device) DO UPDATE SET last_seq = excluded.last_seq, last_end_ms = excluded.last_end_ms,
            player = excluded.player, school = excluded.school, taps = excluded.taps, best = excluded.best
        """, .text(key), .integer(device.lastSeq), .integer(device.lastEndMs), .text(device.player), .text(device.school),
        .integer(device.taps), .integer(device.best))
    database.run("""
        INSERT INTO device_activity (device, public_id, accepted, refused, hour, hour_accepted, hour_refused, addresses, client)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
        ON CONFLICT (device) DO UPDATE SET accepted = excluded.accepted, refused = excluded.refused, hour = excluded.hour,
            hour_accepted = excluded.hour_accepted, hour_refused = excluded.hour_refused, addresses = excluded.addresses,
            client = excluded.client
        """, .text(key), .text(device.publicID), .integer(device.accepted), .integer(device.refused), .integer(device.hour),
        .integer(device.hourAccepted), .integer(device.hourRefused), .text(device.addresses), .text(device.client))
    guard added > 0 else { return }
    database.run("""
        INSERT INTO device_school_taps (device, school, taps) VALUES (?1, ?2, ?3)
        ON CONFLICT (device, school) DO UPDATE SET taps = taps + excluded.taps
        """, .text(key), .text(device.school), .integer(added))
}

/// The server's reads of one device inside the commit (BattleDatabase.Writing.activity and device).
func readTables(_ database: Database, _ key: String) -> Device {
    var device = Device()
    database.run("SELECT accepted, refused, hour, hour_accepted, hour_refused, addresses, banned, client, public_id FROM device_activity WHERE device = ?1",
                 .text(key)) { row in
        device.accepted = sqlite3_column_int64(row, 0)
        device.refused = sqlite3_column_int64(row, 1)
        device.hour = sqlite3_column_int64(row, 2)
        device.hourAccepted = sqlite3_column_int64(row, 3)
        device.hourRefused = sqlite3_column_int64(row, 4)
        device.addresses = database.text(row, 5)
        device.client = database.text(row, 7)
        device.publicID = database.text(row, 8)
    }
    database.run("SELECT last_seq, last_end_ms, player, school, taps, best FROM devices WHERE device = ?1", .text(key)) { row in
        device.lastSeq = sqlite3_column_int64(row, 0)
        device.lastEndMs = sqlite3_column_int64(row, 1)
        device.player = database.text(row, 2)
        device.school = database.text(row, 3)
        device.taps = sqlite3_column_int64(row, 4)
        device.best = sqlite3_column_int64(row, 5)
    }
    return device
}

/// The totals and the board's version, last in every layout, as the server wrote them before schema 6.
func addToTotals(_ database: Database, _ increments: [String: Int64]) {
    database.run("UPDATE board SET version = version + 1 WHERE id = 1 RETURNING version")
    for (school, taps) in increments {
        database.run("""
            INSERT INTO scores (school, total) VALUES (?1, ?2) ON CONFLICT (school) DO UPDATE SET total =
                CASE WHEN total > 9223372036854775807 - excluded.total THEN 9223372036854775807 ELSE total + excluded.total END
            RETURNING total
            """, .text(school), .integer(taps))
    }
}

let arguments = CommandLine.arguments.dropFirst().map { $0 }
guard let layout = arguments.first else { fatalError("usage: LayoutCommits tables|one-row|changes PAGE_SIZE [...]") }
let directory = Workload.temporaryDirectory()
let database = Database(path: "\(directory)/battle.sqlite")
let pageSize = Int(arguments[1])!
database.execute("PRAGMA page_size = \(pageSize)")
database.execute("PRAGMA journal_mode = WAL")
database.execute("PRAGMA synchronous = FULL")
// Debian builds SQLite with SECURE_DELETE, which writes zeros over every page a delete frees: the
// emptied table of changes would be written once more. FAST zeros only what costs no more I/O.
database.execute("PRAGMA secure_delete = FAST")
if layout == "tables", arguments.count > 2 { database.execute("PRAGMA wal_autocheckpoint = \(arguments[2])") }
database.execute("BEGIN IMMEDIATE")
database.execute(schema)
if layout == "one-row" {
    // (b) All a device's columns in one row, its taps per school as text: a window rewrites one
    // page per device instead of three.
    database.execute("""
        CREATE TABLE wide_devices (device TEXT PRIMARY KEY, last_seq INTEGER NOT NULL, last_end_ms INTEGER NOT NULL,
            player TEXT NOT NULL, school TEXT, taps INTEGER NOT NULL, best INTEGER NOT NULL, public_id TEXT NOT NULL,
            accepted INTEGER NOT NULL, refused INTEGER NOT NULL, hour INTEGER NOT NULL, hour_accepted INTEGER NOT NULL,
            hour_refused INTEGER NOT NULL, addresses TEXT NOT NULL, client TEXT NOT NULL, school_taps TEXT NOT NULL) WITHOUT ROWID;
        """)
}
if layout == "changes" {
    // (a) The window's devices as they leave it, appended in commit order: the latest row of a
    // device is its state; `added` is what that window added to its school.
    database.execute("""
        CREATE TABLE device_changes (id INTEGER PRIMARY KEY, device TEXT NOT NULL, last_seq INTEGER NOT NULL,
            last_end_ms INTEGER NOT NULL, player TEXT NOT NULL, school TEXT, taps INTEGER NOT NULL, best INTEGER NOT NULL,
            public_id TEXT NOT NULL, accepted INTEGER NOT NULL, refused INTEGER NOT NULL, hour INTEGER NOT NULL,
            hour_accepted INTEGER NOT NULL, hour_refused INTEGER NOT NULL, addresses TEXT NOT NULL, client TEXT NOT NULL,
            added INTEGER NOT NULL);
        """)
}
var devices = (0..<Workload.devices).map(initial)
for index in 0..<Workload.devices {
    let key = Workload.deviceKey(index), device = devices[index]
    if layout == "one-row" {
        database.run("""
            INSERT INTO wide_devices VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
            """, .text(key), .integer(device.lastSeq), .integer(device.lastEndMs), .text(device.player), .text(device.school),
            .integer(device.taps), .integer(device.best), .text(device.publicID), .integer(device.accepted), .integer(0),
            .integer(device.hour), .integer(device.hourAccepted), .integer(0), .text(device.addresses), .text(device.client),
            .text("\(device.school)=\(device.taps)"))
    } else {
        writeTables(database, key, device, added: device.taps)
    }
}
addToTotals(database, Dictionary((0..<Workload.devices).map { (Workload.school(ofDevice: $0), Int64(10)) }, uniquingKeysWith: +))
database.execute("COMMIT")
database.execute("PRAGMA wal_checkpoint(TRUNCATE)")

/// (a)'s state beside `device_changes`, as the store keeps it in memory: each changed device's
/// latest state and the taps it added since the last compaction.
var changed: [String: (device: Device, added: Int64)] = [:]
let compactEvery = layout == "changes" ? Int(arguments[2])! : 0
var compactions: [Duration] = []

/// Moves the changes into the tables in one transaction and empties their table.
@MainActor func compact() {
    let started = ContinuousClock.now
    database.execute("BEGIN IMMEDIATE")
    for (key, entry) in changed.sorted(by: { $0.key < $1.key }) { writeTables(database, key, entry.device, added: entry.added) }
    database.execute("DELETE FROM device_changes")
    database.execute("COMMIT")
    changed = [:]
    compactions.append(ContinuousClock.now - started)
}

let label = layout == "changes" ? "changes appended, compacted every \(compactEvery) commits"
    : layout == "tables" ? "tables, checkpoint every \(arguments.count > 2 ? arguments[2] : "1000") pages" : "one row per device"
Workload.run("layout \(label), \(pageSize)-byte pages", finally: { database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }) { number in
    if layout == "changes", number > 0, number % compactEvery == 0 { compact() }
    database.execute("BEGIN IMMEDIATE")
    var increments: [String: Int64] = [:]
    for index in Workload.window(number) {
        let key = Workload.deviceKey(index)
        switch layout {
        case "tables":
            var device = readTables(database, key)
            precondition(device.lastSeq == devices[index].lastSeq, "\(key) read \(device.lastSeq), wrote \(devices[index].lastSeq)")
            device.play()
            writeTables(database, key, device, added: tapsPerBatch)
            devices[index] = device
        case "one-row":
            var device = Device(), schoolTaps = ""
            database.run("""
                SELECT last_seq, last_end_ms, player, school, taps, best, public_id, accepted, refused, hour, hour_accepted,
                    hour_refused, addresses, client, school_taps FROM wide_devices WHERE device = ?1
                """, .text(key)) { row in
                device = Device(lastSeq: sqlite3_column_int64(row, 0), lastEndMs: sqlite3_column_int64(row, 1), player: database.text(row, 2),
                                school: database.text(row, 3), taps: sqlite3_column_int64(row, 4), best: sqlite3_column_int64(row, 5),
                                publicID: database.text(row, 6), accepted: sqlite3_column_int64(row, 7),
                                refused: sqlite3_column_int64(row, 8), hour: sqlite3_column_int64(row, 9),
                                hourAccepted: sqlite3_column_int64(row, 10), hourRefused: sqlite3_column_int64(row, 11),
                                addresses: database.text(row, 12), client: database.text(row, 13))
                schoolTaps = database.text(row, 14)
            }
            precondition(device.lastSeq == devices[index].lastSeq)
            device.play()
            schoolTaps = "\(device.school)=\(Int64(schoolTaps.split(separator: "=").last ?? "0")! + tapsPerBatch)"
            database.run("""
                UPDATE wide_devices SET last_seq = ?2, last_end_ms = ?3, taps = ?4, best = ?5, accepted = ?6, hour_accepted = ?7,
                    school_taps = ?8 WHERE device = ?1
                """, .text(key), .integer(device.lastSeq), .integer(device.lastEndMs), .integer(device.taps), .integer(device.best),
                .integer(device.accepted), .integer(device.hourAccepted), .text(schoolTaps))
            devices[index] = device
        default:
            var device = changed[key]?.device ?? readTables(database, key)
            precondition(device.lastSeq == devices[index].lastSeq)
            device.play()
            database.run("""
                INSERT INTO device_changes (device, last_seq, last_end_ms, player, school, taps, best, public_id, accepted, refused, hour,
                    hour_accepted, hour_refused, addresses, client, added) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
                """, .text(key), .integer(device.lastSeq), .integer(device.lastEndMs), .text(device.player), .text(device.school),
                .integer(device.taps), .integer(device.best), .text(device.publicID), .integer(device.accepted), .integer(device.refused),
                .integer(device.hour), .integer(device.hourAccepted), .integer(device.hourRefused), .text(device.addresses),
                .text(device.client), .integer(tapsPerBatch))
            changed[key] = (device, (changed[key]?.added ?? 0) + tapsPerBatch)
            devices[index] = device
        }
        increments[Workload.school(ofDevice: index), default: 0] += tapsPerBatch
    }
    addToTotals(database, increments)
    database.execute("COMMIT")
}
if !compactions.isEmpty {
    let slowest = compactions.max()!
    print("  \(compactions.count) compactions, the slowest \(slowest.components.attoseconds / 1_000_000_000_000 + slowest.components.seconds * 1_000_000) µs")
}
Workload.remove(directory)
