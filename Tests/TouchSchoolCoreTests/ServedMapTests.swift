import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore

/// The map of a game on a server (issue 50): the game asks the server for the map while it shows
/// it, and glows with the whole nation's taps as the server's `map` messages tell them, cell by
/// cell of the catalog's grid.
@Suite(.onOwnThreads) struct ServedMapTests {
    static let catalog = Catalog(schools: [
        SchoolMapTests.school("S1", "서울특별시", 37.57, 126.98), SchoolMapTests.school("S2", "부산광역시", 35.18, 129.08),
        SchoolMapTests.school("S3", "제주특별자치도", 33.50, 126.53),
    ], source: .official(edition: "test"))

    static func game(online: Bool = true) -> GameState {
        var game = GameState(catalog: catalog, saved: SavedState(scores: ["S1": 5]), player: "tester", language: .english,
                             now: .milliseconds(0), columns: 80, rows: 24, seed: 1, startingSchool: 0)
        if online { _ = update(&game, .connectionChanged(.online), now: .milliseconds(0)) }
        return game
    }

    static func onMap() -> GameState {
        var game = game()
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        _ = update(&game, .key(.character("v")), now: .milliseconds(0))
        return game
    }

    /// The grid cell of the school at `position`, as the server numbers it.
    static func cell(of position: Int) throws -> Int {
        try #require(MapGrid(map: SchoolMap(catalog: catalog)).cell(of: position))
    }

    @Test func onAServerTheMapIsAskedForAfterThePageIsLetGoAndNoLongerWhenItGoes() {
        var game = Self.game()
        let table = PageWatch(league: .national, places: 0..<game.layout.rankingList.height)
        #expect(update(&game, .key(.tab), now: .milliseconds(0)) == [.watch(table)])
        // The page goes first: the server takes any watch to mean the map is not shown.
        #expect(update(&game, .key(.character("v")), now: .milliseconds(0)) == [.watch(nil), .showMap(true)])
        #expect(update(&game, .key(.right), now: .milliseconds(0)).isEmpty, "the map is the nation's whatever the league")
        #expect(update(&game, .tick, now: .milliseconds(0)).allSatisfy { if case .sync = $0 { true } else { false } })
        let level = PageWatch(league: .level(.high), places: 0..<game.layout.rankingList.height)
        #expect(update(&game, .key(.character("v")), now: .milliseconds(0)) == [.watch(level), .showMap(false)])
        #expect(update(&game, .key(.character("v")), now: .milliseconds(0)) == [.watch(nil), .showMap(true)])
        // Help over the map, and back: asked again (the server sweeps it whole again).
        #expect(update(&game, .key(.help), now: .milliseconds(0)) == [.showMap(false)])
        #expect(update(&game, .key(.escape), now: .milliseconds(0)) == [.showMap(true)])
        #expect(update(&game, .key(.tab), now: .milliseconds(0)) == [.showMap(false)])
    }

    @Test func locallyNothingIsAskedAndNoGridIsMade() {
        var game = Self.game(online: false)
        #expect(update(&game, .key(.tab), now: .milliseconds(0)).isEmpty)
        #expect(update(&game, .key(.character("v")), now: .milliseconds(0)).isEmpty)
        #expect(game.mapCanvas != nil && game.servedMap == nil && game.gridOnCanvas == nil)
    }

    @Test func theGridIsTheServersAndMadeWhenTheMapFirstShows() throws {
        var game = Self.game()
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        #expect(game.servedMap == nil)
        _ = update(&game, .key(.character("v")), now: .milliseconds(0))
        let grid = try #require(game.servedMap?.grid)
        let servers = MapGrid(map: SchoolMap(catalog: Self.catalog))
        #expect(grid.columns == servers.columns && grid.rows == servers.rows && grid.cellOfSchool == servers.cellOfSchool)
        let busan = try #require(game.gridOnCanvas?.canvasCells(of: try Self.cell(of: 1)))
        #expect(busan.count == 1 && busan[0] == game.mapCanvas!.cell(of: 1)!)
    }

    @Test func theServersGlowIsAppliedInOrderAndASweepReplacesItOnceWhole() throws {
        var game = Self.onMap()
        let seoul = try Self.cell(of: 0), busan = try Self.cell(of: 1), jeju = try Self.cell(of: 2)
        func told(_ report: MapReport, generation: Int = 0) {
            #expect(update(&game, .mapReported(report, catalogGeneration: generation), now: .milliseconds(0)).isEmpty)
        }
        told(MapReport(catalog: "c", marks: [busan, seoul], mine: seoul,
                       cells: [MapCellGlow(cell: busan, glow: 3), MapCellGlow(cell: jeju, glow: 1)], whole: true))
        #expect(game.servedMap?.glowing == [busan: .blazing, jeju: .warm])
        #expect(game.servedMap?.marks == [busan, seoul])
        told(MapReport(marks: [busan], cells: [MapCellGlow(cell: jeju, glow: 0), MapCellGlow(cell: seoul, glow: 2)]))
        #expect(game.servedMap?.glowing == [busan: .blazing, seoul: .hot])
        // Of another catalog's grid, or a cell no grid has: nothing.
        told(MapReport(marks: [], cells: [MapCellGlow(cell: jeju, glow: 3)]), generation: 1)
        told(MapReport(marks: [1 << 15], cells: [MapCellGlow(cell: 1 << 15, glow: 3)]))
        #expect(game.servedMap?.glowing == [busan: .blazing, seoul: .hot])
        #expect(game.servedMap?.marks == [])
        // A sweep (a reconnection): what was drawn stays until it is whole, then only what it brought.
        told(MapReport(catalog: "c", marks: [busan], cells: [MapCellGlow(cell: jeju, glow: 1)]))
        #expect(game.servedMap?.glowing == [busan: .blazing, seoul: .hot, jeju: .warm])
        told(MapReport(marks: [busan], cells: [], whole: true))
        #expect(game.servedMap?.glowing == [jeju: .warm])
    }

    @Test func aHiddenMapForgetsItsGlowAndANewCatalogItsGrid() throws {
        var game = Self.onMap()
        let busan = try Self.cell(of: 1)
        let report = MapReport(catalog: "c", marks: [busan], cells: [MapCellGlow(cell: busan, glow: 2)], whole: true)
        _ = update(&game, .mapReported(report, catalogGeneration: 0), now: .milliseconds(0))
        #expect(game.servedMap?.glowing == [busan: .hot])
        _ = update(&game, .key(.character("v")), now: .milliseconds(0))
        #expect(game.servedMap?.glowing == [:] && game.servedMap?.marks == [])
        // Told while not asked (a message on its way): not taken.
        _ = update(&game, .mapReported(report, catalogGeneration: 0), now: .milliseconds(0))
        #expect(game.servedMap?.glowing == [:])
        _ = update(&game, .key(.character("v")), now: .milliseconds(0))
        _ = update(&game, .mapReported(report, catalogGeneration: 0), now: .milliseconds(0))
        #expect(game.servedMap?.glowing == [busan: .hot])
        // Another catalog (Busan's school gone): the grid is made again from it, dark.
        let smaller = Catalog(schools: [Self.catalog[0], Self.catalog[2]], source: .official(edition: "test 2"))
        _ = update(&game, .catalogReplaced(CatalogReplacement(generation: 1, catalog: smaller, saved: SavedState())), now: .milliseconds(0))
        #expect(game.servedMap?.glowing == [:])
        #expect(game.servedMap?.grid.cellOfSchool == MapGrid(map: SchoolMap(catalog: smaller)).cellOfSchool)
        _ = update(&game, .mapReported(report, catalogGeneration: 0), now: .milliseconds(0))
        #expect(game.servedMap?.glowing == [:], "a report of the old catalog's grid")
    }
    /// On a server the totals an answer brings are not taps to glow with: a view naming a school
    /// for the first time brings its total of all time. The server's map says who taps; the
    /// game's own taps glow at once.
    @Test func onAServerOnlyMyOwnTapsAndTheServersMapGlow() {
        var game = Self.onMap()
        _ = update(&game, .tick, now: .milliseconds(0))
        _ = update(&game, .synced(SyncedBoard(catalogGeneration: 0, counts: [5, 900, 400], player: nil)), now: .milliseconds(100))
        #expect(game.recentTaps.schools(at: .milliseconds(200)).isEmpty)
        _ = update(&game, .key(.tab), now: .milliseconds(300))
        _ = update(&game, .key(.character("a")), now: .milliseconds(400))
        #expect(game.recentTaps.schools(at: .milliseconds(500)) == [0: 1])
    }
}
