import GRDB
import Workload

// The same windows through GRDB: cached statements, an immediate transaction per window.
let directory = Workload.temporaryDirectory()
var configuration = Configuration()
configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
let queue = try DatabaseQueue(path: "\(directory)/battle.sqlite", configuration: configuration)
try queue.writeWithoutTransaction { db in
    try db.execute(sql: "PRAGMA page_size = 1024")
    try db.execute(sql: "PRAGMA journal_mode = WAL")
    try db.execute(sql: """
        CREATE TABLE board (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL CHECK (version >= 0));
        INSERT INTO board (id, version) VALUES (1, 0);
        CREATE TABLE scores (school TEXT PRIMARY KEY, total INTEGER NOT NULL CHECK (total >= 0)) WITHOUT ROWID;
        CREATE TABLE devices (device TEXT PRIMARY KEY, last_seq INTEGER NOT NULL CHECK (last_seq >= 0),
            last_end_ms INTEGER NOT NULL, player TEXT NOT NULL, school TEXT,
            taps INTEGER NOT NULL CHECK (taps >= 0), best INTEGER NOT NULL CHECK (best >= 0)) WITHOUT ROWID;
        """)
}
let upsertDevice = """
    INSERT INTO devices (device, last_seq, last_end_ms, player, school, taps, best) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
    ON CONFLICT (device) DO UPDATE SET last_seq = excluded.last_seq, last_end_ms = excluded.last_end_ms,
        player = excluded.player, school = excluded.school, taps = excluded.taps, best = excluded.best
    """
try queue.write { db in
    for index in 0..<Workload.devices {
        try db.cachedStatement(sql: upsertDevice).execute(arguments: [Workload.deviceKey(index), 1, 1, "player \(index)",
                                                                      Workload.school(ofDevice: index), 1, 5])
    }
}
try Workload.run("GRDB.swift 7.10.0") { number in
    try queue.writeWithoutTransaction { db in
        try db.inTransaction(.immediate) {
            var increments: [String: Int64] = [:]
            for index in Workload.window(number) {
                let key = Workload.deviceKey(index)
                guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT last_seq, last_end_ms, player, school, taps, best FROM devices WHERE device = ?1"),
                                                 arguments: [key]) else { fatalError("no device \(key)") }
                let lastSeq: Int64 = row[0], lastEnd: Int64 = row[1], player: String = row[2], school: String? = row[3], taps: Int64 = row[4], best: Int64 = row[5]
                try db.cachedStatement(sql: upsertDevice).execute(arguments: [key, lastSeq + 1, lastEnd + 1_000, player, school, taps + 3, best])
                increments[Workload.school(ofDevice: index), default: 0] += 3
            }
            _ = try Int64.fetchOne(db.cachedStatement(sql: "UPDATE board SET version = version + 1 WHERE id = 1 RETURNING version"))
            for (school, taps) in increments {
                _ = try Int64.fetchOne(db.cachedStatement(sql: """
                    INSERT INTO scores (school, total) VALUES (?1, ?2) ON CONFLICT (school) DO UPDATE SET total =
                        CASE WHEN total > 9223372036854775807 - excluded.total THEN 9223372036854775807 ELSE total + excluded.total END
                    RETURNING total
                    """), arguments: [school, taps])
            }
            return .commit
        }
    }
}
Workload.remove(directory)
