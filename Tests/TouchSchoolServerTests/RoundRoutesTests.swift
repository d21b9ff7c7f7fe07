import Foundation
import Testing
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
import TouchSchoolTestSupport
@testable import TouchSchoolServer

/// Rounds over HTTP on the server in process: the operator starts one with the token, taps made
/// during its countdown count for the nation only, taps inside its window for the round too, the
/// standings place players and schools, and anyone lists rounds and reads one.
@Suite(.onOwnThreads, .tags(.postgres)) struct RoundRoutesTests {
    static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Round `id`'s standings once `shown` holds of them: they are the server's last read of the
    /// round (`BattleHall.roundPollInterval`), which follows a batch acknowledged by up to one interval.
    static func standings(_ server: some RunningServer, _ id: Int64,
                          once shown: (RoundAnswer.Results) -> Bool) async throws -> RoundAnswer.Results {
        var last: RoundAnswer.Results?
        _ = try await Wait.until(timeout: 5) {
            let answer = try await HTTP.get("\(server.baseURL)/v1/rounds/\(id)")
            guard answer.status == 200 else { return false }
            last = try JSONDecoder().decode(RoundAnswer.Results.self, from: Data(answer.body.utf8))
            return last.map(shown) ?? false
        }
        return try #require(last)
    }

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

            let standings = try await Self.standings(server, round.id) { $0.players.count == 2 }
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
            let afterBan = try await Self.standings(server, round.id) { $0.players.count == 1 }
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

    /// `GET /v1/rounds/ID/results.csv`: the standings as a spreadsheet file, downloaded under the
    /// round's name, in the browser's language; names that would run as formulas kept text.
    @Test func theResultsDownloadAsCSV() async throws {
        try await InProcessServer.with(store: .memory()) { server in
            let token = try AdminAPI.token(of: server)
            let (kim, _) = try await TestPlayer.join(server, device: TestDevice(name: "Kim, Minsu"))
            let (evil, _) = try await TestPlayer.join(server, device: TestDevice(name: "=cmd|' /C calc'!A0"))
            let started = try await AdminAPI.request(server, token: token, "POST", "/v1/admin/rounds?seconds=5&title=%EC%A4%91%EA%B0%84%EA%B3%A0%EC%82%AC")
            let round = try JSONDecoder().decode(RoundAnswer.Summary.self, from: Data(started.body.utf8))
            let wait = round.startsAtMs + 300 - Self.nowMs()
            if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
            try await kim.send(Self.batch(1, "S0001", taps: 6, startMs: round.startsAtMs + 50, endMs: round.startsAtMs + 250))
            #expect(try await kim.ack(1).accepted == 6)
            try await evil.send(Self.batch(1, "S0002", taps: 3, startMs: round.startsAtMs + 50, endMs: round.startsAtMs + 250))
            #expect(try await evil.ack(1).accepted == 3)
            _ = try await Self.standings(server, round.id) { $0.players.count == 2 }

            let english = try await HTTP.get("\(server.baseURL)/v1/rounds/\(round.id)/results.csv")
            #expect(english.status == 200)
            let headers = Dictionary(english.headers.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { first, _ in first })
            #expect(headers["content-type"] == "text/csv; charset=utf-8")
            #expect(headers["content-disposition"] == "attachment; filename=\"round-\(round.id).csv\"")
            let rows = english.body.components(separatedBy: "\r\n")
            #expect(rows.first?.hasPrefix("\u{FEFF}round,title,starts (") == true, "\(english.body)")
            #expect(rows.count == 4 && rows[3].isEmpty, "a header, two players, the last line ended: \(english.body)")
            #expect(rows[1].hasPrefix("\(round.id),중간고사,") && rows[1].contains(#",1,"Kim, Minsu","#) && rows[1].hasSuffix(",6"), "\(rows[1])")
            #expect(rows[2].contains(",2,'=cmd|' /C calc'!A0,") && rows[2].hasSuffix(",3"), "\(rows[2])")
            // The school by its name, as the directory names it.
            let directory = try JSONDecoder().decode(SchoolDirectory.self, from: Data(try await HTTP.get("\(server.baseURL)/v1/schools").body.utf8))
            let name = try #require(directory.schools.first { $0.first == "S0001" }?[1])
            #expect(rows[1].contains(",\(name),"), "\(rows[1])")

            let korean = try await HTTP.get("\(server.baseURL)/v1/rounds/\(round.id)/results.csv", headers: [("Accept-Language", "ko-KR,ko;q=0.9,en;q=0.8")])
            #expect(korean.body.hasPrefix("\u{FEFF}라운드,제목,시작 ("), "\(korean.body)")
            #expect(try await HTTP.get("\(server.baseURL)/v1/rounds/99/results.csv").status == 404)
            await kim.close()
            await evil.close()
        }
    }

    /// Issue 48: many readers of the current round's standings cost the store one read of them an
    /// interval (the hall's, shared), not one each; each answer is the one placed from the store
    /// afresh, at the time of the request.
    @Test func theCurrentRoundsStandingsAreReadFromTheStoreOnceAnIntervalForAllItsReaders() async throws {
        let storage = InMemoryBattleStore.Storage()
        try await InProcessServer.with(store: .memory(storage)) { server in
            let token = try AdminAPI.token(of: server)
            let (alice, _) = try await TestPlayer.join(server, device: TestDevice(name: "alice"))
            let (bob, _) = try await TestPlayer.join(server, device: TestDevice(name: "bob"))
            let started = try await AdminAPI.request(server, token: token, "POST", "/v1/admin/rounds?seconds=30")
            let round = try JSONDecoder().decode(RoundAnswer.Summary.self, from: Data(started.body.utf8))
            let wait = round.startsAtMs + 300 - Self.nowMs()
            if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
            try await alice.send(Self.batch(1, "S0001", taps: 6, startMs: round.startsAtMs + 50, endMs: round.startsAtMs + 250))
            #expect(try await alice.ack(1).accepted == 6)
            try await bob.send(Self.batch(1, "S0002", taps: 6, startMs: round.startsAtMs + 60, endMs: round.startsAtMs + 250))
            #expect(try await bob.ack(1).accepted == 6)
            _ = try await Self.standings(server, round.id) { $0.players.count == 2 }

            // 40 readers at once, twice (inside the address's and the server's budgets).
            let readsBefore = storage.standingsReads(ofRound: round.id)
            let clock = ContinuousClock()
            let begun = clock.now
            let asked = Self.nowMs()
            var answers: [String] = []
            for _ in 0..<2 {
                answers += try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<40 {
                        group.addTask {
                            let answer = try await HTTP.get("\(server.baseURL)/v1/rounds/\(round.id)")
                            #expect(answer.status == 200, "\(answer.body)")
                            return answer.body
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            let answered = Self.nowMs()
            let intervals = (clock.now - begun) / BattleHall.roundPollInterval
            let reads = storage.standingsReads(ofRound: round.id) - readsBefore
            #expect(Double(reads) <= intervals.rounded(.up) + 1, "\(reads) reads of the standings in \(intervals) intervals for 80 readers")

            let catalog = try CatalogResource(path: try #require(StarterCatalogFile.path))
            let fresh = try #require(await InMemoryBattleStore(storage: storage, catalog: catalog).round(round.id))
            for answer in answers {
                let nowMs = try JSONDecoder().decode(RoundAnswer.Results.self, from: Data(answer.utf8)).nowMs
                #expect(nowMs >= asked && nowMs <= answered, "the time of the answer")
                #expect(answer == MessageCoding.encodeJSON(RoundRoutes.results(fresh.0, fresh.1, nowMs: nowMs)))
            }
            await alice.close()
            await bob.close()
        }
    }

    /// A settled round (the hall reads it no more) is read from the store once, then answered from
    /// the cache, as JSON and as CSV; a ban that takes taps off has it read again.
    @Test func aSettledRoundIsReadFromTheStoreOnceThenFromTheCache() async throws {
        let storage = InMemoryBattleStore.Storage()
        let catalog = try CatalogResource(path: try #require(StarterCatalogFile.path))
        let store = InMemoryBattleStore(storage: storage, catalog: catalog)
        let now = Self.nowMs()
        let old = try #require(await store.startRound(title: "1교시", seconds: 5, nowMs: now - 120_000))
        // Two players' taps inside its window, saved then.
        let batches = [("device-1", "S0001", UInt64(6)), ("device-2", "S0002", UInt64(3))].map { device, school, taps in
            ReceivedBatch(connection: 1, device: device, player: device,
                          batch: TapBatch(seq: 1, taps: [school: taps], playerTaps: taps, switchedToSchool: school, bestTapsPerSecond: 8,
                                          startMs: old.startsAtMs + 500, endMs: old.startsAtMs + 1_500),
                          address: "10.0.0.1", network: "10.0.0.1")
        }
        _ = try await store.commit(batches, histories: TapJudges(addresses: .standard), catalog: catalog.catalog, nowMs: old.startsAtMs + 1_600)
        _ = await store.startRound(title: "2교시", seconds: 5, nowMs: now - 60_000)
        try await InProcessServer.with(store: .memory(storage)) { server in
            let fresh = try #require(await store.round(old.id))
            #expect(fresh.1.count == 2)
            for _ in 0..<10 {
                let answer = try await HTTP.get("\(server.baseURL)/v1/rounds/\(old.id)")
                #expect(answer.status == 200, "\(answer.body)")
                let nowMs = try JSONDecoder().decode(RoundAnswer.Results.self, from: Data(answer.body.utf8)).nowMs
                #expect(answer.body == MessageCoding.encodeJSON(RoundRoutes.results(fresh.0, fresh.1, nowMs: nowMs)))
            }
            #expect(try await HTTP.get("\(server.baseURL)/v1/rounds/\(old.id)/results.csv").status == 200)
            // One read by the test, one by the first answer.
            #expect(storage.standingsReads(ofRound: old.id) == 2)

            let token = try AdminAPI.token(of: server)
            let banned = DevicePublicID.of("device-2")
            #expect(try await AdminAPI.request(server, token: token, "POST", "/v1/admin/devices/\(banned)/ban?removeTaps=true").status == 200)
            let afterBan = try JSONDecoder().decode(RoundAnswer.Results.self,
                                                    from: Data(try await HTTP.get("\(server.baseURL)/v1/rounds/\(old.id)").body.utf8))
            #expect(afterBan.players.map(\.player) == ["device-1"])
            #expect(storage.standingsReads(ofRound: old.id) == 3)
        }
    }

    /// The cache of settled rounds keeps the most recently answered within its count and bytes,
    /// and forgets them all when a ban takes taps off.
    @Test func theSettledRoundsCacheIsBounded() async throws {
        let longAgo: Int64 = 1_000_000
        func results(_ id: Int64, players: Int) -> (Round, RoundAnswer.Results) {
            let round = Round(id: id, title: nil, startsAtMs: 0, endsAtMs: 5_000)
            let counts = (0..<players).map {
                RoundPlayerCount(device: "device-\($0)", publicID: "public-\($0)", player: "player \($0)", school: "S0001",
                                 bySchool: ["S0001": UInt64($0 + 1)], reachedMs: 1_000)
            }
            return (round, RoundRoutes.results(round, counts, nowMs: longAgo))
        }
        let small = try await RoundAnswers.Standings(results(1, players: 1).1).bytes()
        let large = try await RoundAnswers.Standings(results(1, players: 40).1).bytes()
        #expect(large > 3 * small)
        // Room for three small rounds, or a large one and a small one.
        let answers = RoundAnswers(maximumSettled: 3, maximumSettledBytes: large + small)
        func settle(_ id: Int64, players: Int) async throws {
            let (round, standings) = results(id, players: players)
            _ = try await answers.read(round, standings, atMs: longAgo)
        }
        for id in 1...5 { try await settle(Int64(id), players: 1) }
        #expect(answers.settledKept.count == 3)
        #expect(answers.standings(1, atMs: longAgo) == nil && answers.standings(2, atMs: longAgo) == nil)
        // Round 3 answered again: the least recently answered is 4 now.
        #expect(answers.standings(3, atMs: longAgo) != nil)
        try await settle(6, players: 1)
        #expect(answers.standings(4, atMs: longAgo) == nil && answers.standings(3, atMs: longAgo) != nil)
        // By bytes: a large round leaves room for one small one, the most recently answered (3).
        try await settle(7, players: 40)
        #expect(answers.settledKept.count == 2 && answers.settledKept.bytes == large + small, "\(answers.settledKept)")
        #expect(answers.standings(7, atMs: longAgo) != nil && answers.standings(3, atMs: longAgo) != nil)
        // One larger than the bound alone is answered, not kept.
        try await settle(8, players: 100)
        #expect(answers.standings(8, atMs: longAgo) == nil && answers.settledKept.count == 2)
        // A ban that takes taps off forgets them all (`BattleHallRuntime.ban`).
        answers.forgetSettled()
        #expect(answers.settledKept.count == 0 && answers.settledKept.bytes == 0)
    }

    /// A read in which only a player below the projector's places moved to another school is a
    /// new board: `GET /v1/rounds/ID`, answered from the board, shows every row's school.
    @Test func aSchoolChangedBelowTheProjectorsPlacesIsANewBoard() {
        let round = Round(id: 4, title: nil, startsAtMs: 1_000, endsAtMs: 61_000)
        func counts(lastSchool: String) -> [RoundPlayerCount] {
            (0...RoundLive.shownPlaces).map { index in
                RoundPlayerCount(device: "device-\(index)", publicID: "pub-\(index)", player: "p\(index)",
                                 school: index == RoundLive.shownPlaces ? lastSchool : "S1", bySchool: ["S1": UInt64(100 - index)], reachedMs: 2_000)
            }
        }
        let before = PlacedRound(round: round, counts: counts(lastSchool: "S1"), readAtMs: 10_000)
        let after = PlacedRound(round: round, counts: counts(lastSchool: "S2"), readAtMs: 10_250)
        #expect(before.live == after.live && before.places == after.places)
        #expect(!before.sameStandings(after))
        #expect(before.sameStandings(PlacedRound(round: round, counts: counts(lastSchool: "S1"), readAtMs: 10_250)))
    }

    /// Three players tied at 150 and one at 90: places 1, 1, 1, 4, the same in the JSON of
    /// `GET /v1/rounds/ID`, the projector's `round` event and each player's `roundPlace`, each
    /// tied row saying so; schools tied likewise.
    @Test func equalCountsShareThePlaceInEveryAnswer() throws {
        let round = Round(id: 4, title: nil, startsAtMs: 1_000, endsAtMs: 61_000)
        let counts = [("a", "S1", 150, 30_000), ("b", "S2", 150, 20_000), ("c", "S1", 150, 40_000), ("d", "S2", 90, 10_000)].map {
            RoundPlayerCount(device: "device-" + $0.0, publicID: "pub-" + $0.0, player: $0.0, school: $0.1, bySchool: [$0.1: UInt64($0.2)],
                             reachedMs: Int64($0.3))
        }
        let results = RoundRoutes.results(round, counts, nowMs: 100_000)
        #expect(results.players.map { "\($0.place) \($0.player ?? "") \($0.tied)" } == ["1 b true", "1 a true", "1 c true", "4 d false"])
        let json = MessageCoding.encodeJSON(results)
        #expect(json.contains(#""place":1,"player":"b","school":"S2","tied":true"#), "\(json)")
        let tiedSchools = RoundRoutes.results(round, [counts[0], counts[1]], nowMs: 100_000)
        #expect(tiedSchools.schools.map { "\($0.place) \($0.tied)" } == ["1 true", "1 true"])

        let board = PlacedRound(round: round, counts: counts, readAtMs: 100_000)
        #expect(board.live.players.map(\.place) == [1, 1, 1, 4])
        #expect(board.liveEvent(nowMs: 100_000).contains(#""tied":true"#))
        #expect(board.place(of: "device-c") == RoundStanding(id: 4, place: 1, tied: true, count: 150, players: 4, final: true))
        #expect(board.place(of: "device-d") == RoundStanding(id: 4, place: 4, count: 90, players: 4, final: true))
        #expect(board.message(for: "device-a", nowMs: 100_000).place == 1 && board.message(for: "device-a", nowMs: 100_000).tied)
    }
}
