import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolStore

/// The state file is the battle's one source of truth: no game, command or catalog edition can
/// destroy it. Each test is a scenario that lost or froze scores before, played with the real
/// binary: games in tmux, commands as subprocesses, all on one shared data directory.
@Suite(.onOwnThreads, .tags(.process, .tmux), .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux not found: skipped"))
struct SharedStateEndToEndTests {
    /// A data directory for several games and commands, removed when the test ends.
    final class SharedDirectory {
        let path: String
        init() throws {
            path = TemporaryDirectory().path
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        func file(_ name: String) -> String { "\(path)/\(name)" }
        func entries() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    /// An official list in the portal's columns (제공기관명 last, as the portal has it).
    static func officialList(edition: String, _ schools: [(id: String, name: String, level: String, district: String)],
                             finalLineBreak: Bool = true, lastProvider: String? = nil) -> String {
        let header = "학교ID,학교명,학교급구분,설립일자,설립형태,본교분교구분,운영상태,소재지지번주소,소재지도로명주소,"
            + "시도교육청코드,시도교육청명,교육지원청코드,교육지원청명,생성일자,변경일자,위도,경도,데이터기준일자,제공기관코드,제공기관명"
        let rows = schools.enumerated().map { index, school in
            let provider = index == schools.count - 1 ? lastProvider ?? "한국교육시설안전원" : "한국교육시설안전원"
            return "\(school.id),\(school.name),\(school.level),1941-04-25,공립,본교,운영,서울특별시 \(school.district) 1,"
                + "서울특별시 \(school.district) 길 1,7010000,서울특별시교육청,7011000,서울특별시강남서초교육지원청,"
                + "2013-11-29,2025-10-25,37.5,127.0,\(edition),B554398,\(provider)"
        }
        return ([header] + rows).joined(separator: "\n") + (finalLineBreak ? "\n" : "")
    }

    static let seoulHigh = (id: "B000010001", name: "서울고등학교", level: "고등학교", district: "서초구")
    static let daewon = (id: "B000011793", name: "대원외국어고등학교", level: "고등학교", district: "광진구")
    static let hwimun = (id: "B000010002", name: "휘문고등학교", level: "고등학교", district: "강남구")

    static func write(_ text: String, to path: String) throws {
        try FileSystem.live.replaceAtomically(path, with: Array(text.utf8))
    }

    static func stats(_ player: String, in directory: String) throws -> JSONValue {
        let result = DataCommandsBinary.run(["stats", "--json", "--player", player, "--data-dir", directory])
        #expect(result.status == 0, "\(result.error)")
        return try JSONValue.parse(result.output)
    }

    static func quit(_ session: TmuxSession) throws {
        session.press("C-c")
        try session.waitFor("EXITED:0")
    }

    // MARK: - A game with an older catalog

    /// Reproduced on the old main: game A (starter catalog) synced after an import and deleted
    /// the official school game B played for, with a backup every half second.
    @Test func aGameWithTheStarterCatalogNeverDeletesTheSchoolOfAGameWithTheOfficialOne() throws {
        let shared = try SharedDirectory()
        let alice = try TmuxSession(arguments: ["--lang", "en"], sharedDataDirectory: shared.path, user: "alice")
        defer { alice.close() }
        try alice.chooseSchool(named: "서울고", tapsLabel: "My taps")
        try GameEndToEndTests.tapLikeAPerson(alice, count: 10)

        let list = shared.file("official.csv")
        try Self.write(Self.officialList(edition: "2026-03-20", [Self.seoulHigh, Self.daewon, Self.hwimun]), to: list)
        let imported = DataCommandsBinary.run(["import", list, "--data-dir", shared.path])
        try #require(imported.status == 0, "\(imported.error)")

        let bob = try TmuxSession(arguments: ["--lang", "en", "--school", Self.daewon.id], sharedDataDirectory: shared.path, user: "bob")
        defer { bob.close() }
        try bob.waitFor("My taps 0")
        try GameEndToEndTests.tapLikeAPerson(bob, count: 30)
        // Alice plays on: her game has taken the new catalog, her school followed to its official id.
        for tap in 11...15 {
            alice.type(String(GameEndToEndTests.playerKeys[tap]))
            try alice.waitFor("My taps \(tap)")
        }
        Thread.sleep(forTimeInterval: 1.5)  // several syncs of both games
        let state = try StateStore(directory: shared.path).read().state
        #expect(state.scores[Self.daewon.id] == 30)
        #expect(!shared.entries().contains { $0.contains("backup") }, "nothing was repaired, so nothing was backed up: \(shared.entries())")

        try Self.quit(bob)
        try Self.quit(alice)
        let bobStats = try Self.stats("bob", in: shared.path)
        #expect(bobStats["id"]?.stringValue == Self.daewon.id)
        #expect(bobStats["myTaps"]?.uint64Value == 30)
        #expect(bobStats["count"]?.uint64Value == 30)
        let aliceStats = try Self.stats("alice", in: shared.path)
        #expect(aliceStats["id"]?.stringValue == Self.seoulHigh.id)
        #expect(aliceStats["myTaps"]?.uint64Value == 15)
        #expect(aliceStats["count"]?.uint64Value == 15)
    }

    // MARK: - Editions and a missing catalog

    @Test func anOlderEditionNeedsForceAndEveryScoreSurvivesEitherWay() throws {
        let shared = try SharedDirectory()
        let newer = shared.file("2026.csv"), older = shared.file("2025.csv")
        try Self.write(Self.officialList(edition: "2026-03-20", [Self.seoulHigh, Self.hwimun]), to: newer)
        try Self.write(Self.officialList(edition: "2025-03-25", [Self.seoulHigh, Self.daewon]), to: older)
        try #require(DataCommandsBinary.run(["import", newer, "--data-dir", shared.path]).status == 0)
        _ = try StateStore(directory: shared.path).sync(PendingChanges(player: "kim", scoreDeltas: [Self.hwimun.id: 30]))
        let catalogBefore = try FileIO.read(shared.file("catalog.json"))
        let stateBefore = try FileIO.read(shared.file("state.json"))

        let refused = DataCommandsBinary.run(["import", older, "--data-dir", shared.path])
        #expect(refused.status == 1)
        #expect(refused.error.contains("older") && refused.error.contains("--force"), "\(refused.error)")
        #expect(try FileIO.read(shared.file("catalog.json")) == catalogBefore)
        #expect(try FileIO.read(shared.file("state.json")) == stateBefore)

        let forced = DataCommandsBinary.run(["import", older, "--force", "--data-dir", shared.path])
        #expect(forced.status == 0, "\(forced.error)")
        _ = try StateStore(directory: shared.path).sync(PendingChanges(player: "lee", scoreDeltas: [Self.daewon.id: 30]))
        // And back to the newer edition: the school only the older one lists keeps its taps.
        #expect(DataCommandsBinary.run(["import", newer, "--data-dir", shared.path]).status == 0)
        let rank = DataCommandsBinary.run(["rank", "--json", "--data-dir", shared.path])
        let rows = try #require(try JSONValue.parse(rank.output).arrayValue)
        let counts = Dictionary(uniqueKeysWithValues: rows.compactMap { row in
            row["id"]?.stringValue.map { ($0, row["count"]?.uint64Value ?? 0) }
        })
        #expect(counts[Self.hwimun.id] == 30)
        #expect(counts[Self.daewon.id] == 30)
    }

    /// Reproduced on the old main: without catalog.json, `stats` rewrote the state with the
    /// starter catalog's schools only, and importing again could not bring the scores back.
    @Test func withoutTheCatalogFileReadingCommandsChangeNothing() throws {
        let shared = try SharedDirectory()
        let list = shared.file("official.csv")
        try Self.write(Self.officialList(edition: "2026-03-20", [Self.seoulHigh, Self.daewon]), to: list)
        try #require(DataCommandsBinary.run(["import", list, "--data-dir", shared.path]).status == 0)
        _ = try StateStore(directory: shared.path).sync(PendingChanges(
            player: "bob", scoreDeltas: [Self.daewon.id: 30], playerTaps: 30, switchedToSchool: Self.daewon.id))
        let before = try FileIO.read(shared.file("state.json"))
        try FileManager.default.removeItem(atPath: shared.file("catalog.json"))

        for command in [["stats", "--player", "bob"], ["rank", "--json"], ["search", "대원"], ["stats", "--json"]] {
            let result = DataCommandsBinary.run(command + ["--data-dir", shared.path])
            #expect(result.status == 0, "\(command): \(result.error)")
            #expect(try FileIO.read(shared.file("state.json")) == before, "\(command) rewrote the state")
        }
        try #require(DataCommandsBinary.run(["import", list, "--data-dir", shared.path]).status == 0)
        let stats = try Self.stats("bob", in: shared.path)
        #expect(stats["id"]?.stringValue == Self.daewon.id)
        #expect(stats["count"]?.uint64Value == 30)
        #expect(stats["myTaps"]?.uint64Value == 30)
    }

    // MARK: - Live changes reach running games

    /// Reproduced on the old main: "My taps 47" stayed on screen after a reset and 7 new taps.
    @Test func aResetShowsInTheRunningGameWithinASecond() throws {
        let session = try TmuxSession(arguments: ["--lang", "en"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        try GameEndToEndTests.tapLikeAPerson(session, count: 47)
        try session.waitFor("the taps saved", timeout: 5) { _ in
            (try? StateStore(directory: session.dataDirectory).read().state.scores["T0001"]) == 47
        }
        let reset = DataCommandsBinary.run(["reset", "--yes", "--data-dir", session.dataDirectory])
        try #require(reset.status == 0, "\(reset.error)")
        let resetAt = Date()
        try session.waitFor("My taps 0", timeout: 3)
        #expect(Date().timeIntervalSince(resetAt) < 1.5, "a reset shows within about a second")
        try session.waitFor("School total 0", timeout: 1)
        try GameEndToEndTests.tapLikeAPerson(session, count: 7)
        try Self.quit(session)
        let stats = try Self.stats("tester", in: session.dataDirectory)
        #expect(stats["myTaps"]?.uint64Value == 7)
        #expect(stats["count"]?.uint64Value == 7)
    }

    @Test func aRunningGameCarriesOnWithAnImportedCatalog() throws {
        let shared = try SharedDirectory()
        let session = try TmuxSession(arguments: ["--lang", "en"], sharedDataDirectory: shared.path)
        defer { session.close() }
        try session.chooseSchool(named: "대원외", tapsLabel: "My taps")
        try GameEndToEndTests.tapLikeAPerson(session, count: 5)
        let list = shared.file("official.csv")
        try Self.write(Self.officialList(edition: "2026-03-20", [Self.daewon, Self.hwimun]), to: list)
        try #require(DataCommandsBinary.run(["import", list, "--data-dir", shared.path]).status == 0)
        // The official catalog has 2 schools, the starter hundreds: the ranking shows it.
        session.press("Tab")
        try session.waitFor("the new catalog's ranking", timeout: 3) { $0.contains("휘문고등학교") && !$0.contains("서울고등학교") }
        session.press("Tab")
        for tap in 6...10 {
            session.type(String(GameEndToEndTests.playerKeys[tap]))
            try session.waitFor("My taps \(tap)")
        }
        try Self.quit(session)
        let stats = try Self.stats("tester", in: shared.path)
        #expect(stats["id"]?.stringValue == Self.daewon.id)
        #expect(stats["myTaps"]?.uint64Value == 10)
        #expect(stats["count"]?.uint64Value == 10)
    }

    // MARK: - One name, one game

    @Test func aSecondGameUnderTheSameNameIsRefused() throws {
        let first = try TmuxSession(arguments: ["--lang", "en"])
        defer { first.close() }
        try first.chooseSchool(named: "한빛", tapsLabel: "My taps")
        let second = try TmuxSession(columns: 200, arguments: ["--lang", "en"], sharedDataDirectory: first.dataDirectory)
        defer { second.close() }
        let screen = try second.waitFor("EXITED:1")
        #expect(screen.contains("tester is already playing"), "\(screen)")
        let other = try TmuxSession(arguments: ["--lang", "en"], sharedDataDirectory: first.dataDirectory, user: "friend")
        defer { other.close() }
        try other.chooseSchool(named: "한빛", tapsLabel: "My taps")
    }

    // MARK: - A stuck lock

    /// Reproduced on the old main: the save waited for the lock on the frame loop, so a stuck
    /// lock holder froze input and frames.
    @Test func aStuckLockHolderNeverFreezesTheGameAndNothingIsLost() throws {
        let session = try TmuxSession(arguments: ["--lang", "en"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        let held = try #require(try FileIO.lock("\(session.dataDirectory)/state.lock", wait: true))
        var released = false
        defer { if !released { held.release() } }
        try GameEndToEndTests.tapLikeAPerson(session, count: 20)
        try session.waitFor("Saving is delayed", timeout: 5)
        held.release()
        released = true
        try session.waitFor("the delay to end", timeout: 5) { !$0.contains("Saving is delayed") }
        try Self.quit(session)
        let stats = try Self.stats("tester", in: session.dataDirectory)
        #expect(stats["myTaps"]?.uint64Value == 20)
        #expect(stats["count"]?.uint64Value == 20)
    }

    // MARK: - Imports that cannot be trusted

    @Test func importRefusesEndlessAndCutShortFilesAndCleansStaleTemporaries() throws {
        let shared = try SharedDirectory()
        let endless = DataCommandsBinary.run(["import", "/dev/zero", "--data-dir", shared.path])
        #expect(endless.status == 1)
        #expect(endless.error.contains("larger than 64 MiB"), "\(endless.error)")

        let cut = shared.file("cut.csv")
        try Self.write(Self.officialList(edition: "2026-03-20", [Self.seoulHigh, Self.hwimun, Self.daewon],
                                         finalLineBreak: false, lastProvider: "한국교육시설"), to: cut)
        let refused = DataCommandsBinary.run(["import", cut, "--data-dir", shared.path])
        #expect(refused.status == 1)
        #expect(refused.error.contains("cut short"), "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: shared.file("catalog.json")))

        // The portal's own file ends without a line break: a whole last row is taken.
        let whole = shared.file("whole.csv")
        try Self.write(Self.officialList(edition: "2026-03-20", [Self.seoulHigh, Self.hwimun, Self.daewon], finalLineBreak: false), to: whole)
        try Self.write("{\"half", to: shared.file("catalog.json.tmp-99999"))
        let imported = DataCommandsBinary.run(["import", whole, "--data-dir", shared.path])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("Imported 3 schools"))
        #expect(!shared.entries().contains("catalog.json.tmp-99999"), "a killed import's temporary file is cleaned: \(shared.entries())")
    }

    // MARK: - A read-only directory

    @Test(.enabled("needs root and tmpfs mounts to make a read-only file system") { geteuid() == 0 })
    func aReadOnlyDirectoryWhoseStateNeedsRepairStillPlays() throws {
        let shared = try SharedDirectory()
        guard mount("tmpfs", shared.path, "tmpfs", 0, "size=512k") == 0 else {
            Issue.record("cannot mount a tmpfs: \(String(cString: strerror(errno)))")
            return
        }
        defer { umount2(shared.path, Int32(MNT_DETACH)) }
        try Self.write(TmuxSession.catalogJSON, to: shared.file("catalog.json"))
        try Self.write("""
            {"format": "touchschool-state", "version": 1, "scores": {"T0001": -5, "T0002": 4},
             "players": {"tester": {"school": "T0002", "taps": 4, "bestTapsPerSecond": 2}}}
            """, to: shared.file("state.json"))
        try #require(mount("tmpfs", shared.path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0)

        let stats = DataCommandsBinary.run(["stats", "--json", "--data-dir", shared.path])
        #expect(stats.status == 0, "\(stats.error)")
        #expect(stats.error.contains("T0001 was -5"))
        let rank = DataCommandsBinary.run(["rank", "--json", "--data-dir", shared.path])
        #expect(rank.status == 0, "\(rank.error)")

        let session = try TmuxSession(columns: 160, arguments: ["--lang", "en"], sharedDataDirectory: shared.path)
        defer { session.close() }
        try session.waitFor("The score file has problems")
        session.type("x")  // dismisses the notice
        try session.waitFor("My taps 4")
        for tap in 5...7 {
            session.type(String(GameEndToEndTests.playerKeys[tap]))
            try session.waitFor("My taps \(tap)")
        }
        try session.waitFor("Read-only file system", timeout: 3)
        session.press("C-c")
        let screen = try session.waitFor("EXITED:1")
        #expect(screen.contains("3 taps could not be saved"), "\(screen)")
    }
}
