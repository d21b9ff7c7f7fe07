import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
import TouchSchoolTestSupport
@testable import TouchSchoolServer

/// `touchschool season list|show` end to end: the real binary against the server in process, in
/// English and Korean, on a battle whose last week was played (and its hall of fame kept) before
/// the server started: commits at the times they were made, through a store on the same storage.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct SeasonCommandTests {
    static func season(_ arguments: [String], korean: Bool = false) -> (status: Int32, output: String, error: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = korean ? "ko_KR.UTF-8" : "C"
        environment["LANG"] = korean ? "ko_KR.UTF-8" : "C"
        return Subprocess.run(ServerProcess.binary, ["season"] + arguments, environment: environment)
    }

    static func batch(_ taps: [String: UInt64], device: String, atMs: Int64) -> ReceivedBatch {
        ReceivedBatch(connection: 1, device: device, player: device,
                      batch: TapBatch(seq: 1, taps: taps, playerTaps: taps.values.reduce(0, +), switchedToSchool: taps.keys.sorted().first,
                                      bestTapsPerSecond: 5, startMs: atMs - 5_000, endMs: atMs - 1_000),
                      address: "10.0.0.1", network: "10.0.0.1")
    }

    @Test func listAndShowTheSeasonsAndTheHallOfFameInBothLanguages() async throws {
        let storage = InMemoryBattleStore.Storage()
        let resource = try CatalogResource(path: try #require(StarterCatalogFile.path))
        let catalog = resource.catalog
        let store = InMemoryBattleStore(storage: storage, catalog: resource)
        await store.setSeasonLength(.week)
        let nowMs = Int64(Date().timeIntervalSince1970 * 1000)
        let current = try #require(Season.at(.week, ms: nowMs))
        let last = try #require(Season.numbered(.week, current.number - 1))
        let (first, second, third) = (catalog[0].id, catalog[1].id, catalog[2].id)
        for (index, (school, taps)) in [(first, UInt64(30)), (second, 20), (third, 10)].enumerated() {
            _ = try await store.commit([Self.batch([school: taps], device: "device-\(index)", atMs: last.startsAtMs + 60_000)],
                                       histories: TapJudges(addresses: .standard), catalog: catalog, nowMs: last.startsAtMs + 60_000)
        }
        // A commit of this week takes last week's hall.
        _ = try await store.commit([Self.batch([second: 7], device: "device-9", atMs: nowMs)], histories: TapJudges(addresses: .standard),
                                   catalog: catalog, nowMs: nowMs)

        try await InProcessServer.with(store: .memory(storage)) { server in
            let names = [first, second, third].map { catalog[catalog.position(ofID: $0)!].name }
            let list = Self.season(["list", "--server", server.baseURL])
            #expect(list.status == 0, "\(list.error)")
            #expect(list.output.hasPrefix("Season length: a week\n\n"), "\(list.output)")
            let rows = list.output.split(separator: "\n").map(String.init)
            #expect(rows.count == 4, "\(list.output)")
            #expect(rows.dropFirst(1).first?.split(separator: " ").first == "SEASON")
            #expect(rows.dropFirst(2).first?.hasPrefix("\(current.id) ") == true && rows[2].contains("  running  ") && rows[2].hasSuffix("-"))
            #expect(rows.last?.hasPrefix("\(last.id) ") == true && rows.last?.contains(names[0]) == true && rows.last?.contains(names[2]) == true)

            let korean = Self.season(["list", "--server", server.baseURL], korean: true)
            #expect(korean.status == 0 && korean.output.hasPrefix("시즌 길이: 한 주\n\n") && korean.output.contains("  진행 중  "), "\(korean.output)")

            let show = Self.season(["show", last.id, "--server", server.baseURL])
            #expect(show.status == 0, "\(show.error)")
            #expect(show.output.contains("PLACE  SCHOOL") && show.output.contains("Hall of fame\n"), "\(show.output)")
            #expect(show.output.contains(names[0]) && show.output.contains(names[1]) && show.output.contains(names[2]))
            let shown = try JSONDecoder().decode(SeasonAnswer.Standing.self,
                                                 from: Data(Self.season(["show", last.id, "--json", "--server", server.baseURL]).output.utf8))
            #expect(shown.season.id == last.id && shown.schools.map(\.id) == [first, second, third] && shown.schools.map(\.count) == [30, 20, 10])
            #expect(shown.fame.filter { $0.league == LeagueName() }.map(\.school) == [first, second, third])
            let koreanShow = Self.season(["show", last.id, "--server", server.baseURL], korean: true)
            #expect(koreanShow.output.contains("명예의 전당\n") && koreanShow.output.contains("전국"), "\(koreanShow.output)")

            let now = Self.season(["show", current.id, "--server", server.baseURL])
            #expect(now.output.contains("(running)") && now.output.contains("The hall of fame is kept when the season ends.\n"), "\(now.output)")
            let bad = Self.season(["show", "year-1", "--server", server.baseURL])
            #expect(bad.status != 0 && bad.error.contains("season"), "\(bad.error)")
        }
    }
}
