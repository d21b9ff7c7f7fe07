import Testing
import TouchSchoolBattleDatabase
import TouchSchoolCore
@testable import TouchSchoolServer

/// The round's news alone: what a read changes, the server's clock it brings, what is told to whom.
@Suite struct RoundNewsTests {
    typealias T = BattleHallTests
    typealias R = BattleHallRoundTests

    static func reading(_ counts: [RoundPlayerCount]?, at ms: Int) -> Result<RoundReading?, BattleStoreError> {
        .success(RoundReading(round: R.round, counts: counts, atMs: R.base + Int64(ms)))
    }

    @Test func aReadBringsTheServersClockAndNewsOnlyWhenTheStandingsChange() {
        var news = RoundNews()
        #expect(news.wallMs(T.at(0)) == nil)
        let (first, second) = (news.beginRead(), news.beginRead())
        #expect(first.begun && !second.begun, "one read at a time")
        news.read(Self.reading([R.count("device-1", 40, at: 5_000)], at: 6_000), now: T.at(6_000))
        #expect(news.wallMs(T.at(6_500)) == R.base + 6_500 && news.version == 1 && news.due)
        #expect(news.ready(now: T.at(6_000)) && news.readyAt(lastTick: T.at(5_900)) == T.at(5_900))
        var connections = HallConnections()
        var effects: [BattleHall.Effect] = []
        news.send(now: T.at(6_000), to: &connections, &effects)
        #expect(!news.due)
        // The same standings read again: no news; a store that cannot be read keeps the board.
        _ = news.beginRead()
        news.read(Self.reading([R.count("device-1", 40, at: 5_000)], at: 6_500), now: T.at(6_500))
        #expect(!news.due && news.version == 1)
        _ = news.beginRead()
        news.read(.failure(BattleStoreError(message: "the disk is full")), now: T.at(7_000))
        #expect(news.placed != nil && !news.reading)
    }

    @Test func aPlayerIsToldTheRoundThenTheirOwnCountAtOnceAndAPlaceOthersMovedAtMostOnceASecond() throws {
        var news = RoundNews()
        var connections = HallConnections()
        connections.add(1, Connection(kind: .player))
        connections.bind(1, device: "device-1", school: "A")
        news.read(Self.reading([R.count("device-1", 40, at: 5_000), R.count("device-2", 55, at: 5_000)], at: 6_000), now: T.at(6_000))
        var effects: [BattleHall.Effect] = []
        news.send(now: T.at(6_000), to: &connections, &effects)
        #expect(R.messages(effects, to: 1).count == 1 && connections[1]?.roundTold == R.round && connections[1]?.placeTold?.place == 2)
        // Their own taps counted: told at the next tick, not a second after the last.
        effects = []
        news.read(Self.reading([R.count("device-1", 50, at: 6_100), R.count("device-2", 55, at: 5_000)], at: 6_200), now: T.at(6_200))
        news.send(now: T.at(6_200), to: &connections, &effects)
        #expect(R.messages(effects, to: 1) == [.roundPlace(try #require(connections[1]?.placeTold))] && connections[1]?.placeTold?.count == 50)
        // Only another player moved (their place, not their count): held back to a second after the last.
        effects = []
        news.read(Self.reading([R.count("device-1", 50, at: 6_100), R.count("device-2", 55, at: 5_000), R.count("device-3", 60, at: 6_300)],
                               at: 6_400), now: T.at(6_400))
        news.send(now: T.at(6_400), to: &connections, &effects)
        #expect(effects.isEmpty && news.heldUntil == T.at(7_200), "held back to a second after the last")
        news.send(now: T.at(7_200), to: &connections, &effects)
        #expect(R.messages(effects, to: 1) == [.roundPlace(try #require(connections[1]?.placeTold))]
                && connections[1]?.placeTold?.place == 3 && connections[1]?.placeTold?.count == 50)
    }
}
