import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// Two real `serve --postgres` processes on one real PostgreSQL straddling a season's boundary
/// (issue 50, "Proof"): both with `--season week` and the same `--clock-offset-ms` (hidden) moving
/// their clocks to before a Monday 00:00 in Korea, players on each sending batches across it from
/// 3 s before, one server killed -9 1 s past it and restarted, its players sending again what it
/// did not acknowledge. After the season's end and grace, every tap counts once in all time and in exactly
/// the season `Season.cut` puts it in, as both servers say, and the hall of fame both keep is the one
/// worked out here from the batches sent: each league's first three by total.
@Suite(.onOwnThreads, .tags(.process, .postgres)) struct SeasonServersTests {
    /// A school played by one device on one server, where the starter list places it, and how many
    /// taps each of its batches holds: all different, so that no two totals tie and the hall needs
    /// no tie rule here (checked below). 서울특별시's high schools and 부산광역시's schools are on
    /// both servers, so the national, high, 서울, 서울 high and 부산 leagues each mix both servers' taps.
    struct Played {
        let school: String
        let level: String
        let province: String
        let server: Int
        let tapsPerBatch: UInt64
    }

    let played = [
        Played(school: "S0001", level: "high", province: "서울특별시", server: 0, tapsPerBatch: 6),
        Played(school: "S0002", level: "high", province: "서울특별시", server: 1, tapsPerBatch: 5),
        Played(school: "S0003", level: "high", province: "서울특별시", server: 0, tapsPerBatch: 4),
        Played(school: "S0004", level: "high", province: "서울특별시", server: 1, tapsPerBatch: 3),
        Played(school: "S0127", level: "high", province: "부산광역시", server: 0, tapsPerBatch: 2),
        Played(school: "S0141", level: "middle", province: "부산광역시", server: 1, tapsPerBatch: 1),
    ]

    /// A season's hall from its totals, as the issue states it: in each league (national, the
    /// level, the province, the level in the province) of a school with taps, the first three
    /// schools by total, placed 1, 2, 3 (no ties).
    func hall(of totals: [String: UInt64]) -> [SeasonAnswer.Famed] {
        var leagues: [LeagueName: [(school: String, total: UInt64)]] = [:]
        for school in played {
            guard let total = totals[school.school], total > 0 else { continue }
            for league in [LeagueName(), LeagueName(level: school.level), LeagueName(province: school.province),
                           LeagueName(level: school.level, province: school.province)] {
                leagues[league, default: []].append((school.school, total))
            }
        }
        return leagues.flatMap { league, schools in
            schools.sorted { $0.total > $1.total }.prefix(3).enumerated().map { index, row in
                SeasonAnswer.Famed(league: league, place: index + 1, rank: index + 1, school: row.school, total: row.total)
            }
        }.sorted(by: Self.inOneOrder)
    }

    /// One order for two halls compared: by league, then place.
    static func inOneOrder(_ a: SeasonAnswer.Famed, _ b: SeasonAnswer.Famed) -> Bool {
        (a.league.level ?? "", a.league.province ?? "", a.place) < (b.league.level ?? "", b.league.province ?? "", b.place)
    }

    @Test func twoServersStraddlingTheBoundaryOneKilledCountEveryTapInOneSeasonAndKeepOneHall() async throws {
        let cluster = try PostgresCluster.freshDatabase()
        defer { cluster.stop() }
        let local = TestDevice.nowMs()
        let boundary = try #require(Season.at(.week, ms: local)).endsAtMs
        // Their clocks 6 s before it: the starts and the joins take from under a second to a few on a
        // busy machine; the batches begin 3 s before the boundary whatever they took.
        let arguments = ["--postgres", cluster.url, "--season", "week", "--clock-offset-ms", String(boundary - 6_000 - local)]
        let servers = try (0..<2).map { _ in try ServerProcess.launch(arguments: arguments) }
        defer { for server in servers { server.stop() } }
        for server in servers { try server.listening() }

        let devices = played.map { TestDevice(name: $0.school) }
        var players: [TestPlayer] = []
        for (index, school) in played.enumerated() { players.append(try await TestPlayer.join(servers[school.server], device: devices[index]).0) }
        // Each server's clock, measured by a client of it (ping), as a game measures it.
        var offsets: [Int64] = []
        for server in servers.indices {
            offsets.append(try await players[try #require(played.firstIndex { $0.server == server })].serverClockOffsetMs())
        }
        let serverNow = { (server: Int) in TestDevice.nowMs() + offsets[server] }

        // Both servers take the ended season's hall at the same instant: a session of the test
        // holds the table of the halls taken (EXCLUSIVE: reads pass, inserts wait) from before
        // the boundary until both servers' inserts wait on it after the grace, then lets them go
        // together: one takes the hall, the other finds it taken, and neither fails. First the
        // season before's, taken (empty) at the servers' first poll, so that nothing else waits.
        let (ended, current) = (try #require(Season.at(.week, ms: boundary - 1)), try #require(Season.at(.week, ms: boundary)))
        try #require(try await Wait.until(timeout: 10) {
            try cluster.psql("SELECT count(*) FROM touchschool_season_fame_taken WHERE number = \(ended.number - 1)") == "1"
        })
        let holding = "touchschool_test_hall_lock"
        let holder = Task(executorPreference: ThreadPerJobExecutor.shared) {
            _ = try? cluster.psql("BEGIN; LOCK TABLE touchschool_season_fame_taken IN EXCLUSIVE MODE; SELECT pg_sleep(30); COMMIT",
                                  application: holding)
        }
        let release = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(holding)'"
        defer { _ = try? cluster.psql(release) }
        try #require(try await Wait.until(timeout: 10) {
            try cluster.psql("""
                SELECT count(*) FROM pg_locks JOIN pg_stat_activity USING (pid)
                WHERE application_name = '\(holding)' AND relation = 'touchschool_season_fame_taken'::regclass AND granted
                """) == "1"
        })
        try #require(serverNow(0) < boundary - 3_000, "the servers took over 3 s to start and be joined")
        try await Task.sleep(for: .milliseconds(boundary - 3_000 - serverNow(0)))

        // Each device a batch every 150 ms claimed from its last batch's end to now on its server's
        // clock, until 1 s past the boundary; then server 0 is killed, whatever it acknowledged.
        var sent = [[TapBatch]](repeating: [], count: played.count)
        var lastEnd = played.map { serverNow($0.server) - 1_000 }
        while serverNow(0) < boundary + 1_000 {
            for (index, school) in played.enumerated() {
                let end = serverNow(school.server), seq = UInt64(sent[index].count + 1)
                let batch = TapBatch(seq: seq, taps: [school.school: school.tapsPerBatch], playerTaps: school.tapsPerBatch,
                                     switchedToSchool: seq == 1 ? school.school : nil, bestTapsPerSecond: 8, startMs: lastEnd[index], endMs: end)
                lastEnd[index] = end
                sent[index].append(batch)
                try await players[index].send(.taps(batch))
            }
            try await Task.sleep(for: .milliseconds(150))
        }
        servers[0].signal(SIGKILL)
        #expect(servers[0].waitForExit(timeout: 5) == 128 + SIGKILL)

        // The other server's players: everything acknowledged, in full.
        var acknowledged = [[Acknowledgement]](repeating: [], count: played.count)
        for (index, school) in played.enumerated() where school.server == 1 {
            _ = try await players[index].ack(UInt64(sent[index].count))
        }
        for index in played.indices {
            acknowledged[index] = players[index].acks
            await players[index].close()
        }
        // Server 0, restarted (same port, arguments and database): its players send again what it
        // did not acknowledge, and it counts them once.
        try servers[0].restart()
        for (index, school) in played.enumerated() where school.server == 0 {
            let (player, welcome) = try await TestPlayer.join(servers[0], device: devices[index])
            #expect(welcome.lastSeq >= acknowledged[index].map(\.seq).max() ?? 0, "everything acknowledged was saved")
            let again = sent[index].filter { $0.seq > welcome.lastSeq }
            for batch in again { try await player.send(.taps(batch)) }
            for batch in again { acknowledged[index].append(try await player.ack(batch.seq)) }
            await player.close()
        }
        let resentBy = serverNow(0)
        for (index, batches) in sent.enumerated() {
            let taps = Dictionary(acknowledged[index].map { ($0.seq, $0.accepted) }, uniquingKeysWith: max)
            #expect(batches.allSatisfy { taps[$0.seq] == $0.totalTaps }, "\(played[index].school): every batch acknowledged in full")
        }

        // What the test sent, cut between the seasons by `Season.cut`.
        var expected: [Season: [String: UInt64]] = [:]
        var allTime: [String: UInt64] = [:]
        for (index, batches) in sent.enumerated() {
            for batch in batches {
                allTime[played[index].school, default: 0] += batch.totalTaps
                for (season, taps) in Season.cut(taps: batch.totalTaps, startMs: batch.startMs, endMs: batch.endMs, .week) {
                    expected[season, default: [:]][played[index].school, default: 0] += taps
                }
            }
        }
        #expect(Set(expected.keys) == [ended, current], "the batches crossed the boundary: \(expected)")
        let endedTotals = expected[ended] ?? [:]
        try #require(Set(endedTotals.values).count == endedTotals.count, "no two schools tie in \(ended.id): \(endedTotals)")
        let fame = hall(of: endedTotals)

        // After the ended season's grace on both servers' clocks, each goes to take the hall at its
        // next poll (every 200 ms), and waits on the lock; then both go on at once.
        let graceEnds = boundary + Round.graceMs
        try await Task.sleep(for: .milliseconds(max(0, graceEnds - servers.indices.map(serverNow).min()!)))
        let bothWait = try await Wait.until(timeout: 10) {
            try cluster.psql("""
                SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                    AND query LIKE '%INSERT INTO touchschool_season_fame_taken%'
                """) == "2"
        }
        _ = try cluster.psql(release)
        await holder.value
        #expect(bothWait, "both servers waiting to take the hall")
        var lists: [SeasonAnswer.List] = []
        for server in servers {
            var list: SeasonAnswer.List?
            let kept = try await Wait.until(timeout: 10) {
                list = try JSONDecoder().decode(SeasonAnswer.List.self, from: Data(try await HTTP.get("\(server.baseURL)/v1/seasons").body.utf8))
                return list?.seasons.contains { $0.season.id == ended.id && !$0.fame.isEmpty } == true
            }
            #expect(kept, "\(server.baseURL): the hall of \(ended.id) after its grace: \(String(describing: list))")
            lists.append(try #require(list))
        }
        #expect(lists.map(\.length) == ["week", "week"])
        #expect(lists[0].seasons == lists[1].seasons, "the hall of fame is the same on both servers")
        #expect(lists[0].seasons.map(\.season.id) == [current.id, ended.id])
        #expect(lists[0].seasons.first { $0.season == SeasonAnswer.Summary(ended) }?.fame.sorted(by: Self.inOneOrder)
                == fame.filter { $0.league == LeagueName() }, "the national hall")

        for server in servers {
            #expect(try await HTTP.scores(server, period: .allTime).scores == allTime, "\(server.baseURL): all time")
            // What every screen ranks by now: the new week, the same on both (each learned the
            // other's taps in it from its polls), named in the answer's header.
            let week = try await HTTP.get("\(server.baseURL)/v1/scores")
            #expect(week.headers.first { $0.0.lowercased() == "x-touchschool-season" }?.1 == current.id)
            #expect(try JSONDecoder().decode(Board.self, from: Data(week.body.utf8)).scores == expected[current], "\(server.baseURL): this week")
            var counted: [String: UInt64] = [:]
            for season in [ended, current] {
                let standing = try JSONDecoder().decode(SeasonAnswer.Standing.self,
                                                        from: Data(try await HTTP.get("\(server.baseURL)/v1/seasons/\(season.id)").body.utf8))
                #expect(Dictionary(uniqueKeysWithValues: standing.schools.map { ($0.id, $0.count) }) == expected[season],
                        "\(server.baseURL): \(season.id)")
                // What server 0 had not acknowledged was made after the boundary: in no hall, whenever sent again.
                #expect(standing.fame.sorted(by: Self.inOneOrder) == (season == ended ? fame : []),
                        "\(server.baseURL): \(season.id)'s hall (sent again by \(resentBy - boundary) ms past the boundary)")
                for place in standing.schools { counted[place.id, default: 0] += place.count }
            }
            #expect(counted == allTime, "\(server.baseURL): every tap in exactly one season and in all time")
            // No save or poll failed: the two servers taking the hall at once never collide.
            let metrics = try await HTTP.get("\(server.baseURL)/metrics").body
            #expect(metrics.split(separator: "\n").first { $0.hasPrefix("touchschool_commit_failures_total ") } == "touchschool_commit_failures_total 0",
                    "\(server.baseURL): \(server.errors.suffix(2000))")
        }
        #expect(try cluster.psql("SELECT count(*) FROM touchschool_season_fame") == "\(fame.count)")
    }
}
