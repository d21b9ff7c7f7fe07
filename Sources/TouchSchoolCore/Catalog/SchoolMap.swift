/// Where each school of a catalog sits on a map of Korea, drawn from the catalog alone (no map
/// tiles, nothing from the internet): its own coordinates, or without them (the starter list has
/// none) its province's seat (`Province.centre`). Made once per catalog, when the map is first
/// shown (`GameState.schoolMap`), so that no frame and no start-up pays for it.
public struct SchoolMap: Sendable {
    /// Per catalog position: how far east of the westmost school and south of the northmost it
    /// sits, in degrees of latitude (a degree of longitude is shortened by the cosine of the middle
    /// latitude, so that the shape is kept). NaN for a school placed nowhere (no coordinates, no
    /// province known).
    let east: [Float]
    let south: [Float]
    /// The box every placed school fits in, in the same units.
    public let width: Double
    public let height: Double
    /// Per catalog position: its level and its province (an index into `provinces`), so that a
    /// league's schools are found without making each `School` again.
    let levels: [SchoolLevel]
    let provinceOfSchool: [UInt16]
    let provinces: [String]

    /// Coordinates outside this box are a typo in the list, not a school of Korea's (the list's
    /// own extremes are Marado, Baengnyeongdo and Dokdo, all well inside): one would shrink the
    /// whole map into a corner, so such a school goes to its province's seat as if it had none.
    static let latitudes = 32.0...39.5
    static let longitudes = 123.5...132.5

    public init(catalog: Catalog) {
        var places: [(latitude: Double, longitude: Double)?] = []
        places.reserveCapacity(catalog.count)
        var centres: [String: (latitude: Double, longitude: Double)?] = [:]
        var levels: [SchoolLevel] = [], provinceOfSchool: [UInt16] = [], provinces: [String] = []
        var provinceIndex: [String: UInt16] = [:]
        levels.reserveCapacity(catalog.count)
        provinceOfSchool.reserveCapacity(catalog.count)
        for position in 0..<catalog.count {
            let school = catalog[position]
            levels.append(school.level)
            provinceOfSchool.append(provinceIndex[school.province] ?? {
                let index = UInt16(provinces.count)
                provinces.append(school.province)
                provinceIndex[school.province] = index
                return index
            }())
            if let latitude = school.latitude, let longitude = school.longitude,
               Self.latitudes.contains(latitude), Self.longitudes.contains(longitude) {
                places.append((latitude, longitude))
                continue
            }
            // Looked up once per province, not once per school.
            let centre = centres[school.province] ?? {
                let found = Province.centre(of: school.province)
                centres[school.province] = found
                return found
            }()
            places.append(centre)
        }
        self.levels = levels
        self.provinceOfSchool = provinceOfSchool
        self.provinces = provinces
        var north = -Double.infinity, southmost = Double.infinity, west = Double.infinity, eastmost = -Double.infinity
        for case let place? in places {
            north = max(north, place.latitude)
            southmost = min(southmost, place.latitude)
            west = min(west, place.longitude)
            eastmost = max(eastmost, place.longitude)
        }
        guard north >= southmost else {
            east = Array(repeating: .nan, count: places.count)
            south = east
            width = 0
            height = 0
            return
        }
        let shrink = Self.cosine(ofDegrees: (north + southmost) / 2)
        east = places.map { $0.map { Float(($0.longitude - west) * shrink) } ?? .nan }
        south = places.map { $0.map { Float(north - $0.latitude) } ?? .nan }
        width = (eastmost - west) * shrink
        height = north - southmost
    }

    public var count: Int { east.count }

    /// Whether the school at `position` is in `league` (`League.contains`, by the kept level and province).
    func isIn(_ league: League, _ position: Int) -> Bool {
        switch league {
        case .national: true
        case let .level(level): levels[position] == level
        case let .province(province): provinces[Int(provinceOfSchool[position])] == province
        case let .levelInProvince(level, province):
            levels[position] == level && provinces[Int(provinceOfSchool[position])] == province
        }
    }

    /// The cosine of a latitude, by its series: the core links no maths library, and Korea's
    /// latitudes (under 0.7 radians) need five terms for six decimals.
    static func cosine(ofDegrees degrees: Double) -> Double {
        let x = degrees * .pi / 180, x2 = x * x
        return 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56)))
    }
}

/// The dots of a braille cell, as Unicode numbers them: dots 1, 2, 3 down the left column and 4,
/// 5, 6 down the right are bits 0–5; dots 7 and 8, under them, bits 6 and 7. The character is
/// U+2800 plus the bits.
public enum BrailleDots {
    /// The bit of the dot at `x` (0 left, 1 right) and `y` (0 top … 3 bottom) of a cell.
    public static func bit(x: Int, y: Int) -> UInt8 {
        y == 3 ? (x == 0 ? 0x40 : 0x80) : UInt8(1) << UInt8(x * 3 + y)
    }

    public static let dotsAcross = 2
    public static let dotsDown = 4
}

/// A school map drawn at one size: every school's dot on a canvas of braille cells (2 dots wide,
/// 4 tall: on a terminal's cells, about twice as tall as wide, the dots are square and the map
/// keeps its shape), with the chosen league's schools apart so that they can be lit. Made when
/// the size or the league changes (`GameState.mapCanvas`), so that a frame costs its cells and
/// the schools that tapped, not the catalog.
public struct MapCanvas: Sendable {
    /// Room kept for the legend beside the map, or else under it.
    public static let legendColumns = 30
    public static let legendRows = 7

    public let pane: Rect
    public let league: League
    public let columns: Int
    public let rows: Int
    /// True when the legend goes beside the map, false when under it.
    public let legendBeside: Bool
    /// Per cell, row by row: the dots of every school in it (`BrailleDots`).
    public let dots: [UInt8]
    /// Per cell: whether a school of the league is in it (none for the national league, where
    /// no school stands apart).
    public let lit: [Bool]
    /// Per catalog position: its cell (row × columns + column), -1 for a school placed nowhere.
    let cellOfSchool: [Int32]

    /// The map's schools in the largest canvas that fits `pane` with the legend.
    public init(map: SchoolMap, league: League, pane: Rect) {
        self.pane = pane
        self.league = league
        func scale(columns: Int, rows: Int) -> Double {
            guard columns > 0, rows > 0 else { return -1 }
            let across = Double(columns * BrailleDots.dotsAcross - 1), down = Double(rows * BrailleDots.dotsDown - 1)
            if map.width == 0 && map.height == 0 { return 0 }
            return min(map.width > 0 ? across / map.width : .infinity, map.height > 0 ? down / map.height : .infinity)
        }
        let beside = scale(columns: pane.width - Self.legendColumns, rows: pane.height)
        let under = scale(columns: pane.width, rows: pane.height - Self.legendRows)
        legendBeside = beside >= under
        let dotsPerUnit = max(0, max(beside, under))
        let across = Int((map.width * dotsPerUnit).rounded(.down)) + 1, down = Int((map.height * dotsPerUnit).rounded(.down)) + 1
        columns = max(1, (across + BrailleDots.dotsAcross - 1) / BrailleDots.dotsAcross)
        rows = max(1, (down + BrailleDots.dotsDown - 1) / BrailleDots.dotsDown)

        var dots = [UInt8](repeating: 0, count: columns * rows)
        var lit = [Bool](repeating: false, count: columns * rows)
        var cells = [Int32](repeating: -1, count: map.count)
        let litAny = league != .national
        for position in 0..<map.count where !map.east[position].isNaN {
            let x = min(columns * BrailleDots.dotsAcross - 1, Int((Double(map.east[position]) * dotsPerUnit).rounded()))
            let y = min(rows * BrailleDots.dotsDown - 1, Int((Double(map.south[position]) * dotsPerUnit).rounded()))
            let cell = (y / BrailleDots.dotsDown) * columns + x / BrailleDots.dotsAcross
            dots[cell] |= BrailleDots.bit(x: x % BrailleDots.dotsAcross, y: y % BrailleDots.dotsDown)
            cells[position] = Int32(cell)
            if litAny, !lit[cell], map.isIn(league, position) { lit[cell] = true }
        }
        self.dots = dots
        self.lit = lit
        cellOfSchool = cells
    }

    /// The cell `school` is drawn in, nil for a school placed nowhere.
    public func cell(of school: Int) -> (column: Int, row: Int)? {
        guard school >= 0, school < cellOfSchool.count, cellOfSchool[school] >= 0 else { return nil }
        let cell = Int(cellOfSchool[school])
        return (cell % columns, cell / columns)
    }

    /// Whether this canvas is the one for `league` in `pane`.
    public func isDrawn(for league: League, in pane: Rect) -> Bool { self.league == league && self.pane == pane }
}
