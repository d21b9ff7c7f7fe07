import Foundation
import Testing
import TouchSchoolView
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// `touchschool admin` end to end: the real binary against the server in process, the token read from
/// the server's data directory, a file, or the environment, never from the command line.
@Suite(.onOwnThreads, .serialized) struct AdminCommandTests {
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
            let lines = table.output.split(separator: "\n").map(String.init)
            try #require(lines.count == 3, "\(table.output)")
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
            #expect(banned.status == 0 && banned.output.contains("\(ack.accepted) taps taken off 1 schools"), "\(banned.error)")
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
