import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolProtocol
@testable import TouchSchoolServer

/// Answers as docs/protocol.md writes them, where they were not: a device without a school has
/// `"school": null` in `/v1/me` (it was left out); a round id that is a number no round has is 404
/// (0 was 400, the answer for an id that is not a number); a round stopped closes its window
/// "now", in its countdown too (it was listed as ending up to 3 s later); and the limits table
/// names every path of the directories' budget, a round's standings too (they were in none).
@Suite(.onOwnThreads, .tags(.postgres)) struct DocumentedAnswersTests {
    @Test func aDeviceWithoutASchoolHasSchoolNullInMe() async throws {
        try await InProcessServer.with { server in
            let device = TestDevice(name: "kim")
            let (player, welcome) = try await TestPlayer.join(server, device: device)
            #expect(welcome.player.schoolID == nil)
            // Taps for a school that is not the player's own: the device is known, its school none.
            try await player.send(.taps(device.batch(["S0001": 3], durationMs: 300)))
            let ack = try await player.ack(1)
            #expect(ack.accepted == 3 && ack.player.schoolID == nil)
            let me = try await HTTP.get("\(server.baseURL)/v1/me", headers: [(PlayProtocol.deviceHeader, device.key)])
            #expect(me.status == 200)
            #expect(me.body.contains(#""school":null"#), "\(me.body)")
            await player.close()
        }
    }

    @Test(arguments: ["memory", "sqlite", "postgres"])
    func aRoundStoppedInItsCountdownEndsAtTheStop(store: String) async throws {
        let cluster = store == "postgres" ? try PostgresCluster.freshDatabase() : nil
        defer { cluster?.stop() }
        let kind: InProcessServer.Store = if let cluster { .postgres(url: cluster.url) } else if store == "sqlite" { .sqlite } else { .memory() }
        try await InProcessServer.with(store: kind) { server in
            let token = try AdminAPI.token(of: server)
            let nowMs = { Int64(Date().timeIntervalSince1970 * 1000) }
            let started = try await AdminAPI.request(server, token: token, "POST", "/v1/admin/rounds?seconds=30")
            #expect(started.status == 200, "\(started.body)")
            let round = try JSONDecoder().decode(RoundAnswer.Summary.self, from: Data(started.body.utf8))
            let asked = nowMs()
            let stopped = try await AdminAPI.request(server, token: token, "POST", "/v1/admin/rounds/stop")
            let answered = nowMs()
            #expect(answered < round.startsAtMs, "stopped in its countdown")
            let summary = try JSONDecoder().decode(RoundAnswer.Summary.self, from: Data(stopped.body.utf8))
            #expect((asked...answered).contains(summary.endsAtMs), "ends at \(summary.endsAtMs), stopped between \(asked) and \(answered)")
            let listed = try JSONDecoder().decode([RoundAnswer.Summary].self, from: Data(try await HTTP.get("\(server.baseURL)/v1/rounds").body.utf8))
            #expect(listed.first == summary)
            // A window of no length, starting and ending at the stop: no screen counts down to a stopped round.
            #expect(summary.startsAtMs == summary.endsAtMs)
        }
    }

    @Test func theLimitsTableNamesEveryPathOfTheDirectoriesBudget() throws {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let docs = try String(contentsOf: package.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let rows = docs.split(separator: "\n").filter { $0.hasPrefix("| HTTP requests per remote address |") || $0.hasPrefix("| costly HTTP requests from all addresses together |") }
        #expect(rows.count == 2)
        for (path, requested) in [("/v1/schools", "/v1/schools"), ("/v1/catalog", "/v1/catalog"), ("/v1/scores", "/v1/scores"), ("/v1/rounds/ID", "/v1/rounds/3"),
                                 ("/v1/seasons", "/v1/seasons"), ("/v1/seasons/ID", "/v1/seasons/week-2960")] {
            #expect(RequestBudgetMiddleware<HTTPRequestContext>.kind(of: requested) == .bulk, "\(requested)")
            for row in rows { #expect(row.contains("`\(path)`"), "\(path) in \(row.prefix(40))") }
        }
    }

    @Test func aRoundIdThatIsANumberNoRoundHasIs404() async throws {
        try await InProcessServer.with(store: .sqlite) { server in
            for id in ["0", "-3", "999"] {
                let answer = try await HTTP.get("\(server.baseURL)/v1/rounds/\(id)")
                #expect(answer.status == 404, "\(id): \(answer.status) \(answer.body)")
            }
            #expect(try await HTTP.get("\(server.baseURL)/v1/rounds/abc").status == 400)
        }
    }
}
