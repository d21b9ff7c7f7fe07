import Foundation
import Testing
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// Rounds over HTTP on the server in process: the operator starts one with the token, taps made
/// during its countdown count for the nation only, taps inside its window for the round too, the
/// standings place players and schools, and anyone lists rounds and reads one.
@Suite(.onOwnThreads) struct RoundRoutesTests {
    static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// A batch of `taps` for `school` made over `startMs...endMs` by the client's clock.
    static func batch(_ seq: UInt64, _ school: String, taps: UInt64, startMs: Int64, endMs: Int64) -> ClientMessage {
        .taps(TapBatch(seq: seq, taps: [school: taps], playerTaps: taps, switchedToSchool: seq == 1 ? school : nil,
                       bestTapsPerSecond: 8, startMs: startMs, endMs: endMs))
    }

    @Test(arguments: ["memory", "sqlite"])
    func theOperatorsRoundCountsTheTapsInsideItsWindow(store: String) async throws {
        try await InProcessServer.with(store: store == "sqlite" ? .sqlite : .memory()) { server in
            let token = try AdminAPI.token(of: server)
            #expect(try await HTTP.post("\(server.baseURL)/v1/admin/rounds?seconds=5").status == 401)
            #expect(try await AdminAPI.request(server, token: token, "POST", "/v1/admin/rounds?seconds=4").status == 400)
            #expect(try await AdminAPI.request(server, token: token, "POST", "/v1/admin/rounds?seconds=5&title=%07ring").status == 400)
            #expect(try await AdminAPI.request(server, token: token, "POST", "/v1/admin/rounds/stop").status == 404)
            #expect(try await HTTP.get("\(server.baseURL)/v1/rounds").body == "[]")

            let (alice, _) = try await TestPlayer.join(server, device: TestDevice(name: "alice"))
            let (bob, _) = try await TestPlayer.join(server, device: TestDevice(name: "bob"))
            let asked = Self.nowMs()
            let started = try await AdminAPI.request(server, token: token, "POST", "/v1/admin/rounds?seconds=5&title=%203%EB%B0%98%20%EB%8C%80%ED%95%AD%EC%A0%84")
            #expect(started.status == 200, "\(started.body)")
            let round = try JSONDecoder().decode(RoundAnswer.Summary.self, from: Data(started.body.utf8))
            #expect(round.title == "3반 대항전")
            #expect(round.endsAtMs - round.startsAtMs == 5_000 && round.graceMs == 5_000)
            #expect(round.startsAtMs >= asked + 3_000 && round.startsAtMs <= Self.nowMs() + 3_000)

            // In the countdown: the nation's, not the round's.
            let now = Self.nowMs()
            try await alice.send(Self.batch(1, "S0001", taps: 4, startMs: now - 300, endMs: now - 100))
            #expect(try await alice.ack(1).accepted == 4)
            // Inside the window (the window opens at startsAtMs).
            let wait = round.startsAtMs + 400 - Self.nowMs()
            if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
            try await alice.send(Self.batch(2, "S0001", taps: 6, startMs: round.startsAtMs + 50, endMs: round.startsAtMs + 300))
            #expect(try await alice.ack(2).accepted == 6)
            try await bob.send(Self.batch(1, "S0002", taps: 3, startMs: round.startsAtMs + 100, endMs: round.startsAtMs + 350))
            #expect(try await bob.ack(1).accepted == 3)

            let results = try await HTTP.get("\(server.baseURL)/v1/rounds/\(round.id)")
            #expect(results.status == 200, "\(results.body)")
            let standings = try JSONDecoder().decode(RoundAnswer.Results.self, from: Data(results.body.utf8))
            #expect(standings.players.map { [$0.place, Int($0.count)] } == [[1, 6], [2, 3]])
            #expect(standings.players.map(\.player) == ["alice", "bob"])
            #expect(standings.players.map(\.school) == ["S0001", "S0002"])
            #expect(standings.schools.map { "\($0.place) \($0.id) \($0.count)" } == ["1 S0001 6", "2 S0002 3"])
            // The nation counts every tap as always.
            let scores = try JSONDecoder().decode(Board.self, from: Data(try await HTTP.get("\(server.baseURL)/v1/scores").body.utf8)).scores
            #expect(scores["S0001"] == 10 && scores["S0002"] == 3)

            // A ban with the taps taken off takes them off the round too.
            let bobID = try #require(standings.players.last?.id)
            #expect(try await AdminAPI.request(server, token: token, "POST", "/v1/admin/devices/\(bobID)/ban?removeTaps=true").status == 200)
            let afterBan = try JSONDecoder().decode(RoundAnswer.Results.self,
                                                    from: Data(try await HTTP.get("\(server.baseURL)/v1/rounds/\(round.id)").body.utf8))
            #expect(afterBan.players.map(\.player) == ["alice"])
            #expect(afterBan.schools.isEmpty, "one school left: no school standings")

            let stopped = try await AdminAPI.request(server, token: token, "POST", "/v1/admin/rounds/stop")
            #expect(stopped.status == 200)
            let stoppedRound = try JSONDecoder().decode(RoundAnswer.Summary.self, from: Data(stopped.body.utf8))
            #expect(stoppedRound.id == round.id && stoppedRound.endsAtMs < round.endsAtMs && stoppedRound.endsAtMs <= Self.nowMs())
            let listed = try JSONDecoder().decode([RoundAnswer.Summary].self, from: Data(try await HTTP.get("\(server.baseURL)/v1/rounds").body.utf8))
            #expect(listed == [stoppedRound])
            #expect(try await HTTP.get("\(server.baseURL)/v1/rounds/999").status == 404)
            #expect(try await HTTP.get("\(server.baseURL)/v1/rounds/abc").status == 400)
            await alice.close()
            await bob.close()
        }
    }
}
