import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// The map as the hall tells it: the glow of each cell over the last seconds, the changes for
/// everyone and the sweep of a screen that came late, every message within its bytes.
@Suite struct MapNewsTests {
    /// 40 × 40 schools on a grid of 0.1°, each in a cell of its own: 1,600 cells that can glow.
    static let catalog: Catalog = Catalog(schools: (0..<1_600).map { index in
        School(id: "S\(index)", name: "S\(index)", level: .high, province: index < 800 ? "서울특별시" : "부산광역시",
               district: "", address: "", latitude: 38 - Double(index / 40) * 0.1, longitude: 126 + Double(index % 40) * 0.1)
    }, source: .official(edition: "test"))

    static func news() -> MapNews {
        var news = MapNews()
        news.prepare(catalog, etag: "\"grid-1\"")
        news.wake()
        return news
    }

    /// The glow of each cell a message names, in order.
    static func cells(_ text: String) throws -> [(cell: Int, glow: Int)] {
        let start = try #require(text.range(of: #""cells":""#)).upperBound
        let end = try #require(text[start...].firstIndex(of: "\""))
        return try #require(MapCellCode.decode(String(text[start..<end])))
    }

    @Test func aCellGlowsByItsTapsAndFadesWhenTheyStop() throws {
        var news = Self.news()
        let grid = try #require(news.grid)
        let cell = try #require(grid.cell(of: 7))
        news.tapped(position: 7, 3)
        #expect(news.glow[cell] == UInt8(MapGlow.warm.rawValue), "a tap glows at once")
        #expect(news.takeChanges() == [cell])
        #expect(news.takeChanges().isEmpty, "told once")
        // A player mashing: 4 taps a second for the window is hot (the terminal's rule, MapGlow).
        news.tapped(position: 7, 4 * 5)
        #expect(news.glow[cell] == UInt8(MapGlow.hot.rawValue))
        #expect(news.takeChanges() == [cell])
        // The taps leave the window tick by tick: still hot until the first bucket goes.
        for _ in 0..<(MapNews.buckets - 1) {
            news.advance()
            #expect(news.takeChanges().isEmpty)
        }
        news.advance()
        #expect(news.glow[cell] == 0, "out of the window, out of the glow")
        #expect(news.takeChanges() == [cell])
        // Asleep (no screen shows the map), a tap counts for nothing.
        news.sleep()
        news.tapped(position: 7, 100)
        #expect(news.glow[cell] == 0 && news.takeChanges().isEmpty)
    }

    @Test func everyMessageKeepsItsBytesAndEveryChangeIsToldInTheEnd() throws {
        var news = Self.news()
        // Every school taps: 1,600 cells change in one tick, far more than a message holds.
        for position in 0..<Self.catalog.count { news.tapped(position: position, 1) }
        var glowing: [Int: Int] = [:]
        var ticks = 0
        // A screen that knows the catalog and was swept: only the changes, within each message's bytes.
        while glowing.count < Self.catalog.count, ticks < 200 {
            let (text, sweep) = news.message(changes: news.takeChanges(), sweep: nil, told: true,
                                             marks: [1_599, 1_598, 1_597], mine: 1_596)
            #expect(text.utf8.count <= MapNews.messageBytes, "\(text)")
            #expect(sweep == nil)
            for (cell, glow) in try Self.cells(text) { glowing[cell] = glow }
            ticks += 1
        }
        #expect(glowing.count == Self.catalog.count && glowing.values.allSatisfy { $0 == MapGlow.warm.rawValue })
        #expect(ticks == (Self.catalog.count + MapNews.changesPerMessage - 1) / MapNews.changesPerMessage,
                "as many cells a tick as the changes may take")
    }

    @Test func aTicksChangesFitWhateverTheMarks() throws {
        let news = Self.news()
        let changes = Array(0..<MapNews.changesPerMessage)
        // The largest grid's last cell, three leaders and my school there.
        let last = MapGrid.longestSide * MapGrid.longestSide - 1
        let (text, _) = news.message(changes: changes, sweep: nil, told: true, marks: [last, last, last], mine: last)
        #expect(text.utf8.count <= MapNews.messageBytes)
        #expect(try Self.cells(text).map(\.cell) == changes)
    }

    @Test func aScreenThatCameLateIsSweptTheCellsGlowingNow() throws {
        var news = Self.news()
        for position in stride(from: 0, to: Self.catalog.count, by: 3) { news.tapped(position: position, 1) }
        // Everyone was told these before the screen came.
        while !news.takeChanges().isEmpty {}
        let expected = Set(stride(from: 0, to: Self.catalog.count, by: 3).compactMap { news.grid!.cell(of: $0) })
        var seen: Set<Int> = []
        var sweep: Int? = 0, told = false, messages = 0
        while let from = sweep, messages < 100 {
            let (text, next) = news.message(changes: [], sweep: from, told: told, marks: [], mine: nil)
            #expect(text.utf8.count <= MapNews.messageBytes)
            if !told { #expect(text.contains(#""catalog":"grid-1""#), "the first message names the grid's catalog") }
            for (cell, glow) in try Self.cells(text) {
                #expect(glow == MapGlow.warm.rawValue)
                seen.insert(cell)
            }
            #expect(text.hasSuffix(#""whole":true}"#) == (next == nil), "the last message of the sweep says the map is whole")
            (sweep, told, messages) = (next, true, messages + 1)
        }
        #expect(seen == expected)
        #expect(messages <= expected.count / 40 + 2, "the whole map within a few ticks: \(messages)")
    }

    @Test func theGridIsServedWithItsCatalogAndProvinces() throws {
        var news = Self.news()
        let json = news.json()
        let answer = try JSONDecoder().decode(MapGridAnswer.self, from: Data(try #require(json).utf8))
        #expect(answer.catalog == "grid-1")
        #expect(answer.columns == news.grid!.columns && answer.rows == news.grid!.rows)
        #expect(answer.provinces == ["서울특별시", "부산광역시"])
        #expect(answer.cells == news.grid!.encodedCells)
    }
}
