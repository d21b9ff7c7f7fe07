/// The tables of a server's battle in its data directory's `battle.sqlite`, made by numbered
/// migrations like PostgreSQL's (`PostgresSchema`); the file's `user_version` is the newest
/// applied, its `application_id` marks it as ours.
enum BattleDatabaseSchema {
    /// "TSCH", the same constant as PostgreSQL's advisory lock.
    static let applicationID: Int64 = 0x5453_4348

    /// Small pages write less: a compaction rewrites every page holding one of the devices it
    /// moves, spread over the tables, and a commit the pages of the totals it changed. At 2,000
    /// players a commit wrote 52 KiB with 1 KB pages against 62 KiB with 4 KB (BENCHMARKS.md,
    /// "Writes that follow what changed"); before `device_changes` (schema 4), when every commit
    /// rewrote its devices' pages, 110 KB with 1 KB pages, 152 KB with 2 KB and 194 KB with 4 KB.
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
        (2, """
            -- The taps each device had accepted for each school (what the totals got from it), and
            -- how many of them an operator took off again (a ban with removeTaps): taps - removed
            -- is what the device still counts for.
            CREATE TABLE device_school_taps (device TEXT NOT NULL, school TEXT NOT NULL,
                taps INTEGER NOT NULL CHECK (taps >= 0), removed INTEGER NOT NULL DEFAULT 0 CHECK (removed >= 0),
                PRIMARY KEY (device, school)) WITHOUT ROWID;
            -- Each device's tally for the operator (DeviceActivity): the public id (a hash of the
            -- key) the admin API names it by, taps accepted and refused in all and in one clock
            -- hour, the last addresses (newline-separated), and whether it is banned.
            CREATE TABLE device_activity (device TEXT PRIMARY KEY, public_id TEXT NOT NULL UNIQUE,
                accepted INTEGER NOT NULL, refused INTEGER NOT NULL, hour INTEGER NOT NULL,
                hour_accepted INTEGER NOT NULL, hour_refused INTEGER NOT NULL, addresses TEXT NOT NULL,
                banned INTEGER NOT NULL DEFAULT 0);
            -- Addresses whose new connections are refused.
            CREATE TABLE banned_addresses (address TEXT PRIMARY KEY) WITHOUT ROWID;
            """),
        (3, """
            -- What each device last played with (terminal, web, ssh; '' before a hello said), for
            -- the operator's list.
            ALTER TABLE device_activity ADD COLUMN client TEXT NOT NULL DEFAULT '';
            """),
        (4, """
            -- A commit appends the devices it changed here, one row each, instead of rewriting
            -- their rows in devices, device_activity and device_school_taps, which lie one page per
            -- device, spread over those tables: a window's rows here share pages (BENCHMARKS.md,
            -- "Writes that follow what changed"). A device's state is its rows in those tables with
            -- its rows here over them, the latest last. A compaction takes this table's rows aside
            -- into device_changes_compacting (the two swap names) and moves them into those tables
            -- a slice per commit (`BattleDatabase.Writing.compactIfDue`).
            -- The record's columns (last_seq to best) are NULL when the window left the device's
            -- record as it was, the tally's (public_id to client) when it left its tally; `added` is
            -- what the window added to the device's taps per school ("school=taps" lines).
            CREATE TABLE device_changes \(deviceChangesColumns);
            -- The rows of the compaction under way, empty when none is; emptied at its end in one
            -- statement, which frees its pages without writing them (a DELETE of some rows would
            -- rewrite every page it leaves: 3.4 MB for 20,000 rows).
            CREATE TABLE device_changes_compacting \(deviceChangesColumns);
            -- The tallies by device key, as devices and device_school_taps already are (WITHOUT
            -- ROWID): a slice of compaction moves devices in their keys' order, so that its rows in
            -- the three tables lie on a few neighbouring pages, not one page each at random.
            CREATE TABLE device_activity_by_key (device TEXT PRIMARY KEY, public_id TEXT NOT NULL UNIQUE,
                accepted INTEGER NOT NULL, refused INTEGER NOT NULL, hour INTEGER NOT NULL,
                hour_accepted INTEGER NOT NULL, hour_refused INTEGER NOT NULL, addresses TEXT NOT NULL,
                banned INTEGER NOT NULL DEFAULT 0, client TEXT NOT NULL DEFAULT '') WITHOUT ROWID;
            INSERT INTO device_activity_by_key (device, public_id, accepted, refused, hour, hour_accepted, hour_refused, addresses,
                banned, client)
                SELECT device, public_id, accepted, refused, hour, hour_accepted, hour_refused, addresses, banned, client
                FROM device_activity;
            DROP TABLE device_activity;
            ALTER TABLE device_activity_by_key RENAME TO device_activity;
            -- The compaction under way, if any (at most one row): the rows of
            -- device_changes_compacting of the devices whose keys sort at or before `moved_through`
            -- (byte order; NULL: none yet) are in the tables already, and are read as such.
            CREATE TABLE device_changes_compaction (id INTEGER PRIMARY KEY CHECK (id = 1), moved_through TEXT);
            """),
        (5, """
            -- The operator's rounds (`Round`), the newest the current one; its window is
            -- [starts_at_ms, ends_at_ms) in ms since 1970, ends_at_ms moved earlier by a stop.
            CREATE TABLE rounds (id INTEGER PRIMARY KEY, title TEXT, starts_at_ms INTEGER NOT NULL,
                ends_at_ms INTEGER NOT NULL CHECK (ends_at_ms >= starts_at_ms));
            -- What each round counted per device and school, added to by the commit that saved the
            -- batches (so once each), and when the count was last reached (ties are told apart by it).
            CREATE TABLE round_taps (round INTEGER NOT NULL, device TEXT NOT NULL, school TEXT NOT NULL,
                taps INTEGER NOT NULL CHECK (taps >= 0), reached_ms INTEGER NOT NULL,
                PRIMARY KEY (round, device, school)) WITHOUT ROWID;
            -- Who each counted device was in the round: its public id, its player's name and school
            -- as of its last counted batch.
            CREATE TABLE round_players (round INTEGER NOT NULL, device TEXT NOT NULL, public_id TEXT NOT NULL,
                player TEXT NOT NULL, school TEXT, PRIMARY KEY (round, device)) WITHOUT ROWID;
            """),
        (6, """
            -- A commit leaves scores as they are: its taps wait in the `added` of its rows of changes
            -- (counted = 0), and the compaction that moves those rows adds them to scores in its
            -- last slice, the whole compaction's at once (`BattleDatabase.Writing.compactIfDue`). A
            -- school's total is its row in scores plus the `added` of every row of changes with
            -- counted = 0 (those a slice already moved included). Each commit used to rewrite the
            -- page of every school it added to: with one school per player, most of what it wrote
            -- (BENCHMARKS.md, "Writes that follow what changed"). The rows appended before this
            -- version were added to scores by their own commits: counted = 1.
            ALTER TABLE device_changes ADD COLUMN counted INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE device_changes_compacting ADD COLUMN counted INTEGER NOT NULL DEFAULT 1;
            """),
        (7, """
            -- A row of changes names its device by a number (device_numbers) instead of its key:
            -- 43 bytes a row fewer, written by every commit for every device (BENCHMARKS.md, "Rows
            -- that leave out what did not change"). A device has its number from its first row.
            CREATE TABLE device_numbers (number INTEGER PRIMARY KEY, device TEXT NOT NULL UNIQUE);
            INSERT INTO device_numbers (device)
                SELECT device FROM device_changes_compacting UNION SELECT device FROM device_changes;
            -- And it leaves NULL the texts its device's earlier row in the same table has the same
            -- (player, school, public_id, addresses, client: `appendChange`): a row with a record
            -- has last_seq, one with a tally has accepted. A record's "no school" is '' (NULL being
            -- "as before"); the rows written before said it with NULL.
            \(numberedChanges("device_changes"))
            \(numberedChanges("device_changes_compacting"))
            """),
        (8, """
            -- The battle's settings, one row each: `season_length` (`SeasonLength`: none, week,
            -- month; no row: none), set by `serve --season` and read by every commit.
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
            -- Each season's school totals (`Season`: its length and number), beside all time in scores.
            CREATE TABLE season_scores (length TEXT NOT NULL, number INTEGER NOT NULL, school TEXT NOT NULL,
                total INTEGER NOT NULL CHECK (total >= 0), PRIMARY KEY (length, number, school)) WITHOUT ROWID;
            -- What each device counted in each season per school, added to by the commit that saved
            -- the batches (so once each): a ban with removeTaps takes exactly these off season_scores.
            CREATE TABLE season_players (length TEXT NOT NULL, number INTEGER NOT NULL, device TEXT NOT NULL,
                school TEXT NOT NULL, taps INTEGER NOT NULL CHECK (taps >= 0),
                PRIMARY KEY (length, number, device, school)) WITHOUT ROWID;
            -- The seasons whose hall of fame was taken: once each, by the first commit after the
            -- season's end and grace (`SeasonFame.due`).
            CREATE TABLE season_fame_taken (length TEXT NOT NULL, number INTEGER NOT NULL,
                PRIMARY KEY (length, number)) WITHOUT ROWID;
            -- Each season's hall (`SeasonFame`): per league (its level and province, '' for none,
            -- as `LeagueName` names it), the first three schools, their ranks and totals as taken.
            CREATE TABLE season_fame (length TEXT NOT NULL, number INTEGER NOT NULL, level TEXT NOT NULL,
                province TEXT NOT NULL, place INTEGER NOT NULL, rank INTEGER NOT NULL, school TEXT NOT NULL,
                total INTEGER NOT NULL, PRIMARY KEY (length, number, level, province, place)) WITHOUT ROWID;
            """),
    ]

    static var newest: Int64 { migrations.last!.version }

    /// The columns of `device_changes` and of `device_changes_compacting`, which swap names, as
    /// schema 4 made them (schema 6 adds `counted` to both, schema 7 numbers the device).
    private static let deviceChangesColumns = """
        (id INTEGER PRIMARY KEY, device TEXT NOT NULL,
            last_seq INTEGER CHECK (last_seq >= 0), last_end_ms INTEGER, player TEXT, school TEXT,
            taps INTEGER CHECK (taps >= 0), best INTEGER CHECK (best >= 0),
            public_id TEXT, accepted INTEGER, refused INTEGER, hour INTEGER, hour_accepted INTEGER,
            hour_refused INTEGER, addresses TEXT, client TEXT, added TEXT NOT NULL DEFAULT '')
        """

    /// Schema 7's `table` of changes: the same rows, the device a number, "no school" ''.
    private static func numberedChanges(_ table: String) -> String {
        """
        CREATE TABLE \(table)_numbered (id INTEGER PRIMARY KEY, device INTEGER NOT NULL,
            last_seq INTEGER CHECK (last_seq >= 0), last_end_ms INTEGER, player TEXT, school TEXT,
            taps INTEGER CHECK (taps >= 0), best INTEGER CHECK (best >= 0),
            public_id TEXT, accepted INTEGER, refused INTEGER, hour INTEGER, hour_accepted INTEGER,
            hour_refused INTEGER, addresses TEXT, client TEXT, added TEXT NOT NULL DEFAULT '', counted INTEGER NOT NULL);
        INSERT INTO \(table)_numbered (id, device, last_seq, last_end_ms, player, school, taps, best, public_id, accepted, refused,
                hour, hour_accepted, hour_refused, addresses, client, added, counted)
            SELECT c.id, n.number, c.last_seq, c.last_end_ms, c.player,
                CASE WHEN c.last_seq IS NOT NULL THEN coalesce(c.school, '') END, c.taps, c.best, c.public_id, c.accepted,
                c.refused, c.hour, c.hour_accepted, c.hour_refused, c.addresses, c.client, c.added, c.counted
            FROM \(table) c JOIN device_numbers n ON n.device = c.device;
        DROP TABLE \(table);
        ALTER TABLE \(table)_numbered RENAME TO \(table);
        """
    }
}
