import Synchronization
import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolStore
@testable import TouchSchoolCommandLine

/// `rank` and `stats` on a server running seasons (issue 50): the season's totals by default,
/// named on the first line (`rank`) or a line of its own (`stats`) with the season's id, and
/// all time's with `--all-time`; a server with no season prints as before seasons.
@Suite(.onOwnThreads) struct SeasonCommandsTests {
    /// A server's battle of one school, whose week (when it runs one) has 4 of its 9 taps.
    final class SeasonServer: NetworkCommands, Sendable {
        let running: Season?
        /// The periods asked for, in order.
        let asked = Mutex<[RankingPeriod]>([])

        init(running: Season?) { self.running = running }

        func loadServerBattle(_ servers: ServerURLs, dataDirectory: String, player: String?, board: ServerBoard,
                              period: RankingPeriod) throws -> ServerBattle {
            asked.withLock { $0.append(period) }
            let catalog = Catalog(schools: [School(id: "N2", name: "서버고등학교", level: .high, province: "제주특별자치도", district: "제주시", address: "")],
                                  source: .starter)
            let season = period == .season ? running : nil
            let state = SavedState(scores: ["N2": season == nil ? 9 : 4], players: ["kim": PlayerRecord(schoolID: "N2", taps: 3, bestTapsPerSecond: 2)])
            return ServerBattle(catalog: catalog, state: state, season: season)
        }

        func serve(_ request: ServeRequest, output: CommandOutput) throws { throw CommandError("not in this test") }
        func importIntoPostgres(file: String, url: String, force: Bool) throws -> String { throw CommandError("not in this test") }
        func joinServer(_ servers: ServerURLs, dataDirectory: String, player: String) throws -> ServerGame { throw CommandError("not in this test") }
        func admin(_ request: AdminRequest) throws -> String { throw CommandError("not in this test") }
        func round(_ request: RoundRequest) throws -> String { throw CommandError("not in this test") }
        func season(_ request: SeasonRequest) throws -> String { throw CommandError("not in this test") }
    }

    static let week = Season.numbered(.week, 2969)!
    static var ko: Bool { commandLanguage == .korean }

    @Test func rankSaysTheSeasonItRanksByOrAllTimeWhenAsked() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = SeasonServer(running: Self.week)
        let arguments = ["rank", "--server", "http://192.0.2.1:8080", "--data-dir", directory.path]
        let week = InProcessCommand.run(arguments, network: server)
        #expect(week.status == 0, "\(week.error)")
        let lines = week.output.split(separator: "\n").map(String.init)
        #expect(lines.first == (Self.ko ? "이번 주 (week-2969)" : "This week (week-2969)"), "\(week.output)")
        #expect(lines.last?.split(separator: " ").dropFirst().first == "4", "\(week.output)")
        let allTime = InProcessCommand.run(arguments + ["--all-time"], network: server)
        #expect(allTime.status == 0, "\(allTime.error)")
        #expect(allTime.output.hasPrefix(Self.ko ? "전체\n" : "All time\n"), "\(allTime.output)")
        #expect(allTime.output.split(separator: "\n").last?.split(separator: " ").dropFirst().first == "9", "\(allTime.output)")
        #expect(server.asked.withLock { $0 } == [.season, .allTime])

        // No season: as before seasons, no period line.
        let none = InProcessCommand.run(arguments, network: SeasonServer(running: nil))
        #expect(none.output.hasPrefix(Self.ko ? "전체 학교: 1개 학교\n" : "All schools: 1 school\n"), "\(none.output)")
    }

    @Test func statsSaysThePeriodOfTheSchoolsTapsAndRank() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = SeasonServer(running: Self.week)
        let arguments = ["stats", "--player", "kim", "--server", "http://192.0.2.1:8080", "--data-dir", directory.path]
        let week = InProcessCommand.run(arguments, network: server)
        #expect(week.status == 0, "\(week.error)")
        let lines = week.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 7 && lines[4].hasSuffix(" 4") && lines[6].hasSuffix(Self.ko ? "  이번 주 (week-2969)" : "  This week (week-2969)"),
                "\(week.output)")
        let allTime = InProcessCommand.run(arguments + ["--all-time"], network: server)
        let allLines = allTime.output.split(separator: "\n").map(String.init)
        #expect(allLines.count == 7 && allLines[4].hasSuffix(" 9") && allLines[6].hasSuffix(Self.ko ? "  전체" : "  All time"), "\(allTime.output)")
        #expect(InProcessCommand.run(arguments, network: SeasonServer(running: nil)).output.split(separator: "\n").count == 6)
        // In JSON, the season's id, or null for all time's.
        let json = InProcessCommand.run(arguments + ["--json"], network: server)
        #expect(json.output.hasSuffix(#", "count": 4, "rank": 1, "schools": 1, "season": "week-2969"}"# + "\n"), "\(json.output)")
        let allTimeJSON = InProcessCommand.run(arguments + ["--json", "--all-time"], network: server)
        #expect(allTimeJSON.output.hasSuffix(#", "count": 9, "rank": 1, "schools": 1, "season": null}"# + "\n"), "\(allTimeJSON.output)")
    }
}
