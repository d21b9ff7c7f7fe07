import Glibc
import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore
@testable import TouchSchoolStore

/// A fresh directory under /tmp, removed with everything in it when the test ends.
final class StoreTestDirectory {
    let path: String

    init() {
        path = TemporaryDirectory().path
    }

    deinit { Self.removeTree(path) }

    static func removeTree(_ path: String) {
        if let listing = opendir(path) {
            while let entry = readdir(listing) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                if name == "." || name == ".." { continue }
                removeTree("\(path)/\(name)")
            }
            closedir(listing)
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Names in the directory, sorted.
    func entries() -> [String] {
        guard let listing = opendir(path) else { return [] }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

/// Three schools, and `OLD1`, a former id of `S1`.
func storeTestCatalog() -> Catalog {
    let schools = ["S1", "S2", "S3"].map {
        School(id: $0, name: "학교\($0)", level: .elementary, province: "서울특별시", district: "종로구", address: "")
    }
    return Catalog(schools: schools, aliases: ["OLD1": "S1"], source: .starter)
}

func writeStateFile(_ directory: StoreTestDirectory, _ text: String) throws {
    try FileSystem.live.replaceAtomically("\(directory.path)/state.json", with: Array(text.utf8))
}

extension StateStore {
    /// A save whose result the tests read as the state it left.
    func syncState(_ pending: PendingChanges, catalog: Catalog = storeTestCatalog()) throws(StoreError) -> SavedState {
        try sync(pending, aliases: catalog.aliases).state
    }
}

@Suite(.onOwnThreads) struct StateStoreTests {
    let catalog = storeTestCatalog()

    @Test func missingFileLoadsEmptyAndCreatesNothing() throws {
        let directory = StoreTestDirectory()
        let loaded = try StateStore(directory: directory.path).read()
        #expect(loaded.state == SavedState())
        #expect(loaded.problems.isEmpty)
        #expect(directory.entries().isEmpty)
    }

    @Test func roundTripWritesStableSortedJSON() throws {
        let directory = StoreTestDirectory()
        let store = StateStore(directory: directory.path)
        let saved = try store.syncState(PendingChanges(player: "kim", scoreDeltas: ["S2": 3, "S1": 12], playerTaps: 3,
                                                  bestTapsPerSecond: 9, switchedToSchool: "S2"), catalog: catalog)
        #expect(saved == SavedState(scores: ["S1": 12, "S2": 3],
                                    players: ["kim": PlayerRecord(schoolID: "S2", taps: 3, bestTapsPerSecond: 9)]))

        let text = String(decoding: try FileIO.read(store.path), as: UTF8.self)
        #expect(text == """
            {
              "format": "touchschool-state",
              "version": 1,
              "scores": {
                "S1": 12,
                "S2": 3
              },
              "players": {
                "kim": {"school": "S2", "taps": 3, "bestTapsPerSecond": 9}
              }
            }

            """)
        let reloaded = try StateStore(directory: directory.path).read()
        #expect(reloaded.state == saved)
        #expect(reloaded.problems.isEmpty)
        #expect(directory.entries() == ["state.json", "state.lock"])
    }

    /// A save reuses the order of the file it read instead of sorting again: a file that is not
    /// in order (edited by hand) must still come out sorted.
    @Test func idsOutOfOrderInTheFileAreWrittenSorted() throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, """
            {"format": "touchschool-state", "version": 1, "scores": {"S3": 1, "S1": 2}, "players": {}}
            """)
        let store = StateStore(directory: directory.path)
        _ = try store.sync(PendingChanges(player: "kim", scoreDeltas: ["S2": 1]))
        #expect(String(decoding: try FileIO.read(store.path), as: UTF8.self) == """
            {
              "format": "touchschool-state",
              "version": 1,
              "scores": {
                "S1": 2,
                "S2": 1,
                "S3": 1
              },
              "players": {
                "kim": {"school": null, "taps": 0, "bestTapsPerSecond": 0}
              }
            }

            """)
    }

    /// New ids go to their place among the file's (first, between, last), and an id moved to the
    /// school it is an alias of leaves its place.
    @Test func newIdsAreWrittenInPlaceAmongTheFilesIds() throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, """
            {"format": "touchschool-state", "version": 1, "scores": {"B2": 1, "B4": 1, "OLD1": 5}, "players": {}}
            """)
        let store = StateStore(directory: directory.path)
        _ = try store.sync(PendingChanges(player: "kim", scoreDeltas: ["A0": 1, "B3": 1, "C9": 1, "Z": 1]), aliases: ["OLD1": "S1"])
        #expect(String(decoding: try FileIO.read(store.path), as: UTF8.self) == """
            {
              "format": "touchschool-state",
              "version": 1,
              "scores": {
                "A0": 1,
                "B2": 1,
                "B3": 1,
                "B4": 1,
                "C9": 1,
                "S1": 5,
                "Z": 1
              },
              "players": {
                "kim": {"school": null, "taps": 0, "bestTapsPerSecond": 0}
              }
            }

            """)
    }

    /// Names are the players' own: quotes, backslashes and control characters must be escaped,
    /// and Hangul written as it is.
    @Test func namesAreEscapedInTheFile() throws {
        let directory = StoreTestDirectory()
        let store = StateStore(directory: directory.path)
        let name = "김\"q\\b\nn\tt\u{1}"
        let saved = try store.sync(PendingChanges(player: name, scoreDeltas: ["S1": 1], playerTaps: 1, switchedToSchool: "S1"))
        let text = String(decoding: try FileIO.read(store.path), as: UTF8.self)
        #expect(text.contains(#""김\"q\\b\nn\tt\u0001": {"school": "S1", "taps": 1, "bestTapsPerSecond": 0}"#), "\(text)")
        #expect(try StateStore(directory: directory.path).read().state == saved.state)
        #expect(saved.state.players[name] == PlayerRecord(schoolID: "S1", taps: 1))
    }

    @Test func emptyStateRoundTrips() throws {
        let text = String(decoding: StateFile.encode(SavedState()), as: UTF8.self)
        #expect(text == "{\n  \"format\": \"touchschool-state\",\n  \"version\": 1,\n  \"scores\": {},\n  \"players\": {}\n}\n")
        let directory = StoreTestDirectory()
        try writeStateFile(directory, text)
        let loaded = try StateStore(directory: directory.path).read()
        #expect(loaded.state == SavedState() && loaded.problems.isEmpty)
    }

    @Test func syncAddsDeltasOfEveryGame() throws {
        let directory = StoreTestDirectory()
        let first = StateStore(directory: directory.path)
        let second = StateStore(directory: directory.path)
        _ = try first.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 5], playerTaps: 5,
                                          bestTapsPerSecond: 7, switchedToSchool: "S1"), catalog: catalog)
        _ = try second.syncState(PendingChanges(player: "lee", scoreDeltas: ["S1": 2, "S3": 4], playerTaps: 6,
                                           bestTapsPerSecond: 4, switchedToSchool: "S3"), catalog: catalog)
        let merged = try first.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 1], playerTaps: 1,
                                                   bestTapsPerSecond: 3), catalog: catalog)
        #expect(merged.scores == ["S1": 8, "S3": 4])
        #expect(merged.players["kim"] == PlayerRecord(schoolID: "S1", taps: 6, bestTapsPerSecond: 7))
        #expect(merged.players["lee"] == PlayerRecord(schoolID: "S3", taps: 6, bestTapsPerSecond: 4))

        // Switching school restarts the player's own taps, not the schools' scores.
        let switched = try first.syncState(PendingChanges(player: "kim", scoreDeltas: ["S2": 2], playerTaps: 2,
                                                     bestTapsPerSecond: 11, switchedToSchool: "S2"), catalog: catalog)
        #expect(switched.scores == ["S1": 8, "S2": 2, "S3": 4])
        #expect(switched.players["kim"] == PlayerRecord(schoolID: "S2", taps: 2, bestTapsPerSecond: 11))
    }

    @Test func emptySyncDoesNotRewriteTheFile() throws {
        let directory = StoreTestDirectory()
        let store = StateStore(directory: directory.path)
        _ = try store.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 1]), catalog: catalog)
        var before = stat()
        stat(store.path, &before)
        let state = try store.syncState(PendingChanges(player: "kim"), catalog: catalog)
        var after = stat()
        stat(store.path, &after)
        #expect(state.scores == ["S1": 1])
        #expect(before.st_ino == after.st_ino)
    }

    @Test func countsSaturateAtTheLargest64BitValue() throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, """
            {"format": "touchschool-state", "version": 1, "scores": {"S1": \(UInt64.max - 1)},
             "players": {"kim": {"school": "S1", "taps": \(UInt64.max), "bestTapsPerSecond": 3}}}
            """)
        let state = try StateStore(directory: directory.path).syncState(
            PendingChanges(player: "kim", scoreDeltas: ["S1": 5], playerTaps: 5), catalog: catalog)
        #expect(state.scores["S1"] == UInt64.max)
        #expect(state.players["kim"]?.taps == UInt64.max)
    }

    /// The root cause of lost scores: a process whose catalog lacked an id deleted its score.
    /// Whatever catalog a saver has, every id in the file and in the changes is kept.
    @Test func idsNoCatalogKnowsAreKeptBySavesAndReads() throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, """
            {"format": "touchschool-state", "version": 1, "scores": {"B000011793": 30, "S1": 2},
             "players": {"bob": {"school": "B000011793", "taps": 30, "bestTapsPerSecond": 8}}}
            """)
        let store = StateStore(directory: directory.path)
        let read = try store.read()
        #expect(read.problems.isEmpty)
        #expect(read.state.scores == ["B000011793": 30, "S1": 2])
        let state = try store.syncState(PendingChanges(player: "alice", scoreDeltas: ["S1": 1, "NEW9": 9]), catalog: catalog)
        #expect(state.scores == ["B000011793": 30, "S1": 3, "NEW9": 9])
        #expect(state.players["bob"] == PlayerRecord(schoolID: "B000011793", taps: 30, bestTapsPerSecond: 8))
        #expect(directory.entries().allSatisfy { !$0.contains("backup") })
    }

    @Test func aliasesAreCanonicalisedAddingCounts() throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, """
            {"format": "touchschool-state", "version": 1, "scores": {"OLD1": 5, "S1": 7, "S2": 1},
             "players": {"kim": {"school": "OLD1", "taps": 4, "bestTapsPerSecond": 2}}}
            """)
        let store = StateStore(directory: directory.path)
        let loaded = try store.read()
        #expect(loaded.problems.isEmpty)
        // A reader keeps ids as written; the catalog adds a former id's score to its school.
        #expect(loaded.state.scores == ["OLD1": 5, "S1": 7, "S2": 1])
        #expect(loaded.state.counts(in: catalog) == [12, 1, 0])

        let synced = try store.syncState(PendingChanges(player: "lee", scoreDeltas: ["OLD1": 3], playerTaps: 3,
                                                   switchedToSchool: "OLD1"), catalog: catalog)
        #expect(synced.scores == ["S1": 15, "S2": 1])
        #expect(synced.players["lee"]?.schoolID == "S1")
        let text = String(decoding: try FileIO.read(store.path), as: UTF8.self)
        #expect(!text.contains("OLD1"))
    }

    // MARK: - Files that cannot be used

    struct UnusableFile: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var keptAs: String
        var reason: String
        var testDescription: String { name }
    }

    static let unusableFiles: [UnusableFile] = [
        UnusableFile(name: "corrupt", text: "{\"format\": \"touchschool-state\", \"version\": 1, \"scores\": {\"S1\": 5,, }",
                     keptAs: "corrupt", reason: "the file is corrupt: not valid JSON at line 1, column"),
        UnusableFile(name: "truncated", text: "{\"format\": \"touchschool-state\", \"version\": 1, \"scores\": {\"S1\": 5",
                     keptAs: "corrupt", reason: "the file is truncated: not valid JSON at line 1"),
        UnusableFile(name: "empty", text: "", keptAs: "corrupt", reason: "the file is empty (truncated)"),
        UnusableFile(name: "binary", text: "\u{1}\u{2}garbage", keptAs: "corrupt", reason: "not valid JSON"),
        UnusableFile(name: "newer", text: "{\"format\": \"touchschool-state\", \"version\": 3, \"scores\": {}, \"players\": {}, \"teams\": {}}",
                     keptAs: "newer", reason: "written by a newer TouchSchool (state version 3; this version reads up to 2)"),
        UnusableFile(name: "far newer", text: "{\"format\": \"touchschool-state\", \"version\": 123456789012345678901234, \"scores\": {}, \"players\": {}}",
                     keptAs: "newer", reason: "written by a newer TouchSchool"),
        UnusableFile(name: "other JSON", text: "[1, 2, 3]", keptAs: "foreign",
                     reason: "not a TouchSchool state file: it is an array, not an object"),
        UnusableFile(name: "no format", text: "{\"scores\": {\"S1\": 5}}", keptAs: "foreign",
                     reason: "not a TouchSchool state file: it has no \"format\""),
        UnusableFile(name: "another format", text: "{\"format\": \"touchschool-catalog\", \"version\": 1, \"schools\": []}",
                     keptAs: "foreign", reason: "not a TouchSchool state file: its format is the text \"touchschool-catalog\""),
        UnusableFile(name: "fractional version", text: "{\"format\": \"touchschool-state\", \"version\": 1.5, \"scores\": {}, \"players\": {}}",
                     keptAs: "corrupt", reason: "its \"version\" is 1.5"),
        UnusableFile(name: "scores not an object", text: "{\"format\": \"touchschool-state\", \"version\": 1, \"scores\": [5], \"players\": {}}",
                     keptAs: "corrupt", reason: "\"scores\" is an array, not an object"),
        UnusableFile(name: "players missing", text: "{\"format\": \"touchschool-state\", \"version\": 1, \"scores\": {}}",
                     keptAs: "corrupt", reason: "\"players\" is missing, not an object"),
    ]

    @Test(arguments: unusableFiles)
    func unusableFileIsSetAsideAndReported(_ file: UnusableFile) throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, file.text)
        let store = StateStore(directory: directory.path)
        // A reader reports it and changes nothing.
        let loaded = try store.read()
        #expect(loaded.state == SavedState())
        guard case let .notRepaired(details)? = loaded.problems.first, loaded.problems.count == 1 else {
            Issue.record("expected one problem left unrepaired, got \(loaded.problems)")
            return
        }
        #expect(details.first?.contains(file.reason) == true, "details: \(details)")
        #expect(try FileIO.read(store.path) == Array(file.text.utf8))

        // A save sets it aside, starts over, and leaves the kept one as it was.
        let saved = try store.sync(PendingChanges(player: "kim", scoreDeltas: ["S1": 1]))
        guard case let .setAside(keptAs, reason)? = saved.problems.first, saved.problems.count == 1 else {
            Issue.record("expected one set-aside problem, got \(saved.problems)")
            return
        }
        #expect(reason.contains(file.reason), "reason: \(reason)")
        #expect(keptAs.hasPrefix("\(store.path).\(file.keptAs)-"))
        #expect(saved.state.scores == ["S1": 1])
        #expect(try FileIO.read(keptAs) == Array(file.text.utf8))
    }

    @Test func fileDamagedWhileTheGameRunsIsSetAsideAtSyncAndReportedLater() throws {
        let directory = StoreTestDirectory()
        let store = StateStore(directory: directory.path)
        _ = try store.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 4]), catalog: catalog)
        try writeStateFile(directory, "{\"format\": \"touchschool-state\", \"vers")
        let saved = try store.sync(PendingChanges(player: "kim", scoreDeltas: ["S1": 1]))
        #expect(saved.state.scores == ["S1": 1])
        let problems = saved.problems
        #expect(problems.count == 1)
        if case let .setAside(keptAs, _)? = problems.first {
            #expect(String(decoding: try FileIO.read(keptAs), as: UTF8.self) == "{\"format\": \"touchschool-state\", \"vers")
        } else {
            Issue.record("expected a set-aside problem, got \(problems)")
        }
        #expect(try store.sync(PendingChanges(player: "kim", scoreDeltas: ["S1": 1])).problems.isEmpty)
    }

    // MARK: - Abnormal values

    struct AbnormalValue: CustomTestStringConvertible, Sendable {
        var name: String
        var scores: String
        var players = "{}"
        /// A fragment of the one detail expected.
        var detail: String
        var expected: SavedState
        var testDescription: String { name }
    }

    static let kim = PlayerRecord(schoolID: "S2", taps: 3, bestTapsPerSecond: 5)
    static let abnormalValues: [AbnormalValue] = [
        AbnormalValue(name: "negative", scores: "{\"S1\": -5, \"S2\": 2}", detail: "score of S1 was -5 (negative): reset to 0",
                      expected: SavedState(scores: ["S2": 2])),
        AbnormalValue(name: "fraction", scores: "{\"S1\": 2.5, \"S2\": 2}", detail: "score of S1 was 2.5 (not a whole number)",
                      expected: SavedState(scores: ["S2": 2])),
        AbnormalValue(name: "exponent", scores: "{\"S1\": 1e3, \"S2\": 2}", detail: "score of S1 was 1e3 (not a whole number)",
                      expected: SavedState(scores: ["S2": 2])),
        AbnormalValue(name: "beyond 64 bits", scores: "{\"S1\": 18446744073709551616, \"S2\": 2}",
                      detail: "score of S1 was 18446744073709551616 (beyond 64 bits)", expected: SavedState(scores: ["S2": 2])),
        AbnormalValue(name: "text", scores: "{\"S1\": \"12\", \"S2\": 2}", detail: "score of S1 was the text \"12\" (not a number)",
                      expected: SavedState(scores: ["S2": 2])),
        AbnormalValue(name: "an object", scores: "{\"S1\": {\"n\": 1}, \"S2\": 2}", detail: "score of S1 was an object (not a number)",
                      expected: SavedState(scores: ["S2": 2])),
        AbnormalValue(name: "repeat after an abnormal value", scores: "{\"S2\": -1, \"S2\": 2}", detail: "score of S2 was -1 (negative)",
                      expected: SavedState(scores: ["S2": 2])),
        AbnormalValue(name: "largest count beside a negative one", scores: "{\"S1\": -0, \"S2\": 18446744073709551615}",
                      detail: "score of S1 was -0 (negative)", expected: SavedState(scores: ["S2": UInt64.max])),
        AbnormalValue(name: "null", scores: "{\"S1\": null, \"S2\": 2}", detail: "score of S1 was null (not a number)",
                      expected: SavedState(scores: ["S2": 2])),
        AbnormalValue(name: "repeated id", scores: "{\"S2\": 2, \"S2\": 900}", detail: "score of S2 appeared twice: the repeat (900) was dropped",
                      expected: SavedState(scores: ["S2": 2])),
        AbnormalValue(name: "negative player taps", scores: "{\"S2\": 2}",
                      players: "{\"kim\": {\"school\": \"S2\", \"taps\": -3, \"bestTapsPerSecond\": 5}}",
                      detail: "player kim's taps were -3 (negative): reset to 0",
                      expected: SavedState(scores: ["S2": 2], players: ["kim": PlayerRecord(schoolID: "S2", taps: 0, bestTapsPerSecond: 5)])),
        AbnormalValue(name: "huge best speed", scores: "{\"S2\": 2}",
                      players: "{\"kim\": {\"school\": \"S2\", \"taps\": 3, \"bestTapsPerSecond\": 99999999999999999999}}",
                      detail: "player kim's best taps per second was 99999999999999999999 (beyond 64 bits): reset to 0",
                      expected: SavedState(scores: ["S2": 2], players: ["kim": PlayerRecord(schoolID: "S2", taps: 3, bestTapsPerSecond: 0)])),
        AbnormalValue(name: "player not a record", scores: "{\"S2\": 2}",
                      players: "{\"kim\": 12, \"lee\": {\"school\": \"S2\", \"taps\": 3, \"bestTapsPerSecond\": 5}}",
                      detail: "player kim was 12, not a record: removed",
                      expected: SavedState(scores: ["S2": 2], players: ["lee": kim])),
    ]

    @Test(arguments: abnormalValues)
    func abnormalValueIsResetReportedAndBackedUp(_ value: AbnormalValue) throws {
        let directory = StoreTestDirectory()
        let text = "{\"format\": \"touchschool-state\", \"version\": 1, \"scores\": \(value.scores), \"players\": \(value.players)}"
        try writeStateFile(directory, text)
        let store = StateStore(directory: directory.path)
        let loaded = try store.read()
        #expect(loaded.state == value.expected)
        #expect(loaded.problems.count == 1)
        #expect(try FileIO.read(store.path) == Array(text.utf8), "a reader never rewrites")
        let saved = try store.sync(PendingChanges(player: "nobody"))
        #expect(saved.state == value.expected)
        guard case let .valuesReset(backup, details)? = saved.problems.first, saved.problems.count == 1 else {
            Issue.record("expected one values-reset problem, got \(saved.problems)")
            return
        }
        #expect(details.count == 1)
        #expect(details.first?.contains(value.detail) == true, "details: \(details)")
        #expect(backup.hasPrefix("\(store.path).backup-"))
        #expect(try FileIO.read(backup) == Array(text.utf8))

        // The repaired state was written: loading again finds nothing wrong.
        let again = try StateStore(directory: directory.path).read()
        #expect(again.problems.isEmpty)
        #expect(again.state == value.expected)
    }

    @Test func everyAbnormalValueIsReportedOnItsOwn() throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, """
            {"format": "touchschool-state", "version": 1,
             "scores": {"S1": -1, "S2": 0.5, "S3": 7, "GONE": 2, "OLD1": "x"},
             "players": {"kim": {"school": "S3", "taps": 1.5, "bestTapsPerSecond": -2}}}
            """)
        let loaded = try StateStore(directory: directory.path).read()
        #expect(loaded.state == SavedState(scores: ["S3": 7, "GONE": 2], players: ["kim": PlayerRecord(schoolID: "S3")]))
        guard case let .notRepaired(details)? = loaded.problems.first else {
            Issue.record("expected a problem left unrepaired, got \(loaded.problems)")
            return
        }
        #expect(details.count == 5, "details: \(details)")
    }

    // MARK: - Reset

    @Test func resetKeepsABackupAndStartsScoresOver() throws {
        let directory = StoreTestDirectory()
        let store = StateStore(directory: directory.path)
        _ = try store.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 9], playerTaps: 9,
                                          bestTapsPerSecond: 6, switchedToSchool: "S1"), catalog: catalog)
        let original = try FileIO.read(store.path)
        let kept = try #require(try store.reset())
        #expect(kept.hasPrefix("\(store.path).reset-"))
        #expect(try FileIO.read(kept) == original)
        let loaded = try store.read()
        #expect(loaded.state == SavedState(players: ["kim": PlayerRecord(schoolID: "S1", taps: 0, bestTapsPerSecond: 6)]))
        #expect(loaded.problems.isEmpty)
    }

    @Test func resetOfADamagedFileKeepsItsBytes() throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, "not json")
        let store = StateStore(directory: directory.path)
        let kept = try #require(try store.reset())
        #expect(try FileIO.read(kept) == Array("not json".utf8))
        let loaded = try store.read()
        #expect(loaded.state == SavedState() && loaded.problems.isEmpty)
    }

    @Test func resetWithoutAFileHasNothingToKeep() throws {
        let directory = StoreTestDirectory()
        #expect(try StateStore(directory: directory.path).reset() == nil)
        #expect(!FileIO.exists("\(directory.path)/state.json"))
    }

    // MARK: - Noticing other games' saves

    @Test func noticesWhenAnotherGameSaved() throws {
        let directory = StoreTestDirectory()
        let mine = StateStore(directory: directory.path)
        let other = StateStore(directory: directory.path)
        #expect(mine.fileChangedSinceLastRead())
        _ = try mine.read()
        #expect(!mine.fileChangedSinceLastRead())
        _ = try other.syncState(PendingChanges(player: "lee", scoreDeltas: ["S1": 1]), catalog: catalog)
        #expect(mine.fileChangedSinceLastRead())
        _ = try mine.read()
        #expect(!mine.fileChangedSinceLastRead())
        _ = try mine.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 1]), catalog: catalog)
        #expect(!mine.fileChangedSinceLastRead())
        // Same size, new content: the rename gives a new inode or time even if sizes agree.
        _ = try other.syncState(PendingChanges(player: "lee", scoreDeltas: ["S1": 1]), catalog: catalog)
        #expect(mine.fileChangedSinceLastRead())
    }

    @Test func aSaveRemovesFilesOfInterruptedSaves() throws {
        let directory = StoreTestDirectory()
        _ = try StateStore(directory: directory.path).syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 1]), catalog: catalog)
        try FileSystem.live.replaceAtomically("\(directory.path)/state.json.tmp-99999", with: Array("{\"half".utf8))
        let store = StateStore(directory: directory.path)
        _ = try store.read()
        #expect(directory.entries() == ["state.json", "state.json.tmp-99999", "state.lock"], "a reader removes nothing")
        _ = try store.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 1]), catalog: catalog)
        #expect(directory.entries() == ["state.json", "state.lock"])
    }

    // MARK: - Size

    @Test func savesTwelveThousandSchools() throws {
        let schools = (0..<12_011).map {
            School(id: "B\(String(100_000_000 + $0))", name: "학교", level: .high, province: "서울특별시", district: "", address: "")
        }
        let catalog = Catalog(schools: schools, source: .starter)
        var deltas: [String: UInt64] = [:]
        for (index, school) in schools.enumerated() { deltas[school.id] = UInt64(index + 1) * 1_000_003 }
        let directory = StoreTestDirectory()
        let store = StateStore(directory: directory.path)
        _ = try store.syncState(PendingChanges(player: "kim", scoreDeltas: deltas), catalog: catalog)

        let clock = ContinuousClock()
        let start = clock.now
        let state = try store.syncState(PendingChanges(player: "kim", scoreDeltas: [schools[0].id: 1]), catalog: catalog)
        let elapsed = clock.now - start
        print("sync of \(schools.count) schools (read, merge, write, fsync): \(elapsed)")

        #expect(state.scores.count == 12_011)
        #expect(state.scores[schools[0].id] == 1_000_004)
        #expect(try StateStore(directory: directory.path).read().state == state)
    }
}

@Suite(.onOwnThreads) struct DataDirectoryTests {
    @Test func explicitDirectoryComesFirst() {
        let environment = ["TOUCHSCHOOL_HOME": "/t", "XDG_DATA_HOME": "/x", "HOME": "/h"]
        #expect(DataDirectory.resolve(explicit: "/d", environment: environment) == "/d")
        #expect(DataDirectory.resolve(explicit: nil, environment: environment) == "/t")
        #expect(DataDirectory.resolve(explicit: "", environment: environment) == "/t")
    }

    @Test func thenXDGDataHomeThenHome() {
        #expect(DataDirectory.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/touchschool")
        #expect(DataDirectory.resolve(explicit: nil, environment: ["TOUCHSCHOOL_HOME": "", "XDG_DATA_HOME": "/x", "HOME": "/h"])
            == "/x/touchschool")
        #expect(DataDirectory.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "", "HOME": "/h"]) == "/h/.local/share/touchschool")
        #expect(DataDirectory.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"])
            == "/h/.local/share/touchschool")
    }

    @Test func withoutHomeTheUserDatabaseAnswers() throws {
        let entry = try #require(getpwuid(getuid()))
        let home = String(cString: entry.pointee.pw_dir)
        #expect(DataDirectory.resolve(explicit: nil, environment: ["HOME": ""]) == "\(home)/.local/share/touchschool")
    }

    @Test func prepareCreatesTheDirectoryOnFirstUse() throws {
        let root = StoreTestDirectory()
        let directory = "\(root.path)/a/b/touchschool"
        try DataDirectory.prepare(directory)
        try DataDirectory.prepare(directory)
        var info = stat()
        #expect(stat(directory, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
    }

    @Test func prepareRefusesAFile() throws {
        let root = StoreTestDirectory()
        try FileSystem.live.replaceAtomically("\(root.path)/file", with: [1])
        #expect(throws: StoreError.self) { try DataDirectory.prepare("\(root.path)/file") }
        #expect(throws: StoreError.self) { try DataDirectory.prepare("\(root.path)/file/sub") }
    }
}
