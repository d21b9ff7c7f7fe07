import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore

/// The map of the schools: placing them (their own coordinates, or their province's seat), the
/// braille dots, the canvas at a size, and the glow of the last seconds' taps.
@Suite(.onOwnThreads) struct SchoolMapTests {
    static func school(_ id: String, _ province: String, _ latitude: Double?, _ longitude: Double?, level: SchoolLevel = .high) -> School {
        School(id: id, name: id, level: level, province: province, district: "", address: "", latitude: latitude, longitude: longitude)
    }

    @Test func brailleDotsAreNumberedAsUnicodeNumbersThem() {
        // Dots 1, 2, 3 down the left column, 4, 5, 6 down the right, then 7 and 8 under them.
        let left: [UInt8] = [0x01, 0x02, 0x04, 0x40], right: [UInt8] = [0x08, 0x10, 0x20, 0x80]
        for y in 0..<4 {
            #expect(BrailleDots.bit(x: 0, y: y) == left[y])
            #expect(BrailleDots.bit(x: 1, y: y) == right[y])
        }
    }

    @Test func theCornersAndTheMiddleLandWhereTheyShould() {
        // North-west, south-east and the middle of a box of 4° × 4° round 36° N.
        let catalog = Catalog(schools: [
            Self.school("NW", "서울특별시", 38, 126), Self.school("SE", "부산광역시", 34, 130), Self.school("MID", "대전광역시", 36, 128),
        ], source: .official(edition: "test"))
        let map = SchoolMap(catalog: catalog)
        let canvas = MapCanvas(map: map, league: .national, pane: Rect(x: 0, y: 0, width: 200, height: 60))
        #expect(canvas.cell(of: 0)! == (0, 0))
        #expect(canvas.dots[0] == BrailleDots.bit(x: 0, y: 0), "the north-west school is the top-left dot")
        let last = canvas.dots.count - 1
        #expect(canvas.cell(of: 1)! == (canvas.columns - 1, canvas.rows - 1))
        #expect(canvas.dots[last] != 0, "the south-east school is in the bottom-right cell")
        let middle = canvas.cell(of: 2)!
        #expect(abs(middle.column - (canvas.columns - 1) / 2) <= 1 && abs(middle.row - (canvas.rows - 1) / 2) <= 1)
    }

    @Test func theShapeIsKeptWhateverThePane() {
        // 1° of latitude and 1/cos(36°) ≈ 1.236° of longitude are equally long on the ground.
        let catalog = Catalog(schools: [Self.school("A", "서울특별시", 36.5, 127), Self.school("B", "서울특별시", 35.5, 128.236)],
                              source: .official(edition: "test"))
        let map = SchoolMap(catalog: catalog)
        #expect(abs(map.width - map.height) < 0.001 && abs(map.height - 1) < 1e-9)
        for pane in [Rect(x: 0, y: 0, width: 200, height: 30), Rect(x: 0, y: 0, width: 60, height: 100)] {
            let canvas = MapCanvas(map: map, league: .national, pane: pane)
            // Square in dots: two across and four down to a cell.
            #expect(abs(canvas.columns * 2 - canvas.rows * 4) <= 4, "\(canvas.columns)×\(canvas.rows) in \(pane)")
            #expect(canvas.columns <= pane.width && canvas.rows <= pane.height)
        }
        #expect(abs(SchoolMap.cosine(ofDegrees: 60) - 0.5) < 1e-6)
        #expect(abs(SchoolMap.cosine(ofDegrees: 38.6) - 0.781_520) < 1e-5)
    }

    @Test func aSchoolWithoutCoordinatesSitsAtItsProvincesSeat() throws {
        let jeju = try #require(Province.centre(of: "제주특별자치도"))
        let seoul = try #require(Province.centre(of: "서울특별시"))
        let catalog = Catalog(schools: [
            Self.school("placed-seoul", "서울특별시", seoul.latitude, seoul.longitude),
            Self.school("placed-jeju", "제주특별자치도", jeju.latitude, jeju.longitude),
            Self.school("no-coordinates", "제주특별자치도", nil, nil),
            // A typo in the list (0, 0) would shrink the map into a corner: the province's seat instead.
            Self.school("typo", "서울특별시", 0, 0),
            Self.school("nowhere", "Atlantis", nil, nil),
        ], source: .starter)
        let map = SchoolMap(catalog: catalog)
        let canvas = MapCanvas(map: map, league: .national, pane: Rect(x: 0, y: 0, width: 80, height: 21))
        #expect(canvas.cell(of: 2)! == canvas.cell(of: 1)!)
        #expect(canvas.cell(of: 3)! == canvas.cell(of: 0)!)
        #expect(canvas.cell(of: 4) == nil, "a school of no known province is placed nowhere")
        // Seoul is north-west of Jeju's seat, as on any map.
        #expect(canvas.cell(of: 0)!.row == 0 && canvas.cell(of: 1)!.row == canvas.rows - 1)
        #expect(Province.centre(of: "강원도")! == Province.centre(of: "강원특별자치도")!)
    }

    @Test func aProvincesLeagueLightsItsSchoolsOnly() {
        let catalog = Catalog(schools: [
            Self.school("seoul-high", "서울특별시", 37.57, 126.98), Self.school("busan-high", "부산광역시", 35.18, 129.08),
            Self.school("busan-elementary", "부산광역시", 35.10, 128.90, level: .elementary),
        ], source: .official(edition: "test"))
        let map = SchoolMap(catalog: catalog)
        let pane = Rect(x: 0, y: 2, width: 80, height: 21)
        func litSchools(_ league: League) -> [Int] {
            let canvas = MapCanvas(map: map, league: league, pane: pane)
            return (0..<3).filter { let cell = canvas.cell(of: $0)!; return canvas.lit[cell.row * canvas.columns + cell.column] }
        }
        #expect(litSchools(.national) == [])
        #expect(litSchools(.province("부산광역시")) == [1, 2])
        #expect(litSchools(.levelInProvince(.elementary, "부산광역시")) == [2])
        #expect(litSchools(.level(.high)) == [0, 1])
    }

    @Test func theCanvasLeavesRoomForItsLegend() {
        let catalog = Catalog(schools: [Self.school("N", "서울특별시", 38.5, 127), Self.school("S", "제주특별자치도", 33.2, 126.5),
                                        Self.school("E", "경상북도", 37.5, 130.9)], source: .official(edition: "test"))
        let map = SchoolMap(catalog: catalog)
        // 80×24: the ranking's map pane is 80×21, and Korea is about as wide as tall: the legend goes beside.
        let wide = MapCanvas(map: map, league: .national, pane: GameLayout(columns: 80, rows: 24).rankingMap)
        #expect(wide.legendBeside && wide.rows == 21 && wide.columns + MapCanvas.legendColumns <= 80)
        // 40×40: no room beside; under it.
        let tall = MapCanvas(map: map, league: .national, pane: GameLayout(columns: 40, rows: 40).rankingMap)
        #expect(!tall.legendBeside && tall.rows + MapCanvas.legendRows <= 37 && tall.columns <= 40)
    }
}

@Suite(.onOwnThreads) struct RecentTapsTests {
    @Test func tapsCountWithinTheLastSecondsOnly() {
        var recent = RecentTaps()
        recent.record(3, school: 7, at: .milliseconds(0))
        recent.record(2, school: 7, at: .milliseconds(100))
        recent.record(5, school: 9, at: .milliseconds(1_000))
        recent.record(0, school: 11, at: .milliseconds(1_000))
        #expect(recent.schools(at: .milliseconds(1_000)) == [7: 5, 9: 5])
        #expect(recent.schools(at: .milliseconds(5_050)) == [9: 5], "school 7's taps are more than five seconds old")
        #expect(recent.schools(at: .milliseconds(6_000)) == [:])
    }

    @Test func itsWorkIsBoundedWhateverComes() {
        var recent = RecentTaps()
        for index in 0..<10_000 { recent.record(1, school: index, at: .milliseconds(Int64(index))) }
        let shown = recent.schools(at: .milliseconds(10_000))
        #expect(shown.count == RecentTaps.capacity)
        #expect(shown.keys.min() == 10_000 - RecentTaps.capacity, "the newest are kept")
    }

    @Test func aSchoolGlowsByHowFastItTaps() {
        #expect(MapGlow(taps: 1) == .warm)
        #expect(MapGlow(taps: 19) == .warm)
        #expect(MapGlow(taps: 20) == .hot, "four a second over five seconds: a player mashing")
        #expect(MapGlow(taps: 75) == .blazing)
    }
}

@Suite(.onOwnThreads) struct MapInTheGameTests {
    static let catalog = Catalog(schools: [
        SchoolMapTests.school("S1", "서울특별시", 37.57, 126.98), SchoolMapTests.school("S2", "부산광역시", 35.18, 129.08),
    ], source: .official(edition: "test"))

    static func game() -> GameState {
        GameState(catalog: catalog, saved: SavedState(scores: ["S1": 5]), player: "tester", language: .english,
                  now: .milliseconds(0), columns: 80, rows: 24, seed: 1, startingSchool: 0)
    }

    @Test func vSwitchesTheRankingBetweenTableAndMapAndTheMapIsMadeOnlyThen() {
        var game = Self.game()
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        #expect(game.ranking.tab == .table && game.schoolMap == nil && game.mapCanvas == nil, "no map is made before it is shown")
        for key: Character in ["v", "ㅍ"] {
            _ = update(&game, .key(.character(key)), now: .milliseconds(0))
            #expect(game.ranking.tab == (key == "v" ? .map : .table))
        }
        _ = update(&game, .key(.character("V")), now: .milliseconds(0))
        #expect(game.mapCanvas?.isDrawn(for: .national, in: game.layout.rankingMap) == true)
        _ = update(&game, .key(.right), now: .milliseconds(0))
        #expect(game.mapCanvas?.isDrawn(for: .level(.high), in: game.layout.rankingMap) == true, "drawn again for the league")
        _ = update(&game, .resize(columns: 120, rows: 40), now: .milliseconds(0))
        #expect(game.mapCanvas?.isDrawn(for: .level(.high), in: GameLayout(columns: 120, rows: 40).rankingMap) == true)
        _ = update(&game, .key(.character("v")), now: .milliseconds(0))
        #expect(game.ranking.tab == .table)
    }

    @Test func myTapsAndOthersFromASyncGlow() {
        var game = Self.game()
        // Human taps on different keys: each counts.
        for (index, key) in "asdf".enumerated() {
            _ = update(&game, .key(.character(key)), now: .milliseconds(Int64(index) * 150))
        }
        #expect(game.recentTaps.schools(at: .milliseconds(600)) == [0: 4])
        // The next answer brings 30 more for Busan, and a reset of Seoul is no glow.
        _ = update(&game, .tick, now: .milliseconds(600))
        _ = update(&game, .synced(SyncedBoard(catalogGeneration: 0, counts: [9, 30], player: nil)), now: .milliseconds(700))
        #expect(game.recentTaps.schools(at: .milliseconds(700)) == [0: 4, 1: 30])
        _ = update(&game, .synced(SyncedBoard(catalogGeneration: 0, counts: [0, 30], player: nil)), now: .milliseconds(800))
        #expect(game.recentTaps.schools(at: .milliseconds(800)) == [0: 4, 1: 30])
    }
}
