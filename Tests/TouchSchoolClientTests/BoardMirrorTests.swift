import Testing
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolTestSupport

@Suite(.onOwnThreads) struct BoardMirrorTests {
    static let catalog = Catalog(schools: [
        School(id: "S1", name: "서울고등학교", level: .high, province: "서울특별시", district: "서초구", address: ""),
        School(id: "S2", name: "휘문고등학교", level: .high, province: "서울특별시", district: "강남구", address: ""),
    ], source: .starter)

    /// A view of S1 at 100, second nationally behind S9 and ahead of S2.
    static let view = SchoolViewMessage(
        version: 3, school: "S1", total: 100,
        ranks: [Standing(rank: 2, size: 3, gap: 6), Standing(rank: 1, size: 2, gap: nil), Standing(rank: 1, size: 2, gap: nil),
                Standing(rank: 1, size: 2, gap: nil)],
        above: [RankedRow(rank: 1, school: "S9", total: 106)], below: [RankedRow(rank: 3, school: "S2", total: 50)],
        top: [RankedRow(rank: 1, school: "S9", total: 106), RankedRow(rank: 2, school: "S1", total: 100), RankedRow(rank: 3, school: "S2", total: 50)])

    @Test func theGameSeesTheViewsTotalsPlusEveryWaitingTap() {
        var mirror = BoardMirror()
        mirror.take(Welcome(battle: "client-tests-battle", lastSeq: 0, player: PlayerState(schoolID: "S1", taps: 20, bestTapsPerSecond: 5), catalog: "c1"))
        mirror.take(Self.view)
        #expect(mirror.scores == ["S1": 100, "S2": 50, "S9": 106])
        var outbox = Outbox()
        outbox.append(PendingChanges(player: "p", scoreDeltas: ["S1": 4], playerTaps: 4, bestTapsPerSecond: 6), startMs: 0, endMs: 1)
        let board = mirror.board(adding: outbox, catalog: Self.catalog, generation: 2, player: "p")
        #expect(board.catalogGeneration == 2)
        #expect(board.counts == [104, 50])
        #expect(board.player == PlayerRecord(schoolID: "S1", taps: 24, bestTapsPerSecond: 6))
        // A switch in the outbox restarts my count at the new school.
        outbox.append(PendingChanges(player: "p", scoreDeltas: ["S2": 2], playerTaps: 2, bestTapsPerSecond: 6, switchedToSchool: "S2"),
                      startMs: 1, endMs: 2)
        let switched = mirror.board(adding: outbox, catalog: Self.catalog, generation: 2, player: "p")
        #expect(switched.counts == [104, 52])
        #expect(switched.player == PlayerRecord(schoolID: "S2", taps: 2, bestTapsPerSecond: 6))
    }

    @Test func anAcknowledgedBatchMovesFromTheOutboxToTheBoardAndTheNextViewsTotalsReplace() {
        var mirror = BoardMirror(scores: ["S1": 10], player: PlayerState(schoolID: "S1", taps: 10, bestTapsPerSecond: 3))
        var outbox = Outbox()
        outbox.append(PendingChanges(player: "p", scoreDeltas: ["S1": 5], playerTaps: 5, bestTapsPerSecond: 4), startMs: 0, endMs: 1)
        let before = mirror.board(adding: outbox, catalog: Self.catalog, generation: 0, player: "p")
        let batch = outbox.acknowledge(1)
        mirror.acknowledged(Acknowledgement(seq: 1, accepted: 5, refused: 0, player: PlayerState(schoolID: "S1", taps: 15, bestTapsPerSecond: 4)), batch: batch)
        let after = mirror.board(adding: outbox, catalog: Self.catalog, generation: 0, player: "p")
        #expect(after == before)
        #expect(mirror.scores == ["S1": 15])
        mirror.take(Self.view)
        #expect(mirror.scores == ["S1": 100, "S2": 50, "S9": 106])
        mirror.take(PageMessage(version: 4, league: LeagueName(level: "high"), from: 1, size: 3,
                                rows: [RankedRow(rank: 2, school: "S1", total: 101), RankedRow(rank: 3, school: "S2", total: 51)]))
        #expect(mirror.scores == ["S1": 101, "S2": 51, "S9": 106])
    }

    /// The game reads the views by catalog position, each league named as `League.leagues(of:)`
    /// orders them; a school the catalog does not have (S9) is left out of the rows.
    @Test func theViewsAreReadByCatalogPosition() throws {
        let page = PageMessage(version: 4, league: LeagueName(level: "high", province: "서울특별시"), from: 5, size: 40,
                               rows: [RankedRow(rank: 6, school: "S2", total: 50), RankedRow(rank: 7, school: "S1", total: 49)])
        let mirror = BoardMirror(view: Self.view, page: page)
        let views = mirror.views(in: Self.catalog)
        try #require(views.count == 2)
        guard case let .school(school) = views[0], case let .page(read) = views[1] else {
            Issue.record("views: \(views)")
            return
        }
        #expect(school.school == 0)
        #expect(school.count == 100)
        #expect(school.national == LeagueStanding(league: .national, rank: 2, size: 3, gap: 6))
        #expect(school.standings.map(\.league) == League.leagues(of: Self.catalog[0]))
        #expect(school.above.isEmpty)
        #expect(school.below == [RankedSchool(position: 1, rank: 3, count: 50)])
        #expect(school.top.map(\.position) == [0, 1])
        #expect(read.league == .levelInProvince(.high, "서울특별시"))
        #expect(read.places == 5..<7)
        #expect(read.size == 40)
        #expect(read.rows == [RankedSchool(position: 1, rank: 6, count: 50), RankedSchool(position: 0, rank: 7, count: 49)])
        #expect(Watch(PageWatch(league: .levelInProvince(.high, "서울특별시"), places: 5..<25))
                == Watch(league: LeagueName(level: "high", province: "서울특별시"), from: 5, count: 20))
        #expect(Watch(nil).league == nil)
        // A terminal taller than a page asks for the most a server sends.
        #expect(Watch(PageWatch(league: .national, places: 0..<500)).count == Watch.maximumCount)
    }

    @Test func refusedTapsAreNotAddedAndTheServersPlayerWins() {
        var mirror = BoardMirror(scores: ["S1": 10], player: nil)
        let batch = TapBatch(seq: 1, taps: ["S1": 500], playerTaps: 500, bestTapsPerSecond: 40, startMs: 0, endMs: 500)
        mirror.acknowledged(Acknowledgement(seq: 1, accepted: 30, refused: 470, player: PlayerState(schoolID: "S1", taps: 30, bestTapsPerSecond: 9)), batch: batch)
        #expect(mirror.scores["S1"] == 10)
        #expect(mirror.player == PlayerState(schoolID: "S1", taps: 30, bestTapsPerSecond: 9))
    }
}
