import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolTestSupport
@testable import TouchSchoolServer

/// Seasons kept by each store (issue 50): the length set and shared by every store on the same
/// storage, each commit's taps cut between the seasons they were made in, once, beside all time.
@Suite(.onOwnThreads, .tags(.postgres), .serialized) struct SeasonStoreTests {
    /// A Monday 00:00 in Korea: the boundary between two weekly seasons.
    let boundary = Season.at(.week, ms: 1_800_000_000_000)!.endsAtMs

    func received(_ seq: UInt64, _ taps: [String: UInt64], device: String, startMs: Int64, endMs: Int64) -> ReceivedBatch {
        ReceivedBatch(connection: 1, device: device, player: "민지 \(device.suffix(1))",
                      batch: TapBatch(seq: seq, taps: taps, playerTaps: taps.values.reduce(0, +), switchedToSchool: taps.keys.sorted().first,
                                      bestTapsPerSecond: 5, startMs: startMs, endMs: endMs),
                      address: "10.0.0.1", network: "10.0.0.1")
    }

    func commit(_ store: any BattleStore, _ batches: [ReceivedBatch], at nowMs: Int64) async throws {
        _ = try await store.commit(batches, histories: TapJudges(addresses: .standard), catalog: storeTestCatalog, nowMs: nowMs)
    }

    /// The seasons' totals, oldest first.
    func seasonTotals(_ store: any BattleStore) async throws -> [[String: UInt64]] {
        var totals: [[String: UInt64]] = []
        for season in try await store.seasons(limit: 100).map(\.season).reversed() { totals.append(try await store.season(season).totals) }
        return totals
    }

    /// The length is none until set, kept through a restart, and read by a second store on the same
    /// storage (a second server on one PostgreSQL): its commits cut by it without being told.
    @Test(arguments: [StoreKind.sqlite, .postgres, .memory])
    func theLengthIsKeptAndSharedByEveryStore(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let other = try await fixture.restarted()
            #expect(try await fixture.store.seasonLength() == .none)
            // While none, nothing is written to seasons.
            try await commit(other, [received(1, ["A": 5], device: "device-1", startMs: boundary - 5_000, endMs: boundary - 4_000)],
                             at: boundary - 3_900)
            #expect(try await other.seasons(limit: 10).isEmpty)
            try await fixture.store.setSeasonLength(.month)
            try await fixture.store.setSeasonLength(.week)
            #expect(try await other.seasonLength() == .week)
            #expect(try await fixture.restarted().seasonLength() == .week)
            try await commit(other, [received(2, ["A": 7], device: "device-1", startMs: boundary - 3_000, endMs: boundary - 2_000)],
                             at: boundary - 1_900)
            let week = try #require(Season.at(.week, ms: boundary - 1))
            #expect(try await fixture.store.seasons(limit: 10).map(\.season) == [week])
            #expect(try await fixture.store.season(week).totals == ["A": 7])
            #expect(try await fixture.store.seasonPlayers(week) == ["device-1": ["A": 7]])
            #expect(try await fixture.store.board().scores == ["A": 12])
        }
    }

    /// What a commit answers of the season (the views' numbers): the season running at its time
    /// and its new totals of the schools the window changed in it, read in its transaction, beside
    /// all time's; a window of last week's taps only still names the week running, with no school.
    /// A second store's poll reads the same totals of the schools it found changed.
    @Test(arguments: [StoreKind.sqlite, .postgres, .memory])
    func aCommitAnswersTheRunningSeasonsTotalsOfTheSchoolsItChanged(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            try await fixture.store.setSeasonLength(.week)
            let (before, after) = (try #require(Season.at(.week, ms: boundary - 1)), try #require(Season.at(.week, ms: boundary)))
            var window = try await fixture.store.commit(
                [received(1, ["A": 30, "B": 10], device: "device-1", startMs: boundary - 9_000, endMs: boundary - 8_000)],
                histories: TapJudges(addresses: .standard), catalog: storeTestCatalog, nowMs: boundary - 7_900)
            #expect(window.board.season == SeasonTotals(season: before, totals: ["A": 30, "B": 10]))
            window = try await fixture.store.commit(
                [received(2, ["B": 6], device: "device-1", startMs: boundary - 1_000, endMs: boundary + 1_000)],
                histories: TapJudges(addresses: .standard), catalog: storeTestCatalog, nowMs: boundary + 1_100)
            // B's 6 are made at −667, −334, 0, +333, +666, +1000 ms from the boundary (`Season.cut`,
            // as a round spreads them): 2 last week, 4 this week.
            #expect(window.board.season == SeasonTotals(season: after, totals: ["B": 4]))
            #expect(window.board.scores == ["B": 16])
            window = try await fixture.store.commit(
                [received(1, ["C": 4], device: "device-2", startMs: boundary - 6_000, endMs: boundary - 5_000)],
                histories: TapJudges(addresses: .standard), catalog: storeTestCatalog, nowMs: boundary + 1_200)
            #expect(window.board.season == SeasonTotals(season: after, totals: [:]))
            #expect(try await fixture.restarted().seasonTotals(after, schools: ["A", "B", "C"]) == ["A": 0, "B": 4, "C": 0])
            #expect(try await fixture.store.seasonTotals(before, schools: ["B", "C"]) == ["B": 12, "C": 4])
        }
    }

    /// A batch in flight across the boundary is split exactly as `Season.cut` cuts it, in school id
    /// order, all time unchanged; the same batch sent again counts once; a late batch made before
    /// the boundary counts in the season it was made in.
    @Test(arguments: [StoreKind.sqlite, .sqliteCompacting, .postgres, .memory])
    func aBatchAcrossTheBoundaryIsCutOnceIntoTheSeasonsItWasMadeIn(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            try await fixture.store.setSeasonLength(.week)
            let across = received(1, ["A": 80, "B": 120], device: "device-1", startMs: boundary - 30_000, endMs: boundary + 30_000)
            try await commit(fixture.store, [across], at: boundary + 30_100)
            try await commit(fixture.store, [across], at: boundary + 30_200)
            // Made before the boundary, received after it (a phone that was offline).
            try await commit(fixture.store, [received(1, ["C": 40], device: "device-2", startMs: boundary - 50_000, endMs: boundary - 40_000)],
                             at: boundary + 31_000)
            let cut = Season.cut(taps: 200, startMs: boundary - 30_000, endMs: boundary + 30_000, .week)
            #expect(cut.map(\.taps) == [99, 101])
            let (before, after) = (try #require(Season.at(.week, ms: boundary - 1)), try #require(Season.at(.week, ms: boundary)))
            #expect(cut.map(\.season) == [before, after])
            #expect(try await fixture.store.seasons(limit: 10).map(\.season) == [after, before])
            #expect(try await seasonTotals(fixture.store) == [["A": 80, "B": 19, "C": 40], ["B": 101]])
            #expect(try await fixture.store.seasonPlayers(before) == ["device-1": ["A": 80, "B": 19], "device-2": ["C": 40]])
            #expect(try await fixture.store.seasonPlayers(after) == ["device-1": ["B": 101]])
            #expect(try await fixture.store.board().scores == ["A": 80, "B": 120, "C": 40])
            #expect(try await fixture.restarted().season(before).totals == ["A": 80, "B": 19, "C": 40])
        }
    }

    /// A ban with its taps removed takes them off every season they counted in, in the same
    /// transaction as all time; a ban without leaves the seasons as they were.
    @Test(arguments: [StoreKind.sqlite, .sqliteCompacting, .postgres, .memory])
    func aBanRemovingTheTapsTakesThemOffItsSeasons(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            try await fixture.store.setSeasonLength(.week)
            try await commit(fixture.store, [received(1, ["A": 60], device: "device-1", startMs: boundary - 6_000, endMs: boundary + 6_000),
                                             received(1, ["A": 30, "B": 10], device: "device-2", startMs: boundary - 4_000, endMs: boundary + 4_000)],
                             at: boundary + 6_100)
            // device-1: 29 taps before, 31 after; device-2: 19 before, 21 after (A's 30 first, then B's 10).
            #expect(try await seasonTotals(fixture.store) == [["A": 48], ["A": 42, "B": 10]])
            #expect(try await fixture.store.ban(device: DevicePublicID.of("device-1"), removeTaps: false) != nil)
            #expect(try await fixture.store.ban(device: DevicePublicID.of("device-2"), removeTaps: true)?.removed == ["A": 30, "B": 10])
            #expect(try await seasonTotals(fixture.store) == [["A": 29], ["A": 31]])
            #expect(try await fixture.store.board().scores == ["A": 60])
        }
    }

    /// Two stores on the same storage (two servers on one PostgreSQL) committing at once after the
    /// season's end and grace keep one hall, identical through both: the first three of each
    /// league as the totals stood, a batch in flight within the grace in it, a later one of the
    /// same season in its totals only.
    @Test(arguments: [StoreKind.sqlite, .postgres, .memory])
    func twoStoresStraddlingTheBoundaryKeepOneHallOfFame(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            let stores = [fixture.store, try await fixture.restarted()]
            try await stores[0].setSeasonLength(.week)
            let before = try #require(Season.at(.week, ms: boundary - 1))
            try await commit(stores[0], [received(1, ["A": 10], device: "device-1", startMs: boundary - 9_000, endMs: boundary - 8_000),
                                         received(1, ["B": 20], device: "device-2", startMs: boundary - 9_000, endMs: boundary - 8_000)],
                             at: boundary - 7_000)
            // In flight at the boundary, received within the grace: in the hall.
            try await commit(stores[1], [received(1, ["C": 5], device: "device-3", startMs: boundary - 3_000, endMs: boundary - 1_000)],
                             at: boundary + Round.graceMs - 1)
            #expect(try await stores[0].season(before).fame.isEmpty)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, store) in stores.enumerated() {
                    let device = "device-\(4 + index)"
                    group.addTask {
                        try await commit(store, [received(1, ["A": 1], device: device, startMs: boundary + 1_000, endMs: boundary + 2_000)],
                                         at: boundary + Round.graceMs)
                    }
                }
                try await group.waitForAll()
            }
            // Made before the boundary, received after the hall was taken: in the totals only.
            try await commit(stores[1], [received(1, ["C": 100], device: "device-6", startMs: boundary - 20_000, endMs: boundary - 10_000)],
                             at: boundary + 60_000)
            let national = [("B", 20), ("A", 10), ("C", 5)].enumerated().map { index, row in
                SeasonFame.Entry(league: .national, place: index + 1, rank: index + 1, school: row.0, total: UInt64(row.1))
            }
            let leagues: [League] = [.national, .level(.high), .province("서울특별시"), .levelInProvince(.high, "서울특별시")]
            let hall = leagues.flatMap { league in national.map { SeasonFame.Entry(league: league, place: $0.place, rank: $0.rank, school: $0.school, total: $0.total) } }
            for store in stores + [try await fixture.restarted()] {
                let standing = try await store.season(before)
                #expect(standing.fame == hall)
                #expect(standing.totals == ["A": 10, "B": 20, "C": 105])
                #expect(try await store.seasons(limit: 10).map(\.fame) == [[], national])
            }
        }
    }

    /// A season with no tap after its end still gets its hall: the poll takes it after the grace.
    @Test(arguments: [StoreKind.sqlite, .postgres, .memory])
    func aPollTakesTheHallWhenNoCommitCame(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            try await fixture.store.setSeasonLength(.week)
            let before = try #require(Season.at(.week, ms: boundary - 1))
            try await commit(fixture.store, [received(1, ["B": 4], device: "device-1", startMs: boundary - 3_000, endMs: boundary - 2_000)],
                             at: boundary - 1_000)
            _ = try await fixture.store.takeHallOfFame(catalog: storeTestCatalog, nowMs: boundary + Round.graceMs - 1)
            #expect(try await fixture.store.season(before).fame.isEmpty)
            _ = try await fixture.store.takeHallOfFame(catalog: storeTestCatalog, nowMs: boundary + Round.graceMs)
            let other = try await fixture.restarted()
            #expect(try await other.season(before).fame.filter { $0.league == .national }
                    == [SeasonFame.Entry(league: .national, place: 1, rank: 1, school: "B", total: 4)])
        }
    }

    /// The list: every season of either length that counted taps, newest (by its start) first, at
    /// most the limit; a length changed keeps what the former counted.
    @Test(arguments: [StoreKind.sqlite, .postgres, .memory])
    func theSeasonsAreListedNewestFirstAcrossLengths(_ kind: StoreKind) async throws {
        try await withStore(kind) { fixture in
            try await fixture.store.setSeasonLength(.week)
            var counted: [Season] = []
            for (index, weeksBack) in [5, 3, 2, 1].enumerated() {
                let at = boundary - Int64(weeksBack) * 7 * 86_400_000 + 60_000
                try await commit(fixture.store, [received(1, ["A": 2], device: "device-\(index)", startMs: at - 2_000, endMs: at - 1_000)], at: at)
                counted.append(try #require(Season.at(.week, ms: at - 1_000)))
            }
            try await fixture.store.setSeasonLength(.month)
            try await commit(fixture.store, [received(1, ["B": 3], device: "device-9", startMs: boundary - 2_000, endMs: boundary - 1_000)],
                             at: boundary)
            counted.append(try #require(Season.at(.month, ms: boundary - 1_000)))
            let newestFirst = counted.sorted { $0.startsAtMs > $1.startsAtMs }
            #expect(try await fixture.store.seasons(limit: 10).map(\.season) == newestFirst)
            #expect(try await fixture.store.seasons(limit: 3).map(\.season) == Array(newestFirst.prefix(3)))
            #expect(try await fixture.store.season(counted[0]).totals == ["A": 2])
        }
    }
}
