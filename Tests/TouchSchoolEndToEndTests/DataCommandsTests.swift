import Foundation
import TouchSchoolTestSupport
import Testing
import TouchSchoolCore
import TouchSchoolStore
@testable import TouchSchoolCommandLine

/// The output and parsing of `rank`, `stats` and `reset`, in process.
@Suite(.onOwnThreads) struct DataCommandsOutputTests {
    let catalog = Catalog(schools: [
        School(id: "S1", name: "가람초등학교", level: .elementary, province: "서울특별시", district: "종로구", address: ""),
        School(id: "S2", name: "\"Quote\" High", level: .high, province: "세종특별자치시", district: "", address: ""),
    ], source: .starter)

    @Test func rankJSONHasOneObjectPerRow() throws {
        let text = RankCommand.json([RankedSchool(position: 1, rank: 1, count: UInt64.max),
                                     RankedSchool(position: 0, rank: 2, count: 0)], catalog: catalog)
        let rows = try #require(try JSONValue.parse(text).arrayValue)
        #expect(rows.count == 2)
        #expect(rows[0]["rank"] == .number("1"))
        #expect(rows[0]["id"]?.stringValue == "S2")
        #expect(rows[0]["name"]?.stringValue == "\"Quote\" High")
        #expect(rows[0]["level"]?.stringValue == "high")
        #expect(rows[0]["province"]?.stringValue == "세종특별자치시")
        #expect(rows[0]["district"]?.stringValue == "")
        #expect(rows[0]["count"]?.uint64Value == UInt64.max)
        #expect(rows[1]["name"]?.stringValue == "가람초등학교")
        #expect(rows[1]["count"]?.uint64Value == 0)
        #expect(rows[1]["rank"] == .null, "no taps, no rank yet")
        #expect(RankCommand.json([], catalog: catalog) == "[]\n")
    }

    /// A fresh battle read "1" for every school; a school without taps has no rank yet, as the game says.
    @Test func aSchoolWithoutTapsHasNoRankYet() {
        let text = RankCommand.table([RankedSchool(position: 1, rank: 1, count: 7), RankedSchool(position: 0, rank: 2, count: 0)],
                                     catalog: catalog, title: "All schools")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[2].hasPrefix("   1     7  "), "\(text)")
        #expect(lines[3].hasPrefix("   -     0  가람초등학교"), "\(text)")
        let stats = StatsCommand.Stats(player: "kim", record: PlayerRecord(), school: catalog[0], schoolCount: 0, rank: 1, schools: 2)
        #expect(StatsCommand.text(stats).contains("National rank:  not ranked yet (no taps)"), "\(StatsCommand.text(stats))")
        #expect((try? JSONValue.parse(StatsCommand.json(stats)))?["rank"] == .null)
    }

    @Test func rankTableAlignsRanksAndCounts() {
        let text = RankCommand.table([RankedSchool(position: 0, rank: 1, count: 1_234_567),
                                      RankedSchool(position: 1, rank: 2, count: 5)], catalog: catalog, title: "All schools: 2 schools")
        #expect(text == """
            All schools: 2 schools
            Rank       Taps  School
               1  1,234,567  가람초등학교 (서울특별시 종로구)
               2          5  "Quote" High (세종특별자치시)

            """)
    }

    @Test func statsJSONOfAPlayerWithASchool() throws {
        let stats = StatsCommand.Stats(player: "kim", record: PlayerRecord(schoolID: "S1", taps: 12, bestTapsPerSecond: 9),
                                       school: catalog[0], schoolCount: 40, rank: 2, schools: 2)
        let object = try JSONValue.parse(StatsCommand.json(stats))
        #expect(object["player"]?.stringValue == "kim")
        #expect(object["id"]?.stringValue == "S1")
        #expect(object["name"]?.stringValue == "가람초등학교")
        #expect(object["myTaps"]?.uint64Value == 12)
        #expect(object["bestTapsPerSecond"]?.uint64Value == 9)
        #expect(object["count"]?.uint64Value == 40)
        #expect(object["rank"]?.uint64Value == 2)
        #expect(object["schools"]?.uint64Value == 2)
        #expect(StatsCommand.text(stats).contains("National rank:  2 of 2"))
    }

    @Test func statsOfAPlayerWithoutASchool() throws {
        let stats = StatsCommand.Stats(player: "lee", record: PlayerRecord(), school: nil, schoolCount: 0, rank: 0, schools: 2)
        let object = try JSONValue.parse(StatsCommand.json(stats))
        #expect(object["id"] == .null)
        #expect(object["rank"] == .null)
        #expect(object["myTaps"]?.uint64Value == 0)
        #expect(StatsCommand.text(stats).contains("lee has not chosen a school yet"))
    }

    @Test func resetAcceptsOnlyAClearYes() {
        for answer in ["y", "Y", " yes ", "예", "네"] { #expect(ResetCommand.isYes(answer), "\(answer)") }
        for answer in ["", "n", "no", "yess", "아니요"] { #expect(!ResetCommand.isYes(answer), "\(answer)") }
    }

    @Test func parsesOptions() throws {
        let rank = try RankCommand.parse(["--top", "5", "--json", "--data-dir", "/d"])
        #expect(rank.top.value == 5 && rank.json && rank.data.dataDir == "/d" && rank.data.directory == "/d")
        #expect(try RankCommand.parse([]).top.value == 20)
        #expect(throws: (any Error).self) { try RankCommand.parse(["--top", "0"]) }
        #expect(try ResetCommand.parse(["--yes"]).yes)
        #expect(try StatsCommand.parse(["--player", "kim"]).player == "kim")
    }
}

/// The real `touchschool` binary on a scratch data directory.
@Suite(.onOwnThreads, .tags(.process), .serialized)
final class DataCommandsProcessTests {
    let directory: String

    init() {
        directory = TemporaryDirectory().path
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// The first three schools of the (all-zero) national ranking.
    func threeSchools() throws -> [(id: String, name: String)] {
        let result = DataCommandsBinary.run(["rank", "--top", "3", "--json", "--data-dir", directory])
        try #require(result.status == 0, "rank failed: \(result.error)")
        let rows = try #require(try JSONValue.parse(result.output).arrayValue)
        try #require(rows.count == 3)
        return try rows.map { (id: try #require($0["id"]?.stringValue), name: try #require($0["name"]?.stringValue)) }
    }

    /// A catalog holding just `ids`, enough for `StateStore` to accept their scores.
    @Test func rankAndStatsShowSavedScores() throws {
        let schools = try threeSchools()
        let store = StateStore(directory: directory)
        _ = try store.sync(PendingChanges(player: "tester", scoreDeltas: [schools[2].id: 5, schools[1].id: 3], playerTaps: 3,
                                          bestTapsPerSecond: 7, switchedToSchool: schools[1].id))

        let rank = DataCommandsBinary.run(["rank", "--top", "2", "--json", "--data-dir", directory])
        #expect(rank.status == 0, "\(rank.error)")
        let rows = try #require(try JSONValue.parse(rank.output).arrayValue)
        #expect(rows.map { $0["id"]?.stringValue } == [schools[2].id, schools[1].id])
        #expect(rows.map { $0["count"]?.uint64Value } == [5, 3])
        #expect(rows.map { $0["rank"]?.uint64Value } == [1, 2])

        let text = DataCommandsBinary.run(["rank", "--top", "2", "--data-dir", directory])
        #expect(text.output.contains(schools[2].name))

        let stats = DataCommandsBinary.run(["stats", "--json", "--player", "tester", "--data-dir", directory])
        #expect(stats.status == 0, "\(stats.error)")
        let object = try JSONValue.parse(stats.output)
        #expect(object["id"]?.stringValue == schools[1].id)
        #expect(object["myTaps"]?.uint64Value == 3)
        #expect(object["bestTapsPerSecond"]?.uint64Value == 7)
        #expect(object["count"]?.uint64Value == 3)
        #expect(object["rank"]?.uint64Value == 2)
    }

    @Test func rankFiltersByLevelAndRegion() throws {
        let rank = DataCommandsBinary.run(["rank", "--level", "고", "--region", "서울", "--json", "--data-dir", directory])
        #expect(rank.status == 0, "\(rank.error)")
        let rows = try #require(try JSONValue.parse(rank.output).arrayValue)
        #expect(rows.allSatisfy { $0["level"]?.stringValue == "high" && $0["province"]?.stringValue == "서울특별시" })
    }

    /// Every bad option value is refused the same way, before anything runs: the value, the
    /// option, and what it takes.
    @Test(arguments: [
        (["rank", "--level", "university"], "The value 'university' is invalid for '--level <level>'. Please provide one of '초', '중' or '고'."),
        (["search", "서울", "--level", "university"], "The value 'university' is invalid for '--level <level>'. Please provide one of '초', '중' or '고'."),
        (["rank", "--region", "atlantis"], "The value 'atlantis' is invalid for '--region <region>'. Please provide one of the following:\n  - 서울\n"),
        (["search", "--region", "atlantis"], "The value 'atlantis' is invalid for '--region <region>'. Please provide one of the following:\n  - 서울\n"),
        (["play", "--lang", "fr"], "The value 'fr' is invalid for '--lang <lang>'. Please provide one of 'ko' and 'en'."),
        (["rank", "--top", "0"], "The value '0' is invalid for '--top <n>'\nHelp:  --top <n>  How many schools to show: a positive whole number."),
        (["search", "서울", "--limit", "-1"], "The value '-1' is invalid for '--limit <n>'\nHelp:  --limit <n>  At most this many results: a positive whole number."),
        (["search", "서울", "--limit", "many"], "The value 'many' is invalid for '--limit <n>'\nHelp:  --limit <n>  At most this many results: a positive whole number."),
    ])
    func aBadOptionValueIsRefusedInOneStyle(_ arguments: [String], _ message: String) {
        let result = DataCommandsBinary.run(arguments + ["--data-dir", directory])
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.hasPrefix("Error: " + message), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test func aQueryThatIsNotUTF8IsSaidToBeSo() {
        // Through the shell: the bytes 0xFF 0xFE as one argument, which no Swift string can carry.
        let result = Subprocess.run("/bin/sh", ["-c", #"exec "$0" search "$(printf '\377\376')" --data-dir "$1""#,
                                                DataCommandsBinary.path, directory])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("Error: the query is not valid UTF-8"), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test func resetNeedsConfirmationAndKeepsABackup() throws {
        let schools = try threeSchools()
        let store = StateStore(directory: directory)
        _ = try store.sync(PendingChanges(player: "tester", scoreDeltas: [schools[0].id: 4]))
        let before = try FileIO.read(store.path)

        let refused = DataCommandsBinary.run(["reset", "--data-dir", directory])
        #expect(refused.status != 0)
        #expect(refused.error.contains("--yes"))
        #expect(try FileIO.read(store.path) == before)

        let reset = DataCommandsBinary.run(["reset", "--yes", "--data-dir", directory])
        #expect(reset.status == 0, "\(reset.error)")
        let keptPath = try #require(reset.output.split(separator: " ").last.map { String($0.dropLast(2)) })
        #expect(keptPath.hasPrefix("\(store.path).reset-"))
        #expect(try FileIO.read(keptPath) == before)
        #expect(try store.read().state.scores.isEmpty)
    }
}

/// Runs the `touchschool` built beside the test bundle.
enum DataCommandsBinary {
    static let path: String = {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("touchschool").path
    }()

    /// Runs with stdin from /dev/null: no terminal, as in a script; in English (the C locale),
    /// whatever the locale the tests run under, unless `locale` names another (`LANG`).
    static func run(_ arguments: [String], locale: [String: String] = ["LANG": "C.UTF-8"]) -> (status: Int32, output: String, error: String) {
        var environment = ProcessInfo.processInfo.environment.filter { !["LANG", "LC_ALL", "LC_MESSAGES"].contains($0.key) }
        environment.merge(locale) { $1 }
        return Subprocess.run(path, arguments, environment: environment)
    }
}
