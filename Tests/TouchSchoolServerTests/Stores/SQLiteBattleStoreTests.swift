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
@Suite(.onOwnThreads) struct SQLiteBattleStoreTests {
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
    /// a device, its tally and its taps per school: the next start moves it to schema 4 losing
    /// nothing, and play goes on from its numbers.
    @Test func aDatabaseOfThePreviousSchemaMovesForwardLosingNothing() async throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = BattleDatabase.path(inDataDirectory: directory)
        let previous = BattleDatabaseSchema.migrations.filter { $0.version <= 3 }.map(\.sql).joined(separator: "\n")
        #expect(BattleDatabaseSchema.newest == 4, "this test makes schema 3, the one before device_changes")
        try sqlite3(path, "PRAGMA page_size = 1024; PRAGMA journal_mode = WAL;" + previous + """
            PRAGMA user_version = 3; PRAGMA application_id = \(BattleDatabaseSchema.applicationID);
            INSERT INTO scores (school, total) VALUES ('A', 10), ('B', 3);
            UPDATE board SET version = 9;
            INSERT INTO devices VALUES ('\(Self.device)', 4, 1795000000000, '민지', 'A', 10, 6);
            INSERT INTO device_activity (device, public_id, accepted, refused, hour, hour_accepted, hour_refused, addresses, client)
                VALUES ('\(Self.device)', 'p1', 10, 1, 7, 0, 0, '10.0.0.1', 'web');
            INSERT INTO device_school_taps (device, school, taps) VALUES ('\(Self.device)', 'A', 10);
            """)

        let store = try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil)
        #expect(try sqlite3Output(path, "PRAGMA user_version") == "4")
        #expect(try await store.board() == StoredBoard(version: 9, scores: ["A": 10, "B": 3]))
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
        let read = try #require(try BattleDatabase.openForReading(dataDirectory: directory)).savedState()
        #expect(read.scores == ["A": 12, "B": 3])
        #expect(read.devices[Self.device]?.lastSeq == 5 && read.players[Self.device]?.taps == 12)
        // The operator's list compacts first: the device's tally and taps per school in their tables.
        #expect(try await store.devices(top: 5, nowMs: 0).first?.activity.accepted == 12)
        #expect(try sqlite3Output(path, "SELECT count(*) FROM device_changes") == "0")
        #expect(try sqlite3Output(path, "SELECT last_seq, taps FROM devices") == "5|12")
        #expect(try sqlite3Output(path, "SELECT school, taps FROM device_school_taps") == "A|12")
    }

    static let workerPath: String = {
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("BattleDatabaseWorker").path
    }()

    /// `BattleDatabaseWorker` commits windows of 7 devices into one directory, compacting
    /// `device_changes` at every window (5 rows), and is killed -9 at a random moment, twelve
    /// times over: in a commit, in a compaction, between them, while it opens. After each kill the
    /// database must hold whole windows only: every device at the same last batch n, never fewer
    /// than before the kill, the totals and each player's taps exactly those of n windows, and,
    /// once compacted, each device's taps per school and tally too.
    @Test func aKillMinusNineAtAnyPointOfCommitsAndCompactionsLosesAndDoublesNothing() throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let devices = 7
        var last: UInt64 = 0
        var killedWithChanges = 0
        for round in 0..<12 {
            let pid = try Subprocess.startSharingOutput(Self.workerPath, [directory, String(devices), "5"]).get()
            usleep(UInt32.random(in: 40_000...(round == 0 ? 400_000 : 250_000)))
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
            if try sqlite3Output(BattleDatabase.path(inDataDirectory: directory), "SELECT count(*) FROM device_changes") != "0" {
                killedWithChanges += 1
            }
        }
        #expect(last > 1, "the worker committed")
        #expect(killedWithChanges > 0, "some kills left changes not yet compacted")

        // Compacted: the tables alone hold it all, and agree with the totals.
        let (database, _) = try BattleDatabase.openForServer(dataDirectory: directory)
        try database.write { write throws(SQLiteError) in try write.compact() }
        let path = BattleDatabase.path(inDataDirectory: directory)
        #expect(try sqlite3Output(path, "SELECT count(*) FROM device_changes") == "0")
        #expect(try sqlite3Output(path, "SELECT school, count(*), min(taps), max(taps) FROM device_school_taps GROUP BY school ORDER BY school")
                == "A|\(devices)|\(3 * last)|\(3 * last)\nB|\(devices)|\(2 * (last - 1))|\(2 * (last - 1))")
        #expect(try sqlite3Output(path, "SELECT DISTINCT accepted FROM device_activity") == "\(5 * last - 2)")
        #expect(try sqlite3Output(path, "SELECT DISTINCT last_seq FROM devices") == "\(last)")
    }
}
