import Testing
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// The operator's side of every store: the tally kept with the scores, bans, and a cheater's
/// taps taken off the totals exactly once.
extension BattleStoreTests {
    static let first = "device-1-aaaaaaaaaaaaaaa"
    static let second = "device-2-bbbbbbbbbbbbbbb"

    static func listed(_ store: any BattleStore, _ device: String, nowMs: Int64 = now) async throws -> ListedDevice? {
        try await store.devices(top: 100, nowMs: nowMs).first { $0.publicID == DevicePublicID.of(device) }
    }

    @Test(arguments: StoreKind.allCases)
    func theTallyIsSavedWithTheScoresAndOnlyWithThem(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let store = fixture.store
            _ = try await Self.commit(store, [
                Self.received(1, ["A": 3, "Z": 1], switchedTo: "A", address: "10.0.0.1"),
                Self.received(2, ["B": 2], address: "10.0.0.2", client: .web),
                Self.received(1, ["C": 4], device: Self.second, player: "bob", switchedTo: "C", address: "10.0.0.9"),
            ])
            try await fixture.failCommits(true)
            await #expect(throws: BattleStoreError.self) { try await Self.commit(store, [Self.received(3, ["A": 2], address: "10.0.0.3")]) }
            try await fixture.failCommits(false)

            let restarted = try await fixture.restarted()
            let cheater = try #require(try await Self.listed(restarted, Self.first))
            #expect(cheater.player == "민지" && cheater.school == "A" && !cheater.banned)
            #expect(cheater.activity.accepted == 5 && cheater.activity.refused == 1, "Z is no school: refused")
            #expect(cheater.activity.inHour(DeviceActivity.hour(ofMs: Self.now)) == (5, 1))
            #expect(cheater.activity.addresses == ["10.0.0.1", "10.0.0.2"], "the failed commit's address is not kept")
            #expect(cheater.activity.client == "web", "what the device plays with, kept with its tally")
            #expect(try await Self.listed(restarted, Self.second)?.activity.client == "", "a hello that said nothing")
            #expect(cheater.activity.inHour(DeviceActivity.hour(ofMs: Self.now) + 1) == (0, 0), "an hour later the bucket counts nothing")
            // The list: by taps accepted this hour, most first.
            #expect(try await restarted.devices(top: 100, nowMs: Self.now).map(\.publicID) == [Self.first, Self.second].map(DevicePublicID.of))
            #expect(try await restarted.devices(top: 1, nowMs: Self.now).map(\.player) == ["민지"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBanRefusesTheDevicesBatchesAndRemovesItsTapsOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let store = fixture.store
            _ = try await Self.commit(store, [Self.received(1, ["A": 3], switchedTo: "A"), Self.received(2, ["B": 2]),
                                              Self.received(1, ["A": 4], device: Self.second, player: "bob", switchedTo: "A")])
            #expect(try await store.ban(device: "000000000000000000000000", removeTaps: true) == nil, "no such device")

            let ban = try #require(try await store.ban(device: DevicePublicID.of(Self.first), removeTaps: true))
            #expect(ban.removed == ["A": 3, "B": 2])
            #expect(ban.board?.scores == ["A": 4, "B": 0])
            #expect(try await store.board().scores == ["A": 4], "the honest player's taps stay")
            #expect(try await store.ban(device: DevicePublicID.of(Self.first), removeTaps: true) == BanOutcome(removed: [:], board: nil),
                    "a second removal removes nothing")

            // The banned device's next batch: numbered, every tap refused for the ban (said so),
            // nothing counted; its player's own count lost what was removed (seen before: "my
            // taps" 19 above the school's 16).
            let refused = try await Self.commit(store, [Self.received(3, ["A": 5])])
            #expect(refused.rules.outcomes == [.acknowledged(Acknowledgement(seq: 3, accepted: 0, refused: 5,
                                                                             player: PlayerState(schoolID: "A", taps: 0, bestTapsPerSecond: 5), banned: true))])
            #expect(try await store.board().scores == ["A": 4])
            let listed = try #require(try await Self.listed(store, Self.first))
            #expect(listed.banned && listed.activity.accepted == 5 && listed.activity.refused == 5)

            #expect(try await store.unban(device: DevicePublicID.of(Self.first)))
            #expect(Self.accepted(try await Self.commit(store, [Self.received(4, ["A": 1])])) == [1])
            #expect(try await store.board().scores == ["A": 5])
            // A new ban removes only what was accepted since the last removal.
            #expect(try await store.ban(device: DevicePublicID.of(Self.first), removeTaps: true)?.removed == ["A": 1])
            #expect(try await store.board().scores == ["A": 4])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func addressesAreBannedAndUnbanned(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let store = fixture.store
            #expect(try await !store.isBanned(address: "10.0.0.7"))
            try await store.setBanned(address: "10.0.0.7", true)
            try await store.setBanned(address: "10.0.0.7", true)
            let restarted = try await fixture.restarted()
            #expect(try await restarted.isBanned(address: "10.0.0.7"))
            #expect(try await !restarted.isBanned(address: "10.0.0.8"))
            try await restarted.setBanned(address: "10.0.0.7", false)
            #expect(try await !restarted.isBanned(address: "10.0.0.7"))
        }
    }
}
