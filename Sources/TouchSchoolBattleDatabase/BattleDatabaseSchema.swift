/// The tables of a server's battle in its data directory's `battle.sqlite`, made by numbered
/// migrations like PostgreSQL's (`PostgresSchema`); the file's `user_version` is the newest
/// applied, its `application_id` marks it as ours.
enum BattleDatabaseSchema {
    /// "TSCH", the same constant as PostgreSQL's advisory lock.
    static let applicationID: Int64 = 0x5453_4348

    /// A commit rewrites every page holding one of its devices, and a window's devices are
    /// spread over the whole table: small pages write less. At 2,000 players a commit wrote
    /// 110 KB with 1 KB pages, 152 KB with 2 KB and 194 KB with SQLite's default 4 KB, at the
    /// same latency (BENCHMARKS.md, "The embedded database").
    static let pageSize = 1_024

    /// The migrations, in order; never edit one that was released: add the next.
    static let migrations: [(version: Int64, sql: String)] = [
        (1, """
            -- The board's version grows with every commit that changes a total (GET /v1/scores).
            CREATE TABLE board (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL CHECK (version >= 0));
            INSERT INTO board (id, version) VALUES (1, 0);
            -- Each school's total. WITHOUT ROWID: a row lives in its key's b-tree alone, so a commit
            -- rewrites one page per row changed, not two.
            CREATE TABLE scores (school TEXT PRIMARY KEY, total INTEGER NOT NULL CHECK (total >= 0)) WITHOUT ROWID;
            -- Each device's last applied batch (exactly once), its judge's last time, its player.
            CREATE TABLE devices (device TEXT PRIMARY KEY, last_seq INTEGER NOT NULL CHECK (last_seq >= 0),
                last_end_ms INTEGER NOT NULL, player TEXT NOT NULL, school TEXT,
                taps INTEGER NOT NULL CHECK (taps >= 0), best INTEGER NOT NULL CHECK (best >= 0)) WITHOUT ROWID;
            -- The data directory's state.json moved in when this database was made (at most one row).
            CREATE TABLE moves (source TEXT NOT NULL, schools INTEGER NOT NULL, devices INTEGER NOT NULL,
                taps INTEGER NOT NULL, moved_at TEXT NOT NULL);
            """),
    ]

    static var newest: Int64 { migrations.last!.version }
}
