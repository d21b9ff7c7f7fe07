/// One `map` message of a server (docs/protocol.md, "The map"), as the game takes it: the glow of
/// cells of the catalog's grid (`MapGrid`) that changed, the national leaders' cells and mine.
public struct MapReport: Equatable, Sendable {
    /// The grid's catalog (its entity tag): in the first message of a sweep only, which starts the
    /// map again from nothing.
    public var catalog: String?
    /// The cells of the national first three, first place first.
    public var marks: [Int]
    /// My school's cell, once the server knows my school.
    public var mine: Int?
    /// Cells and their glow now (0 out, else `MapGlow`'s raw value), to apply in order.
    public var cells: [MapCellGlow]
    /// The message ends a sweep: what the sweep brought is the whole map.
    public var whole: Bool

    public init(catalog: String? = nil, marks: [Int], mine: Int? = nil, cells: [MapCellGlow], whole: Bool = false) {
        self.catalog = catalog
        self.marks = marks
        self.mine = mine
        self.cells = cells
        self.whole = whole
    }
}

/// A cell of the grid and its glow (0 none, else `MapGlow`'s raw value).
public struct MapCellGlow: Equatable, Sendable {
    public var cell: Int
    public var glow: Int

    public init(cell: Int, glow: Int) {
        self.cell = cell
        self.glow = glow
    }
}

/// The map as a server tells it to a game showing it: the catalog's grid made here by the server's
/// rule (`MapGrid(map:)`, the same cells), and what the `map` messages said of it. A sweep (a
/// message naming the catalog, at every showing and connection) is gathered apart and replaces
/// the glow once whole, so that cells gone out while the game was not told are not left lit.
public struct ServedMap: Sendable {
    public let grid: MapGrid
    /// The glowing cells and their glow, as far as the last whole map and the changes since say.
    public private(set) var glowing: [Int: MapGlow] = [:]
    /// The national leaders' cells, first place first.
    public private(set) var marks: [Int] = []
    /// The sweep under way, nil when none.
    private var sweep: [Int: MapGlow]?

    public init(grid: MapGrid) { self.grid = grid }

    mutating func apply(_ report: MapReport) {
        if report.catalog != nil { sweep = [:] }
        marks = report.marks.filter { (0..<grid.schools.count).contains($0) }
        for change in report.cells where (0..<grid.schools.count).contains(change.cell) {
            let glow = MapGlow(rawValue: change.glow)
            glowing[change.cell] = glow
            sweep?[change.cell] = glow
        }
        if report.whole, let whole = sweep {
            glowing = whole
            sweep = nil
        }
    }

    /// The map is hidden: the server tells it all again when it shows.
    mutating func forgetGlow() {
        glowing = [:]
        marks = []
        sweep = nil
    }
}

/// Per cell of a grid, the canvas cells its schools are drawn in: made once per canvas (and grid),
/// so that a frame costs the cells glowing, not the catalog.
public struct GridOnCanvas: Sendable {
    /// Per grid cell, where its canvas cells start in `canvasCells` (one more for the end).
    private let starts: [Int32]
    /// The canvas cells (row × columns + column), grid cell by grid cell, each once.
    private let canvasCells: [Int32]
    public let canvasColumns: Int

    init(grid: MapGrid, canvas: MapCanvas) {
        var pairs: [(grid: Int32, canvas: Int32)] = []
        pairs.reserveCapacity(min(grid.cellOfSchool.count, canvas.cellOfSchool.count))
        for (position, cell) in grid.cellOfSchool.enumerated() where cell >= 0 && position < canvas.cellOfSchool.count {
            let drawn = canvas.cellOfSchool[position]
            if drawn >= 0 { pairs.append((cell, drawn)) }
        }
        pairs.sort { ($0.grid, $0.canvas) < ($1.grid, $1.canvas) }
        var starts = [Int32](repeating: 0, count: grid.schools.count + 1)
        var cells: [Int32] = []
        var previous: (grid: Int32, canvas: Int32)?
        for pair in pairs where previous.map({ $0 != pair }) ?? true {
            starts[Int(pair.grid) + 1] += 1
            cells.append(pair.canvas)
            previous = pair
        }
        for cell in 0..<grid.schools.count { starts[cell + 1] += starts[cell] }
        self.starts = starts
        canvasCells = cells
        canvasColumns = canvas.columns
    }

    /// The canvas cells (column, row) the schools of grid cell `cell` are drawn in.
    public func canvasCells(of cell: Int) -> [(column: Int, row: Int)] {
        guard cell >= 0, cell + 1 < starts.count else { return [] }
        return canvasCells[Int(starts[cell])..<Int(starts[cell + 1])].map { (Int($0) % canvasColumns, Int($0) / canvasColumns) }
    }
}
