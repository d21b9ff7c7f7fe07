import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// The map in the hall: sent only to the screens showing it, at its ticks, the leaders and the
/// player's school marked, a player's page stopped while it shows, every screen within its bytes.
@Suite struct BattleHallMapTests {
    typealias T = BattleHallTests

    static let resource = try! CatalogResource(bytes: CatalogFile.encode(MapNewsTests.catalog), source: "map-test")
    static let page = BoardViewKey.page(.national, places: 0..<11)

    static func hall() -> BattleHall {
        BattleHall(battleID: T.battleID, catalog: resource, board: StoredBoard(version: 1, scores: [:]),
                   histories: TapJudges(addresses: .standard), slices: 1, now: T.t0)
    }

    /// New totals, as a poll or a commit brings them.
    static func totals(_ hall: inout BattleHall, _ scores: [String: UInt64], version: UInt64, at now: ContinuousClock.Instant) {
        _ = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: version, scores: scores))), now: now)
    }

    static func mapTexts(_ effects: [BattleHall.Effect]) -> [ConnectionID: String] {
        T.sent(effects).reduce(into: [:]) { texts, sent in
            if let text = sent.text, text.contains(#""type":"map""#) { texts[sent.to] = text }
        }
    }

    static func number(_ key: String, in text: String) -> Int? {
        guard let start = text.range(of: "\"\(key)\":")?.upperBound else { return nil }
        return Int(text[start...].prefix { $0.isNumber })
    }

    @Test func onlyTheScreensShowingTheMapAreSentItWithTheLeadersAndMySchoolMarked() throws {
        var hall = Self.hall()
        _ = try #require(BattleHallViewsTests.welcomed(&hall, 1, "device-1", school: "S0"))
        _ = try #require(BattleHallViewsTests.welcomed(&hall, 2, "device-2", school: "S1"))
        _ = hall.update(.watch(1, Self.page), now: T.t0)
        _ = hall.update(.streamPage(3, Self.page), now: T.t0)
        #expect(hall.map.grid == nil, "no screen shows the map: no grid, taps cost nothing")

        let shown = hall.update(.showMap(1, true), now: T.t0)
        #expect(shown.contains { if case .wake(.map, T.t0 + MapNews.interval) = $0 { true } else { false } })
        #expect(hall.connections[1]?.page == nil, "the map takes the page's place")
        _ = hall.update(.showMap(3, true), now: T.t0)
        #expect(hall.connections[3]?.page == Self.page, "a stream keeps its page beside the map")

        Self.totals(&hall, ["S0": 10, "S900": 100, "S5": 50], version: 2, at: T.at(100))
        let effects = hall.update(.alarm(.map), now: T.t0 + MapNews.interval)
        let texts = Self.mapTexts(effects)
        #expect(Set(texts.keys) == [1, 3], "player 2 does not show the map")
        let grid = try #require(hall.map.grid)
        let player = try #require(texts[1])
        #expect(player.hasPrefix(#"{"type":"map","catalog":""#))
        let cells = try MapNewsTests.cells(player)
        #expect(Set(cells.map(\.cell)) == Set([0, 900, 5].compactMap { grid.cell(of: $0) }))
        #expect(Self.number("mine", in: player) == grid.cell(of: 0))
        #expect(player.contains(#""marks":[\#(grid.cell(of: 900)!),\#(grid.cell(of: 5)!),\#(grid.cell(of: 0)!)]"#))
        let stream = try #require(texts[3])
        #expect(stream.hasPrefix("event: map\ndata: {") && stream.hasSuffix("}\n\n"))
        #expect(Self.number("mine", in: stream) == nil, "a stream has no school")

        // Player 1 goes back to the ranking's list: no map any more.
        _ = hall.update(.watch(1, Self.page), now: T.t0 + MapNews.interval)
        #expect(hall.connections[1]?.showsMap == false)
        Self.totals(&hall, ["S0": 20], version: 3, at: T.t0 + MapNews.interval)
        #expect(Set(Self.mapTexts(hall.update(.alarm(.map), now: T.t0 + MapNews.interval * 2)).keys) == [3])
        // The last screen closed: the map ticks on for a window (a projector's stream opened
        // again at its next page finds it as it was), then sleeps: no more ticks, taps cost nothing.
        _ = hall.update(.disconnect(3), now: T.t0 + MapNews.interval * 2)
        var tick = 3
        func alarm() -> [BattleHall.Effect] {
            defer { tick += 1 }
            return hall.update(.alarm(.map), now: T.t0 + MapNews.interval * tick)
        }
        let asksAgain = { (effects: [BattleHall.Effect]) in effects.contains { if case .wake(.map, _) = $0 { true } else { false } } }
        for _ in 1..<MapNews.buckets {
            #expect(asksAgain(alarm()))
            #expect(hall.map.awake)
        }
        #expect(!asksAgain(alarm()))
        #expect(!hall.map.awake && hall.map.glow.allSatisfy { $0 == 0 })
        Self.totals(&hall, ["S0": 500], version: 4, at: T.t0 + MapNews.interval * tick)
        #expect(hall.map.glow.allSatisfy { $0 == 0 })
        // A screen showing it again: it glows from its taps from then on.
        _ = hall.update(.showMap(1, true), now: T.t0 + MapNews.interval * tick)
        Self.totals(&hall, ["S0": 501], version: 5, at: T.t0 + MapNews.interval * tick)
        #expect(hall.map.glow[grid.cell(of: 0)!] == UInt8(MapGlow.warm.rawValue))
    }

    /// A board stream showing the map leaves the map its part of the stream's 1.5 KiB/s: its next
    /// page waits for the page's bytes over what is left, a stream without the map's over all of it.
    @Test func aStreamShowingTheMapLeavesTheMapItsPartOfTheBudget() throws {
        var hall = Self.hall()
        Self.totals(&hall, ["S0": 10, "S1": 5], version: 2, at: T.t0)
        _ = hall.update(.streamPage(1, Self.page), now: T.t0)
        _ = hall.update(.streamPage(2, Self.page), now: T.t0)
        _ = hall.update(.showMap(2, true), now: T.t0)
        let now = T.t0 + BattleHall.broadcastInterval
        let sent = T.sent(hall.update(.alarm(.broadcast), now: now))
        let page = try #require(sent.first { $0.to == 1 }?.text)
        #expect(sent.first { $0.to == 2 }?.text == page, "the same page to both")
        let budget = BattleHall.PageBudget.standard.streamBytesPerSecond
        func next(after budget: Int) -> ContinuousClock.Instant {
            now + .milliseconds(page.utf8.count * 1_000 / budget) - BattleHall.broadcastInterval / 2
        }
        #expect(hall.connections[1]?.nextPageAt == next(after: budget))
        #expect(hall.connections[2]?.nextPageAt == next(after: budget - MapNews.streamBytesPerSecond))
    }

    /// Every school of the battle tapping for 40 s: the player showing the map and the projector's
    /// stream are sent at most their budgets, whatever the battle's size; the 1,600 cells that
    /// began to glow at once reach them in 34 s (48 a tick, a tick a second).
    @Test func aBattleOfAnySizeKeepsTheMapWithinItsBytes() throws {
        var hall = Self.hall()
        _ = try #require(BattleHallViewsTests.welcomed(&hall, 1, "device-1", school: "S0"))
        _ = hall.update(.streamPage(2, Self.page), now: T.t0)
        _ = hall.update(.showMap(1, true), now: T.t0)
        _ = hall.update(.showMap(2, true), now: T.t0)
        var bytes: [ConnectionID: Int] = [:]
        var totals: [String: UInt64] = [:]
        let seconds = 40
        var told: [ConnectionID: Set<Int>] = [:]
        for tick in 1...(seconds * Int(Duration.seconds(1) / MapNews.interval)) {
            let now = T.t0 + MapNews.interval * tick
            // Every school taps 40 more (blazing), in a changing half of the schools.
            for index in 0..<MapNewsTests.catalog.count where (index + tick) % 2 == 0 { totals["S\(index)", default: 0] += 40 }
            Self.totals(&hall, totals, version: UInt64(tick + 1), at: now - .milliseconds(10))
            for sent in T.sent(hall.update(.alarm(.map), now: now)) {
                let text = try #require(sent.text)
                bytes[sent.to, default: 0] += text.utf8.count
                let json = sent.to == 2 ? String(text.dropFirst("event: map\ndata: ".count).dropLast(2)) : text
                #expect(json.utf8.count <= MapNews.messageBytes)
                for (cell, _) in try MapNewsTests.cells(json) { told[sent.to, default: []].insert(cell) }
            }
        }
        let player = Double(bytes[1] ?? 0) / Double(seconds), stream = Double(bytes[2] ?? 0) / Double(seconds)
        #expect(player <= Double(BattleHall.PageBudget.standard.playerBytesPerSecond), "a player: \(player) B/s")
        #expect(stream <= Double(MapNews.streamBytesPerSecond), "the stream: \(stream) B/s")
        #expect(MapNews.streamBytesPerSecond < BattleHall.PageBudget.standard.streamBytesPerSecond)
        // Busy: every tick full of changes (48 cells of three digits, and the marks).
        #expect(player > 150 && stream > 150, "the map is busy: \(player), \(stream)")
        // Every cell that glowed reached both screens in the end.
        #expect(told[1]?.count == MapNewsTests.catalog.count && told[2]?.count == MapNewsTests.catalog.count)
    }

    /// The official list beside the checkout (`../shared/data`; never copied into it).
    static let officialList = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/data/korea-schools-2026-03-20.utf8.csv").path

    /// `Benchmarks/load.sh`'s battle through the hall: 4,000 players each on its own school of
    /// the official list (every third), a batch of 10 taps a second each, saved in commits every
    /// 50 ms; a player showing the map and a projector's stream with it, for a minute. What the
    /// map sends each stays within its budget, and costs the hall little: its ticks are timed.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: officialList), "../shared/data not found: skipped"))
    func fourThousandPlayersOfTheOfficialListKeepTheMapWithinItsBytes() throws {
        let list = try OfficialSchoolList.load(path: Self.officialList)
        let catalog = Catalog(schools: list.schools, source: .official(edition: list.edition))
        let resource = try CatalogResource(bytes: CatalogFile.encode(catalog), source: "official")
        var hall = BattleHall(battleID: T.battleID, catalog: resource, board: StoredBoard(version: 1, scores: [:]),
                              histories: TapJudges(addresses: .standard), now: T.t0)
        let schools = stride(from: 0, to: catalog.count, by: 3).prefix(4_000).map { catalog[$0].id }
        _ = try #require(BattleHallViewsTests.welcomed(&hall, 1, "device-1", school: schools[0]))
        _ = hall.update(.streamPage(2, .page(.national, places: 0..<11)), now: T.t0)
        _ = hall.update(.showMap(1, true), now: T.t0)
        _ = hall.update(.showMap(2, true), now: T.t0)
        var totals: [String: UInt64] = [:]
        var bytes: [ConnectionID: Int] = [:]
        var mapTime: Duration = .zero
        let clock = ContinuousClock()
        let warmUp = 10, seconds = 60
        for tick in 1...((warmUp + seconds) * 20) {
            let now = T.t0 + .milliseconds(50 * tick)
            // A commit: the twentieth of the players whose batch came in these 50 ms.
            var changed: [String: UInt64] = [:]
            for index in stride(from: tick % 20, to: schools.count, by: 20) {
                totals[schools[index], default: 0] += 10
                changed[schools[index]] = totals[schools[index]]
            }
            _ = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: UInt64(tick + 1), scores: changed))), now: now)
            guard tick % 10 == 0 else { continue }
            var effects: [BattleHall.Effect] = []
            let took = clock.measure { effects = hall.update(.alarm(.map), now: now) }
            guard tick > warmUp * 20 else { continue }
            mapTime += took
            for sent in T.sent(effects) { if let text = sent.text, text.contains(#""type":"map""#) { bytes[sent.to, default: 0] += text.utf8.count } }
        }
        let player = Double(bytes[1] ?? 0) / Double(seconds), stream = Double(bytes[2] ?? 0) / Double(seconds)
        print("map at 4,000 players: \(player) B/s to a player, \(stream) B/s to a stream; a tick of the map \(mapTime / (seconds * 2))")
        #expect(player <= Double(BattleHall.PageBudget.standard.playerBytesPerSecond), "a player: \(player) B/s")
        #expect(stream <= Double(MapNews.streamBytesPerSecond), "the stream: \(stream) B/s")
        #expect(mapTime / (seconds * 2) < .milliseconds(5), "a tick of the map: \(mapTime / (seconds * 2))")
    }
}
