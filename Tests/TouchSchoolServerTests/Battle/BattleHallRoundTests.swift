import Foundation
import Testing
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// The round in the hall: read from the store every `roundPollInterval`, told to each player
/// after its welcome and when it changes, each player's place when their own count changed or
/// at most once a second (at once when final), and the projector's event to each page stream. The server's clock: the hall's
/// instant `T.at(ms)` is `base + ms` by the wall clock of the reads.
@Suite struct BattleHallRoundTests {
    typealias T = BattleHallTests
    typealias V = BattleHallViewsTests

    static let base: Int64 = 1_800_000_000_000
    /// Started at `base`: the window is [base + 3 s, base + 13 s).
    static let round = Round(id: 7, title: "3반 대항전", startsAtMs: base + 3_000, endsAtMs: base + 13_000)

    static func count(_ device: String, _ taps: UInt64, at ms: Int64, school: String = "A") -> RoundPlayerCount {
        RoundPlayerCount(device: device, publicID: "pub-" + device, player: "player " + device, school: school,
                         bySchool: [school: taps], reachedMs: base + ms)
    }

    /// The store's answer to a read at `ms`.
    static func read(_ hall: inout BattleHall, _ counts: [RoundPlayerCount]?, at ms: Int, round: Round = round) -> [BattleHall.Effect] {
        hall.update(.roundRead(.success(RoundReading(round: round, counts: counts, atMs: base + Int64(ms)))), now: T.at(ms))
    }

    static func messages(_ effects: [BattleHall.Effect], to id: ConnectionID) -> [ServerMessage] {
        T.sent(effects).filter { $0.to == id }.compactMap(\.message)
    }

    @Test func aHallOfAStoreWithRoundsReadsTheLatestAtStartAndAfterEachAnswer() {
        var hall = T.hall(readsRounds: true)
        let start = hall.update(.start, now: T.at(0))
        #expect(start.contains { if case .readRound(nil) = $0 { true } else { false } })
        let answered = Self.read(&hall, [], at: 40)
        #expect(T.wakes(answered)[.round] == T.at(40) + BattleHall.roundPollInterval)
        // A round started through this server is read at once, not at the alarm.
        #expect(hall.update(.roundChanged, now: T.at(50)).contains { if case .readRound = $0 { true } else { false } })
        // Without rounds in the store, never.
        var plain = T.hall()
        #expect(!plain.update(.start, now: T.at(0)).contains { if case .readRound = $0 { true } else { false } })
    }

    @Test func aPlayerWelcomedDuringARoundGetsItRightAfterTheWelcomeWithItsPlace() throws {
        var hall = T.hall(readsRounds: true)
        _ = hall.update(.start, now: T.at(0))
        _ = Self.read(&hall, [Self.count("device-1", 40, at: 5_000), Self.count("device-2", 55, at: 5_100)], at: 6_000)
        _ = hall.update(.connect(1), now: T.at(6_100))
        _ = hall.update(.hello(1, device: "device-1"), now: T.at(6_100))
        let read = hall.update(.deviceRead(1, device: "device-1", .success(nil)), now: T.at(6_100))
        guard case let .welcome(_, then) = T.answers(read)[1] else {
            Issue.record("welcomed: \(read)")
            return
        }
        #expect(then.count == 1)
        let message = try MessageCoding.decodeServer(try #require(then.first))
        #expect(message == .round(RoundMessage(id: 7, title: "3반 대항전", startsAtMs: Self.base + 3_000, endsAtMs: Self.base + 13_000,
                                               graceMs: 5_000, nowMs: Self.base + 6_100, place: 2, count: 40, players: 2, final: false)))
        // Nothing goes through the queue before the welcome's answer does.
        #expect(Self.messages(read, to: 1).isEmpty)
    }

    @Test func aPlayersOwnCountGoesOutAtTheNextTickAPlaceOthersMovedAtMostOnceASecondAndFinalAtOnce() throws {
        var hall = T.hall(readsRounds: true)
        _ = hall.update(.start, now: T.at(0))
        // Welcomed before the round is read: told at the next broadcast, with no place.
        _ = V.welcomed(&hall, 1, "device-1", school: nil, at: 200)
        var effects = Self.read(&hall, [], at: 1_000)
        effects += hall.update(.alarm(.broadcast), now: T.at(1_000) + BattleHall.broadcastInterval)
        let told = Self.messages(effects, to: 1)
        #expect(told.count == 1)
        guard case let .round(first)? = told.first else {
            Issue.record("the round: \(effects)")
            return
        }
        #expect(first.place == nil && first.count == 0 && first.players == 0 && first.id == 7)
        // Their taps counted at 3.4 s: told as read (the tick is due), within the second since the round was told.
        effects = Self.read(&hall, [Self.count("device-1", 10, at: 3_400)], at: 1_500)
        effects += hall.update(.alarm(.broadcast), now: T.at(1_700))
        #expect(Self.messages(effects, to: 1) == [.roundPlace(RoundStanding(id: 7, place: 1, count: 10, players: 1, final: false))])
        // The same place again: nothing.
        effects = Self.read(&hall, [Self.count("device-1", 10, at: 3_400)], at: 1_900)
        effects += hall.update(.alarm(.broadcast), now: T.at(2_000))
        #expect(Self.messages(effects, to: 1).isEmpty)
        // A second player passes, their count the same: the place moved waits for the second since the last.
        effects = Self.read(&hall, [Self.count("device-1", 10, at: 3_400), Self.count("device-2", 30, at: 3_500)], at: 2_100)
        effects += hall.update(.alarm(.broadcast), now: T.at(2_300))
        #expect(Self.messages(effects, to: 1).isEmpty, "not before a second")
        #expect(hall.alarms[.broadcast] == T.at(2_500), "woken when the second since the last (told as read, at 1.5 s) is over")
        effects = hall.update(.alarm(.broadcast), now: try #require(hall.alarms[.broadcast]))
        #expect(Self.messages(effects, to: 1) == [.roundPlace(RoundStanding(id: 7, place: 2, count: 10, players: 2, final: false))])
        // Final (read 1 s after the grace, at 19 s) comes at once, even within the second.
        _ = Self.read(&hall, [Self.count("device-1", 10, at: 3_400), Self.count("device-2", 31, at: 12_000)], at: 18_500)
        effects = hall.update(.alarm(.broadcast), now: T.at(18_700))
        #expect(Self.messages(effects, to: 1).isEmpty, "only the other's count changed, within the second: held")
        effects += Self.read(&hall, [Self.count("device-1", 10, at: 3_400), Self.count("device-2", 31, at: 12_000)], at: 19_000)
        effects += hall.update(.alarm(.broadcast), now: T.at(19_000) + BattleHall.broadcastInterval)
        #expect(Self.messages(effects, to: 1).last == .roundPlace(RoundStanding(id: 7, place: 2, count: 10, players: 2, final: true)))
    }

    @Test func aRoundStoppedEarlyIsToldAgainAndAnOldRoundIsNotToldAtAll() throws {
        var hall = T.hall(readsRounds: true)
        _ = hall.update(.start, now: T.at(0))
        _ = V.welcomed(&hall, 1, "device-1", school: nil, at: 0)
        var effects = Self.read(&hall, [], at: 500)
        effects += hall.update(.alarm(.broadcast), now: T.at(500) + BattleHall.broadcastInterval)
        #expect(Self.messages(effects, to: 1).count == 1)
        let stopped = Self.round.stopped(atMs: Self.base + 6_000)
        effects = Self.read(&hall, [], at: 6_000, round: stopped)
        effects += hall.update(.alarm(.broadcast), now: T.at(6_000) + BattleHall.broadcastInterval)
        guard case let .round(told)? = Self.messages(effects, to: 1).first else {
            Issue.record("the stopped round is told: \(effects)")
            return
        }
        #expect(told.endsAtMs == Self.base + 6_000)

        // A round over for longer than it is shown: a new player is told nothing of it.
        var later = T.hall(readsRounds: true)
        _ = later.update(.start, now: T.at(0))
        let long = Int(13_000 + 5_000 + RoundMessage.shownForMs)
        _ = Self.read(&later, [Self.count("device-1", 3, at: 4_000)], at: long)
        _ = later.update(.connect(2), now: T.at(long))
        _ = later.update(.hello(2, device: "device-2"), now: T.at(long))
        let read = later.update(.deviceRead(2, device: "device-2", .success(nil)), now: T.at(long))
        guard case let .welcome(_, then) = T.answers(read)[2] else {
            Issue.record("welcomed")
            return
        }
        #expect(then.isEmpty)
    }

    @Test func aPageStreamGetsTheProjectorsEventWhenItChanges() throws {
        var hall = T.hall(readsRounds: true)
        _ = hall.update(.start, now: T.at(0))
        let page = try #require(try BoardRanking.key(of: Watch(league: LeagueName(), from: 0, count: 11)))
        _ = hall.update(.streamPage(5, page), now: T.at(0))
        let counts = (1...12).map { Self.count("device-\($0)", UInt64(100 - $0), at: 4_000, school: $0 % 2 == 0 ? "A" : "B") }
        var effects = Self.read(&hall, counts, at: 5_000)
        effects += hall.update(.alarm(.broadcast), now: T.at(5_000) + BattleHall.broadcastInterval)
        let events = T.sent(effects).filter { $0.to == 5 }.compactMap(\.text).filter { $0.hasPrefix("event: round\n") }
        #expect(events.count == 1)
        let json = try #require(events.first?.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6))
        let live = try JSONDecoder().decode(RoundLive.self, from: Data(json.utf8))
        #expect(live.id == 7 && live.playerCount == 12 && live.players.count == 10 && !live.final)
        #expect(live.players.map(\.place) == Array(1...10))
        #expect(live.players.first?.count == 99 && live.players.first?.player == "player device-1" && live.players.first?.id == "pub-device-1")
        // Schools: A has devices 2,4,…,12 (98+96+…+88 = 558), B 1,3,…,11 (99+97+…+89 = 564).
        #expect(live.schools.map(\.id) == ["B", "A"] && live.schools.map(\.count) == [564, 558])
        // The same standings read again: nothing new for the stream.
        effects = Self.read(&hall, counts, at: 5_500)
        effects += hall.update(.alarm(.broadcast), now: T.at(5_500) + BattleHall.broadcastInterval)
        let again = T.sent(effects).filter { $0.to == 5 }.compactMap(\.text).filter { $0.hasPrefix("event: round\n") }
        #expect(again.isEmpty)
    }

    /// Telling a player its round or its place is no change to who watches which view: the list
    /// of watchers made for the views is kept through the round's ticks (under load it is a pass
    /// over every connection).
    @Test func theRoundsNewsKeepsTheListOfWatchers() throws {
        var hall = T.hall(readsRounds: true)
        _ = hall.update(.start, now: T.at(0))
        _ = V.welcomed(&hall, 1, "device-1", school: "A")
        _ = V.welcomed(&hall, 2, "device-2", school: "B")
        // The views due after the welcomes make the list.
        _ = hall.update(.alarm(.broadcast), now: T.at(250))
        #expect(hall.connections.hasWatchList)
        // The news goes at the first tick after the read (at once: the last tick is long past).
        let told = Self.read(&hall, [Self.count("device-1", 40, at: 5_000), Self.count("device-2", 55, at: 5_100)], at: 6_000)
        #expect(Self.messages(told, to: 1).contains { if case .round = $0 { true } else { false } })
        let kept = hall.connections.hasWatchList
        #expect(kept, "the round told: the same watchers")
        let placed = Self.read(&hall, [Self.count("device-1", 70, at: 7_000), Self.count("device-2", 55, at: 5_100)], at: 7_500)
        #expect(Self.messages(placed, to: 1).contains { if case .roundPlace = $0 { true } else { false } })
        let stillKept = hall.connections.hasWatchList
        #expect(stillKept, "a place told: the same watchers")
    }
}
