import Foundation
import Synchronization
import Testing
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolTestSupport
@testable import TouchSchoolCommandLine

/// The commands run in process through `runTouchSchool`, the executables' entry point: the exit
/// status and each stream as a shell would see them, and the network as the value given.
@Suite(.onOwnThreads) struct InProcessCommandTests {
    /// Three schools and their taps in a data directory of the test's own.
    static func dataDirectory() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let catalog = """
            {"format": "touchschool-catalog", "version": 1, "source": "official", "edition": "2026-03-20", "schools": [
            {"id": "B1", "name": "가람고등학교", "level": "high", "province": "서울특별시", "district": "종로구", "address": "서울 종로구 1"},
            {"id": "B2", "name": "나래중학교", "level": "middle", "province": "부산광역시", "district": "", "address": "부산 2"},
            {"id": "B3", "name": "다솜고등학교", "level": "high", "province": "서울특별시", "district": "중구", "address": "서울 중구 3"}
            ]}

            """
        try FileSystem.live.replaceAtomically("\(directory.path)/catalog.json", with: Array(catalog.utf8))
        let state = #"{"format": "touchschool-state", "version": 1, "scores": {"B1": 7, "B3": 42}, "players": {}}"#
        try FileSystem.live.replaceAtomically("\(directory.path)/state.json", with: Array(state.utf8))
        return directory
    }

    @Test func rankAsJSON() throws {
        let directory = try Self.dataDirectory()
        defer { directory.remove() }
        let rank = InProcessCommand.run(["rank", "--json", "--top", "2", "--data-dir", directory.path], network: NoNetwork())
        #expect(rank.status == 0)
        #expect(rank.error == "")
        #expect(rank.output == """
            [
              {"rank": 1, "id": "B3", "name": "다솜고등학교", "level": "high", "province": "서울특별시", "district": "중구", "address": "서울 중구 3", "count": 42},
              {"rank": 2, "id": "B1", "name": "가람고등학교", "level": "high", "province": "서울특별시", "district": "종로구", "address": "서울 종로구 1", "count": 7}
            ]

            """)
    }

    @Test func searchAsJSON() throws {
        let directory = try Self.dataDirectory()
        defer { directory.remove() }
        let search = InProcessCommand.run(["search", "다솜", "--json", "--data-dir", directory.path], network: NoNetwork())
        #expect(search.status == 0)
        #expect(search.error == "")
        #expect(search.output == """
            {
              "query": "다솜",
              "schools": [
                {"id": "B3", "name": "다솜고등학교", "level": "high", "province": "서울특별시", "district": "중구", "address": "서울 중구 3", "score": 42}
              ]
            }

            """)
    }

    /// A bad option value: the parser's message on standard error, nothing on standard output,
    /// and the status of a usage error (EX_USAGE), as the shell sees from the executable.
    @Test(.enabled(if: commandLanguage == .english)) func aBadOptionValueIsAUsageError() {
        let rank = InProcessCommand.run(["rank", "--top", "0"], network: NoNetwork())
        #expect(rank.status == 64)
        #expect(rank.output == "")
        #expect(rank.error.hasPrefix("Error: The value '0' is invalid for '--top <n>'\nHelp:  --top <n>  How many schools to show: a positive whole number.\n"),
                "\(rank.error)")
    }

    /// A command's own error: its words after "Error: ", status 1.
    @Test(.enabled(if: commandLanguage == .english)) func aCommandErrorIsStatusOne() throws {
        let directory = try Self.dataDirectory()
        defer { directory.remove() }
        let search = InProcessCommand.run(["search", "--data-dir", directory.path], network: NoNetwork())
        #expect(search.status == 1)
        #expect(search.output == "")
        #expect(search.error == "Error: nothing to search for: give a name (touchschool search 서울고), or --level / --region.\n")
    }

    /// Help is output, not an error: standard output, status 0.
    @Test func helpIsOutput() {
        let help = InProcessCommand.run(["rank", "--help"], network: NoNetwork())
        #expect(help.status == 0)
        #expect(help.error == "")
        #expect(help.output.contains("--top <n>"), "\(help.output)")
    }

    /// With `--server`, the battle is the network's: the one given to `runTouchSchool`, asked for
    /// the server named, the data directory (where the server's catalog is kept) and the totals.
    @Test func aServersBattleComesFromTheNetworkGiven() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let network = OneServerBattle()
        let rank = InProcessCommand.run(["rank", "--json", "--top", "1", "--server", "http://192.0.2.1:8080", "--data-dir", directory.path], network: network)
        #expect(rank.status == 0, "\(rank.error)")
        #expect(rank.output == """
            [
              {"rank": 1, "id": "N2", "name": "서버고등학교", "level": "high", "province": "제주특별자치도", "district": "제주시", "address": "", "count": 9}
            ]

            """)
        // `rank` asks for the places it prints only, not the whole board.
        #expect(network.asked.withLock { $0 } == ["http://192.0.2.1:8080 \(directory.path) - top 1 of national"])

        let stats = InProcessCommand.run(["stats", "--json", "--player", "kim", "--server", "http://192.0.2.1:8080", "--data-dir", directory.path],
                                         network: network)
        #expect(stats.status == 0, "\(stats.error)")
        #expect(stats.output.hasPrefix(#"{"player": "kim", "id": "N2""#), "\(stats.output)")
        #expect(network.asked.withLock { $0.last } == "http://192.0.2.1:8080 \(directory.path) kim whole")
    }
}

/// No network: a test whose command reaches for it fails.
struct NoNetwork: NetworkCommands {
    func serve(_ request: ServeRequest, output: CommandOutput) throws { throw unexpected() }
    func importIntoPostgres(file: String, url: String, force: Bool) throws -> String { throw unexpected() }
    func loadServerBattle(_ servers: ServerURLs, dataDirectory: String, player: String?, board: ServerBoard,
                          period: RankingPeriod) throws -> ServerBattle {
        throw unexpected()
    }
    func joinServer(_ servers: ServerURLs, dataDirectory: String, player: String) throws -> ServerGame { throw unexpected() }
    func admin(_ request: AdminRequest) throws -> String { throw unexpected() }
    func round(_ request: RoundRequest) throws -> String { throw unexpected() }
    func season(_ request: SeasonRequest) throws -> String { throw unexpected() }

    private func unexpected() -> CommandError {
        Issue.record("the command reached for the network")
        return CommandError("no network in this test")
    }
}

/// A server's battle of two schools, and who asked for it.
final class OneServerBattle: NetworkCommands, Sendable {
    /// Each request's server, data directory and player ("-" for none).
    let asked = Mutex<[String]>([])

    func loadServerBattle(_ servers: ServerURLs, dataDirectory: String, player: String?, board: ServerBoard,
                          period: RankingPeriod) throws -> ServerBattle {
        let totals = switch board {
        case .whole: "whole"
        case let .top(league, count): "top \(count) of \(league)"
        }
        asked.withLock { $0.append("\(servers.first) \(dataDirectory) \(player ?? "-") \(totals)") }
        let catalog = Catalog(schools: [
            School(id: "N1", name: "서버중학교", level: .middle, province: "제주특별자치도", district: "서귀포시", address: ""),
            School(id: "N2", name: "서버고등학교", level: .high, province: "제주특별자치도", district: "제주시", address: ""),
        ], source: .starter)
        return ServerBattle(catalog: catalog, state: SavedState(scores: ["N2": 9], players: ["kim": PlayerRecord(schoolID: "N2", taps: 3, bestTapsPerSecond: 2)]),
                            season: nil)
    }

    func serve(_ request: ServeRequest, output: CommandOutput) throws { throw CommandError("not in this test") }
    func importIntoPostgres(file: String, url: String, force: Bool) throws -> String { throw CommandError("not in this test") }
    func joinServer(_ servers: ServerURLs, dataDirectory: String, player: String) throws -> ServerGame { throw CommandError("not in this test") }
    func admin(_ request: AdminRequest) throws -> String { throw CommandError("not in this test") }
    func round(_ request: RoundRequest) throws -> String { throw CommandError("not in this test") }
    func season(_ request: SeasonRequest) throws -> String { throw CommandError("not in this test") }
}
