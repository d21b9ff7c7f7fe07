import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolProtocol

/// The tap budget per address, against the server in process: players connect from distinct
/// loopback addresses (`BoundPlayer`).
@Suite(.onOwnThreads, .serialized) struct AddressBudgetTests {
    let school = "S0001"

    /// `count` batches of 230 taps, 5 s of claimed time each, ending now: all of it passes the
    /// device's own judge (230 in each 5 s, 1,380 in half a minute), so only its address's
    /// budget can refuse any.
    static func backlog(count: Int, school: String) -> [TapBatch] {
        let now = TestDevice.nowMs()
        return (1...count).map { seq in
            let end = now - Int64(count - seq) * 5_000
            return TapBatch(seq: UInt64(seq), taps: [school: 230], playerTaps: 230, switchedToSchool: seq == 1 ? school : nil, bestTapsPerSecond: 8,
                            startMs: end - 5_000, endMs: end)
        }
    }

    /// Sends `batches` and waits for their acks: the taps accepted and refused.
    static func play(_ player: BoundPlayer, _ batches: [TapBatch]) async throws -> (accepted: UInt64, refused: UInt64) {
        for batch in batches { try await player.send(.taps(batch)) }
        var total: (accepted: UInt64, refused: UInt64) = (0, 0)
        for batch in batches {
            let ack = try await player.ack(batch.seq)
            total = (total.accepted + ack.accepted, total.refused + ack.refused)
        }
        return total
    }

    @Test func freshKeysFromOneAddressAreHeldToItsBudgetAndAnotherAddressIsNot() async throws {
        let (perSecond, burst): (UInt64, UInt64) = (200, 2_000)
        try await InProcessServer.with(configure: { $0.limits.tapsPerSecond = Int(perSecond); $0.limits.tapBurst = Int(burst) }) { server in
            let started = Date()
            var flood: [BoundPlayer] = []
            for index in 0..<40 {
                let (player, _) = try await BoundPlayer.join(server, from: "127.0.0.2", device: TestDevice(name: "bot\(index)"))
                for batch in Self.backlog(count: 6, school: school) { try await player.send(.taps(batch)) }
                flood.append(player)
            }
            // A player at another address, in the middle of the flood, keeps all of the same backlog.
            let (neighbour, _) = try await BoundPlayer.join(server, from: "127.0.0.3", device: TestDevice(name: "neighbour"))
            let own = try await Self.play(neighbour, Self.backlog(count: 6, school: school))
            #expect(own.accepted == 1_380 && own.refused == 0)

            var flooded: (accepted: UInt64, refused: UInt64) = (0, 0)
            for player in flood {
                for seq in 1...6 {
                    let ack = try await player.ack(UInt64(seq))
                    flooded = (flooded.accepted + ack.accepted, flooded.refused + ack.refused)
                }
            }
            let elapsed = Date().timeIntervalSince(started)
            #expect(flooded.accepted + flooded.refused == 40 * 1_380)
            #expect(flooded.accepted >= burst, "the burst is granted")
            #expect(flooded.accepted <= burst + perSecond * UInt64(elapsed.rounded(.up)),
                    "\(flooded.accepted) taps from one address in \(elapsed) s")
            for player in flood { await player.close() }
            await neighbour.close()
        }
    }

    /// A school lab of 40 behind one NAT, each player at 10 taps a second: nothing is refused.
    @Test func anHonestLabBehindOneAddressLosesNothing() async throws {
        try await InProcessServer.with { server in
            var lab: [(BoundPlayer, TestDevice)] = []
            for index in 0..<40 {
                let device = TestDevice(name: "student\(index)")
                let (player, _) = try await BoundPlayer.join(server, from: "127.0.0.4", device: device)
                lab.append((player, device))
            }
            let rounds = 5
            for round in 0..<rounds {
                let second = Date()
                for (player, device) in lab {
                    try await player.send(.taps(device.batch(school, taps: 10, durationMs: 1_000, switchTo: round == 0)))
                }
                let rest = 1 - Date().timeIntervalSince(second)
                if rest > 0 { try await Task.sleep(for: .milliseconds(Int(rest * 1_000))) }
            }
            var total: (accepted: UInt64, refused: UInt64) = (0, 0)
            for (player, _) in lab {
                for seq in 1...UInt64(rounds) {
                    let ack = try await player.ack(seq)
                    total = (total.accepted + ack.accepted, total.refused + ack.refused)
                }
            }
            #expect(total.accepted == 40 * 10 * UInt64(rounds) && total.refused == 0)
            #expect(try await HTTP.scores(server).scores[school] == 40 * 10 * UInt64(rounds))
            for (player, _) in lab { await player.close() }
        }
    }
}
