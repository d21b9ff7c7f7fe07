import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolStore

/// A server's devices (version 2 of the state file): written with the scores, read back, kept by
/// every writer, and version 1 files read as having none.
@Suite(.onOwnThreads) struct DeviceStateTests {
    @Test func devicesAndBoardVersionRoundTripAsVersion2() throws {
        let directory = StoreTestDirectory()
        let store = StateStore(directory: directory.path)
        let saved = try store.change { state in
            state.scores["S1"] = 5
            state.players["dev\"1"] = PlayerRecord(schoolID: "S1", taps: 5, bestTapsPerSecond: 7)
            state.devices["dev\"1"] = DeviceRecord(lastSeq: 3, player: "김 \u{1B}x")
            state.boardVersion = 9
            return true
        }
        let text = String(decoding: try FileIO.read(store.path), as: UTF8.self)
        #expect(text == """
            {
              "format": "touchschool-state",
              "version": 2,
              "scores": {
                "S1": 5
              },
              "players": {
                "dev\\"1": {"school": "S1", "taps": 5, "bestTapsPerSecond": 7}
              },
              "boardVersion": 9,
              "devices": {
                "dev\\"1": {"lastSeq": 3, "player": "김 \\u001bx"}
              }
            }

            """)
        let reloaded = try StateStore(directory: directory.path).read()
        #expect(reloaded.problems.isEmpty)
        #expect(reloaded.state == saved.state)
        #expect(reloaded.state.devices["dev\"1"] == DeviceRecord(lastSeq: 3, player: "김 \u{1B}x"))
    }

    @Test func aLocalSaveKeepsTheDevices() throws {
        let directory = StoreTestDirectory()
        let store = StateStore(directory: directory.path)
        _ = try store.change { state in
            state.devices["d"] = DeviceRecord(lastSeq: 42, player: "p")
            state.boardVersion = 1
            return true
        }
        _ = try StateStore(directory: directory.path).sync(PendingChanges(player: "kim", scoreDeltas: ["S2": 1]))
        let state = try StateStore(directory: directory.path).read().state
        #expect(state.devices == ["d": DeviceRecord(lastSeq: 42, player: "p")])
        #expect(state.boardVersion == 1)
        #expect(state.scores == ["S2": 1])
    }

    @Test func resetKeepsTheDevicesNumbering() throws {
        let directory = StoreTestDirectory()
        let store = StateStore(directory: directory.path)
        _ = try store.change { state in
            state.scores["S1"] = 3
            state.devices["d"] = DeviceRecord(lastSeq: 7, player: "p")
            state.boardVersion = 4
            return true
        }
        _ = try store.reset()
        let state = try store.read().state
        #expect(state.scores.isEmpty)
        #expect(state.devices["d"]?.lastSeq == 7)
        #expect(state.boardVersion == 5)
    }

    @Test func version1FilesHaveNoDevicesAndStayVersion1() throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, """
            {"format": "touchschool-state", "version": 1, "scores": {"S1": 2}, "players": {}, "devices": {"x": {"lastSeq": 1}}}
            """)
        let store = StateStore(directory: directory.path)
        #expect(try store.read().state.devices.isEmpty)
        _ = try store.sync(PendingChanges(player: "kim", scoreDeltas: ["S1": 1]))
        let text = String(decoding: try FileIO.read(store.path), as: UTF8.self)
        #expect(text.contains("\"version\": 1,"))
        #expect(!text.contains("devices"))
    }

    @Test func abnormalDeviceValuesAreResetAndDescribed() throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, """
            {"format": "touchschool-state", "version": 2, "scores": {}, "players": {}, "boardVersion": -1,
             "devices": {"a": {"lastSeq": 1.5, "player": "p"}, "b": 3, "c": {"lastSeq": 8, "player": "q"}}}
            """)
        let read = try StateStore(directory: directory.path).read()
        #expect(read.state.devices == ["a": DeviceRecord(lastSeq: 0, player: "p"), "c": DeviceRecord(lastSeq: 8, player: "q")])
        #expect(read.state.boardVersion == 0)
        guard case let .notRepaired(details)? = read.problems.first else {
            Issue.record("expected problems, got \(read.problems)")
            return
        }
        #expect(details.count == 3)
    }

    @Test func version3IsNewer() throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, """
            {"format": "touchschool-state", "version": 3, "scores": {}, "players": {}}
            """)
        let read = try StateStore(directory: directory.path).read()
        guard case let .notRepaired(details)? = read.problems.first else {
            Issue.record("expected problems, got \(read.problems)")
            return
        }
        #expect(details.first?.contains("newer") == true)
    }
}
