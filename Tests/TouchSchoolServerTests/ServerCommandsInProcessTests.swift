import Foundation
import Testing
@testable import TouchSchoolCommandLine
import TouchSchoolProtocol
import TouchSchoolStore
import TouchSchoolTestSupport
@testable import TouchSchoolNetworkCommands

/// `--server` commands and `admin` run in process (`runTouchSchool`) with the real network
/// (`LiveNetwork`), against the server in process: what `touchschool-network` prints, without its process.
@Suite(.onOwnThreads) struct ServerCommandsInProcessTests {
    @Test func rankAndAdminDevicesOfAServersBattle() async throws {
        try await InProcessServer.with { server in
            let device = TestDevice(name: "김민지")
            let (player, _) = try await TestPlayer.join(server, device: device)
            try await player.send(.taps(device.batch("S0003", taps: 12, durationMs: 500, switchTo: true)))
            _ = try await player.ack(1)
            await player.close()
            let directory = TemporaryDirectory()
            defer { directory.remove() }

            let rank = InProcessCommand.run(["rank", "--json", "--top", "1", "--server", server.baseURL, "--data-dir", directory.path],
                                            network: LiveNetwork())
            #expect(rank.status == 0, "\(rank.error)")
            let rows = try #require(try JSONValue.parse(rank.output).arrayValue, "\(rank.output)")
            #expect(rows.count == 1)
            #expect(rows.first?["id"]?.stringValue == "S0003")
            #expect(rows.first?["name"]?.stringValue == "휘문고등학교")
            #expect(rows.first?["count"]?.uint64Value == 12)

            // The token from the server's data directory, as an operator on its machine runs it.
            let devices = InProcessCommand.run(["admin", "devices", "--json", "--server", server.baseURL, "--data-dir", server.dataDirectory],
                                               network: LiveNetwork())
            #expect(devices.status == 0, "\(devices.error)")
            let listed = try JSONDecoder().decode([AdminAnswer.Device].self, from: Data(devices.output.utf8))
            #expect(listed.map(\.player) == ["김민지"])
            #expect(listed.first?.school == "S0003")
            #expect(listed.first?.accepted == 12)
        }
    }

    /// `rank --server` prints the server's pages (`GET /v1/page`, 100 places at most each) of the
    /// league asked, page after page: the same schools, order and totals as the pages read here.
    @Test func rankPrintsTheServersPagesOfTheLeague() async throws {
        try await InProcessServer.with { server in
            let device = TestDevice(name: "김민지")
            let (player, _) = try await TestPlayer.join(server, device: device)
            try await player.send(.taps(device.batch("S0003", taps: 12, durationMs: 500, switchTo: true)))
            _ = try await player.ack(1)
            await player.close()
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            for (arguments, query, count) in [
                ([String](), "", 150),
                (["--level", "high", "--region", "서울"], "&level=high&province=%EC%84%9C%EC%9A%B8%ED%8A%B9%EB%B3%84%EC%8B%9C", 120),
            ] {
                var expected: [RankedRow] = []
                for from in stride(from: 0, to: count, by: 100) {
                    let answer = try await HTTP.get("\(server.baseURL)/v1/page?count=\(min(100, count - from))&from=\(from)\(query)")
                    #expect(answer.status == 200)
                    expected += try JSONDecoder().decode(PageMessage.self, from: Data(answer.body.utf8)).rows
                }
                let rank = InProcessCommand.run(["rank", "--json", "--top", "\(count)"] + arguments
                                                + ["--server", server.baseURL, "--data-dir", directory.path], network: LiveNetwork())
                #expect(rank.status == 0, "\(rank.error)")
                let rows = try #require(try JSONValue.parse(rank.output).arrayValue, "\(rank.output)")
                // Two pages of the nation; Seoul's 76 high schools of the starter catalog, all of them.
                #expect(rows.count == expected.count && expected.count == (arguments.isEmpty ? 150 : 76))
                #expect(rows.map { $0["id"]?.stringValue ?? "" } == expected.map(\.school))
                #expect(rows.map { $0["count"]?.uint64Value ?? 0 } == expected.map(\.total))
                // Ranks as the command prints them: none for a school without a tap.
                #expect(rows.map { $0["rank"]?.uint64Value } == expected.map { $0.total == 0 ? nil : UInt64($0.rank) })
                #expect(rows.first?["id"]?.stringValue == "S0003" || !arguments.isEmpty)
            }
        }
    }

    /// No server at the address: the command says so and fails, without a hang.
    @Test(.enabled(if: commandLanguage == .english)) func aServerThatIsNotThereIsAnError() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let port = try freePort()
        let rank = InProcessCommand.run(["rank", "--server", "http://127.0.0.1:\(port)", "--data-dir", directory.path], network: LiveNetwork())
        #expect(rank.status == 1)
        #expect(rank.output == "")
        #expect(rank.error == "Error: cannot reach the server at http://127.0.0.1:\(port): connection refused "
                + "(is `touchschool serve` running there, on that port?)\n")
    }
}
