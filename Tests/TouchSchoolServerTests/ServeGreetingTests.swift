import Foundation
import Testing
import TouchSchoolQRCode
import TouchSchoolTestSupport
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolView
@testable import TouchSchoolNetworkTUI
@testable import TouchSchoolServer

/// What `serve` prints for the teacher: the addresses to hand out, a QR code of the phone page
/// that a real reader (zbar) decodes, and a line a minute only when something happened.
@Suite(.onOwnThreads) struct ServeGreetingTests {
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
        #expect(besideCode.contains("touchschool round link --server http://192.168.0.10:8080"), "\(text)")
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
            이 컴퓨터에서만 접속할 수 있습니다. 다른 기기도 들어오게 하려면: touchschool serve --host 0.0.0.0
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
            Only this machine can join. To let other devices in: touchschool serve --host 0.0.0.0
              No SSH key? Any password, or just Enter: that session's device is forgotten
              when it ends; with a key (ssh-keygen), the school and taps come back.
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
}
