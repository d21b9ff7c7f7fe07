import Foundation
import Testing
import TouchSchoolView
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// `touchschool admin` end to end: the real binary against the server in process, the token read from
/// the server's data directory, a file, or the environment, never from the command line.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct AdminCommandTests {
    static func admin(_ arguments: [String], environment extra: [String: String] = [:]) -> (status: Int32, output: String, error: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["TOUCHSCHOOL_ADMIN_TOKEN"] = nil
        environment.merge(extra) { $1 }
        return Subprocess.run(ServerProcess.binary, ["admin"] + arguments, environment: environment)
    }

    /// The operator's table: every column starts at one display column on every line (the
    /// columns after BANNED were one space apart and wandered with a Hangul name), and the school
    /// is named, not its raw id; PLAYS ON says what each device plays with, as its hello said
    /// (nothing told a phone from a terminal).
    @Test func theDevicesTableLinesUpAndNamesTheSchools() async throws {
        try await InProcessServer.with { server in
            for (name, school) in [("김민지", "S0001"), ("bot", "S0002")] {
                let device = TestDevice(name: name)
                let (player, _) = try await TestPlayer.join(server, device: device, client: name == "bot" ? .terminal : .web)
                try await player.send(.taps(device.batch(school, taps: name == "bot" ? 300 : 7, durationMs: 100, switchTo: true)))
                _ = try await player.ack(1)
                await player.close()
            }
            let table = Self.admin(["devices", "--server", server.baseURL, "--data-dir", server.dataDirectory])
            #expect(table.status == 0, "\(table.error)")
            // Folded to 80 columns (it was 94 wide here, and the terminal broke its lines anywhere):
            // each row's columns that do not fit on its line go, lined up, on an indented line under it.
            #expect(table.output.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 80 }, "\(table.output)")
            #expect(table.output.hasSuffix("\nTaps accepted/refused, in the last hour (this clock hour) and in all.\n"), "\(table.output)")
            let rows = table.output.split(separator: "\n").dropLast().map(String.init)
            try #require(rows.count == 6, "\(table.output)")
            // A row's two lines side by side, the first padded to 80 columns: the columns line up as on one line.
            let lines = stride(from: 0, to: rows.count, by: 2).map { rows[$0] + String(repeating: " ", count: 80 - DisplayWidth.of(rows[$0])) + rows[$0 + 1] }
            /// The display column where `text` starts in `line`.
            func column(of text: String, in line: String) -> Int? {
                line.range(of: text).map { DisplayWidth.of(String(line[..<$0.lowerBound])) }
            }
            let minji = try #require(lines.first { $0.contains("김민지") }), bot = try #require(lines.first { $0.contains("bot") })
            #expect(column(of: "PLAYER", in: lines[0]) == column(of: "김민지", in: minji) && column(of: "PLAYER", in: lines[0]) == column(of: "bot", in: bot),
                    "\(table.output)")
            #expect(column(of: "SCHOOL", in: lines[0]) == column(of: "서울고등학교", in: minji), "\(table.output)")
            #expect(column(of: "SCHOOL", in: lines[0]) == column(of: "경기고등학교", in: bot), "\(table.output)")
            #expect(column(of: "ADDRESSES", in: lines[0]) == column(of: "127.0.0.1", in: minji) && column(of: "ADDRESSES", in: lines[0]) == column(of: "127.0.0.1", in: bot),
                    "\(table.output)")
            #expect(!table.output.contains("S0001"), "\(table.output)")
            #expect(column(of: "PLAYS ON", in: lines[0]) == column(of: "web ", in: minji), "\(table.output)")
            #expect(column(of: "PLAYS ON", in: lines[0]) == column(of: "terminal ", in: bot), "\(table.output)")
        }
    }

    /// Under a Korean locale every answer and refusal of `admin` (and `round`'s refusals) is
    /// Korean after "오류:", and the devices' table fits 80 columns with its Korean headings.
    @Test func theAdminToolsSpeakKorean() async throws {
        try await InProcessServer.with { server in
            let korean = ["LANG": "ko_KR.UTF-8"]
            let device = TestDevice(name: "김민지")
            let (player, _) = try await TestPlayer.join(server, device: device, client: .web)
            try await player.send(.taps(device.batch("S0001", taps: 300, durationMs: 100, switchTo: true)))
            let ack = try await player.ack(1)
            let token = try AdminAPI.token(of: server)
            let id = try #require(try await AdminAPI.devices(server, token: token).first?.id)

            let table = Self.admin(["devices", "--server", server.baseURL, "--data-dir", server.dataDirectory], environment: korean)
            #expect(table.status == 0, "\(table.error)")
            let rows = table.output.split(separator: "\n").map(String.init)
            #expect(rows.allSatisfy { DisplayWidth.of($0) <= 80 }, "\(table.output)")
            #expect(rows.first?.hasPrefix("ID                        기기  지난 한 시간  전체") == true, "\(table.output)")
            #expect(table.output.contains("  아니요  김민지"), "\(table.output)")
            #expect(rows.contains { $0.hasPrefix(id + "  웹") }, "\(table.output)")
            #expect(rows.last == "터치 수: 받음/거부, 지난 한 시간(이번 정시부터)과 전체.", "\(table.output)")
            for english in ["PLAYER", "SCHOOL", "BANNED", " no ", "web"] { #expect(!table.output.contains(english), "\(english): \(table.output)") }

            let banned = Self.admin(["ban", id, "--remove-taps", "--server", server.baseURL], environment: korean.merging(["TOUCHSCHOOL_ADMIN_TOKEN": token]) { $1 })
            #expect(banned.output == "\(id) 기기를 차단했습니다: 학교 1곳에서 터치 \(NumberText.grouped(ack.accepted))번을 뺐습니다\n", "\(banned)")

            let wrong = Self.admin(["unban", id, "--server", server.baseURL], environment: korean.merging(["TOUCHSCHOOL_ADMIN_TOKEN": "not-the-token"]) { $1 })
            #expect(wrong.status == 1 && wrong.error.hasPrefix("오류: 이 서버의 토큰이 아닙니다 (\(server.baseURL)가 401로 답했습니다): "), "\(wrong.error)")

            let unknown = String(repeating: "0", count: 24)
            let notFound = Self.admin(["unban", unknown, "--server", server.baseURL], environment: korean.merging(["TOUCHSCHOOL_ADMIN_TOKEN": token]) { $1 })
            #expect(notFound.status == 1 && notFound.error == "오류: \(server.baseURL)에 ID가 \(unknown)인 기기가 없습니다 (`admin devices`가 ID를 보여 줍니다)\n",
                    "\(notFound.error)")

            let missing = Self.admin(["devices", "--server", server.baseURL, "--data-dir", TemporaryDirectory().path], environment: korean)
            #expect(missing.status == 1 && missing.error.hasPrefix("오류: 관리자 토큰이 없습니다: --token-file FILE을 주거나, "), "\(missing.error)")
            #expect(!missing.error.contains("Usage"), "\(missing.error)")

            let notURL = Self.admin(["devices", "--server", "ftp://\(server.baseURL.dropFirst("http://".count))"],
                                    environment: korean.merging(["TOUCHSCHOOL_ADMIN_TOKEN": token]) { $1 })
            #expect(notURL.status == 1 && notURL.error == "오류: --server이(가) 서버 URL이 아닙니다: 스킴은 http, https, ws, wss 중 하나여야 합니다 "
                        + "(예: http://192.168.0.10:8080)\n", "\(notURL.error)")

            var environment = ProcessInfo.processInfo.environment
            environment.merge(korean) { $1 }
            let round = Subprocess.run(ServerProcess.binary, ["round", "show", "999", "--server", server.baseURL], environment: environment)
            #expect(round.status == 1 && round.error == "오류: \(server.baseURL)에 999번 라운드가 없습니다 (`round list`가 번호를 보여 줍니다)\n",
                    "\(round.error)")
            await player.close()
        }
    }

    @Test func devicesAsJSONThenABanThatTakesTheTapsOff() async throws {
        try await InProcessServer.with { server in
            let cheater = TestDevice(name: "bot")
            let (player, _) = try await TestPlayer.join(server, device: cheater)
            try await player.send(.taps(cheater.batch("S0001", taps: 300, durationMs: 100, switchTo: true)))
            let ack = try await player.ack(1)

            let listed = Self.admin(["devices", "--json", "--server", server.baseURL, "--data-dir", server.dataDirectory])
            #expect(listed.status == 0, "\(listed.error)")
            let devices = try JSONDecoder().decode([AdminAPI.Device].self, from: Data(listed.output.utf8))
            let bot = try #require(devices.first)
            #expect(devices.count == 1 && bot.player == "bot" && bot.school == "S0001" && !bot.banned)
            #expect(bot.accepted == ack.accepted && bot.refused == ack.refused && bot.addresses == ["127.0.0.1"])

            let table = Self.admin(["devices", "--server", server.baseURL, "--data-dir", server.dataDirectory])
            #expect(table.status == 0 && table.output.contains(bot.id) && table.output.contains("\(ack.accepted)/\(ack.refused)"))

            // The token from a file and from the environment; a wrong one is refused clearly.
            let token = try AdminAPI.token(of: server)
            let banned = Self.admin(["ban", bot.id, "--remove-taps", "--server", server.baseURL], environment: ["TOUCHSCHOOL_ADMIN_TOKEN": token])
            #expect(banned.status == 0 && banned.output == "Banned \(bot.id): \(NumberText.grouped(ack.accepted)) taps taken off 1 school\n",
                    "\(banned.output)\(banned.error)")
            #expect(try await HTTP.scores(server).scores["S0001"] == nil, "the cheater's taps are off the board")

            let wrongFile = TemporaryDirectory().path + "/token"
            try Data("not-the-token-not-the-token-not-the-token\n".utf8).write(to: URL(fileURLWithPath: wrongFile))
            let wrong = Self.admin(["unban", bot.id, "--server", server.baseURL, "--token-file", wrongFile])
            #expect(wrong.status != 0 && wrong.error.contains("the token is not this server's"))
            #expect(try await AdminAPI.devices(server, token: token).first?.banned == true, "a refused request changes nothing")

            let missing = Self.admin(["devices", "--server", server.baseURL, "--data-dir", TemporaryDirectory().path])
            #expect(missing.status != 0 && missing.error.contains("no admin token"))
            await player.close()
        }
    }
}
