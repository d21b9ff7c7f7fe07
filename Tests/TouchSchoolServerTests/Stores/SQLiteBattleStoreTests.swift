import Foundation
import Glibc
import Testing
import TouchSchoolTestSupport
// The migrations as released (`BattleDatabaseSchema`): a database made by the previous schema.
@testable import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// What only the data directory's database does: the move of `state.json` at the first start,
/// the refusal of a database it cannot read, the migration of an earlier schema, and the
/// compaction of `device_changes` through kill -9.
@Suite(.onOwnThreads, .tags(.process)) struct SQLiteBattleStoreTests {
    static let device = "q3R-device-key-of-a-server-player"

    /// A server's `state.json` as an earlier release left it: two schools, a local player and a
    /// device with its player.
    static func writeStateJSON(in directory: String) throws {
        _ = try StateStore(directory: directory).change { state in
            state.scores = ["A": 10, "B": 3, "C": 0]
            state.players["alice"] = PlayerRecord(schoolID: "B", taps: 3, bestTapsPerSecond: 4)
            state.players[device] = PlayerRecord(schoolID: "A", taps: 10, bestTapsPerSecond: 6)
            state.devices[device] = DeviceRecord(lastSeq: 4, player: "민지", lastEndMs: 1_795_000_000_000)
            state.boardVersion = 9
            return true
        }
    }

    /// A `battle.sqlite` as the release of schema `version` made it (its migrations, run by
    /// the sqlite3 shell), then `rows`.
    static func makeDatabase(_ path: String, schema version: Int64, _ rows: String) throws {
        let migrations = BattleDatabaseSchema.migrations.filter { $0.version <= version }.map(\.sql).joined(separator: "\n")
        try sqlite3(path, "PRAGMA page_size = 1024; PRAGMA journal_mode = WAL;" + migrations + """
            PRAGMA user_version = \(version); PRAGMA application_id = \(BattleDatabaseSchema.applicationID);
            \(rows)
            """)
    }

    @Test func theFirstStartMovesStateJSONInOnceAndLeavesItAsItWas() throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeStateJSON(in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/state.json"))

        let store = try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil)
        #expect(store.moved.map { [$0.schools, $0.devices, Int($0.taps)] } == [2, 1, 13])
        let database = try #require(try BattleDatabase.openForReading(dataDirectory: directory))
        let moved = try database.savedState()
        #expect(moved.scores == ["A": 10, "B": 3])
        #expect(moved.boardVersion == 9)
        #expect(moved.devices == [Self.device: DeviceRecord(lastSeq: 4, player: "민지", lastEndMs: 1_795_000_000_000)])
        #expect(moved.players == [Self.device: PlayerRecord(schoolID: "A", taps: 10, bestTapsPerSecond: 6)], "a local player is not the server's")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/state.json")) == before)

        // A local game saves into state.json afterwards: the next start does not move it again.
        _ = try StateStore(directory: directory).sync(PendingChanges(player: "alice", scoreDeltas: ["B": 100], playerTaps: 100))
        let again = try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil)
        #expect(again.moved == nil)
        #expect(try BattleDatabase.openForReading(dataDirectory: directory)?.savedState().scores == ["A": 10, "B": 3])
        let record = try sqlite3Output(BattleDatabase.path(inDataDirectory: directory), "SELECT source, schools, devices, taps FROM moves")
        #expect(record == "\(directory)/state.json|2|1|13")
    }

    @Test func aStateJSONThatNeedsRepairIsNotMovedAndNothingIsMade() throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let broken = Array(#"{"format": "touchschool-state", "version": 1, "scores": {"A": -5}, "players": {}}"#.utf8)
        try Data(broken).write(to: URL(fileURLWithPath: "\(directory)/state.json"))

        #expect { try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil) } throws: { error in
            "\(error)".contains("state.json needs repair before it can move in")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/state.json")) == Data(broken))
        #expect(try BattleDatabase.openForReading(dataDirectory: directory) == nil, "no battle in the database: state.json is still the one")
    }

    /// Each refused with its reason, the file left byte for byte as it was.
    @Test(arguments: [
        ("not a database", "file is not a database"),
        ("another program's", "another program"),
        ("a newer release's", "made by a newer release"),
    ])
    func aDatabaseItCannotReadIsRefusedAndLeftAsItIs(_ kind: String, _ reason: String) throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = BattleDatabase.path(inDataDirectory: directory)
        switch kind {
        case "not a database": try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        case "another program's": try sqlite3(path, "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        default:
            _ = try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil)
            try sqlite3(path, "PRAGMA user_version = 99")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        #expect { try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil) } throws: { error in
            "\(error)".contains(reason) && "\(error)".contains(path)
        }
        #expect { try BattleDatabase.openForReading(dataDirectory: directory) } throws: { "\($0)".contains(reason) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// A server's `battle.sqlite` as the release before `device_changes` made it (schema 3), with
    /// a device, its tally and its taps per school: the next start moves it to schema 4 and on
    /// (5: rounds, 8: seasons, none set) losing nothing, and play goes on from its numbers.
    @Test func aDatabaseOfThePreviousSchemaMovesForwardLosingNothing() async throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = BattleDatabase.path(inDataDirectory: directory)
        #expect(BattleDatabaseSchema.newest == 8, "this test makes schema 3, the one before device_changes")
        try Self.makeDatabase(path, schema: 3, """
            INSERT INTO scores (school, total) VALUES ('A', 10), ('B', 3);
            UPDATE board SET version = 9;
            INSERT INTO devices VALUES ('\(Self.device)', 4, 1795000000000, '민지', 'A', 10, 6);
            INSERT INTO device_activity (device, public_id, accepted, refused, hour, hour_accepted, hour_refused, addresses, client)
                VALUES ('\(Self.device)', 'p1', 10, 1, 7, 0, 0, '10.0.0.1', 'web');
            INSERT INTO device_school_taps (device, school, taps) VALUES ('\(Self.device)', 'A', 10);
            """)

        let store = try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil)
        #expect(try sqlite3Output(path, "PRAGMA user_version") == "\(BattleDatabaseSchema.newest)")
        #expect(try await store.board() == StoredBoard(version: 9, scores: ["A": 10, "B": 3]))
        #expect(try await store.seasonLength() == .none)
        let (record, player) = try #require(try await store.device(Self.device))
        #expect(record == DeviceRecord(lastSeq: 4, player: "민지", lastEndMs: 1_795_000_000_000))
        #expect(player == PlayerRecord(schoolID: "A", taps: 10, bestTapsPerSecond: 6))
        let listed = try await store.devices(top: 5, nowMs: 0)
        #expect(listed.map(\.publicID) == ["p1"] && listed.first?.activity.accepted == 10)

        // Its batch 4 again counts nothing; 5 counts, into device_changes.
        func batch(_ seq: UInt64) -> ReceivedBatch {
            let start: Int64 = 1_795_000_000_000 + Int64(seq) * 100
            let taps = TapBatch(seq: seq, taps: ["A": 2], playerTaps: 2, switchedToSchool: nil, bestTapsPerSecond: 6,
                                startMs: start, endMs: start + 100)
            return ReceivedBatch(connection: 1, device: Self.device, player: "민지", batch: taps, address: "10.0.0.1", network: "10.0.0.1",
                                 client: nil)
        }
        let window = try await store.commit([batch(4), batch(5)], histories: TapJudges(addresses: .standard), catalog: storeTestCatalog,
                                            nowMs: 1_795_000_001_000)
        #expect(BattleStoreTests.accepted(window) == [0, 2])
        #expect(try sqlite3Output(path, "SELECT count(*) FROM device_changes") == "1")
        // The commit left scores as they were: its taps count from its row of changes.
        #expect(try sqlite3Output(path, "SELECT total FROM scores WHERE school = 'A'") == "10")
        let read = try #require(try BattleDatabase.openForReading(dataDirectory: directory)).savedState()
        #expect(read.scores == ["A": 12, "B": 3])
        #expect(read.devices[Self.device]?.lastSeq == 5 && read.players[Self.device]?.taps == 12)
        // The operator's list compacts first: the device's tally and taps per school in their tables.
        #expect(try await store.devices(top: 5, nowMs: 0).first?.activity.accepted == 12)
        #expect(try sqlite3Output(path, "SELECT count(*) FROM device_changes") == "0")
        #expect(try sqlite3Output(path, "SELECT last_seq, taps FROM devices") == "5|12")
        #expect(try sqlite3Output(path, "SELECT school, taps FROM device_school_taps") == "A|12")
        #expect(try sqlite3Output(path, "SELECT school, total FROM scores ORDER BY school") == "A|12\nB|3")
    }

    /// Schema 5's commits added their taps to `scores` and to their rows of changes both; schema
    /// 6's only to their rows. Rows left by schema 5 (mid-compaction too) are not counted twice.
    @Test func rowsOfChangesLeftBySchemaFiveAreCountedOnce() async throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = BattleDatabase.path(inDataDirectory: directory)
        let columns = "device, last_seq, last_end_ms, player, school, taps, best, public_id, accepted, refused, hour, hour_accepted, hour_refused, addresses, client, added"
        // Device 1: 10 taps in the tables, 2 more in a row under compaction, moved already, and 3
        // in device_changes. Device 2: 4 in a row under compaction not yet moved. All in scores.
        try Self.makeDatabase(path, schema: 5, """
            INSERT INTO scores (school, total) VALUES ('A', 15), ('B', 4);
            UPDATE board SET version = 9;
            INSERT INTO devices VALUES ('d1', 4, 1795000000000, '민지', 'A', 12, 6);
            INSERT INTO device_school_taps (device, school, taps) VALUES ('d1', 'A', 12);
            INSERT INTO device_changes_compacting (\(columns)) VALUES
                ('d1', 4, 1795000000000, '민지', 'A', 12, 6, 'p1', 12, 0, 7, 0, 0, '10.0.0.1', 'web', 'A=2'),
                ('d2', 1, 1795000000000, '준', 'B', 4, 6, 'p2', 4, 0, 7, 0, 0, '10.0.0.2', 'web', 'B=4');
            INSERT INTO device_changes_compaction (id, moved_through) VALUES (1, 'd1');
            INSERT INTO device_changes (\(columns)) VALUES
                ('d1', 5, 1795000001000, '민지', 'A', 15, 6, 'p1', 15, 0, 7, 0, 0, '10.0.0.1', 'web', 'A=3');
            """)

        let store = try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil)
        #expect(try sqlite3Output(path, "PRAGMA user_version") == "\(BattleDatabaseSchema.newest)")
        #expect(try await store.board() == StoredBoard(version: 9, scores: ["A": 15, "B": 4]))
        let start: Int64 = 1_795_000_002_000
        let batch = ReceivedBatch(connection: 1, device: "d1", player: "민지",
                                  batch: TapBatch(seq: 6, taps: ["A": 2], playerTaps: 2, switchedToSchool: nil, bestTapsPerSecond: 6,
                                                  startMs: start, endMs: start + 100),
                                  address: "10.0.0.1", network: "10.0.0.1", client: nil)
        let window = try await store.commit([batch], histories: TapJudges(addresses: .standard), catalog: storeTestCatalog,
                                            nowMs: start + 1_000)
        #expect(window.board.scores == ["A": 17])
        #expect(try #require(try BattleDatabase.openForReading(dataDirectory: directory)).board().scores == ["A": 17, "B": 4])
        // Compacted by the operator's list: scores, the devices' taps per school and the totals agree.
        _ = try await store.devices(top: 5, nowMs: 0)
        #expect(try sqlite3Output(path, "SELECT school, total FROM scores ORDER BY school") == "A|17\nB|4")
        #expect(try sqlite3Output(path, "SELECT device, school, taps FROM device_school_taps ORDER BY device") == "d1|A|17\nd2|B|4")
        #expect(try await store.board().scores == ["A": 17, "B": 4])
    }

    /// A device's rows of changes name it by its number, and its later rows leave out the texts
    /// its earlier row has the same (its player's name and school, public id, addresses, client)
    /// and write what changed; read again
    /// by a new store, it is what it was, and so it is once compacted.
    @Test func rowsOfChangesLeaveOutWhatTheDevicesEarlierRowHas() async throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = BattleDatabase.path(inDataDirectory: directory)
        let store = try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil)
        func batch(_ seq: UInt64, player: String = "민지", address: String = "10.0.0.1") -> ReceivedBatch {
            let start: Int64 = 1_795_000_000_000 + Int64(seq) * 1_000
            return ReceivedBatch(connection: 1, device: Self.device, player: player,
                                 batch: TapBatch(seq: seq, taps: ["A": 2], playerTaps: 2, switchedToSchool: seq == 1 ? "A" : nil,
                                                 bestTapsPerSecond: 6, startMs: start, endMs: start + 100),
                                 address: address, network: address, client: .web)
        }
        for (seq, player, address) in [(1, "민지", "10.0.0.1"), (2, "민지", "10.0.0.1"), (3, "민지 2", "10.0.0.1"), (4, "민지 2", "10.0.0.9")] {
            let window = try await store.commit([batch(UInt64(seq), player: player, address: address)],
                                                histories: TapJudges(addresses: .standard), catalog: storeTestCatalog,
                                                nowMs: 1_795_000_000_000 + Int64(seq) * 1_000 + 500)
            #expect(BattleStoreTests.accepted(window) == [2], "batch \(seq)")
        }
        let rows = try sqlite3Output(path, """
            SELECT last_seq, coalesce(player, '-'), coalesce(school, '-'), public_id IS NULL, coalesce(addresses, '-'),
                coalesce(client, '-'), accepted FROM device_changes ORDER BY id
            """)
        #expect(rows == """
            1|민지|A|0|10.0.0.1|web|2
            2|-|-|1|-|-|4
            3|민지 2|-|1|-|-|6
            4|-|-|1|10.0.0.1
            10.0.0.9|-|8
            """)
        // The rows name the device by its number.
        #expect(try sqlite3Output(path, "SELECT DISTINCT typeof(c.device), n.device FROM device_changes c JOIN device_numbers n ON n.number = c.device")
                    == "integer|\(Self.device)")
        let expectedRecord = DeviceRecord(lastSeq: 4, player: "민지 2", lastEndMs: 1_795_000_004_100)
        let expectedPlayer = PlayerRecord(schoolID: "A", taps: 8, bestTapsPerSecond: 6)
        let reopened = try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil)
        let (record, player) = try #require(try await reopened.device(Self.device))
        #expect(record == expectedRecord && player == expectedPlayer)
        let listed = try #require(try await reopened.devices(top: 5, nowMs: 0).first)
        #expect(listed.publicID == DevicePublicID.of(Self.device) && listed.activity.accepted == 8
                    && listed.activity.addresses == ["10.0.0.1", "10.0.0.9"] && listed.activity.client == "web")
        // The operator's list compacted them into the tables, whole.
        #expect(try sqlite3Output(path, "SELECT count(*) FROM device_changes") == "0")
        #expect(try sqlite3Output(path, "SELECT last_seq, player, school, taps FROM devices") == "4|민지 2|A|8")
        #expect(try sqlite3Output(path, "SELECT public_id = '\(DevicePublicID.of(Self.device))', addresses, client FROM device_activity")
                    == "1|10.0.0.1\n10.0.0.9|web")
    }

    /// Schema 6's rows said a record's "no school" with NULL, which schema 7 reads as "as the
    /// earlier row": the migration rewrites them as '' (and numbers their device). A row that leaves a text out with no
    /// earlier row to take it from is refused with a clear error, not read as empty.
    @Test func aRecordWithoutSchoolFromSchemaSixStaysWithoutSchool() throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = BattleDatabase.path(inDataDirectory: directory)
        let columns = "device, last_seq, last_end_ms, player, school, taps, best, public_id, accepted, refused, hour, hour_accepted, hour_refused, addresses, client, added, counted"
        try Self.makeDatabase(path, schema: 6, """
            INSERT INTO device_changes (\(columns)) VALUES
                ('d1', 1, 1795000000000, '민지', NULL, 0, 0, 'p1', 0, 0, 7, 0, 0, '10.0.0.1', 'web', '', 0),
                ('d1', 2, 1795000001000, '민지', NULL, 0, 0, 'p1', 0, 0, 7, 0, 0, '10.0.0.1', 'web', '', 0);
            """)
        let database = try BattleDatabase.openForServer(dataDirectory: directory).database
        #expect(try sqlite3Output(path, "PRAGMA user_version") == "\(BattleDatabaseSchema.newest)")
        #expect(try sqlite3Output(path, "SELECT n.device, c.device, c.school FROM device_changes c JOIN device_numbers n ON n.number = c.device")
                    == "d1|1|\nd1|1|")
        #expect(try database.device("d1")?.1 == PlayerRecord(schoolID: nil, taps: 0, bestTapsPerSecond: 0))
        #expect(try database.device("d1")?.0 == DeviceRecord(lastSeq: 2, player: "민지", lastEndMs: 1_795_000_001_000))

        let broken = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let brokenPath = BattleDatabase.path(inDataDirectory: broken)
        try Self.makeDatabase(brokenPath, schema: BattleDatabaseSchema.newest, """
            INSERT INTO device_numbers (number, device) VALUES (1, 'd1');
            INSERT INTO device_changes (\(columns)) VALUES
                (1, 1, 1795000000000, NULL, 'A', 2, 0, 'p1', 2, 0, 7, 0, 0, '10.0.0.1', 'web', 'A=2', 0);
            """)
        #expect { try BattleDatabase.openForServer(dataDirectory: broken).database.device("d1") } throws: {
            "\($0)".contains("leaves out the player of a device with no earlier row")
        }
    }

    /// A compaction is sliced over the commits after `device_changes` reaches `compactionRows`:
    /// no commit moves more devices into the tables than 4 times the rows it appends (all at once, one
    /// commit moved every device), the tables of changes stay under twice `compactionRows` and a window's rows while
    /// 30 devices play 120 windows, and every tap counts once, through restarts mid-compaction.
    @Test func aCompactionIsSlicedOverCommitsAndTheTableStaysBounded() async throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = BattleDatabase.path(inDataDirectory: directory)
        let (devices, perWindow, compactionRows) = (30, 5, 40)
        let keys = (0..<devices).map { "sliced-device-\($0)-" + String(repeating: "k", count: 20) }
        var store = try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil, compactionRows: compactionRows)
        var inTables: [String: String] = [:]
        var largestTable = 0, commitsMidCompaction = 0, scoresWritten = 0
        var scores = "0.0"
        for number in 0..<120 {
            let window = (0..<perWindow).map { (number * perWindow + $0) % devices }
            let seq = UInt64(number * perWindow / devices + 1)
            let batches = window.map { index in
                let start: Int64 = 1_795_000_000_000 + Int64(seq) * 1_000
                let taps = TapBatch(seq: seq, taps: [index % 2 == 0 ? "A" : "B": 2], playerTaps: 2, switchedToSchool: seq == 1 ? (index % 2 == 0 ? "A" : "B") : nil,
                                    bestTapsPerSecond: 6, startMs: start, endMs: start + 500)
                return ReceivedBatch(connection: UInt64(index + 1), device: keys[index], player: "p\(index)", batch: taps,
                                     address: "10.0.\(index).1", network: "10.0.\(index).1", client: nil)
            }
            let committed = try await store.commit(batches, histories: TapJudges(addresses: .standard), catalog: storeTestCatalog,
                                                   nowMs: 1_795_000_000_000 + Int64(seq) * 1_000 + 600)
            #expect(BattleStoreTests.accepted(committed) == Array(repeating: 2, count: perWindow), "window \(number)")

            // One sqlite3 for the three: a process each would be most of the test's time.
            let rows = try sqlite3Output(path, """
                SELECT '#changes', (SELECT count(*) FROM device_changes) + (SELECT count(*) FROM device_changes_compacting)
                UNION ALL SELECT '#compaction', count(*) FROM device_changes_compaction
                UNION ALL SELECT '#scores', total(total) FROM scores
                UNION ALL SELECT device, last_seq FROM devices
                """).split(separator: "\n").map { $0.split(separator: "|") }
            var now = Dictionary(uniqueKeysWithValues: rows.map { (String($0[0]), String($0[1])) })
            largestTable = max(largestTable, Int(now.removeValue(forKey: "#changes") ?? "") ?? .max)
            let midCompaction = now.removeValue(forKey: "#compaction") == "1"
            if midCompaction { commitsMidCompaction += 1 }
            // Only the commit that ends a compaction writes the totals.
            if let written = now.removeValue(forKey: "#scores"), written != scores {
                #expect(!midCompaction, "window \(number) wrote the totals mid-compaction")
                scores = written
                scoresWritten += 1
            }
            let moved = now.filter { inTables[$0.key] != $0.value }.count
            #expect(moved <= 4 * perWindow, "window \(number) moved \(moved) devices into the tables, appending \(perWindow) rows")
            inTables = now
            // A server restarted mid-compaction reads where it stopped.
            if number % 7 == 3 {
                store = try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil, compactionRows: compactionRows)
            }
        }
        #expect(largestTable <= 2 * compactionRows + 2 * perWindow, "the tables of changes held \(largestTable) rows")
        #expect(commitsMidCompaction > 10, "compactions spanned commits")
        #expect(scoresWritten >= 5 && scoresWritten < 120 / 5, "the totals were written \(scoresWritten) times in 120 windows")
        #expect(inTables.count == devices, "every device was compacted at least once")

        // 120 windows of 5 devices, 2 taps each: 20 batches per device.
        let state = try #require(try BattleDatabase.openForReading(dataDirectory: directory)).savedState()
        #expect(state.scores == ["A": 600, "B": 600])
        #expect(Set(state.devices.values.map(\.lastSeq)) == [20] && Set(state.players.values.map(\.taps)) == [40])
        // The operator's list compacts the rest: the tables alone then agree.
        #expect(try await store.devices(top: 50, nowMs: 0).map(\.activity.accepted) == Array(repeating: 40, count: devices))
        #expect(try sqlite3Output(path, "SELECT count(*) FROM device_changes UNION ALL SELECT count(*) FROM device_changes_compacting") == "0\n0")
        #expect(try sqlite3Output(path, "SELECT count(*) FROM device_changes_compaction") == "0")
        #expect(try sqlite3Output(path, "SELECT school, sum(taps) FROM device_school_taps GROUP BY school ORDER BY school") == "A|600\nB|600")
        #expect(try sqlite3Output(path, "SELECT school, total FROM scores ORDER BY school") == "A|600\nB|600")
        #expect(try sqlite3Output(path, "SELECT DISTINCT last_seq, taps FROM devices") == "20|40")
    }

    static let workerPath: String = {
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("BattleDatabaseWorker").path
    }()

    /// `BattleDatabaseWorker` commits windows of 7 devices into one directory, starting a
    /// compaction of `device_changes` every 10 windows (70 rows), each then sliced over the next 3
    /// commits (3, 3 and 1 devices moved), and is killed -9 twelve times over: at a random moment
    /// (in a commit, between commits, while it opens) or, every third time, stopped between the
    /// commits of a compaction. After each kill the database must hold whole windows only: every device at the same
    /// last batch n, never fewer than before the kill, the totals and each player's taps exactly
    /// those of n windows, and, once compacted (a copy, by a server opening it), each device's taps
    /// per school and tally too: a row a slice moved is read once, from the tables.
    @Test func aKillMinusNineAtAnyPointOfCommitsAndCompactionsLosesAndDoublesNothing() throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let devices = 7
        var last: UInt64 = 0
        var killedWithChanges = 0, killedMidCompaction = 0
        let path = BattleDatabase.path(inDataDirectory: directory)
        /// The tables alone, once `directory`'s database is compacted, hold n windows' taps and tallies.
        func expectCompactedTables(_ directory: String, _ n: UInt64) throws {
            let (database, _) = try BattleDatabase.openForServer(dataDirectory: directory)
            try database.write { write throws(SQLiteError) in try write.compact() }
            let path = BattleDatabase.path(inDataDirectory: directory)
            #expect(try sqlite3Output(path, "SELECT count(*) FROM device_changes UNION ALL SELECT count(*) FROM device_changes_compacting") == "0\n0")
            #expect(try sqlite3Output(path, "SELECT school, count(*), min(taps), max(taps) FROM device_school_taps GROUP BY school ORDER BY school")
                    == "A|\(devices)|\(3 * n)|\(3 * n)" + (n > 1 ? "\nB|\(devices)|\(2 * (n - 1))|\(2 * (n - 1))" : ""), "after \(n) windows")
            #expect(try sqlite3Output(path, "SELECT DISTINCT accepted FROM device_activity") == "\(5 * n - 2)")
            // The compactions' last slices added every tap to scores once, none before.
            #expect(try sqlite3Output(path, "SELECT school, total FROM scores ORDER BY school")
                    == "A|\(3 * UInt64(devices) * n)" + (n > 1 ? "\nB|\(2 * UInt64(devices) * (n - 1))" : ""), "after \(n) windows")
            #expect(try sqlite3Output(path, "SELECT DISTINCT last_seq FROM devices") == "\(n)")
        }
        for round in 0..<12 {
            // A compaction lasts a few commits, milliseconds: random kills may all miss it, so every
            // third worker stops once one is under way, and is killed there.
            let pausing = round % 3 == 2
            let pid = try Subprocess.startSharingOutput(Self.workerPath, [directory, String(devices), "70"] + (pausing ? ["--pause-mid-compaction"] : [])).get()
            if pausing {
                #expect(Wait.untilBlocking(timeout: 10, every: .milliseconds(5)) {
                    try sqlite3Output(path, "SELECT count(*) FROM device_changes_compaction") == "1"
                }, "the worker stopped mid-compaction")
            } else {
                usleep(UInt32.random(in: 40_000...(round == 0 ? 400_000 : 250_000)))
            }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            #expect(status & 0x7F == SIGKILL, "the worker was still committing when killed (status \(status))")

            // Killed before its first commit (only the first time can that be): nothing to read yet.
            guard let database = try BattleDatabase.openForReading(dataDirectory: directory), try database.deviceCount() > 0 else {
                #expect(last == 0)
                continue
            }
            let state = try database.savedState()
            let numbers = Set(state.devices.values.map(\.lastSeq))
            #expect(numbers.count == 1 && state.devices.count == devices, "whole windows only: \(numbers)")
            let n = numbers.first ?? 1
            #expect(n >= max(last, 1), "nothing committed is lost")
            last = n
            #expect(state.scores == ["A": 3 * UInt64(devices) * n, "B": 2 * UInt64(devices) * (n - 1)].filter { $0.value > 0 })
            #expect(Set(state.players.values.map(\.taps)) == [5 * n - 2])
            if try sqlite3Output(path, "SELECT count(*) FROM device_changes") != "0" { killedWithChanges += 1 }
            if try sqlite3Output(path, "SELECT count(*) FROM device_changes_compaction") != "0" { killedMidCompaction += 1 }
            // A copy, as the kill left it (the log included), compacted by a server.
            let copy = TemporaryDirectory().path
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: BattleDatabase.path(inDataDirectory: copy) + suffix)
            }
            try expectCompactedTables(copy, n)
        }
        #expect(last > 1, "the worker committed")
        #expect(killedWithChanges > 0, "some kills left changes not yet compacted")
        #expect(killedMidCompaction > 0, "some kills left a compaction under way")

        // Compacted where the worker left it: the tables alone hold it all, and agree with the totals.
        try expectCompactedTables(directory, last)
    }
}
