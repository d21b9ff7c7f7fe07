/// A catalog's schools on a fixed grid of cells, the same for every screen whatever its size: what
/// the server aggregates the map's glow into and sends, cell by cell (`GET /v1/map`, the `map`
/// message). Placed by `SchoolMap` (one rule for where a school is), the longer side of the
/// country `longestSide` cells (about 5 km a cell), the other by the country's shape.
public struct MapGrid: Sendable {
    /// Cells along the longer side: a cell's number and its glow fit three base64url characters
    /// (`MapCellCode`), and the projector's map, about 900 pixels tall, draws a cell in 7.
    public static let longestSide = 128

    public let columns: Int
    public let rows: Int
    /// Per catalog position: its cell (row × columns + column), -1 for a school placed nowhere.
    public let cellOfSchool: [Int32]
    /// Per cell: how many schools are in it.
    public let schools: [UInt16]
    /// Per cell: the province most of its schools are in (an index into `provinces`; 0 for an
    /// empty cell), so that a province's cells are lit when its league is chosen.
    public let provinceOfCell: [UInt8]
    /// The provinces as the catalog names them.
    public let provinces: [String]

    public init(map: SchoolMap) {
        let longest = max(map.width, map.height)
        let unit = longest > 0 ? Double(Self.longestSide - 1) / longest : 0
        columns = Int((map.width * unit).rounded(.down)) + 1
        rows = Int((map.height * unit).rounded(.down)) + 1
        var cells = [Int32](repeating: -1, count: map.count)
        var schools = [UInt16](repeating: 0, count: columns * rows)
        // Per cell and province, its schools: only the cells with schools are kept.
        var byProvince: [Int: [UInt16: Int]] = [:]
        for position in 0..<map.count where !map.east[position].isNaN {
            let column = min(columns - 1, Int((Double(map.east[position]) * unit).rounded()))
            let row = min(rows - 1, Int((Double(map.south[position]) * unit).rounded()))
            let cell = row * columns + column
            cells[position] = Int32(cell)
            schools[cell] = schools[cell] &+ (schools[cell] == .max ? 0 : 1)
            byProvince[cell, default: [:]][map.provinceOfSchool[position], default: 0] += 1
        }
        var provinceOfCell = [UInt8](repeating: 0, count: columns * rows)
        for (cell, counts) in byProvince {
            // The most schools, then the lowest index: the same cell the same province on every run.
            let most = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }!
            provinceOfCell[cell] = UInt8(truncatingIfNeeded: most.key)
        }
        cellOfSchool = cells
        self.schools = schools
        self.provinceOfCell = provinceOfCell
        provinces = map.provinces
    }

    /// The cell `school` (a catalog position) is in, nil for a school placed nowhere.
    public func cell(of school: Int) -> Int? {
        guard school >= 0, school < cellOfSchool.count, cellOfSchool[school] >= 0 else { return nil }
        return Int(cellOfSchool[school])
    }

    /// The cells with schools, row by row, as `GET /v1/map` sends them: for each cell with
    /// schools two characters of `MapCellCode.alphabet`, its schools (at most 63) and its province;
    /// for a run of empty cells `.` and its length less one (up to 64 a run). The official list's
    /// ~3,000 cells with schools make about 7 KB.
    public var encodedCells: String {
        var text: [UInt8] = []
        text.reserveCapacity(columns * rows / 4)
        var empty = 0
        func flush() {
            while empty > 0 {
                let run = min(empty, 64)
                text.append(UInt8(ascii: "."))
                text.append(MapCellCode.alphabet[run - 1])
                empty -= run
            }
        }
        for cell in 0..<schools.count {
            guard schools[cell] > 0 else { empty += 1; continue }
            flush()
            text.append(MapCellCode.alphabet[Int(min(schools[cell], 63))])
            text.append(MapCellCode.alphabet[Int(provinceOfCell[cell]) % 64])
        }
        flush()
        return String(decoding: text, as: UTF8.self)
    }
}

/// A cell and its glow in three characters of base64url (`alphabet`, 6 bits each): the cell's
/// number times four plus its glow (0 none, then `MapGlow`'s raw values), most significant first.
/// What the `map` message's `cells` is made of.
public enum MapCellCode {
    public static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    public static let length = 3

    /// `cell` (below 2¹⁶) glowing `glow` (0…3).
    public static func append(cell: Int, glow: Int, to text: inout [UInt8]) {
        let value = cell << 2 | glow & 3
        text.append(alphabet[value >> 12 & 63])
        text.append(alphabet[value >> 6 & 63])
        text.append(alphabet[value & 63])
    }

    /// The cells and glows of a `cells` text (nil when it is not one).
    public static func decode(_ text: String) -> [(cell: Int, glow: Int)]? {
        let bytes = Array(text.utf8)
        guard bytes.count % length == 0 else { return nil }
        var result: [(cell: Int, glow: Int)] = []
        var index = 0
        while index < bytes.count {
            var value = 0
            for byte in bytes[index..<index + length] {
                guard let digit = alphabet.firstIndex(of: byte) else { return nil }
                value = value << 6 | digit
            }
            result.append((value >> 2, value & 3))
            index += length
        }
        return result
    }
}
