import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// The season's board in the hall (issue 50): while a season runs, the views of a connection
/// watching it carry the season's numbers in place of all time's (same shape, same bytes); `watch`
/// with `period: all` (and a stream's `?period=all`) keeps all time; a reading of a later season
/// turns the board and tells every connection. The catalog is `storeTestCatalog`: A, B and C, high
/// schools of 서울특별시. All time: A 10, B 5; this week: B 4, A 1.
@Suite struct BattleHallSeasonTests {
    typealias T = BattleHallTests
    typealias V = BattleHallViewsTests

    static let week = Season.at(.week, ms: 1_764_000_000_000)!
    static let nextWeek = Season.numbered(.week, week.number + 1)!

    static func hall() -> BattleHall {
        T.hall(board: StoredBoard(version: 4, scores: ["A": 10, "B": 5],
                                  season: SeasonTotals(season: week, totals: ["B": 4, "A": 1])))
    }

    static func views(of school: String, in effects: [BattleHall.Effect], to id: ConnectionID) -> [SchoolViewMessage] {
        (V.views(effects)[id] ?? []).compactMap { if case let .schoolView(view) = $0, view.school == school { view } else { nil } }
    }

    /// The welcome's answer: the season named right after it, before any view.
    static func welcomeThen(_ hall: inout BattleHall, _ id: ConnectionID, _ device: String, school: String) -> [ServerMessage] {
        _ = hall.update(.connect(id), now: T.t0)
        _ = hall.update(.hello(id, device: device), now: T.t0)
        let known = (DeviceRecord(lastSeq: 1, player: "p", lastEndMs: 100), PlayerRecord(schoolID: school, taps: 1, bestTapsPerSecond: 1))
        let read = hall.update(.deviceRead(id, device: device, .success(known)), now: T.t0)
        guard case let .welcome(_, then) = T.answers(read)[id] else { return [] }
        return then.compactMap { try? MessageCoding.decodeServer($0) }
    }

    @Test func aPlayerIsToldTheSeasonAndItsViewCarriesTheSeasonsNumbers() throws {
        var hall = Self.hall()
        #expect(Self.welcomeThen(&hall, 1, "device-1", school: "A") == [.season(SeasonAnswer.Summary(Self.week))])
        let effects = hall.update(.alarm(.broadcast), now: T.t0 + BattleHall.broadcastInterval)
        let view = try #require(Self.views(of: "A", in: effects, to: 1).first)
        // This week A has 1 and is second behind B's 4; all time it leads with 10.
        #expect(view.total == 1)
        #expect(view.ranks[0] == Standing(rank: 2, size: 3, gap: 3))
        #expect(view.top == [V.row(1, "B", 4), V.row(2, "A", 1), V.row(3, "C", 0)])
    }

    @Test func aWatchForAllTimeGetsAllTimesNumbersAndBackAgain() throws {
        var hall = Self.hall()
        _ = Self.welcomeThen(&hall, 1, "device-1", school: "A")
        var now = T.t0 + BattleHall.broadcastInterval
        _ = hall.update(.alarm(.broadcast), now: now)
        _ = hall.update(.watch(1, .page(.national, places: 0..<3), period: .allTime), now: now)
        now = now + BattleHall.broadcastInterval
        var effects = hall.update(.alarm(.broadcast), now: now)
        let messages = V.views(effects)[1] ?? []
        #expect(messages.contains(.schoolView(SchoolViewMessage(
            version: 4, school: "A", total: 10, ranks: Array(repeating: Standing(rank: 1, size: 3, gap: nil), count: 4),
            above: [], below: [V.row(2, "B", 5), V.row(3, "C", 0)], top: [V.row(1, "A", 10), V.row(2, "B", 5), V.row(3, "C", 0)]))))
        #expect(messages.contains(.page(PageMessage(version: 4, league: LeagueName(), from: 0, size: 3,
                                                    rows: [V.row(1, "A", 10), V.row(2, "B", 5), V.row(3, "C", 0)]))))
        // Back to the season: the season's numbers again.
        _ = hall.update(.watch(1, .page(.national, places: 0..<3)), now: now)
        now = now + BattleHall.broadcastInterval * 8
        effects = hall.update(.alarm(.broadcast), now: now)
        #expect(Self.views(of: "A", in: effects, to: 1).map(\.total) == [1])
        #expect((V.views(effects)[1] ?? []).contains(.page(PageMessage(version: 4, league: LeagueName(), from: 0, size: 3,
                                                                       rows: [V.row(1, "B", 4), V.row(2, "A", 1), V.row(3, "C", 0)]))))
    }

    @Test func aCommitsSeasonTotalsMoveTheSeasonsViewsAndAllTimesAlike() throws {
        var hall = Self.hall()
        _ = Self.welcomeThen(&hall, 1, "device-1", school: "A")
        _ = hall.update(.alarm(.broadcast), now: T.t0 + BattleHall.broadcastInterval)
        // A taps 5: all time 15, this week 6, now ahead of B.
        _ = hall.update(.batch(T.batch(1, "device-1", seq: 2, taps: 5)), now: T.at(300))
        _ = hall.update(.alarm(.commit), now: T.at(350))
        let board = StoredBoard(version: 5, scores: ["A": 15], season: SeasonTotals(season: Self.week, totals: ["A": 6]))
        _ = hall.update(.committed(T.saved([.acknowledged(T.ack(2, 5))], board: board)), now: T.at(360))
        let effects = hall.update(.alarm(.broadcast), now: T.at(360) + BattleHall.broadcastInterval)
        let view = try #require(Self.views(of: "A", in: effects, to: 1).first)
        #expect(view.total == 6 && view.ranks[0] == Standing(rank: 1, size: 3, gap: nil))
        #expect(hall.board(.allTime).0.scores == ["A": 15, "B": 5])
        #expect(hall.board(.season) == (Board(version: 5, scores: ["A": 6, "B": 4]), Self.week))
    }

    @Test func theSeasonTurnsAtAPollEveryConnectionIsToldAndStartsAtZero() throws {
        var hall = Self.hall()
        _ = Self.welcomeThen(&hall, 1, "device-1", school: "A")
        _ = hall.update(.streamPage(2, .page(.national, places: 0..<3)), now: T.t0)
        _ = hall.update(.streamPage(3, .page(.national, places: 0..<3), period: .allTime), now: T.t0)
        var now = T.t0 + BattleHall.broadcastInterval
        _ = hall.update(.alarm(.broadcast), now: now)
        // The poll finds next week running: nobody tapped in it yet.
        let turned = hall.update(.polled(devices: nil, .success(nil), season: .turned(SeasonTotals(season: Self.nextWeek, totals: [:]))),
                                 now: now)
        let told = T.sent(turned)
        #expect(told.contains { $0.to == 1 && $0.message == .season(SeasonAnswer.Summary(Self.nextWeek)) })
        #expect(told.contains { $0.to == 2 && $0.text == SeasonBoard.event(Self.nextWeek) })
        #expect(told.contains { $0.to == 3 && $0.text == SeasonBoard.event(Self.nextWeek) })
        now = now + BattleHall.broadcastInterval
        let effects = hall.update(.alarm(.broadcast), now: now)
        let view = try #require(Self.views(of: "A", in: effects, to: 1).first)
        #expect(view.total == 0 && view.top.allSatisfy { $0.total == 0 })
        let pages = T.sent(effects)
        #expect(pages.contains { $0.to == 2 && $0.text?.contains(#""rows":[[1,"A",0],[1,"B",0],[1,"C",0]]"#) == true })
        // The all-time stream is told the season but shows the same numbers: its page did not change.
        #expect(!pages.contains { $0.to == 3 })
        #expect(hall.board(.allTime).0.scores == ["A": 10, "B": 5])
        // A reading of last week arriving late (a commit that read the length before the turn) changes nothing.
        _ = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: 6, scores: ["B": 7],
                                                                             season: SeasonTotals(season: Self.week, totals: ["B": 6])))),
                        now: now)
        #expect(hall.board(.season) == (Board(version: 6, scores: [:]), Self.nextWeek))
    }

    @Test func aBattleWithoutASeasonSendsNoSeasonAndBothPeriodsAreAllTime() throws {
        var hall = T.hall(board: StoredBoard(version: 4, scores: ["A": 10, "B": 5]))
        #expect(Self.welcomeThen(&hall, 1, "device-1", school: "A").isEmpty)
        _ = hall.update(.watch(1, nil, period: .allTime), now: T.t0)
        let effects = hall.update(.alarm(.broadcast), now: T.t0 + BattleHall.broadcastInterval)
        #expect(Self.views(of: "A", in: effects, to: 1).map(\.total) == [10])
        #expect(hall.view(.school(0)).map(\.1) == .some(nil))
        // A season set while it runs: the next poll turns it on, and the players hear of it.
        let on = hall.update(.polled(devices: nil, .success(nil), season: .turned(SeasonTotals(season: Self.week, totals: ["B": 4]))),
                             now: T.at(300))
        #expect(T.sent(on).contains { $0.to == 1 && $0.message == .season(SeasonAnswer.Summary(Self.week)) })
        // …and set back to none: they are told none runs.
        let off = hall.update(.polled(devices: nil, .success(nil), season: .none), now: T.at(600))
        #expect(T.sent(off).contains { $0.to == 1 && $0.message == .season(nil) })
    }
}
