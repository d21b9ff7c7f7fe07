import Foundation
import Logging
import Synchronization
import Testing
import TouchSchoolQRCode
import TouchSchoolTestSupport
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolView
@testable import TouchSchoolNetworkCommands
@testable import TouchSchoolServer

/// What `serve` prints for the teacher: the addresses to hand out, a QR code of the phone page
/// that a real reader (zbar) decodes, and a line a minute only when something happened.
@Suite(.onOwnThreads, .tags(.process)) struct ServeGreetingTests {
    /// Dark modules (true) as a PBM image, `scale` pixels a module, inside a light border of
    /// four modules (the standard's quiet zone).
    static func pbm(_ dark: [[Bool]], scale: Int = 4) -> String {
        let quiet = 4, side = (dark.count + 2 * quiet) * scale
        var text = "P1\n\(side) \(side)\n"
        for y in 0..<side {
            let row = (0..<side).map { x -> String in
                let column = x / scale - quiet, line = y / scale - quiet
                let inside = (0..<dark.count).contains(column) && (0..<dark.count).contains(line)
                return inside && dark[line][column] ? "1" : "0"
            }
            text += row.joined(separator: " ") + "\n"
        }
        return text
    }

    static func matrix(_ code: QRCode) -> [[Bool]] {
        (0..<code.size).map { y in (0..<code.size).map { x in code[x, y] } }
    }

    /// What zbar reads in the image of these modules.
    static func zbar(_ dark: [[Bool]]) throws -> String {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = "\(directory.path)/code.pbm"
        try pbm(dark).write(toFile: path, atomically: true, encoding: .ascii)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        process.arguments = ["--raw", "-q", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// Half-block lines read back into light modules, two a character: the drawing as a
    /// camera sees it.
    static func lightModules(_ lines: [String]) -> [[Bool]] {
        var light: [[Bool]] = []
        for line in lines {
            var top: [Bool] = [], bottom: [Bool] = []
            for character in line {
                top.append(character == "█" || character == "▀")
                bottom.append(character == "█" || character == "▄")
            }
            light += [top, bottom]
        }
        return light
    }

    /// The code inside a drawing: the light quiet zone of `quiet` modules cut off, and dark
    /// modules being the ones not drawn.
    static func darkInside(_ light: [[Bool]], quiet: Int, size: Int) -> [[Bool]] {
        (quiet..<quiet + size).map { y in (quiet..<quiet + size).map { x in !light[y][x] } }
    }

    @Test(arguments: [
        ("http://1.2.3/", 1),
        ("http://1.2.3.4:80/", 2),
        ("http://192.168.0.10:8080/", 2),                          // the README's teacher
        ("http://[2001:db8:1234:5678::abcd]:65535/", 3),
        ("http://a-school-server.gyeonggi.example.kr:8080/?board", 4),
        ("http://" + String(repeating: "x", count: 70) + ":1/", 5),
        ("http://" + String(repeating: "x", count: 96) + ":1/", 6),  // 106 bytes, the most version 6 holds at level M
    ])
    func zbarReadsTheCodeBackInEveryVersion(text: String, version: Int) throws {
        let code = try #require(QRCode(text))
        #expect(code.version == version)
        #expect(code.size == 17 + 4 * version)
        #expect(try Self.zbar(Self.matrix(code)) == text)
    }

    @Test func aTextLongerThanVersionSixHoldsHasNoCode() {
        #expect(QRCode(String(repeating: "x", count: 107)) == nil)
    }

    /// The terminal's half blocks, read back cell by cell: two modules a character, light
    /// modules drawn, and two light modules of quiet zone all around.
    @Test func theTerminalDrawingIsTheCodeInHalfBlocks() throws {
        let code = try #require(QRCode("http://192.168.0.10:8080/"))
        let lines = ServeGreeting.terminalLines(code)
        let span = code.size + 4
        #expect(lines.count == (span + 1) / 2)
        #expect(lines.allSatisfy { $0.count == span })
        let light = Self.lightModules(lines)
        for index in 0..<span {
            #expect(light[0][index] && light[1][index] && light[index][0] && light[index][1], "the quiet zone at \(index)")
            #expect(light[span - 1][index] && light[span - 2][index] && light[index][span - 1] && light[index][span - 2])
        }
        #expect(Self.darkInside(light, quiet: 2, size: code.size) == Self.matrix(code))
    }

    typealias Interface = LANAddresses.InterfaceAddress

    static let interfaces = [
        Interface(interface: "lo", address: "127.0.0.1", isIPv6: false),
        Interface(interface: "docker0", address: "172.17.0.1", isIPv6: false),
        Interface(interface: "wlan0", address: "169.254.10.2", isIPv6: false),
        Interface(interface: "eth0", address: "192.168.0.10", isIPv6: false),
        Interface(interface: "lo", address: "::1", isIPv6: true),
        Interface(interface: "eth0", address: "fe80::1c2:3ff:fe4d:5e6f", isIPv6: true),
        Interface(interface: "eth0", address: "2001:db8::10", isIPv6: true),
    ]

    @Test func everyInterfaceMeansThisMachinesNetworkAddressesRealOnesFirst() {
        #expect(LANAddresses.hosts(listeningOn: "0.0.0.0", interfaces: Self.interfaces) == ["192.168.0.10", "172.17.0.1"])
        #expect(LANAddresses.hosts(listeningOn: "::", interfaces: Self.interfaces) == ["192.168.0.10", "172.17.0.1", "2001:db8::10"])
        #expect(LANAddresses.hosts(listeningOn: "192.168.0.10", interfaces: Self.interfaces) == ["192.168.0.10"])
        #expect(LANAddresses.hosts(listeningOn: "127.0.0.1", interfaces: Self.interfaces) == ["127.0.0.1"])
    }

    @Test(arguments: Language.allCases)
    func theGreetingHandsOutThePhoneTheProjectorAndTheTerminalAddresses(language: Language) throws {
        let text = ServeGreeting.text(hosts: ["192.168.0.10", "2001:db8::10"], port: 8080, language: language).plain
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for wanted in ["http://192.168.0.10:8080/", "http://192.168.0.10:8080/?board", "touchschool --server http://192.168.0.10:8080",
                       "http://[2001:db8::10]:8080/?board", "touchschool --server http://[2001:db8::10]:8080"] {
            #expect(lines.contains { $0.hasSuffix("  " + wanted) }, "\(wanted) in\n\(text)")
        }
        #expect(text.contains(language == .korean ? "학생들이 접속할 주소" : "Students join at"))
        #expect(lines.contains { $0.hasSuffix(language == .korean ? "  휴대폰 카메라로 찍으면 열립니다:" : "  Scan with a phone's camera to open") })
        #expect(lines.contains { $0.contains("█") && $0.hasSuffix("  http://192.168.0.10:8080/") }, "the address beside the code:\n\(text)")
        // The addresses start in one column, whatever the labels' script: by display width
        // (a Hangul syllable takes two cells).
        func width(_ text: Substring) -> Int { text.unicodeScalars.reduce(0) { $0 + ((0xAC00...0xD7A3).contains($1.value) ? 2 : 1) } }
        let starts = lines.compactMap { line -> Int? in
            guard line.hasSuffix(":8080/") || line.hasSuffix("/?board") || line.contains("--server"),
                  let start = line.range(of: "touchschool --server") ?? line.range(of: "http://") else { return nil }
            return line.contains("█") || line.contains("▀") ? nil : width(line[..<start.lowerBound])
        }
        #expect(starts.count == 6 && Set(starts).count == 1, "\(starts)\n\(text)")
        // Where the teacher finds the round controls: a command for the teacher's own terminal,
        // never the token itself on a screen the class may see.
        let besideCode = lines.map { $0.split(separator: " ").filter { !$0.contains("█") && !$0.contains("▀") && !$0.contains("▄") }.joined(separator: " ") }
            .joined(separator: " ")
        #expect(besideCode.contains("touchschool round link --server"), "\(text)")
        #expect(try Self.printedCommand(after: language == .korean ? "라운드 조작 화면 (선생님):" : "Round controls (teacher):", in: text)
                == ["touchschool", "round", "link", "--server", "http://192.168.0.10:8080"], "\(text)")
        #expect(text.contains(language == .korean ? "라운드 조작 화면 (선생님):" : "Round controls (teacher):"), "\(text)")
        #expect(!text.contains("#admin="))
    }

    @Test(arguments: Language.allCases)
    func loopbackSaysHowToLetOthersInAndDrawsNoCode(language: Language) {
        let text = ServeGreeting.text(hosts: ["127.0.0.1"], port: 8080, language: language).plain
        #expect(text.contains("http://127.0.0.1:8080/?board"))
        #expect(text.contains("touchschool serve --host 0.0.0.0"))
        #expect(!text.contains("█"))
    }

    /// A service's data directory is its user's alone (mode 0700): the greeting's command run by
    /// another user said "no admin token" as if there were none; it names the owner and the way
    /// (`sudo -u`). Run as `nobody` by setpriv, which needs root.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"))
    func aTokenOfAnotherUserSaysWhoseItIs() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let data = folder.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "a-token-of-the-services-own-0123456789abcdef\n".write(toFile: data + "/admin.token", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let run = Subprocess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", ServerProcess.binary,
                                                       "round", "link", "--server", "http://127.0.0.1:8080", "--data-dir", data],
                                 environment: ["HOME": "/nonexistent", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(run.status != 0 && run.output.isEmpty, "\(run)")
        #expect(run.error.contains("\(data)/admin.token is readable by the user root alone (the server's)")
                && run.error.contains("sudo -u root touchschool"), "\(run.error)")
    }

    /// At 80 columns and fewer, no line is wider than the terminal (but a single address too
    /// long for it) and no command is cut by the terminal's wrapping or ours: each stands on lines
    /// of its own, continued with ` \\` as a shell reads it. The loopback's `touchschool serve
    /// --host 0.0.0.0` was cut at 80 columns in Korean ("touchschool ser" / "ve --host 0.0.0.0").
    @Test(arguments: Language.allCases, [80, 72, 60, 50, 40])
    func noCommandIsCutAtEightyColumnsOrFewer(language: Language, width: Int) throws {
        let ssh = ServeGreeting.SSHListening(port: 38761, fingerprint: Self.fingerprint)
        let label = language == .korean ? "라운드 조작 화면 (선생님):" : "Round controls (teacher):"
        for hosts in [["127.0.0.1"], ["192.168.100.200"]] {
            let text = ServeGreeting.text(hosts: hosts, port: 41057, ssh: ssh, token: .dataDirectory("/var/lib/touchschool"),
                                          language: language, width: width).plain
            for line in text.split(separator: "\n") where DisplayWidth.of(String(line)) > width {
                #expect(!line.trimmingCharacters(in: .whitespaces).contains(" "), "wider than \(width):\n\(line)\nin\n\(text)")
            }
            let base = "http://\(hosts[0]):41057"
            #expect(try Self.printedCommand(after: label, in: text)
                    == ["touchschool", "round", "link", "--server", base, "--data-dir", "/var/lib/touchschool"], "\(text)")
            let lines = text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            if hosts == ["127.0.0.1"] {
                #expect(lines.contains("touchschool serve --host 0.0.0.0"), "\(width):\n\(text)")
            }
            // The terminal's command whole on a line, or continued.
            #expect(lines.contains { $0.hasSuffix("touchschool --server \(base)") }
                    || lines.contains("touchschool --server \\") && lines.contains(base), "\(width):\n\(text)")
        }
    }

    @Test func aPathIsOneWordForTheShell() {
        #expect(ServeGreeting.shellWord("/var/lib/touchschool") == "/var/lib/touchschool")
        #expect(ServeGreeting.shellWord("/home/교사/수업 데이터") == "'/home/교사/수업 데이터'")
        #expect(ServeGreeting.shellWord("/tmp/it's $HOME") == #"'/tmp/it'\''s $HOME'"#)
    }

    /// A student's `https://`: its browser's handshakes, retried, make no error line; the
    /// teacher is told once, in the terminal's language, what happened and what to say; the
    /// server still answers http:// as before.
    @Test(arguments: Language.allCases)
    func aTLSHandshakeIsToldOnceInWordsAndLogsNoError(language: Language) throws {
        let locale = language == .korean ? "ko_KR.UTF-8" : "C.UTF-8"
        let server = try ServerProcess.start(environment: ["LANG": locale, "LC_ALL": locale, "LC_MESSAGES": "", "LOG_LEVEL": "info"])
        defer { server.stop() }
        let https = server.baseURL.replacingOccurrences(of: "http://", with: "https://") + "/"
        for _ in 0..<3 {
            let tried = Subprocess.run("/usr/bin/curl", ["-sk", "--max-time", "5", https])
            #expect(tried.status != 0, "no TLS here: \(tried)")
        }
        #expect(Subprocess.run("/usr/bin/curl", ["-sf", "--max-time", "5", server.baseURL + "/healthz"]).status == 0)
        let told = language == .korean ? "127.0.0.1 기기가 https://로 접속하려 했습니다: 이 서버는 http://만 받습니다."
            : "A device at 127.0.0.1 tried https://, but this server speaks http:// only"
        #expect(Wait.untilBlocking(timeout: 5) { server.output.contains(told) }, "\(server.output)")
        #expect(server.output.components(separatedBy: told).count == 2, "once:\n\(server.output)")
        #expect(!server.errors.contains(" error "), "\(server.errors)")
    }

    /// Each address told once per `quietFor`, however often its browser retries; another
    /// address told at once; the memory of addresses bounded.
    @Test func anAddressIsToldOncePerQuietPeriod() {
        let clock = Mutex(ContinuousClock.now)
        let told = Mutex<[String]>([])
        let attempts = HTTPSAttempts(report: { address in told.withLock { $0.append(address) } }, now: { clock.withLock { $0 } })
        for _ in 0..<5 { attempts.tried(from: "10.0.0.7") }
        attempts.tried(from: "10.0.0.8")
        clock.withLock { $0 += HTTPSAttempts.quietFor - .seconds(1) }
        attempts.tried(from: "10.0.0.7")
        clock.withLock { $0 += .seconds(1) }
        attempts.tried(from: "10.0.0.7")
        #expect(told.withLock { $0 } == ["10.0.0.7", "10.0.0.8", "10.0.0.7"])
        for index in 0..<(HTTPSAttempts.remembered + 10) {
            clock.withLock { $0 += .milliseconds(1) }
            attempts.tried(from: "10.1.\(index / 256).\(index % 256)")
        }
        #expect(told.withLock { $0.count } == 3 + HTTPSAttempts.remembered + 10, "every new address told")
        attempts.tried(from: "10.1.0.0")
        #expect(told.withLock { $0.count } == 3 + HTTPSAttempts.remembered + 11, "the oldest forgotten first, so told again")
    }

    /// The greeting and its lines as README.md and docs/operations.md show them: the docs' commands
    /// are the ones the program prints, so that a teacher who reads either types what works.
    @Test func theDocsShowWhatTheGreetingPrints() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let operations = try String(contentsOf: root.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        let greeting = ServeGreeting.text(hosts: ["192.168.0.10"], port: 8080, language: .english).plain
        let lines = greeting.components(separatedBy: "\n")
        // README's capture of the greeting: its lines, those of the code aside, are the greeting's.
        let block = try #require(readme.components(separatedBy: "```text\ntouchschool serve: listening on every interface").dropFirst().first?
            .components(separatedBy: "```").first, "README's greeting")
        for line in block.components(separatedBy: "\n").dropFirst() where !line.isEmpty && !line.contains("(the rest of the code") {
            let text = line.lastIndex { "█▀▄".contains($0) }.map { String(line[line.index(after: $0)...]) } ?? line
            #expect(lines.contains { $0 == line || (!text.isEmpty && text != line && $0.hasSuffix(text)) }, "README: \(line)\ngreeting:\n\(greeting)")
        }
        #expect(readme.contains("`touchschool serve --host 0.0.0.0`"))
        #expect(ServeGreeting.text(hosts: ["127.0.0.1"], port: 8080, language: .english).plain.contains("\n  touchschool serve --host 0.0.0.0\n"))
        // The minute's line, in both languages, and its slow save.
        #expect(readme.contains("`\(ServeGreeting.activity(ServerActivity(players: 12, taps: 3456), language: .english).dropLast())`"))
        #expect(readme.contains("`\(ServeGreeting.activity(ServerActivity(players: 12, taps: 3456), language: .korean).dropLast())`"))
        let slow = ServeGreeting.activity(ServerActivity(players: 1, taps: 1, slowestSave: .milliseconds(1_400)), language: .english)
        let slowPart = String(slow[slow.range(of: "one save took")!.lowerBound...].dropLast())
        #expect(readme.contains(slowPart) && operations.contains(slowPart), "\(slowPart)")
        // The round controls' command as operations.md gives it, and the https:// note.
        let link = ServeGreeting.commandLines(ServeGreeting.teacherNote("http://HOST:8080", token: .dataDirectory("DATA_DIR"), language: .english).command,
                                              width: 200)
        #expect(link.count == 1 && operations.contains("\n\(link[0])\n"), "\(link)")
        let https = ServeGreeting.httpsAttempt(from: "192.168.0.23", language: .english)
        let said = try #require(https.components(separatedBy: " only: ").first)
        #expect(operations.contains("`\(said) only: …`"), "\(https)")
    }

    @Test func anIdleServerSaysNothingAndABusyOneSaysEachMinute() {
        var log = ActivityLog()
        #expect(log.periodEnded(players: 0, total: 0) == nil)
        #expect(log.periodEnded(players: 2, total: 0) == ServerActivity(players: 2, taps: 0), "players joined")
        #expect(log.periodEnded(players: 2, total: 0) == nil, "connected but idle")
        #expect(log.periodEnded(players: 2, total: 350) == ServerActivity(players: 2, taps: 350))
        #expect(log.periodEnded(players: 2, total: 400) == ServerActivity(players: 2, taps: 50))
        #expect(log.periodEnded(players: 2, total: 400) == nil)
        #expect(log.periodEnded(players: 0, total: 400) == ServerActivity(players: 0, taps: 0), "everyone left")
        #expect(log.periodEnded(players: 0, total: 400) == nil)
    }

    /// A save of a second or more is told even in a period without taps (its taps waited that
    /// long to be acknowledged); a shorter one changes nothing.
    @Test func aSlowSaveIsWorthALineAndAShortOneIsNot() {
        var log = ActivityLog()
        #expect(log.periodEnded(players: 2, total: 0) == ServerActivity(players: 2, taps: 0))
        #expect(log.periodEnded(players: 2, total: 0, slowestSave: .milliseconds(999)) == nil, "under a second: quiet")
        #expect(log.periodEnded(players: 2, total: 0, slowestSave: .milliseconds(1_400))
                == ServerActivity(players: 2, taps: 0, slowestSave: .milliseconds(1_400)))
        #expect(log.periodEnded(players: 2, total: 100, slowestSave: .milliseconds(300)) == ServerActivity(players: 2, taps: 100))
        #expect(log.periodEnded(players: 2, total: 100, slowestSave: .seconds(1)) == ServerActivity(players: 2, taps: 0, slowestSave: .seconds(1)))
    }

    /// The lines `serve` prints while it runs, on a terminal: broken between words at its width
    /// (the Korean https note was 123 columns, and the terminal broke it inside "학생들에게"), the
    /// lines after the first indented; not on a pipe, where a script reads one line.
    @Test(arguments: [40, 60, 80])
    func theLinesWhileItRunsBreakBetweenWordsOnATerminal(width: Int) {
        let slow = ServerActivity(players: 1_234, taps: 56_789, slowestSave: .milliseconds(1_450))
        for language in [Language.korean, .english] {
            for line in [ServeGreeting.httpsAttempt(from: "192.168.100.200", language: language),
                         ServeGreeting.activity(slow, language: language)] {
                let fitted = ServeGreeting.fitted(line, width: width)
                let lines = fitted.split(separator: "\n").map(String.init)
                #expect(fitted.hasSuffix("\n"))
                #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(lines)")
                #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }, "\(lines)")
                // The same words in the same order: no word cut in two.
                #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                        == line.trimmingCharacters(in: .whitespacesAndNewlines), "\(lines)")
                #expect(ServeGreeting.fitted(line, width: nil) == line, "a pipe gets one line")
            }
        }
    }

    /// The teacher's terminal gets words, not a log line in English for every SSH player who comes
    /// and goes; a service's journal or a file keeps every notice; LOG_LEVEL decides when given.
    @Test func theLogOnATerminalSaysWarningsOnlyUnlessAsked() {
        #expect(Serving.logLevel(nil, standardErrorIsTerminal: true) == .warning)
        #expect(Serving.logLevel(nil, standardErrorIsTerminal: false) == .info)
        #expect(Serving.logLevel("debug", standardErrorIsTerminal: true) == .debug)
        #expect(Serving.logLevel("info", standardErrorIsTerminal: true) == .info)
        #expect(Serving.logLevel("loud", standardErrorIsTerminal: false) == .info, "a level it does not know: the default")
    }

    @Test func theActivityLineInBothLanguages() {
        let activity = ServerActivity(players: 12, taps: 3456)
        #expect(ServeGreeting.activity(activity, language: .korean) == "접속 12명 · 최근 1분 터치 3,456번\n")
        #expect(ServeGreeting.activity(activity, language: .english) == "12 players connected · 3,456 taps in the last minute\n")
        let slow = ServerActivity(players: 1, taps: 80, slowestSave: .milliseconds(1_450))
        #expect(ServeGreeting.activity(slow, language: .korean) == "접속 1명 · 최근 1분 터치 80번 · 저장 한 번에 1.5초: 그동안 터치 확인이 늦어졌습니다\n")
        #expect(ServeGreeting.activity(slow, language: .english)
                == "1 player connected · 80 taps in the last minute · one save took 1.5 s: taps waited that long to be confirmed\n")
        #expect(ServeGreeting.activity(ServerActivity(players: 3, taps: 0, slowestSave: .milliseconds(12_040)), language: .english)
                == "3 players connected · 0 taps in the last minute · one save took 12.0 s: taps waited that long to be confirmed\n")
    }

    static let fingerprint = "SHA256:UBVdxViavuCK9hKQ8it1of5zlhvPplfgt2zEWWM2jU0"

    /// With --ssh-port, the command for each address among the others, what a player without a
    /// key types at the password prompt (nothing said it), and the key's fingerprint to compare:
    /// below the addresses on the loopback, where there is no code.
    @Test func theSSHLinesInBothLanguages() {
        let ssh = ServeGreeting.SSHListening(port: 2222, fingerprint: Self.fingerprint)
        #expect(ServeGreeting.text(hosts: ["127.0.0.1"], port: 8080, ssh: ssh, language: .korean).plain == """
            학생들이 접속할 주소:
              휴대폰·브라우저    http://127.0.0.1:8080/
              프로젝터 (순위판)  http://127.0.0.1:8080/?board
              터미널             touchschool --server http://127.0.0.1:8080
              SSH (설치 없이)    ssh -p 2222 이름@127.0.0.1
            이 컴퓨터에서만 접속할 수 있습니다. 다른 기기도 들어오게 하려면:
              touchschool serve --host 0.0.0.0
            SSH 키가 없으면 비밀번호는 아무거나 (그냥 Enter도): 그 접속의 기기는 끝나면
            잊힙니다. 키가 있으면 (ssh-keygen) 학교와 터치가 이어집니다.
            SSH 호스트 키 지문: SHA256:UBVdxViavuCK9hKQ8it1of5zlhvPplfgt2zEWWM2jU0
            라운드 조작 화면 (선생님):
              touchschool round link --server http://127.0.0.1:8080

            """)
        #expect(ServeGreeting.text(hosts: ["127.0.0.1", "::1"], port: 8080, ssh: ssh, language: .english).plain == """
            Students join at:
              phone or browser     http://127.0.0.1:8080/
              projector (ranking)  http://127.0.0.1:8080/?board
              terminal             touchschool --server http://127.0.0.1:8080
              SSH, no install      ssh -p 2222 NAME@127.0.0.1
              phone or browser     http://[::1]:8080/
              projector (ranking)  http://[::1]:8080/?board
              terminal             touchschool --server http://[::1]:8080
              SSH, no install      ssh -p 2222 NAME@[::1]
            Only this machine can join. To let other devices in:
              touchschool serve --host 0.0.0.0
            No SSH key? Any password, or just Enter: that session's device is forgotten when
            it ends; with a key (ssh-keygen), the school and taps come back.
            SSH host key fingerprint: SHA256:UBVdxViavuCK9hKQ8it1of5zlhvPplfgt2zEWWM2jU0
            Round controls (teacher):
              touchschool round link --server http://127.0.0.1:8080

            """)
    }

    /// The whole start in an 80×24 terminal (it was 28 lines, and the SSH lines scrolled off the
    /// top): the notes beside the code, no line wider than 80 columns, at most 23 lines with the
    /// `listening on` line, so the cursor's line fits too. The code alone is drawn in colours of
    /// its own (light on black), so a light terminal shows it as a dark one does.
    @Test(arguments: Language.allCases)
    func theStartFitsAnEightyByTwentyFourTerminal(language: Language) throws {
        let ssh = ServeGreeting.SSHListening(port: 38761, fingerprint: Self.fingerprint)
        let text = ServeGreeting.text(hosts: ["192.168.100.200"], port: 41057, ssh: ssh, language: language)
        let lines = text.plain.split(separator: "\n").map(String.init)
        #expect(lines.count + 1 <= 23, "\(lines.count) lines:\n\(text.plain)")
        for line in lines { #expect(DisplayWidth.of(line) <= 80, "\(line)") }
        let plain = text.plain
        for wanted in ["ssh -p 38761 ", "ssh-keygen", "SHA256:", "UBVdxViavuCK9hKQ8it1of5zlhvPplfgt2zEWWM2jU0", "http://192.168.100.200:41057/?board"] {
            #expect(plain.contains(wanted), "\(wanted) in\n\(plain)")
        }
        let coloured = text.pieces.filter { $0.colours != nil }
        let code = try #require(QRCode("http://192.168.100.200:41057/"))
        #expect(coloured.map(\.text) == ServeGreeting.terminalLines(code))
        #expect(coloured.allSatisfy { $0.colours == .lightOnBlack })
        #expect(text.pieces.filter { $0.colours == nil }.allSatisfy { !$0.text.contains("█") })
    }

    /// The words of the command the greeting prints under `label`: its lines joined where one
    /// ends in ` \\`, split as a shell splits them (single quotes keep a word whole).
    static func printedCommand(after label: String, in output: String) throws -> [String] {
        // Beside the code, a line's text starts after the drawing (whose quiet zone ends it in █).
        let lines = output.components(separatedBy: "\n").map { line in
            line.lastIndex { "█▀▄".contains($0) }.map { String(line[line.index(after: $0)...]) } ?? line
        }
        let at = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == label }, "\(label) in\n\(output)")
        var command = ""
        for line in lines[(at + 1)...] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasSuffix(" \\") else { command += trimmed; break }
            command += trimmed.dropLast(2) + " "
        }
        var words: [String] = [], word = "", quoted = false, started = false
        for character in command {
            if character == "'" { quoted.toggle(); started = true } else if character == " " && !quoted {
                if started { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(character)
                started = true
            }
        }
        if started { words.append(word) }
        return words
    }

    /// The greeting's command for the round controls, run as printed by a teacher whose own
    /// default data directory is elsewhere, prints the projector's link with this server's token
    /// (and says it is the teacher's alone): a server on a data directory of its own (a path with
    /// a space), and one given `--admin-token-file`, in both languages.
    @Test(arguments: Language.allCases, [false, true])
    func theGreetingsRoundLinkCommandWorksAsPrinted(language: Language, tokenFile: Bool) throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let locale = language == .korean ? "ko_KR.UTF-8" : "C.UTF-8"
        let environment = ["LANG": locale, "LC_ALL": locale, "LC_MESSAGES": "", "LOG_LEVEL": "info", "TOUCHSCHOOL_HOME": "",
                           "TOUCHSCHOOL_ADMIN_TOKEN": "", "HOME": folder.path + "/server-home"]
        let file = folder.path + "/token file"
        let token = "a-token-of-the-operators-own-choosing-0123456789"
        if tokenFile { try (token + "\n").write(toFile: file, atomically: true, encoding: .utf8) }
        let server = try ServerProcess.start(dataDirectory: folder.path + "/수업 데이터", arguments: tokenFile ? ["--admin-token-file", file] : [],
                                             environment: environment)
        defer { server.stop() }
        let label = language == .korean ? "라운드 조작 화면 (선생님):" : "Round controls (teacher):"
        let words = try Self.printedCommand(after: label, in: server.output)
        #expect(Array(words.prefix(5)) == ["touchschool", "round", "link", "--server", server.baseURL], "\(server.output)")
        var teacher = environment
        teacher["HOME"] = folder.path + "/teacher-home"
        let run = Subprocess.run(ServerProcess.binary, Array(words.dropFirst()), environment: teacher)
        let expected = tokenFile ? token : try String(contentsOfFile: server.dataDirectory + "/admin.token", encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        #expect(run.status == 0 && run.output == "\(server.baseURL)/?board#admin=\(expected)\n", "\(words): \(run)")
        #expect(run.error.contains(language == .korean ? "프로젝터 화면에 띄우거나 학생에게 보내지 마세요" : "Keep it off the projector and away from the class"),
                "\(run.error)")
    }
}
