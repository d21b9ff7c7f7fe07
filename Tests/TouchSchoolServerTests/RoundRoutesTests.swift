import Foundation
import Testing
import TouchSchoolCore
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

    @Test(arguments: ["memory", "sqlite", "postgres"])
    func theOperatorsRoundCountsTheTapsInsideItsWindow(store: String) async throws {
        let cluster = store == "postgres" ? try PostgresCluster.freshDatabase() : nil
        defer { cluster?.stop() }
        let kind: InProcessServer.Store = if let cluster { .postgres(url: cluster.url) } else if store == "sqlite" { .sqlite } else { .memory() }
        try await InProcessServer.with(store: kind) { server in
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

    /// Two servers on one PostgreSQL: a round started through one counts the players of both,
    /// each batch once (one sent again through the other server too), and both answer the same
    /// standings, those the test expects from what its players sent inside the window.
    @Test func twoServersOnOnePostgreSQLRunOneRound() async throws {
        let cluster = try PostgresCluster.freshDatabase()
        defer { cluster.stop() }
        try await InProcessServer.with(store: .postgres(url: cluster.url)) { one in
            try await InProcessServer.with(store: .postgres(url: cluster.url)) { two in
                let token = try AdminAPI.token(of: one)
                // Each player's server, school and taps per batch inside the window (distinct sums:
                // the places do not hang on who reached them first).
                let plan: [(device: TestDevice, server: InProcessServer, school: String, inside: [UInt64])] = [
                    (TestDevice(name: "alice"), one, "S0001", [5, 6, 7]), (TestDevice(name: "bob"), one, "S0002", [4, 4, 4]),
                    (TestDevice(name: "carol"), two, "S0001", [3, 5, 7]), (TestDevice(name: "dave"), two, "S0003", [2, 3, 4])]
                var players: [TestPlayer] = []
                var sent: [String: UInt64] = [:]
                /// Sends a batch of `taps` for the player's school made over `startMs...endMs`; all accepted.
                func play(_ index: Int, _ seq: UInt64, taps: UInt64, startMs: Int64, endMs: Int64) async throws -> TapBatch {
                    let school = plan[index].school
                    let batch = TapBatch(seq: seq, taps: [school: taps], playerTaps: taps, switchedToSchool: seq == 1 ? school : nil,
                                         bestTapsPerSecond: 8, startMs: startMs, endMs: endMs)
                    try await players[index].send(.taps(batch))
                    #expect(try await players[index].ack(seq).accepted == taps)
                    sent[school, default: 0] += taps
                    return batch
                }
                // Before the round, and in its countdown: the nation's only.
                for entry in plan { players.append(try await TestPlayer.join(entry.server, device: entry.device).0) }
                for index in plan.indices {
                    _ = try await play(index, 1, taps: 3, startMs: Self.nowMs() - 600, endMs: Self.nowMs() - 400)
                }
                let started = try await AdminAPI.request(one, token: token, "POST", "/v1/admin/rounds?seconds=5")
                #expect(started.status == 200, "\(started.body)")
                let round = try JSONDecoder().decode(RoundAnswer.Summary.self, from: Data(started.body.utf8))
                // Every screen hears of it in its countdown, the other server's players too (their
                // server reads the round from the database every 250 ms).
                for index in plan.indices {
                    let told = try await players[index].next("the round on \(plan[index].device.name)'s screen", timeout: 3) { message -> RoundMessage? in
                        if case let .round(told) = message { told } else { nil }
                    }
                    #expect(told.id == round.id && told.startsAtMs == round.startsAtMs && told.endsAtMs == round.endsAtMs)
                    #expect(told.nowMs < round.startsAtMs, "\(plan[index].device.name) was told in the countdown")
                }
                for index in plan.indices {
                    _ = try await play(index, 2, taps: 2, startMs: Self.nowMs() - 300, endMs: Self.nowMs() - 100)
                }
                #expect(Self.nowMs() < round.startsAtMs, "the countdown's batches were made before the window")
                // Inside the window: each batch made over 500 ms, sent once made, through both servers.
                var last: [TapBatch] = []
                for batch in 0..<3 {
                    let startMs = round.startsAtMs + 200 + Int64(batch) * 1_500
                    let wait = startMs + 550 - Self.nowMs()
                    if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
                    last = []
                    for index in plan.indices {
                        last.append(try await play(index, UInt64(3 + batch), taps: plan[index].inside[batch], startMs: startMs, endMs: startMs + 500))
                    }
                }
                // Alice's device moves to the other server and sends its last batch again: counted once.
                await players[0].close()
                let (alice, welcome) = try await TestPlayer.join(two, device: plan[0].device)
                players[0] = alice
                #expect(welcome.lastSeq == 5)
                try await alice.send(.taps(last[0]))
                let repeated = try await alice.ack(5)
                #expect(repeated.accepted == 0 && repeated.refused == 0)
                // After the window (saved in its grace): the nation's only.
                let after = round.endsAtMs + 100
                let wait = after + 350 - Self.nowMs()
                if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
                for index in plan.indices { _ = try await play(index, 6, taps: 2, startMs: after, endMs: after + 300) }

                // What the test expects, from what it sent inside the window.
                let ranked = plan.map { (name: $0.device.name, school: $0.school, count: $0.inside.reduce(0, +)) }.sorted { $0.count > $1.count }
                let expectedPlayers = ranked.enumerated().map { "\($0.offset + 1) \($0.element.name) \($0.element.school) \($0.element.count)" }
                let schools = Dictionary(plan.map { ($0.school, $0.inside.reduce(0, +)) }, uniquingKeysWith: +).sorted { $0.value > $1.value }
                let expectedSchools = schools.enumerated().map { "\($0.offset + 1) \($0.element.key) \($0.element.value)" }
                var answers: [RoundAnswer.Results] = []
                for server in [one, two] {
                    let response = try await HTTP.get("\(server.baseURL)/v1/rounds/\(round.id)")
                    #expect(response.status == 200, "\(response.body)")
                    let results = try JSONDecoder().decode(RoundAnswer.Results.self, from: Data(response.body.utf8))
                    #expect(results.round == round)
                    #expect(results.players.map { "\($0.place) \($0.player ?? "") \($0.school ?? "") \($0.count)" } == expectedPlayers)
                    #expect(results.schools.map { "\($0.place) \($0.id) \($0.count)" } == expectedSchools)
                    answers.append(results)
                }
                #expect(answers[0].players == answers[1].players && answers[0].schools == answers[1].schools)
                // Each player's screen ends on its place and count, final, through either server.
                for (index, player) in players.enumerated() {
                    let name = plan[index].device.name
                    let final = try await player.next("\(name)'s final place", timeout: 15) { message -> RoundStanding? in
                        if case let .roundPlace(place) = message, place.final { place } else { nil }
                    }
                    let place = try #require(ranked.firstIndex { $0.name == name }) + 1
                    #expect(final == RoundStanding(id: round.id, place: place, count: plan[index].inside.reduce(0, +), players: plan.count, final: true))
                }
                // The nation counted every tap, before, inside and after the window, once.
                for server in [one, two] {
                    #expect(try await Wait.until(timeout: 30) { try await HTTP.scores(server).scores == sent }, "\(sent)")
                }
                for player in players { await player.close() }
            }
        }
    }
}
