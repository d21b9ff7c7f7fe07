import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// The season on the wire, the server in process on loopback (issue 50): a player is told the
/// season after its welcome and its view carries the season's numbers; `watch` with `period: all`
/// gets all time's; the HTTP reads name the season they answer with. Last week's taps are made by a
/// first run of the server with its clock a week behind (`clockOffsetMs`), on the same SQLite file.
@Suite(.onOwnThreads) struct SeasonViewsServerTests {
    let schoolA = "S0001"
    let schoolB = "S0002"

    @Test func theViewsRankByTheWeekUnlessAllTimeIsAsked() async throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let week = Season.at(.week, ms: TestDevice.nowMs())!
        let weekMs = week.endsAtMs - week.startsAtMs
        let lastWeek = TestDevice(name: "last-week"), thisWeek = TestDevice(name: "this-week")
        try await InProcessServer.with(store: .sqlite, dataDirectory: directory, configure: {
            $0.seasonLength = .week
            $0.clockOffsetMs = -weekMs
        }) { server in
            let (player, _) = try await TestPlayer.join(server, device: lastWeek)
            let offset = try await player.serverClockOffsetMs()
            let end = TestDevice.nowMs() + offset
            try await player.send(.taps(TapBatch(seq: 1, taps: [schoolA: 10], playerTaps: 10, switchedToSchool: schoolA, bestTapsPerSecond: 8,
                                                 startMs: end - 2_000, endMs: end)))
            #expect(try await player.ack(1).accepted == 10)
            await player.close()
        }
        try await InProcessServer.with(store: .sqlite, dataDirectory: directory) { server in
            let (player, _) = try await TestPlayer.join(server, device: thisWeek)
            #expect(player.messages.contains(.season(SeasonAnswer.Summary(week))), "the week is told after the welcome")
            let offset = try await player.serverClockOffsetMs()
            let end = TestDevice.nowMs() + offset
            try await player.send(.taps(TapBatch(seq: 1, taps: [schoolB: 4], playerTaps: 4, switchedToSchool: schoolB, bestTapsPerSecond: 8,
                                                 startMs: end - 1_000, endMs: end)))
            #expect(try await player.ack(1).accepted == 4)
            // This week B leads with 4; A made its 10 last week.
            let weekly = try await player.next("B's view of the week") { if case let .schoolView(view) = $0, view.total == 4 { view } else { nil } }
            #expect(weekly.ranks[0] == Standing(rank: 1, size: weekly.ranks[0].size, gap: nil))
            #expect(weekly.top.first == RankedRow(rank: 1, school: schoolB, total: 4))
            // All time: A leads with 10, B is second, 6 behind.
            try await player.send(.watch(Watch(league: LeagueName(), from: 0, count: 2, period: .allTime)))
            let allTime = try await player.next("the page of all time") { if case let .page(page) = $0 { page } else { nil } }
            #expect(allTime.rows == [RankedRow(rank: 1, school: schoolA, total: 10), RankedRow(rank: 2, school: schoolB, total: 4)])
            let view = try await player.next("B's view of all time") { if case let .schoolView(view) = $0, view.ranks[0].rank == 2 { view } else { nil } }
            #expect(view.total == 4 && view.ranks[0].gap == 6)

            // Over HTTP: the week by default, named in a header; all time when asked; nothing else.
            let scores = try await HTTP.get("\(server.baseURL)/v1/scores")
            #expect(scores.headers.first { $0.0.lowercased() == "x-touchschool-season" }?.1 == week.id)
            #expect(try JSONDecoder().decode(Board.self, from: Data(scores.body.utf8)).scores == [schoolB: 4])
            #expect(try await HTTP.scores(server).scores == [schoolA: 10, schoolB: 4])
            let page = try await HTTP.get("\(server.baseURL)/v1/page?count=2&period=all")
            #expect(!page.headers.contains { $0.0.lowercased() == "x-touchschool-season" })
            #expect(try MessageCoding.decodeServer(page.body) == .page(allTime))
            let weekView = try await HTTP.get("\(server.baseURL)/v1/view?school=\(schoolA)")
            #expect(weekView.headers.first { $0.0.lowercased() == "x-touchschool-season" }?.1 == week.id)
            guard case let .schoolView(a) = try MessageCoding.decodeServer(weekView.body) else { throw HarnessError("not a view") }
            #expect(a.total == 0 && a.ranks[0].rank == 2)
            #expect(try await HTTP.get("\(server.baseURL)/v1/scores?period=year").status == 400)
            #expect(try await HTTP.get("\(server.baseURL)/v1/board?count=2&period=year").status == 400)

            // A watch naming another period is a policy violation, as any bad watch.
            try await player.sendText(#"{"type":"watch","period":"year"}"#)
            #expect(try await player.closed() == CloseCode.policyViolation)
        }
    }
}
