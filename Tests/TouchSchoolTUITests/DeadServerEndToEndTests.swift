import Foundation
import TouchSchoolTestSupport
import Testing

/// No waiting on a dead server, with the real binary: a first game on a server that is not
/// running says so at once and starts when the server does; Esc leaves that screen; `rank`,
/// `stats` and `search --server` on a closed port fail at once with one line and status 1.
@Suite(.onOwnThreads, .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux not found: skipped"))
struct DeadServerEndToEndTests {
    typealias ServerProcess = NetworkPlayEndToEndTests.ServerProcess

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

        let server = try ServerProcess(port: port)
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
        let directory = try TemporaryDirectory()
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
    }
}
