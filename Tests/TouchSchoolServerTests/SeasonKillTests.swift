import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// A season's boundary crossed by batches in flight on a real `serve` with SQLite, killed -9 just
/// past it (issue 50): after a restart and the clients sending again what was not applied, every
/// tap counts once in all time and in exactly the season `Season.cut` puts it in. The server's
/// clock is moved to 6 s before a Monday 00:00 in Korea (the batches begin 2.5 s before it) (`--clock-offset-ms`, hidden); the
/// clients claim their batches on the server's clock as measured by `ping`, as every client does.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct SeasonKillTests {
    let schools = ["S0001", "S0002"]

    @Test func aKillMinusNineAtTheBoundaryLeavesEveryTapInOneSeasonAndInAllTime() async throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let local = TestDevice.nowMs()
        // The next Monday 00:00 in Korea.
        let boundary = try #require(Season.at(.week, ms: local)).endsAtMs
        // Its clock 6 s before it: the start and the joins take from under a second to a few on a
        // busy machine; the batches begin 2.5 s before the boundary whatever they took.
        let moved = ["--clock-offset-ms", String(boundary - 6_000 - local)]
        let server = try ServerProcess.start(dataDirectory: directory, arguments: ["--season", "week"] + moved)
        defer { server.stop() }
        let devices = [TestDevice(name: "a"), TestDevice(name: "b")]
        var players: [TestPlayer] = []
        for device in devices { players.append(try await TestPlayer.join(server, device: device).0) }
        let offset = try await players[0].serverClockOffsetMs()
        let serverNow = { TestDevice.nowMs() + offset }
        try #require(serverNow() < boundary - 2_500, "the server took over 3.5 s to start and be joined")
        try await Task.sleep(for: .milliseconds(boundary - 2_500 - serverNow()))

        // Each device a batch of 5 taps every 150 ms, claimed from its last batch's end to now,
        // until 1.5 s past the boundary; then the kill, whatever was acknowledged.
        var sent: [[TapBatch]] = [[], []]
        var lastEnd = [serverNow() - 1_000, serverNow() - 1_000]
        while serverNow() < boundary + 1_500 {
            for index in 0..<2 {
                let end = serverNow(), seq = UInt64(sent[index].count + 1)
                let batch = TapBatch(seq: seq, taps: [schools[index]: 5], playerTaps: 5, switchedToSchool: seq == 1 ? schools[index] : nil,
                                     bestTapsPerSecond: 8, startMs: lastEnd[index], endMs: end)
                lastEnd[index] = end
                sent[index].append(batch)
                try await players[index].send(.taps(batch))
            }
            try await Task.sleep(for: .milliseconds(150))
        }
        server.signal(SIGKILL)
        #expect(server.waitForExit(timeout: 5) == 128 + SIGKILL)
        let acknowledged = players.map { Set($0.acks.map(\.seq)) }
        for player in players { await player.close() }
        #expect(acknowledged.allSatisfy { !$0.isEmpty })

        // Restarted without --season: the stored length stays.
        let restarted = try ServerProcess.start(dataDirectory: directory, arguments: moved)
        defer { restarted.stop() }
        for index in devices.indices {
            let (player, welcome) = try await TestPlayer.join(restarted, device: devices[index])
            #expect(welcome.lastSeq >= acknowledged[index].max() ?? 0, "everything acknowledged was saved")
            for batch in sent[index] where batch.seq > welcome.lastSeq { try await player.send(.taps(batch)) }
            for batch in sent[index] where batch.seq > welcome.lastSeq { #expect(try await player.ack(batch.seq).refused == 0) }
            await player.close()
        }

        var expected: [Season: [String: UInt64]] = [:]
        var allTime: [String: UInt64] = [:]
        for (index, batches) in sent.enumerated() {
            for batch in batches {
                allTime[schools[index], default: 0] += batch.totalTaps
                for (season, taps) in Season.cut(taps: batch.totalTaps, startMs: batch.startMs, endMs: batch.endMs, .week) {
                    expected[season, default: [:]][schools[index], default: 0] += taps
                }
            }
        }
        #expect(expected.count == 2, "the batches crossed the boundary: \(expected)")
        #expect(try await HTTP.scores(restarted).scores == allTime)
        // The restarted server ranks by the week running, read at its start: the taps made after the boundary.
        let running = try #require(Season.at(.week, ms: serverNow()))
        #expect(running.startsAtMs == boundary)
        #expect(try await HTTP.scores(restarted, period: .season).scores == expected[running])
        let list = try JSONDecoder().decode(SeasonAnswer.List.self, from: Data(try await HTTP.get("\(restarted.baseURL)/v1/seasons").body.utf8))
        #expect(list.length == "week")
        #expect(Set(list.seasons.map(\.season.id)) == Set(expected.keys.map(\.id)))
        var counted: [String: UInt64] = [:]
        for (season, totals) in expected {
            let standing = try JSONDecoder().decode(SeasonAnswer.Standing.self,
                                                    from: Data(try await HTTP.get("\(restarted.baseURL)/v1/seasons/\(season.id)").body.utf8))
            #expect(Dictionary(uniqueKeysWithValues: standing.schools.map { ($0.id, $0.count) }) == totals, "\(season.id)")
            for place in standing.schools { counted[place.id, default: 0] += place.count }
        }
        #expect(counted == allTime, "every tap in exactly one season and in all time")
    }
}
