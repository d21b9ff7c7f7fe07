import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore

/// The map's fixed grid, which the server aggregates the glow into and sends (`GET /v1/map`), and
/// the three characters a cell's glow takes in a `map` message.
@Suite(.onOwnThreads) struct MapGridTests {
    static func school(_ id: String, _ province: String, _ latitude: Double?, _ longitude: Double?) -> School {
        SchoolMapTests.school(id, province, latitude, longitude)
    }

    /// Seoul, Busan and Jeju's seats, two schools of Seoul and one of Gyeonggi in Seoul's cell.
    static func catalog() throws -> Catalog {
        let seoul = try #require(Province.centre(of: "서울특별시"))
        let busan = try #require(Province.centre(of: "부산광역시"))
        let jeju = try #require(Province.centre(of: "제주특별자치도"))
        return Catalog(schools: [
            school("S1", "서울특별시", seoul.latitude, seoul.longitude), school("S2", "서울특별시", seoul.latitude, seoul.longitude),
            school("G1", "경기도", seoul.latitude, seoul.longitude + 0.001),
            school("B1", "부산광역시", busan.latitude, busan.longitude), school("J1", "제주특별자치도", jeju.latitude, jeju.longitude),
            school("nowhere", "", nil, nil),
        ], source: .official(edition: "test"))
    }

    @Test func theLongerSideHasItsCellsAndTheShapeIsKept() throws {
        let map = SchoolMap(catalog: try Self.catalog())
        let grid = MapGrid(map: map)
        // Seoul to Jeju: 4.07° of latitude; Jeju to Busan: 2.54° of longitude, 2.07 at 35.5° N.
        #expect(grid.rows == MapGrid.longestSide)
        #expect(abs(map.width / map.height - 0.509) < 0.001)
        #expect(abs(Double(grid.columns - 1) / Double(grid.rows - 1) - map.width / map.height) < 0.01, "\(grid.columns)×\(grid.rows)")
        let seoul = try #require(grid.cell(of: 0)), busan = try #require(grid.cell(of: 3)), jeju = try #require(grid.cell(of: 4))
        #expect(seoul / grid.columns == 0, "Seoul is the northmost")
        #expect(jeju / grid.columns == grid.rows - 1, "Jeju the southmost")
        #expect(busan % grid.columns == grid.columns - 1, "Busan the eastmost")
        #expect(grid.cell(of: 5) == nil, "a school placed nowhere has no cell")
        #expect(grid.cell(of: 2) == seoul)
        #expect(grid.schools[seoul] == 3 && grid.schools[busan] == 1 && grid.schools.reduce(0) { $0 + Int($1) } == 5)
        // Two of Seoul's schools and one of Gyeonggi's: the cell is Seoul's.
        #expect(grid.provinces[Int(grid.provinceOfCell[seoul])] == "서울특별시")
        #expect(grid.provinces[Int(grid.provinceOfCell[jeju])] == "제주특별자치도")
    }

    @Test func theCellsAreEncodedWithTheirRunsOfEmptyCells() throws {
        let grid = MapGrid(map: SchoolMap(catalog: try Self.catalog()))
        // Decoded as the page decodes it (Web/map.js): every cell back, empty or not.
        let alphabet = MapCellCode.alphabet
        var schools: [Int] = [], provinces: [Int] = []
        var bytes = Array(grid.encodedCells.utf8)[...]
        while let first = bytes.popFirst() {
            let next = bytes.popFirst()
            let second = try #require(next)
            let value = try #require(alphabet.firstIndex(of: second))
            if first == UInt8(ascii: ".") {
                schools += Array(repeating: 0, count: value + 1)
                provinces += Array(repeating: 0, count: value + 1)
            } else {
                schools.append(try #require(alphabet.firstIndex(of: first)))
                provinces.append(value)
            }
        }
        #expect(schools == grid.schools.map(Int.init))
        #expect(provinces == grid.provinceOfCell.map(Int.init))
        // Runs of up to 64: about two characters for 64 cells of sea.
        #expect(grid.encodedCells.utf8.count < 2 * 4 + 2 * (grid.columns * grid.rows / 64 + 4))
    }

    @Test func aCellAndItsGlowTakeThreeCharacters() throws {
        var text: [UInt8] = []
        for (cell, glow) in [(0, 0), (1, 3), (16_383, 2), (65_535, 1)] { MapCellCode.append(cell: cell, glow: glow, to: &text) }
        let string = String(decoding: text, as: UTF8.self)
        #expect(string.utf8.count == 12)
        #expect(string.hasPrefix("AAAAAH"), "cell 0 glow 0 is AAA; cell 1 glow 3 is 7 = AAH")
        let decoded = try #require(MapCellCode.decode(string))
        #expect(decoded.map(\.cell) == [0, 1, 16_383, 65_535] && decoded.map(\.glow) == [0, 3, 2, 1])
        #expect(MapCellCode.decode("AA") == nil && MapCellCode.decode("A.A") == nil)
        // The largest grid's last cell fits.
        #expect(MapGrid.longestSide * MapGrid.longestSide <= 1 << 16)
    }
}
