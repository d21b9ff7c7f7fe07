import Foundation
import TouchSchoolTestSupport
import Testing

/// No waiting on a dead server, with the real binary: a first game on a server that is not
/// running says so at once and starts when the server does; Esc leaves that screen; `rank`,
/// `stats` and `search --server` on a closed port fail at once with one line and status 1.
@Suite(.onOwnThreads, .tags(.process, .tmux), .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux not found: skipped"))
struct DeadServerEndToEndTests {

    @Test func aFirstGameOnAStoppedServerSaysSoAtOnceAndPlaysOnceItRuns() throws {
        let port = try freePort()
        let url = "http://127.0.0.1:\(port)"
        let started = Date()
        let session = try TmuxSession(arguments: ["--lang", "en", "--server", url])
        defer { session.close() }
        let screen = try session.waitFor("Connecting to \(url)…", timeout: 10)
        let shownAfter = Date().timeIntervalSince(started)
        #expect(shownAfter < 2, "the connecting screen came after \(shownAfter) s")
        #expect(screen.contains("Connection refused"), "\(screen)")
        #expect(screen.contains("Esc leave"), "\(screen)")

        let server = try ServerProcess.forGames(port: port)
        defer { server.stop() }
        // Typed only once the game is on: the waiting screen takes no keys but Esc.
        try session.waitFor("Search for your school", timeout: 10)
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        let playing = try session.waitFor("server 127.0.0.1:\(port)")
        #expect(!playing.contains("Connecting to"), "\(playing)")
        try GameEndToEndTests.tapLikeAPerson(session, count: 3)
        try NetworkPlayEndToEndTests.quit(session)
        #expect(try NetworkPlayEndToEndTests.total(NetworkPlayEndToEndTests.hanbit, on: server) == 3)
    }

    @Test func escLeavesTheConnectingScreenInKorean() throws {
        let url = "http://127.0.0.1:\(try freePort())"
        let session = try TmuxSession(arguments: ["--lang", "ko", "--server", url])
        defer { session.close() }
        let screen = try session.waitFor("\(url) 서버에 연결하는 중…", timeout: 10)
        #expect(screen.contains("연결이 거부되었습니다"), "\(screen)")
        session.press("Escape")
        let after = try session.waitFor("EXITED:0", timeout: 5)
        #expect(!after.contains("서버에 연결하는 중"), "the waiting screen was left behind:\n\(after)")
    }

    @Test(arguments: [["rank"], ["stats"], ["search", "한빛"]])
    func theCommandsOnAClosedPortFailAtOnceWithOneLine(command: [String]) throws {
        let url = "http://127.0.0.1:\(try freePort())"
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let started = Date()
        let result = DataCommandsBinary.run(command + ["--server", url, "--data-dir", directory.path])
        let took = Date().timeIntervalSince(started)
        #expect(took < 2, "\(command[0]) took \(took) s")
        #expect(result.status == 1)
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1, "\(result.error)")
        #expect(result.error.contains("cannot reach the server at \(url): connection refused"), "\(result.error)")
        #expect(result.output.isEmpty)
        // Under a Korean locale, in Korean.
        let korean = DataCommandsBinary.run(command + ["--server", url, "--data-dir", directory.path], locale: ["LANG": "ko_KR.UTF-8"])
        #expect(korean.status == 1)
        #expect(korean.error.contains("서버 \(url)에 연결할 수 없습니다: 연결이 거부되었습니다"), "\(korean.error)")
    }

    /// The two wrong addresses a class is handed: `https://` for the plain-HTTP server, and the
    /// SSH port as `--server`. The game's connecting screen and the commands name the mistake (they
    /// said "No answer (timed out): the server's machine is off…" and "invalid constant string").
    @Test func anHTTPSAddressOfThePlainServerAndItsSSHPortAreNamedAsSuch() throws {
        let server = try ServerProcess.forGames(arguments: ["--ssh-port", "0"])
        defer { server.stop() }
        let sshPort = try #require(server.sshPort)
        let https = "https://127.0.0.1:\(server.port)"
        let session = try TmuxSession(arguments: ["--lang", "en", "--server", https])
        defer { session.close() }
        let screen = try session.waitFor("the plain-HTTP diagnosis", timeout: 20) { $0.contains("speaks plain HTTP") }
        #expect(screen.contains("Give the address with http://"), "\(screen)")
        session.press("Escape")
        try session.waitFor("EXITED:0", timeout: 5)

        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rank = DataCommandsBinary.run(["rank", "--server", "http://127.0.0.1:\(sshPort)", "--data-dir", directory.path])
        #expect(rank.status == 1 && rank.error.contains("that is an SSH port"), "\(rank)")
        let korean = DataCommandsBinary.run(["rank", "--server", https, "--data-dir", directory.path], locale: ["LANG": "ko_KR.UTF-8"])
        #expect(korean.status == 1 && korean.error.contains("일반 HTTP로 응답합니다"), "\(korean)")
    }
}
