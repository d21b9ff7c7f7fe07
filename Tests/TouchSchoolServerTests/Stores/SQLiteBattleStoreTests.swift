import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolStore
@testable import TouchSchoolServer

/// What only the data directory's database does: the move of `state.json` at the first start,
/// and the refusal of a database it cannot read.
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
}

