import SQLiteNIO
import Workload

// The same windows through sqlite-nio: each statement a call through NIO's thread pool.
let directory = Workload.temporaryDirectory()
let connection: SQLiteConnection = try await SQLiteConnection.open(storage: .file(path: "\(directory)/battle.sqlite"))
for sql in ["PRAGMA page_size = 1024", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL",
            "CREATE TABLE board (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL CHECK (version >= 0))",
            "INSERT INTO board (id, version) VALUES (1, 0)",
            "CREATE TABLE scores (school TEXT PRIMARY KEY, total INTEGER NOT NULL CHECK (total >= 0)) WITHOUT ROWID",
            """
            CREATE TABLE devices (device TEXT PRIMARY KEY, last_seq INTEGER NOT NULL CHECK (last_seq >= 0),
                last_end_ms INTEGER NOT NULL, player TEXT NOT NULL, school TEXT,
                taps INTEGER NOT NULL CHECK (taps >= 0), best INTEGER NOT NULL CHECK (best >= 0)) WITHOUT ROWID
            """] {
    _ = try await connection.query(sql, []).get()
}
let upsertDevice = """
    INSERT INTO devices (device, last_seq, last_end_ms, player, school, taps, best) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
    ON CONFLICT (device) DO UPDATE SET last_seq = excluded.last_seq, last_end_ms = excluded.last_end_ms,
        player = excluded.player, school = excluded.school, taps = excluded.taps, best = excluded.best
    """
_ = try await connection.query("BEGIN IMMEDIATE", []).get()
for index in 0..<Workload.devices {
    _ = try await connection.query(upsertDevice, [.text(Workload.deviceKey(index)), .integer(1), .integer(1), .text("player \(index)"),
                                                  .text(Workload.school(ofDevice: index)), .integer(1), .integer(5)]).get()
}
_ = try await connection.query("COMMIT", []).get()
try await Workload.run("sqlite-nio 1.13.2") { number in
    _ = try await connection.query("BEGIN IMMEDIATE", []).get()
    var increments: [String: Int] = [:]
    for index in Workload.window(number) {
        let key = Workload.deviceKey(index)
        guard let row = try await connection.query("SELECT last_seq, last_end_ms, player, school, taps, best FROM devices WHERE device = ?1",
                                                   [.text(key)]).get().first,
              let lastSeq = row.column("last_seq")?.integer, let lastEnd = row.column("last_end_ms")?.integer,
              let taps = row.column("taps")?.integer, let best = row.column("best")?.integer else { fatalError("no device \(key)") }
        _ = try await connection.query(upsertDevice, [.text(key), .integer(lastSeq + 1), .integer(lastEnd + 1_000), row.column("player") ?? .null,
                                                      row.column("school") ?? .null, .integer(taps + 3), .integer(best)]).get()
        increments[Workload.school(ofDevice: index), default: 0] += 3
    }
    _ = try await connection.query("UPDATE board SET version = version + 1 WHERE id = 1 RETURNING version", []).get()
    for (school, taps) in increments {
        _ = try await connection.query("""
            INSERT INTO scores (school, total) VALUES (?1, ?2) ON CONFLICT (school) DO UPDATE SET total =
                CASE WHEN total > 9223372036854775807 - excluded.total THEN 9223372036854775807 ELSE total + excluded.total END
            RETURNING total
            """, [.text(school), .integer(taps)]).get()
    }
    _ = try await connection.query("COMMIT", []).get()
}
try await connection.close()
Workload.remove(directory)
