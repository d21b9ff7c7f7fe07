import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolTestSupport
@testable import TouchSchoolServer

/// Rounds kept by each store: started, stopped, counted within the commits, kept through a restart.
@Suite(.onOwnThreads, .tags(.postgres), .serialized) struct RoundStoreTests {
    let now: Int64 = 1_800_000_000_000

    func received(_ seq: UInt64, _ taps: [String: UInt64], device: String, startMs: Int64, endMs: Int64) -> ReceivedBatch {
        ReceivedBatch(connection: 1, device: device, player: "민지 \(device.suffix(1))",
                      batch: TapBatch(seq: seq, taps: taps, playerTaps: taps.values.reduce(0, +), switchedToSchool: taps.keys.sorted().first,
                                      bestTapsPerSecond: 5, startMs: startMs, endMs: endMs),
                      address: "10.0.0.1", network: "10.0.0.1")
    }

    func commit(_ store: any BattleStore, _ batches: [ReceivedBatch], at nowMs: Int64) async throws {
        _ = try await store.commit(batches, histories: TapJudges(addresses: .standard), catalog: storeTestCatalog, nowMs: nowMs)
    }

    @Test(arguments: [StoreKind.sqlite, .sqliteCompacting, .postgres, .memory])
    func aRoundCountsItsWindowOnceAndIsKept(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let store = try #require(fixture.store as? any RoundStore)
            #expect(try await store.stopRound(nowMs: now) == nil)
            #expect(try await store.startRound(title: nil, seconds: 3_601, nowMs: now) == nil)
            let round = try #require(try await store.startRound(title: "3반 대항전", seconds: 60, nowMs: now))
            #expect(round == Round(id: 1, title: "3반 대항전", startsAtMs: now + 3_000, endsAtMs: now + 63_000))
            // In the countdown: the totals only. In the window: both, a repeat once.
            try await commit(fixture.store, [received(1, ["A": 4], device: "device-1", startMs: now + 1_000, endMs: now + 2_000)],
                             at: now + 2_100)
            let inside = received(2, ["A": 6], device: "device-1", startMs: now + 4_000, endMs: now + 5_000)
            try await commit(fixture.store, [inside, received(1, ["B": 2], device: "device-2", startMs: now + 4_000, endMs: now + 4_500)],
                             at: now + 5_100)
            try await commit(fixture.store, [inside], at: now + 5_200)
            let restarted = try #require(try await fixture.restarted() as? any RoundStore)
            let (kept, counts) = try #require(try await restarted.round(1))
            #expect(kept == round)
            #expect(counts.map(\.device) == ["device-1", "device-2"])
            #expect(counts.map(\.bySchool) == [["A": 6], ["B": 2]])
            #expect(counts.map(\.reachedMs) == [now + 5_000, now + 4_500])
            #expect(counts.map(\.player) == ["민지 1", "민지 2"])
            #expect(counts.map(\.publicID) == [DevicePublicID.of("device-1"), DevicePublicID.of("device-2")])
            #expect(counts.map(\.school) == ["A", "B"])
            #expect(try await fixture.store.board().scores == ["A": 10, "B": 2])

            // The next round stops this one at its start; the stop closes the next one's window.
            let next = try #require(try await restarted.startRound(title: nil, seconds: 30, nowMs: now + 10_000))
            #expect(next.id == 2)
            #expect(try await restarted.rounds(limit: 10).map(\.endsAtMs) == [now + 43_000, now + 10_000])
            #expect(try await restarted.stopRound(nowMs: now + 20_000) == Round(id: 2, title: nil, startsAtMs: now + 13_000,
                                                                                endsAtMs: now + 20_000))
            #expect(try await restarted.rounds(limit: 1).map(\.id) == [2])
            #expect(try await restarted.round(3)?.0 == nil)
        }
    }

    /// Rounds started at once through two stores on the same storage (two servers on one
    /// PostgreSQL): each gets an id of its own, and every one but the newest is stopped by the
    /// next, in its countdown: one round runs.
    @Test(arguments: [StoreKind.sqlite, .postgres, .memory])
    func roundsStartedAtOnceThroughTwoStoresLeaveOneRunning(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let stores = [try #require(fixture.store as? any RoundStore), try #require(try await fixture.restarted() as? any RoundStore)]
            let started = try await withThrowingTaskGroup(of: Round?.self) { group in
                for index in 0..<8 {
                    let store = stores[index % 2]
                    group.addTask { try await store.startRound(title: "\(index)", seconds: 60, nowMs: now) }
                }
                return try await group.reduce(into: [Round]()) { if let round = $1 { $0.append(round) } }
            }
            #expect(Set(started.map(\.id)).count == 8)
            let kept = try await stores[0].rounds(limit: 20)
            #expect(kept.map(\.id) == started.map(\.id).sorted(by: >))
            #expect(kept.first?.endsAtMs == now + 63_000)
            #expect(kept.dropFirst().allSatisfy { $0.endsAtMs == $0.startsAtMs }, "\(kept)")
        }
    }

    /// A ban with its taps removed takes the device out of every round it counted in, in the
    /// same transaction; a ban without leaves the rounds as they were.
    @Test(arguments: [StoreKind.sqlite, .sqliteCompacting, .postgres, .memory])
    func aBanRemovingTheTapsTakesTheDeviceOutOfItsRounds(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let store = try #require(fixture.store as? any RoundStore)
            var rounds: [Int64] = []
            for (index, start) in [now, now + 100_000].enumerated() {
                let round = try #require(try await store.startRound(title: nil, seconds: 60, nowMs: start))
                rounds.append(round.id)
                let seq = UInt64(index + 1)
                try await commit(fixture.store, [received(seq, ["A": 5], device: "device-1", startMs: start + 4_000, endMs: start + 5_000),
                                                 received(seq, ["B": 3], device: "device-2", startMs: start + 4_000, endMs: start + 5_000)],
                                 at: start + 5_100)
            }
            #expect(try await fixture.store.ban(device: DevicePublicID.of("device-1"), removeTaps: false) != nil)
            #expect(try await fixture.store.ban(device: DevicePublicID.of("device-2"), removeTaps: true)?.removed == ["B": 6])
            for id in rounds {
                let (_, counts) = try #require(try await store.round(id))
                #expect(counts.map(\.device) == ["device-1"])
                #expect(counts.map(\.bySchool) == [["A": 5]])
            }
            #expect(try await fixture.store.board().scores == ["A": 10])
        }
    }
}
