import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// Views in the hall: each player is sent its school's view and the page it watches, not the
/// board. The catalog is `storeTestCatalog`: A, B and C, high schools of 서울특별시.
@Suite struct BattleHallViewsTests {
    typealias T = BattleHallTests

    /// A player connected as `id` for `device`, whose store row names `school`.
    static func welcomed(_ hall: inout BattleHall, _ id: ConnectionID, _ device: String, school: String?, at ms: Int = 0) -> Welcome? {
        _ = hall.update(.connect(id), now: T.at(ms))
        _ = hall.update(.hello(id, device: device), now: T.at(ms))
        let known = school.map { (DeviceRecord(lastSeq: 1, player: "p", lastEndMs: 100), PlayerRecord(schoolID: $0, taps: 1, bestTapsPerSecond: 1)) }
        let read = hall.update(.deviceRead(id, device: device, .success(known)), now: T.at(ms))
        guard case let .welcome(text, _) = T.answers(read)[id], case let .welcome(welcome) = try? MessageCoding.decodeServer(text) else { return nil }
        return welcome
    }

    static func views(_ effects: [BattleHall.Effect]) -> [ConnectionID: [ServerMessage]] {
        var sent: [ConnectionID: [ServerMessage]] = [:]
        for message in T.sent(effects) { if let decoded = message.message { sent[message.to, default: []].append(decoded) } }
        return sent
    }

    static func row(_ rank: Int, _ school: String, _ total: UInt64) -> RankedRow { RankedRow(rank: rank, school: school, total: total) }

    /// A: 10, B: 5, C: 0 at version 4.
    static func hall() -> BattleHall { T.hall(board: StoredBoard(version: 4, scores: ["A": 10, "B": 5])) }

    @Test func theWelcomeHasNoBoardAndTheViewFollowsAtTheNextInterval() throws {
        var hall = Self.hall()
        let welcome = try #require(Self.welcomed(&hall, 1, "device-1", school: "B", at: 10))
        #expect(welcome.protocol == 2)
        #expect(welcome.player.schoolID == "B")
        // The last broadcast was at 0: the view is due at one interval.
        let due = T.t0 + BattleHall.broadcastInterval
        var effects = hall.update(.alarm(.broadcast), now: T.at(10))
        #expect(Self.views(effects).isEmpty, "an alarm not asked for at that time does nothing")
        effects = hall.update(.alarm(.broadcast), now: due)
        let expected = SchoolViewMessage(
            version: 4, school: "B", total: 5,
            ranks: [Standing(rank: 2, size: 3, gap: 5), Standing(rank: 2, size: 3, gap: 5), Standing(rank: 2, size: 3, gap: 5),
                    Standing(rank: 2, size: 3, gap: 5)],
            above: [Self.row(1, "A", 10)], below: [Self.row(3, "C", 0)],
            top: [Self.row(1, "A", 10), Self.row(2, "B", 5), Self.row(3, "C", 0)]
        )
        #expect(Self.views(effects) == [1: [.schoolView(expected)]])
        // Nothing changed: nothing more.
        #expect(Self.views(hall.update(.alarm(.broadcast), now: due + .seconds(1))).isEmpty)
    }

    @Test func playersOfOneSchoolShareTheBytesAndOnlyChangedViewsGoOut() throws {
        var hall = Self.hall()
        _ = try #require(Self.welcomed(&hall, 1, "device-1", school: "A"))
        _ = try #require(Self.welcomed(&hall, 2, "device-2", school: "A"))
        _ = try #require(Self.welcomed(&hall, 3, "device-3", school: "C"))
        let first = hall.update(.alarm(.broadcast), now: T.t0 + BattleHall.broadcastInterval)
        let texts = T.sent(first).reduce(into: [ConnectionID: String]()) { $0[$1.to] = $1.text }
        #expect(texts.count == 3)
        #expect(texts[1] == texts[2], "one school, one message")
        #expect(texts[1] != texts[3])

        // B gains 1 (6): A's view holds B below it, so it changes; C's view holds B above it, so
        // it changes too. With a fourth school far away nothing would; here every view shows B.
        var now = T.t0 + BattleHall.broadcastInterval * 2
        var effects = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: 5, scores: ["B": 6]))), now: now)
        #expect(Set(Self.views(effects).keys) == [1, 2, 3])
        // A total the views do not show past its leader's: A at 10 → 11 changes A's view and the
        // top, which every view holds.
        now = now + BattleHall.broadcastInterval
        effects = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: 6, scores: ["A": 11]))), now: now)
        guard case let .schoolView(a)? = Self.views(effects)[1]?.first else {
            Issue.record("A's players get A's view: \(effects)")
            return
        }
        #expect(a.total == 11 && a.ranks[0] == Standing(rank: 1, size: 3, gap: nil) && a.version == 6)
    }

    /// Eight schools, S1 … S8 at 80, 70, … 10: a view shows the top three and two on either side,
    /// so a change in the middle reaches neither end's view.
    @Test func aViewThatDidNotChangeIsNotSentAgain() throws {
        let ids = (1...8).map { "S\($0)" }
        let catalog = Catalog(schools: ids.map { School(id: $0, name: $0, level: .high, province: "서울특별시", district: "", address: "") },
                              source: .starter)
        let resource = try CatalogResource(bytes: CatalogFile.encode(catalog), source: "test")
        var scores: [String: UInt64] = [:]
        for (index, id) in ids.enumerated() { scores[id] = UInt64(80 - index * 10) }
        var hall = BattleHall(battleID: T.battleID, catalog: resource, board: StoredBoard(version: 1, scores: scores),
                              histories: TapJudges(addresses: .standard), slices: 1, now: T.t0)
        _ = try #require(Self.welcomed(&hall, 1, "first", school: "S1"))
        _ = try #require(Self.welcomed(&hall, 8, "last", school: "S8"))
        var now = T.t0 + BattleHall.broadcastInterval
        #expect(Set(Self.views(hall.update(.alarm(.broadcast), now: now)).keys) == [1, 8])
        // S5 at 41 passes no one and is in neither view.
        now = now + BattleHall.broadcastInterval
        #expect(Self.views(hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: 2, scores: ["S5": 41]))), now: now)).isEmpty)
        // S7 at 15 is above S8.
        now = now + BattleHall.broadcastInterval
        let effects = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: 3, scores: ["S7": 15]))), now: now)
        guard case let .schoolView(last)? = Self.views(effects)[8]?.first, Self.views(effects).count == 1 else {
            Issue.record("only S8's view changed: \(effects)")
            return
        }
        #expect(last.above == [Self.row(6, "S6", 30), Self.row(7, "S7", 15)] && last.ranks[0].gap == 5)
    }

    @Test func aPlayerWhoSwitchesSchoolIsSentTheNewSchoolsView() throws {
        var hall = Self.hall()
        _ = try #require(Self.welcomed(&hall, 1, "device-1", school: nil))
        #expect(Self.views(hall.update(.alarm(.broadcast), now: T.t0 + BattleHall.broadcastInterval)).isEmpty, "no school, no view")
        _ = hall.update(.batch(ReceivedBatch(connection: 1, device: "device-1", player: "p", batch: TapBatch(
            seq: 1, taps: ["C": 2], playerTaps: 2, switchedToSchool: "C", bestTapsPerSecond: 2, startMs: 0, endMs: 100))), now: T.at(300))
        _ = hall.update(.alarm(.commit), now: T.at(350))
        let ack = Acknowledgement(seq: 1, accepted: 2, refused: 0, player: PlayerState(schoolID: "C", taps: 2, bestTapsPerSecond: 2))
        let saved = hall.update(.committed(T.saved([.acknowledged(ack)], board: StoredBoard(version: 5, scores: ["C": 2]))), now: T.at(360))
        let messages = Self.views(saved)[1] ?? []
        #expect(messages.first == .ack(ack))
        guard case let .schoolView(view)? = messages.last else {
            Issue.record("the ack is followed by C's view: \(messages)")
            return
        }
        #expect(view.school == "C" && view.total == 2 && view.ranks[0].rank == 3 && view.ranks[0].gap == 3)
    }

    @Test func aWatchedPageIsSentAtTheNextIntervalThenWhenItChanges() throws {
        var hall = Self.hall()
        _ = try #require(Self.welcomed(&hall, 1, "device-1", school: nil))
        let page = BoardViewKey.page(.national, places: 1..<3)
        var now = T.t0 + BattleHall.broadcastInterval
        var effects = hall.update(.watch(1, page), now: now)
        let expected = PageMessage(version: 4, league: LeagueName(), from: 1, size: 3, rows: [Self.row(2, "B", 5), Self.row(3, "C", 0)])
        #expect(Self.views(effects) == [1: [.page(expected)]])
        // A at 12 is not on the page: nothing. C at 1 is.
        now = now + BattleHall.broadcastInterval
        effects = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: 5, scores: ["A": 12]))), now: now)
        #expect(Self.views(effects).isEmpty)
        now = now + BattleHall.broadcastInterval
        effects = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: 6, scores: ["C": 1]))), now: now)
        #expect(Self.views(effects) == [1: [.page(PageMessage(version: 6, league: LeagueName(), from: 1, size: 3,
                                                               rows: [Self.row(2, "B", 5), Self.row(3, "C", 1)]))]])
        // No page: nothing more, whatever changes.
        _ = hall.update(.watch(1, nil), now: now)
        now = now + BattleHall.broadcastInterval
        effects = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: 7, scores: ["C": 2]))), now: now)
        #expect(Self.views(effects).isEmpty)
    }

    /// A page that changes every interval goes to a player no faster than its byte budget
    /// allows (its size over the budget), then as it is then, changed again or not; a page newly
    /// asked for goes at the next interval; a stream watching the same page has its own budget.
    @Test func aPageGoesNoFasterThanItsWatchersBudget() throws {
        var hall = Self.hall()
        // A page of two rows is 87–90 bytes: at 60 bytes a second, 1.45–1.5 s apart (less half an
        // interval for the broadcasts' step): every sixth interval.
        hall.pageBudget = .init(playerBytesPerSecond: 60, streamBytesPerSecond: 100_000)
        _ = try #require(Self.welcomed(&hall, 1, "device-1", school: nil))
        let page = BoardViewKey.page(.national, places: 0..<2)
        var now = T.t0 + BattleHall.broadcastInterval
        var effects = hall.update(.watch(1, page), now: now)
        let asked = T.sent(effects).filter { $0.to == 1 }.compactMap(\.text)
        #expect(asked.count == 1, "asked for: at the interval")
        _ = hall.update(.streamPage(7, page), now: now)
        let bytes = try #require(asked.first).utf8.count
        #expect((80...100).contains(bytes), "a page of two rows: \(bytes) bytes")

        // A gains a tap every interval: the stream is sent each change, the player not before a
        // second has passed, then the page as it is.
        var toPlayer: [Int] = []
        var toStream = 0
        var lastSent = now
        for step in 1...12 {
            now = now + BattleHall.broadcastInterval
            effects = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: UInt64(4 + step), scores: ["A": UInt64(10 + step)]))), now: now)
            if let views = Self.views(effects)[1] {
                #expect(views == [.page(PageMessage(version: UInt64(4 + step), league: LeagueName(), from: 0, size: 3,
                                                    rows: [Self.row(1, "A", UInt64(10 + step)), Self.row(2, "B", 5)]))])
                toPlayer.append(step)
                lastSent = now
            }
            toStream += T.sent(effects).filter { $0.to == 7 }.count
        }
        #expect(toPlayer == [6, 12], "every sixth interval")
        #expect(toStream == 12)

        // A change held back goes when its time comes, with nothing changed since: the hall
        // asks to be woken for it.
        now = now + BattleHall.broadcastInterval
        effects = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: 17, scores: ["A": 23]))), now: now)
        #expect(Self.views(effects)[1] == nil)
        let wake = try #require(effects.compactMap { effect -> ContinuousClock.Instant? in
            if case let .wake(.broadcast, at) = effect { at } else { nil }
        }.last)
        #expect(wake > now && wake <= lastSent + .milliseconds(1_500), "when the budget allows: \(wake - lastSent) after the last page")
        now = wake
        #expect(Self.views(hall.update(.alarm(.broadcast), now: now))[1]
                == [.page(PageMessage(version: 17, league: LeagueName(), from: 0, size: 3,
                                      rows: [Self.row(1, "A", 23), Self.row(2, "B", 5)]))])

        // Another page asked for goes by the next interval, whatever the budget.
        effects = hall.update(.watch(1, .page(.national, places: 1..<3)), now: now)
        now = now + BattleHall.broadcastInterval
        effects += hall.update(.alarm(.broadcast), now: now)
        #expect(T.sent(effects).filter { $0.to == 1 }.count == 1)
    }

    /// Taps taken off (a ban's removal, here or on another server) show on every page at the
    /// next interval, whatever its budget.
    @Test func tapsTakenOffGoToEveryPageAtOnce() throws {
        var hall = Self.hall()
        hall.pageBudget = .init(playerBytesPerSecond: 10, streamBytesPerSecond: 10)
        _ = try #require(Self.welcomed(&hall, 1, "device-1", school: nil))
        let page = BoardViewKey.page(.national, places: 0..<2)
        var now = T.t0 + BattleHall.broadcastInterval
        #expect(Self.views(hall.update(.watch(1, page), now: now))[1]?.count == 1)
        now = now + BattleHall.broadcastInterval
        #expect(Self.views(hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: 5, scores: ["A": 11]))), now: now))[1] == nil,
                "a change within the budget waits")
        now = now + BattleHall.broadcastInterval
        var effects = hall.update(.banned(BanOutcome(removed: ["A": 3], board: StoredBoard(version: 6, scores: ["A": 8]))), now: now)
        #expect(Self.views(effects)[1] == [.page(PageMessage(version: 6, league: LeagueName(), from: 0, size: 3,
                                                             rows: [Self.row(1, "A", 8), Self.row(2, "B", 5)]))])
        // Another server's removal, as this one's poll reads it.
        now = now + BattleHall.broadcastInterval
        effects = hall.update(.polled(devices: nil, .success(StoredBoard(version: 7, scores: ["B": 2]))), now: now)
        #expect(Self.views(effects)[1] == [.page(PageMessage(version: 7, league: LeagueName(), from: 0, size: 3,
                                                             rows: [Self.row(1, "A", 8), Self.row(2, "B", 2)]))])
    }

    @Test func aPageStreamGetsItsPageAsEvents() {
        var hall = Self.hall()
        let effects = hall.update(.streamPage(7, .page(.level(.high), places: 0..<2)), now: T.t0 + BattleHall.broadcastInterval)
        let texts = T.sent(effects).filter { $0.to == 7 }.compactMap(\.text)
        let page = PageMessage(version: 4, league: LeagueName(level: "high"), from: 0, size: 3, rows: [Self.row(1, "A", 10), Self.row(2, "B", 5)])
        #expect(texts == [BoardStream.event("page", json: MessageCoding.encodePage(page))])
    }

    @Test func aWatchNamesALeagueWithinBounds() throws {
        #expect(try BoardRanking.key(of: Watch(league: nil)) == nil)
        #expect(try BoardRanking.key(of: Watch(league: LeagueName(level: "middle", province: "부산광역시"), from: 20, count: 10))
            == .page(.levelInProvince(.middle, "부산광역시"), places: 20..<30))
        #expect(throws: BoardRanking.WatchRefusal.self) { try BoardRanking.key(of: Watch(league: LeagueName(level: "college"), count: 5)) }
        #expect(throws: BoardRanking.WatchRefusal.self) { try BoardRanking.key(of: Watch(league: LeagueName(), count: 0)) }
        #expect(throws: BoardRanking.WatchRefusal.self) { try BoardRanking.key(of: Watch(league: LeagueName(), count: Watch.maximumCount + 1)) }
        #expect(throws: BoardRanking.WatchRefusal.self) { try BoardRanking.key(of: Watch(league: LeagueName(), from: -1, count: 5)) }
        let long = String(repeating: "도", count: 30)
        #expect(throws: BoardRanking.WatchRefusal.self) { try BoardRanking.key(of: Watch(league: LeagueName(province: long), count: 5)) }
    }

    /// A school's count adds its aliases' totals, as the game's board does.
    @Test func anAliasCountsForTheSchoolItNames() {
        let catalog = Catalog(schools: storeTestCatalog.schools, aliases: ["OLD-B": "B"], source: .starter)
        var ranking = BoardRanking(catalog: catalog, scores: ["B": 3, "OLD-B": 4, "A": 5])
        #expect(ranking.leaderboard.count(of: 1) == 7)
        ranking.take(changed: ["OLD-B"], scores: ["B": 3, "OLD-B": 6, "A": 5])
        #expect(ranking.leaderboard.count(of: 1) == 9)
        #expect(ranking.leaderboard.rank(of: 1, in: .national) == 1)
    }
}
