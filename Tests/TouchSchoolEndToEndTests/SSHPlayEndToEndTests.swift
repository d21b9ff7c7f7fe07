import Foundation
import Testing
import TouchSchoolTestSupport

/// The game over SSH: `touchschool serve --ssh-port` with the real OpenSSH client, under tmux for
/// the game itself, and as plain subprocesses for what must be refused. Every key is made by
/// ssh-keygen for the test; every client is ended (and reaped) when its test ends. The tests run
/// side by side: each has its own server (its own data directory, host key and ports), its own
/// keys, tmux servers and scratch folders, and reads only its own server's counts and log.
@Suite(.onOwnThreads, .tags(.process, .tmux, .ssh),
       .enabled(if: ["/usr/bin/tmux", "/usr/bin/ssh", "/usr/bin/ssh-keygen"].allSatisfy(FileManager.default.isExecutableFile(atPath:)),
                "tmux or OpenSSH's client not found: skipped"))
struct SSHPlayEndToEndTests {

    /// 민족사관고등학교 in the starter catalog, found by its short name 민사고.
    static let minsago = "S0336"

    /// A key pair made by ssh-keygen: the private key's path.
    static func makeKey(_ name: String, in folder: TemporaryDirectory) throws -> String {
        let path = "\(folder.path)/\(name)"
        let made = Subprocess.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path])
        try #require(made.status == 0, "ssh-keygen: \(made.error)")
        return path
    }

    /// The client's options: no host key checks (a throwaway server), no keys but `key`, the
    /// language sent as the game reads it; OpenSSH's messages quiet but errors (`logLevel`: INFO
    /// is what a player's client shows by default).
    static func sshArguments(key: String?, port: Int, user: String, logLevel: String = "ERROR") -> [String] {
        var arguments = ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=\(logLevel)",
                         "-o", "SendEnv=LANG", "-p", "\(port)"]
        if let key {
            arguments += ["-o", "IdentitiesOnly=yes", "-i", key]
        } else {
            arguments += ["-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=password"]
        }
        return arguments + ["\(user)@127.0.0.1"]
    }

    /// `ssh` to the server's game under tmux, in `language`.
    /// `extra`: more options of ssh (`-b ADDRESS`: connect from that address).
    static func player(_ user: String, key: String?, on server: ServerProcess, language: String = "C.UTF-8",
                       extra: [String] = [], logLevel: String = "ERROR", columns: Int = 100, rows: Int = 30) throws -> TmuxSession {
        let port = try #require(server.sshPort)
        return try TmuxSession(columns: columns, rows: rows, arguments: [], user: user,
                               program: ["/usr/bin/env", "LANG=\(language)", "/usr/bin/ssh"] + extra
                                   + sshArguments(key: key, port: port, user: user, logLevel: logLevel))
    }

    /// An admin API request with the server's token (`admin.token` in its data directory).
    static func admin(_ method: String, _ path: String, on server: ServerProcess) throws -> String {
        let token = try String(contentsOfFile: "\(server.dataDirectory)/admin.token", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let result = Subprocess.run("/usr/bin/curl", ["-sf", "--max-time", "5", "-X", method, "-H", "Authorization: Bearer \(token)",
                                                      "\(server.baseURL)\(path)"])
        try #require(result.status == 0, "\(method) \(path): \(result)")
        return result.output
    }

    /// `ssh` run to its end (at most 20 s) with `extra` options before the destination and
    /// `command` after it; standard input from /dev/null.
    static func runSSH(_ extra: [String], key: String, on server: ServerProcess, command: [String] = [],
                       environment: [String: String]? = nil) throws -> (status: Int32, output: String, error: String) {
        let port = try #require(server.sshPort)
        let arguments = sshArguments(key: key, port: port, user: "player")
        return Subprocess.run("/usr/bin/timeout", ["20", "/usr/bin/ssh"] + extra + arguments + command, environment: environment)
    }

    static func screenLines(_ session: TmuxSession) -> [Substring] {
        session.screen().split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test func playsTheBattleOverSSHAndTheSameKeyComesBackToItsSchool() throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let aliceKey = try Self.makeKey("alice", in: keys), bobKey = try Self.makeKey("bob", in: keys)
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0"])
        defer { server.stop() }

        let alice = try Self.player("alice", key: aliceKey, on: server)
        defer { alice.close() }
        try alice.chooseSchool(named: "민사고", tapsLabel: "My taps")
        #expect(Self.screenLines(alice)[1].contains("민족사관고등학교"))
        try GameEndToEndTests.tapLikeAPerson(alice, count: 20)
        // Counted by the server, in the battle every client sees.
        _ = Wait.untilBlocking(timeout: 10, every: .milliseconds(100)) { try NetworkPlayEndToEndTests.total(Self.minsago, on: server) >= 20 }
        #expect(try NetworkPlayEndToEndTests.total(Self.minsago, on: server) == 20)
        let metrics = Subprocess.run("/usr/bin/curl", ["-sf", "--max-time", "5", "\(server.baseURL)/metrics"]).output
        #expect(metrics.contains("touchschool_open_ssh_games 1"), "\(metrics)")

        // A larger window (a window-change request) is drawn whole: rows past the old 30 fill.
        alice.resize(columns: 120, rows: 40)
        try alice.waitFor("the game redrawn at 120 × 40") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 40 && lines[30..<40].contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                && screen.contains("My taps 20")
        }
        alice.press("C-c")
        try alice.waitFor("EXITED:0")

        // The same key again: the game starts on the school, with the taps; its batches are numbered
        // after the ones the server has (numbered from 1 again, they would be taken as repeats).
        let again = try Self.player("alice", key: aliceKey, on: server)
        defer { again.close() }
        try again.waitFor("My taps 20")
        #expect(Self.screenLines(again)[1].contains("민족사관고등학교"))
        try GameEndToEndTests.tapLikeAPerson(again, count: 5, after: 20)
        _ = Wait.untilBlocking(timeout: 10, every: .milliseconds(100)) { try NetworkPlayEndToEndTests.total(Self.minsago, on: server) >= 25 }
        #expect(try NetworkPlayEndToEndTests.total(Self.minsago, on: server) == 25)
        again.press("C-c")
        try again.waitFor("EXITED:0")

        // Another key is another player, who starts at the search, in the language sent (LANG);
        // Esc on that first screen asks, and Esc again ends the session.
        let bob = try Self.player("bob", key: bobKey, on: server, language: "ko_KR.UTF-8")
        defer { bob.close() }
        try bob.waitFor("학교를 검색해주세요")
        bob.press("Escape")
        try bob.waitFor("종료할까요?")
        bob.press("Escape")
        try bob.waitFor("EXITED:0")

        // A client with no key (any password) plays too, as a player of that session only.
        let guest = try Self.player("guest", key: nil, on: server)
        defer { guest.close() }
        try guest.waitFor("password")
        guest.press("Enter")
        // Told in the game what the password prompt could not say, until a key is pressed.
        let told = try guest.waitFor("You joined without an SSH key")
        #expect(told.contains("any password works") && told.contains("ssh-keygen"), "\(told)")
        guest.press("Space")
        try guest.waitFor("Search for your school")
        guest.press("C-c")
        try guest.waitFor("EXITED:0")
        #expect(try NetworkPlayEndToEndTests.total(Self.minsago, on: server) == 25)

        // Esc, Esc quits that first screen, as its footer says, the notice over it or not: the
        // first Esc closes it and asks (it only closed it, and quitting took three).
        let leaving = try Self.player("guest", key: nil, on: server)
        defer { leaving.close() }
        try leaving.waitFor("password")
        leaving.press("Enter")
        try leaving.waitFor("You joined without an SSH key")
        leaving.press("Escape")
        let asked = try leaving.waitFor("Quit?")
        #expect(!asked.contains("You joined without an SSH key"), "\(asked)")
        leaving.press("Escape")
        try leaving.waitFor("EXITED:0")
    }

    /// A round over SSH: the game, which runs in the server, counts down in large digits, shows
    /// the seconds left and its place, then its result in Korean, as a terminal game does.
    @Test func aRoundCountsDownRacesAndEndsOnTheSSHPlayersPlace() throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let key = try Self.makeKey("minji", in: keys)
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0"])
        defer { server.stop() }
        let minji = try Self.player("minji", key: key, on: server, language: "ko_KR.UTF-8")
        defer { minji.close() }
        try minji.chooseSchool(named: "민사고", tapsLabel: "내 터치")

        _ = try Self.admin("POST", "/v1/admin/rounds?seconds=5&title=%EB%AF%BC%EC%82%AC%EA%B3%A0%20%EB%9D%BC%EC%9A%B4%EB%93%9C", on: server)
        // The countdown's digit, five rows of blocks, under the title.
        let countdown = try minji.waitFor("the countdown", timeout: 5) { $0.contains("민사고 라운드") && $0.contains("█████") }
        #expect(countdown.contains("█████"))
        try minji.waitFor("the race", timeout: 6) { $0.contains("남은 시간") }
        try GameEndToEndTests.tapLikeAPerson(minji, count: 8, label: "내 터치")
        let racing = try minji.waitFor("my place", timeout: 6) { $0.contains("1위 / 1명") }
        #expect(racing.contains("민사고 라운드 · 남은 시간"), "\(racing)")
        // The window closes 5 s after it opened; final a second after the grace: the result box.
        let result = try minji.waitFor("the result", timeout: 20) { $0.contains("+---") && $0.contains("1위 / 1명") && $0.contains("8번") }
        #expect(result.contains("민사고 라운드"))
        minji.press("C-c")
        try minji.waitFor("EXITED:0")
    }

    /// A quit, as a student's OpenSSH shows it (LogLevel INFO): its plain "Connection … closed.",
    /// not "closed by remote host", which reads as an error.
    @Test func aQuitEndsWithTheClientsPlainClosedLine() throws {
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0"])
        defer { server.stop() }
        let guest = try Self.player("guest", key: nil, on: server, logLevel: "INFO")
        defer { guest.close() }
        try guest.waitFor("password")
        guest.press("Enter")
        try guest.waitFor("You joined without an SSH key")
        guest.press("Space")
        try guest.chooseSchool(named: "민사고", tapsLabel: "My taps")
        guest.press("C-c")
        let after = try guest.waitFor("EXITED:0")
        #expect(after.contains("Connection to 127.0.0.1 closed."), "\(after)")
        #expect(!after.contains("closed by remote host"), "\(after)")
    }

    /// The teacher's minute line counts the SSH players with the others: it said "0 players" with
    /// one playing over SSH.
    @Test func theActivityLineCountsSSHPlayers() throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let key = try Self.makeKey("carol", in: keys)
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0", "--activity-seconds", "1"])
        defer { server.stop() }
        let carol = try Self.player("carol", key: key, on: server)
        defer { carol.close() }
        try carol.chooseSchool(named: "민사고", tapsLabel: "My taps")
        #expect(Wait.untilBlocking(timeout: 10) { server.output.contains("1 player connected") || server.output.contains("접속 1명") },
                "\(server.output)")
        carol.press("C-c")
        _ = try carol.waitFor("EXITED:0")
        #expect(Wait.untilBlocking(timeout: 10) { server.output.contains("0 players connected") || server.output.contains("접속 0명") },
                "\(server.output)")
    }

    @Test func theGamesKeysArriveOverSSH() throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let key = try Self.makeKey("dana", in: keys)
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0"])
        defer { server.stop() }
        let dana = try Self.player("dana", key: key, on: server)
        defer { dana.close() }
        try dana.chooseSchool(named: "민사고", tapsLabel: "My taps")
        // Tab: the ranking; → the next league; Tab back to the game.
        dana.press("Tab")
        try dana.waitFor("Ranking · ")
        let first = try #require(Self.screenLines(dana).first { $0.contains("Ranking · ") })
        dana.press("Right")
        try dana.waitFor("the next league") { $0.contains("Ranking · ") && !$0.contains(first) }
        dana.press("Tab")
        try dana.waitFor("My taps 0")
        // F1: help; Esc: back (an Esc alone in its packet is the Esc key).
        dana.press("F1")
        try dana.waitFor("Every press adds 1 to your school's score")
        dana.press("Escape")
        try dana.waitFor("My taps 0")
        // PgDn in the ranking: the list moves (the escape sequences of the list keys arrive).
        dana.press("Tab")
        try dana.waitFor("Ranking · ")
        let ranking = dana.screen()
        dana.press("PageDown")
        try dana.waitFor("the ranking scrolled") { $0.contains("Ranking · ") && $0 != ranking }
        dana.press("Tab")
        try dana.waitFor("My taps 0")
        // A bracketed paste is never taps; a Hangul key is one.
        dana.paste("pasted text, not taps")
        Thread.sleep(forTimeInterval: 1)
        #expect(TmuxSession.number(after: "My taps", in: dana.screen()) == 0, "\(dana.screen())")
        try GameEndToEndTests.tapLikeAPerson(dana, count: 1)
        dana.type("ㅎ")
        try dana.waitFor("My taps 2")
        // F2: choose another school, at the search, which finds it by 초성 and by the Latin
        // letters of a Korean keyboard's keys (민사고 typed with the input method off).
        dana.press("F2")
        try dana.waitFor("Search for your school")
        dana.type("ㅁㅅㄱ")
        try dana.waitFor("the school found") { $0.contains("> ㅁㅅㄱ") && $0.contains(">* 민족사관고등학교") } // selected, my school
        for _ in 0..<3 { dana.press("BSpace") }
        try dana.waitFor("> _") // the query emptied by Backspace
        dana.type("alstkrh")
        try dana.waitFor("the school found") { $0.contains("> alstkrh") && $0.contains(">* 민족사관고등학교") }
        dana.press("C-c")
        try dana.waitFor("EXITED:0")
    }

    @Test func aServerShuttingDownEndsTheGamesAndKeepsEveryTap() throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let key = try Self.makeKey("alice", in: keys)
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0"])
        defer { server.stop() }
        let alice = try Self.player("alice", key: key, on: server)
        defer { alice.close() }
        // Bora's client sends a Korean LANG: she is told why in Korean.
        let bora = try Self.player("bora", key: try Self.makeKey("bora", in: keys), on: server, language: "ko_KR.UTF-8")
        defer { bora.close() }
        try alice.chooseSchool(named: "민사고", tapsLabel: "My taps")
        try bora.chooseSchool(named: "민사고", tapsLabel: "내 터치")
        try GameEndToEndTests.tapLikeAPerson(alice, count: 15)
        try GameEndToEndTests.tapLikeAPerson(bora, count: 10, label: "내 터치")
        // SIGTERM at once, taps still in the game: the game hands them over before the battle
        // closes (a shutdown that took longer than the harness's 5 s would be killed, and lose them).
        server.stop()
        let ended = try alice.waitFor("EXITED:0")
        #expect(ended.contains("touchschool: the server is shutting down; play again once it is back"), "\(ended)")
        let boraEnded = try bora.waitFor("EXITED:0")
        #expect(boraEnded.contains("touchschool: 서버가 종료되는 중입니다; 서버가 돌아오면 다시 플레이하세요"), "\(boraEnded)")
        try server.restart()
        #expect(try NetworkPlayEndToEndTests.total(Self.minsago, on: server) == 25)
    }

    @Test func anAddressHoldsItsConnectionsAndAnIdleGameEnds() throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let aliceKey = try Self.makeKey("alice", in: keys), bobKey = try Self.makeKey("bob", in: keys)
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0", "--ssh-connections-per-address", "1",
                                                                  "--ssh-idle-seconds", "3", "--ssh-login-grace-seconds", "2"])
        defer { server.stop() }
        let alice = try Self.player("alice", key: aliceKey, on: server)
        defer { alice.close() }
        try alice.waitFor("Search for your school")
        // A second connection from the same address is closed before the handshake.
        let second = try Self.runSSH([], key: bobKey, on: server)
        #expect(second.status == 255, "\(second)")
        #expect(!second.output.contains("Search for your school"))
        // Alice types nothing: her game ends after 3 s, saying why, and the address's place is free again.
        let ended = try alice.waitFor("EXITED:0", timeout: 15)
        #expect(ended.contains("without a key"), "\(ended)")
        let bob = try Self.player("bob", key: bobKey, on: server)
        defer { bob.close() }
        try bob.waitFor("Search for your school")
        // Closing the client (its window) ends its game on the server.
        bob.close()

        _ = Wait.untilBlocking(timeout: 10) { server.printed.components(separatedBy: "An SSH player left").count - 1 >= 2 }
        #expect(server.printed.components(separatedBy: "An SSH player left").count - 1 == 2, "\(server.printed)")
        // A connection that never starts a game (`ssh -N`: no session) is closed after the login
        // grace (2 s here), not at once (as a refused one would be) nor never. Bob's place is given
        // back when his socket closes, which can come after the log says he left: a connection
        // refused at once for it is tried again, for at most 10 s.
        let deadline = Date().addingTimeInterval(10)
        var idle: (status: Int32, output: String, error: String)
        var took: TimeInterval
        repeat {
            let started = Date()
            idle = try Self.runSSH(["-N"], key: bobKey, on: server)
            took = Date().timeIntervalSince(started)
        } while took < 0.5 && idle.error.contains("kex_exchange_identification") && Date() < deadline
        #expect(idle.status == 255 && took >= 1.5 && took < 10, "\(idle) after \(took) s")
    }

    /// Seen before: 60 games at 500 × 200 from one address cost about 3.5 MB each (6.7 GB at
    /// the 2,000-game cap). A game is drawn at 256 × 96 at most, and an address holds as many
    /// connections as its memory allows at that size (64 MiB: 64), whatever more it was given.
    @Test func gamesAtTheLargestTerminalsAreBoundedInMemoryAndPerAddress() throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        // A key each: a second connection of one device takes its game's place.
        let gameKeys = try (0..<9).map { try Self.makeKey("large\($0)", in: keys) }
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0", "--ssh-connections-per-address", "1000"])
        defer { server.stop() }
        let pid = server.pid
        func residentKB() throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        // One game first: the server's one-time costs (its first SSH handshake, the game's code) out of the figure.
        let first = try Self.player("first", key: gameKeys[0], on: server, columns: 500, rows: 200)
        defer { first.close() }
        try first.waitFor("Search for your school")
        let before = try residentKB()
        let games = try gameKeys.dropFirst().map { try Self.player("large", key: $0, on: server, columns: 500, rows: 200) }
        defer { for game in games { game.close() } }
        for game in games { try game.waitFor("Search for your school") }
        let perGame = (try residentKB() - before) / games.count
        #expect(perGame <= 1_600, "each game at 500 × 200 holds \(perGame) KB (3.5 MB before the bound)")

        // The address's connections: 64 held (less the 9 games above), the rest closed at once.
        let port = try #require(server.sshPort)
        var sockets: [Int32] = []
        defer { for socket in sockets { Glibc.close(socket) } }
        for _ in 0..<70 {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var target = sockaddr_in()
            target.sin_family = sa_family_t(AF_INET)
            target.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, "127.0.0.1", &target.sin_addr)
            let connected = withUnsafePointer(to: &target) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            try #require(connected == 0)
            sockets.append(socket)
        }
        // A socket the server closed reads its end (0); one it holds has nothing to read but its
        // greeting. Looked at as the server takes them up (within 5 s), then once more.
        var ended = Set<Int32>()
        func closed() -> Int {
            for socket in sockets where !ended.contains(socket) {
                var buffer = [UInt8](repeating: 0, count: 256)
                while true {
                    var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 0) > 0 else { break }
                    let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { ended.insert(socket); break }
                }
            }
            return ended.count
        }
        let expected = 70 - (64 - 9)
        _ = Wait.untilBlocking(timeout: 5) { closed() >= expected }
        Thread.sleep(forTimeInterval: 0.2)
        #expect(closed() == expected, "\(ended.count) of 70 closed")
    }

    @Test func anSSHPlayerCountsUnderItsOwnAddressAndABannedAddressIsRefused() throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let key = try Self.makeKey("carol", in: keys)
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0"])
        defer { server.stop() }
        // From 127.0.0.2 (all of 127/8 is this machine): its batches carry that address, not the
        // server's own or a placeholder.
        let carol = try Self.player("carol", key: key, on: server, extra: ["-b", "127.0.0.2"])
        defer { carol.close() }
        try carol.chooseSchool(named: "민사고", tapsLabel: "My taps")
        try GameEndToEndTests.tapLikeAPerson(carol, count: 3)
        var devices = ""
        _ = Wait.untilBlocking(timeout: 10, every: .milliseconds(100)) {
            devices = try Self.admin("GET", "/v1/admin/devices", on: server)
            return devices.contains("\"accepted\":3")
        }
        #expect(devices.contains("\"player\":\"carol\""), "\(devices)")
        #expect(devices.contains("\"addresses\":[\"127.0.0.2\"]"), "\(devices)")
        #expect(devices.contains("\"client\":\"ssh\""), "the operator sees an SSH session as one: \(devices)")
        carol.press("C-c")
        try carol.waitFor("EXITED:0")

        // A banned address is refused as every player from it is, what to do first, in the
        // player's language (`Strings.refusal`, the terminal game's words).
        _ = try Self.admin("POST", "/v1/admin/addresses/127.0.0.3/ban", on: server)
        for (language, said) in [("C.UTF-8", "touchschool: Ask the operator: this address is banned, so the server refuses it."),
                                 ("ko_KR.UTF-8", "touchschool: 운영자에게 문의하세요: 이 주소는 차단되어 서버가 받지 않습니다.")] {
            let banned = try Self.player("carol", key: key, on: server, language: language, extra: ["-b", "127.0.0.3"], columns: 80, rows: 24)
            defer { banned.close() }
            try banned.waitFor("EXITED:1")
            #expect(Self.refusal(banned) == Self.unspaced(said), "\(banned.screen())")
        }
    }

    /// What an SSH player refused before the game reads (the client's standard error, wrapped
    /// at the terminal's edge): the rows from its "touchschool: " to the shell's exit line, joined
    /// without their spaces, which a wrap may fall on.
    static func refusal(_ session: TmuxSession) -> String {
        let lines = screenLines(session)
        guard let first = lines.firstIndex(where: { $0.hasPrefix("touchschool: ") }) else { return "" }
        let end = lines[first...].firstIndex(where: { $0.hasPrefix("EXITED:") }) ?? lines.endIndex
        return unspaced(lines[first..<end].joined())
    }

    static func unspaced(_ text: String) -> String { String(text.filter { !$0.isWhitespace }) }

    /// A battle as full as its server allows (`serve --maximum-devices 1`): a new SSH player is
    /// told to ask the operator for room, first, in their language; the player it holds plays on.
    @Test func aFullBattleTellsANewSSHPlayerToAskTheOperatorForRoom() throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let carol = try Self.makeKey("carol", in: keys), dave = try Self.makeKey("dave", in: keys)
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0", "--maximum-devices", "1"])
        defer { server.stop() }
        let first = try Self.player("carol", key: carol, on: server)
        defer { first.close() }
        try first.chooseSchool(named: "민사고", tapsLabel: "My taps")
        try GameEndToEndTests.tapLikeAPerson(first, count: 1)
        // Its tap saved, the battle holds its one device.
        try #require(Wait.untilBlocking(timeout: 10, every: .milliseconds(100)) {
            try Self.admin("GET", "/v1/admin/devices", on: server).contains("\"accepted\":1")
        })
        for (language, said) in [("C.UTF-8", "touchschool: Ask the operator for room: the battle is full and takes no new device."),
                                 ("ko_KR.UTF-8", "touchschool: 운영자에게 자리를 요청하세요: 대항전이 가득 차서 새 기기를 받지 않습니다.")] {
            let refused = try Self.player("dave", key: dave, on: server, language: language, columns: 80, rows: 24)
            defer { refused.close() }
            try refused.waitFor("EXITED:1")
            #expect(Self.refusal(refused) == Self.unspaced(said), "\(refused.screen())")
        }
        first.press("C-c")
        try first.waitFor("EXITED:0")
    }

    @Test func refusesCommandsSubsystemsShellsWithoutATerminalAndPortForwards() throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let key = try Self.makeKey("player", in: keys)
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0"])
        defer { server.stop() }

        let command = try Self.runSSH([], key: key, on: server, command: ["echo", "ran-a-command"])
        #expect(command.status != 0 && command.status != 124, "\(command)")
        #expect(!command.output.contains("ran-a-command"))
        #expect(command.error.contains("runs no commands"), "\(command.error)")

        // In the language the client sends (its LANG).
        let korean = try Self.runSSH([], key: key, on: server, command: ["echo", "ran-a-command"],
                                     environment: ["LANG": "ko_KR.UTF-8", "PATH": "/usr/bin:/bin", "HOME": keys.path])
        #expect(korean.status != 0 && !korean.output.contains("ran-a-command"), "\(korean)")
        #expect(korean.error.contains("touchschool: 이 서버는 게임만 합니다; 명령은 실행하지 않습니다"), "\(korean.error)")

        let subsystem = try Self.runSSH(["-s"], key: key, on: server, command: ["sftp"])
        #expect(subsystem.status != 0 && subsystem.status != 124, "\(subsystem)")

        let noTerminal = try Self.runSSH(["-T"], key: key, on: server)
        #expect(noTerminal.status != 0 && noTerminal.status != 124, "\(noTerminal)")
        #expect(noTerminal.error.contains("needs a terminal"), "\(noTerminal.error)")

        // A terminal that cannot place the cursor cannot show the game.
        let dumb = try Self.runSSH(["-tt"], key: key, on: server, environment: ["TERM": "dumb", "PATH": "/usr/bin:/bin", "HOME": keys.path])
        #expect(dumb.status != 0 && dumb.status != 124, "\(dumb)")
        #expect((dumb.output + dumb.error).contains("cannot place the cursor"), "\(dumb)")

        // A remote forward is refused: the client, told to give up then, ends at once.
        let remote = try Self.runSSH(["-N", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:\(server.port)"], key: key, on: server)
        #expect(remote.status != 0 && remote.status != 124, "\(remote)")

        // A local forward: the client listens, but the server opens nothing through it.
        let local = try freePort()
        let logs = TemporaryDirectory()
        defer { logs.remove() }
        let port = try #require(server.sshPort)
        // (At the log level that shows the refusal: ssh takes the first value an option is given.)
        let started = Subprocess.start("/usr/bin/ssh", ["-N", "-o", "LogLevel=INFO", "-L", "\(local):127.0.0.1:\(server.port)"]
                                           + Self.sshArguments(key: key, port: port, user: "player"),
                                       outputPath: "\(logs.path)/out", errorPath: "\(logs.path)/err")
        guard case let .success(pid) = started else { Issue.record("ssh did not start: \(started)"); return }
        defer {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        var refused = false
        _ = Wait.untilBlocking(timeout: 15, every: .milliseconds(200)) {
            let through = Subprocess.run("/usr/bin/curl", ["-s", "--max-time", "3", "http://127.0.0.1:\(local)/healthz"])
            #expect(through.status != 0, "an HTTP answer came through the forward: \(through.output)")
            refused = through.status != 0 && ((try? String(contentsOfFile: "\(logs.path)/err", encoding: .utf8)) ?? "").contains("open failed")
            return through.status == 0 || refused
        }
        #expect(refused, "the client never tried the forward: \((try? String(contentsOfFile: "\(logs.path)/err", encoding: .utf8)) ?? "")")
    }

    @Test func theHostKeyIsMadeOnceAndItsFingerprintPrinted() throws {
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0"])
        defer { server.stop() }
        let path = "\(server.dataDirectory)/ssh_host_ed25519_key"
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue == 0o600)
        let printed = try #require(Self.fingerprint(in: server.printed))
        // What a client sees: the key the server offers, as ssh-keygen prints its fingerprint.
        let port = try #require(server.sshPort)
        let scanned = Subprocess.run("/usr/bin/sh", ["-c", "/usr/bin/timeout 20 /usr/bin/ssh-keyscan -t ed25519 -p \(port) 127.0.0.1 2>/dev/null | /usr/bin/ssh-keygen -lf -"])
        #expect(scanned.output.contains(printed), "printed \(printed); scanned \(scanned)")
        server.stop()
        try server.restart()
        #expect(Self.fingerprint(in: server.printed) == printed)
        // A host key others may read is refused, as sshd refuses it.
        server.stop()
        chmod(path, 0o644)
        #expect(throws: (any Error).self) { try server.restart() }
        #expect(server.printed.contains("chmod 600"), "\(server.printed)")
        // In the teacher's language.
        var environment = ProcessInfo.processInfo.environment.filter { !["LC_ALL", "LC_MESSAGES"].contains($0.key) }
        environment["LANG"] = "ko_KR.UTF-8"
        let korean = Subprocess.run("/usr/bin/timeout", ["20", ServerProcess.binary, "serve", "--port", "0", "--ssh-port", "0",
                                                         "--data-dir", server.dataDirectory], environment: environment)
        #expect(korean.status == 1 && korean.error.contains("오류: SSH 호스트 키 \(path)을(를) 주인 말고도 읽을 수 있습니다: `chmod 600 \(path)`"),
                "\(korean)")
    }

    static func fingerprint(in log: String) -> String? {
        guard let range = log.range(of: "fingerprint: SHA256:") ?? log.range(of: "지문: SHA256:") else { return nil }
        return "SHA256:" + log[range.upperBound...].prefix { !$0.isWhitespace }
    }
}
