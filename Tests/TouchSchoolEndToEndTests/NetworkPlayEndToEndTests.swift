import Foundation
import TouchSchoolTestSupport
import Testing
import TouchSchoolCore
import TouchSchoolStore

/// Network play with the real binary: a `touchschool serve` subprocess on loopback (`ServerProcess.forGames`), games under
/// tmux with `--server`, each player with a data directory of their own, and `rank --server`
/// reading the board as scripts do. Every process a test starts is gone when it ends.
@Suite(.onOwnThreads, .tags(.process, .tmux), .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux not found: skipped"))
struct NetworkPlayEndToEndTests {
    static let hanbit = "T0001"

    /// A game on the server, in a data directory of its own (or `dataDirectory`).
    static func player(_ name: String, on server: ServerProcess, dataDirectory: String? = nil) throws -> TmuxSession {
        try TmuxSession(arguments: ["--lang", "en", "--server", server.baseURL], sharedDataDirectory: dataDirectory, user: name)
    }

    /// The server's total for a school, as `rank --server URL --json` prints it.
    static func total(_ school: String, on server: ServerProcess) throws -> UInt64 {
        let result = DataCommandsBinary.run(["rank", "--server", server.baseURL, "--json", "--data-dir", "\(server.folder)/reader"])
        try #require(result.status == 0, "\(result.error)")
        let rows = try JSONValue.parse(result.output).arrayValue ?? []
        return rows.first { $0["id"]?.stringValue == school }?["count"]?.uint64Value ?? 0
    }

    static func quit(_ session: TmuxSession) throws {
        session.press("C-c")
        try session.waitFor("EXITED:0")
    }

    /// Taps `count` times, each shown before the next.
    static func tap(_ session: TmuxSession, _ count: Int, after: Int = 0) throws {
        try GameEndToEndTests.tapLikeAPerson(session, count: count, after: after)
    }

    @Test func twoPlayersSeeEachOthersTapsWithinASecondAndTheTotalsAreExact() throws {
        let server = try ServerProcess.forGames()
        defer { server.stop() }
        let alice = try Self.player("alice", on: server)
        defer { alice.close() }
        let bob = try Self.player("bob", on: server)
        defer { bob.close() }
        try alice.chooseSchool(named: "한빛고", tapsLabel: "My taps")
        try bob.chooseSchool(named: "한빛고", tapsLabel: "My taps")
        try Self.tap(alice, 12)
        // Bob's game shows them without bob doing anything; how soon is measured under load by
        // Benchmarks/load.sh (tap → other player), not timed here.
        try bob.waitFor("alice's taps on bob's screen", timeout: 10) { TmuxSession.number(after: "School total", in: $0) == 12 }
        try Self.tap(bob, 7)
        try alice.waitFor("bob's taps on alice's screen", timeout: 5) { TmuxSession.number(after: "School total", in: $0) == 19 }
        // The rank and the panel come from the server's view of the school, the ranking's rows
        // from the page the game watches (protocol 2: no game holds the whole board).
        try alice.waitFor("#1 nationally")
        alice.press("Tab")
        try alice.waitFor("the ranking's page from the server") { $0.contains("mine #1 of") && $0.contains("19") }
        alice.press("Escape")
        try Self.quit(alice)
        try Self.quit(bob)
        #expect(try Self.total(Self.hanbit, on: server) == 19)
        // The local scores of the players' data directories are untouched.
        #expect(!FileManager.default.fileExists(atPath: "\(alice.dataDirectory)/state.json"))
        let stats = DataCommandsBinary.run(["stats", "--json", "--server", server.baseURL, "--data-dir", alice.dataDirectory])
        #expect(stats.status == 0, "\(stats.error)")
        let me = try JSONValue.parse(stats.output)
        #expect(me["myTaps"]?.uint64Value == 12)
        #expect(me["count"]?.uint64Value == 19)
    }

    @Test func aServerKilledMidPlayAndRestartedEndsWithExactlyTheTapsCounted() throws {
        let server = try ServerProcess.forGames()
        defer { server.stop() }
        let alice = try Self.player("alice", on: server)
        defer { alice.close() }
        try alice.chooseSchool(named: "한빛고", tapsLabel: "My taps")
        try Self.tap(alice, 20)
        server.kill9()
        try Self.tap(alice, 10, after: 20)
        try alice.waitFor("Offline")
        try server.restart()
        try alice.waitFor("the taps to be delivered", timeout: 10) { !$0.contains("Offline") && !$0.contains("Connecting") }
        try Self.tap(alice, 5, after: 30)
        try Self.quit(alice)
        #expect(try Self.total(Self.hanbit, on: server) == 35)
    }

    @Test func aGameStartedWhileTheServerIsDownPlaysOfflineAndDeliversWhenItIsUp() throws {
        let server = try ServerProcess.forGames()
        defer { server.stop() }
        let data = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: data) }
        // Joined once: the game keeps the server's catalog.
        let first = try Self.player("alice", on: server, dataDirectory: data)
        try first.chooseSchool(named: "한빛고", tapsLabel: "My taps")
        try Self.tap(first, 3)
        try Self.quit(first)
        first.close()
        server.stop()

        let again = try Self.player("alice", on: server, dataDirectory: data)
        defer { again.close() }
        try again.waitFor("My taps 3")
        try Self.tap(again, 10, after: 3)
        try again.waitFor("10 taps waiting")
        try server.restart()
        try again.waitFor("the taps to be delivered", timeout: 10) { !$0.contains("Offline") && !$0.contains("Connecting") }
        try Self.quit(again)
        #expect(try Self.total(Self.hanbit, on: server) == 13)
    }

    /// Taps kept offline while the server was down for longer than its burst window are judged by
    /// when they were made, and count.
    @Test func tapsKeptThroughALongOutageAllCount() throws {
        let server = try ServerProcess.forGames()
        defer { server.stop() }
        let alice = try Self.player("alice", on: server)
        defer { alice.close() }
        try alice.chooseSchool(named: "한빛고", tapsLabel: "My taps")
        try Self.tap(alice, 5)
        server.kill9()
        try Self.tap(alice, 20, after: 5)
        try alice.waitFor("Offline")
        Thread.sleep(forTimeInterval: 8)
        try server.restart()
        try alice.waitFor("the taps to be delivered", timeout: 10) { !$0.contains("Offline") && !$0.contains("Connecting") }
        try Self.quit(alice)
        let total = try Self.total(Self.hanbit, on: server)
        // The server keeps each device's last judged time with the scores: the 20 taps played
        // offline, longer ago than the burst window when the server is back, all count.
        #expect(total == 25, "the server counted \(total) of 25")
    }

    @Test func aClientKilledLosesAtMostItsLastSecond() throws {
        let server = try ServerProcess.forGames()
        defer { server.stop() }
        let data = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let game = try Self.player("alice", on: server, dataDirectory: data)
        try game.chooseSchool(named: "한빛고", tapsLabel: "My taps")
        var tapTimes: [Date] = []
        for tap in 1...30 {
            try Self.tap(game, 1, after: tap - 1)
            tapTimes.append(Date())
        }
        kill(try game.gamePID(), SIGKILL)
        let killed = Date()
        try game.waitFor("EXITED:137")
        game.close()
        let surelyKept = tapTimes.filter { killed.timeIntervalSince($0) > 1 }.count
        // What the killed game kept in its outbox is delivered by the next game.
        let next = try Self.player("alice", on: server, dataDirectory: data)
        defer { next.close() }
        try next.waitFor("the game", timeout: 10) { $0.contains("My taps") && !$0.contains("Connecting") && !$0.contains("Offline") }
        Thread.sleep(forTimeInterval: 1)
        try Self.quit(next)
        let total = try Self.total(Self.hanbit, on: server)
        #expect(total >= UInt64(surelyKept) && total <= 30, "total \(total), taps older than a second at the kill \(surelyKept)")
    }

    /// A game on the server reached by another name of the same machine (`localhost`), as a
    /// player who typed the teacher's hostname instead of the address would.
    static func player(_ name: String, at url: String, dataDirectory: String) throws -> TmuxSession {
        try TmuxSession(arguments: ["--lang", "en", "--server", url], sharedDataDirectory: dataDirectory, user: name)
    }

    /// Two games of one installation on one server through two of its names: one battle, one
    /// numbering. The second is refused while the first plays; afterwards each name plays the
    /// same battle and every tap counts once.
    @Test func twoNamesOfOneServerAreOneBattleForOneInstallation() throws {
        let server = try ServerProcess.forGames()
        defer { server.stop() }
        let data = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let byAddress = try Self.player("alice", at: server.baseURL, dataDirectory: data)
        defer { byAddress.close() }
        try byAddress.chooseSchool(named: "한빛고", tapsLabel: "My taps")
        try Self.tap(byAddress, 10)

        let byName = try Self.player("alice", at: "http://localhost:\(server.port)", dataDirectory: data)
        defer { byName.close() }
        try byName.waitFor("is already playing this battle")
        try byName.waitFor("EXITED:1")

        try Self.tap(byAddress, 5, after: 10)
        try Self.quit(byAddress)
        let again = try Self.player("alice", at: "http://localhost:\(server.port)", dataDirectory: data)
        defer { again.close() }
        try again.waitFor("My taps 15")
        try Self.tap(again, 8, after: 15)
        try again.waitFor("the taps to be delivered", timeout: 10) { !$0.contains("Offline") && !$0.contains("Connecting") && !$0.contains("waiting") }
        try Self.quit(again)
        #expect(try Self.total(Self.hanbit, on: server) == 23)
        // One battle folder, reached by both names.
        #expect(FileIO.list("\(data)/battles").count == 1)
        #expect(Set(FileIO.list("\(data)/servers")) == ["127.0.0.1_\(server.port)", "localhost_\(server.port)"])
    }

    /// Taps made offline through one name of the server are delivered through another.
    @Test func tapsWaitingUnderOneAddressAreSentThroughAnother() throws {
        let server = try ServerProcess.forGames()
        defer { server.stop() }
        let data = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = try Self.player("alice", at: server.baseURL, dataDirectory: data)
        defer { first.close() }
        try first.chooseSchool(named: "한빛고", tapsLabel: "My taps")
        try Self.tap(first, 5)
        _ = Wait.untilBlocking(timeout: 10, every: .milliseconds(100)) { try Self.total(Self.hanbit, on: server) >= 5 }
        server.stop()
        try Self.tap(first, 20, after: 5)
        try first.waitFor("20 taps waiting")
        try Self.quit(first)

        try server.restart()
        let second = try Self.player("alice", at: "http://localhost:\(server.port)", dataDirectory: data)
        defer { second.close() }
        try second.waitFor("My taps 25")
        try second.waitFor("the taps to be delivered", timeout: 10) { !$0.contains("Offline") && !$0.contains("Connecting") && !$0.contains("waiting") }
        try Self.quit(second)
        #expect(try Self.total(Self.hanbit, on: server) == 25)
    }

    /// A student who played on the class's server and later starts the game without `--server`
    /// (from the same data directory) is told the game plays on this computer only, with the
    /// command that joins the server again; the status line says where it plays. They used to
    /// play alone, silently.
    @Test func aGameStartedWithoutServerAfterOneOnAServerSaysItPlaysLocallyAndHowToJoin() throws {
        let server = try ServerProcess.forGames()
        defer { server.stop() }
        let data = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let online = try Self.player("alice", at: server.baseURL, dataDirectory: data)
        defer { online.close() }
        try online.chooseSchool(named: "한빛고", tapsLabel: "My taps")
        try Self.quit(online)

        let alone = try TmuxSession(arguments: ["--lang", "en"], sharedDataDirectory: data, user: "alice")
        defer { alone.close() }
        let told = try alone.waitFor("the local play notice") { $0.contains("Press any key") }
        let joined = told.replacingOccurrences(of: "|", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(joined.contains("Playing on this computer only: the taps stay here."), "\(told)")
        #expect(joined.contains("touchschool --server \(server.baseURL)"), "\(told)")
        alone.press("Enter")
        let playing = try alone.waitFor("the game") { !$0.contains("Press any key") }
        #expect(playing.split(separator: "\n").last?.contains("this computer only") == true, "\(playing)")
        alone.press("C-c")
        try alone.waitFor("EXITED:0")
    }
}

extension ServerProcess {
    /// A server for the games and pages: its data directory holds `catalog`, the catalog file to
    /// play with (the sessions' test catalog by default; nil: the installation's starter catalog),
    /// and `scores`, totals the battle starts with (a state file written before the start).
    /// `host`: where it listens (0.0.0.0: every interface; `baseURL` reaches it at 127.0.0.1 all
    /// the same).
    static func forGames(port: Int = 0, catalog: String? = TmuxSession.catalogJSON, scores: [String: UInt64] = [:],
                         arguments: [String] = [], host: String? = nil) throws -> ServerProcess {
        let data = TemporaryDirectory().path
        if let catalog {
            try FileSystem.live.replaceAtomically("\(data)/catalog.json", with: Array(catalog.utf8))
        }
        if !scores.isEmpty {
            let lines = scores.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
            let state = #"{"format": "touchschool-state", "version": 1, "scores": {"# + lines + #"}, "players": {}}"#
            try FileSystem.live.replaceAtomically("\(data)/state.json", with: Array(state.utf8))
        }
        return try ServerProcess.start(dataDirectory: data, host: host, port: port, arguments: arguments)
    }
}
