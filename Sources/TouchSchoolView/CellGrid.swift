import TouchSchoolCore

/// How a cell looks. The terminal adapter maps each style to colors and attributes (or to
/// attributes alone under `NO_COLOR` and on monochrome terminals).
public enum CellStyle: UInt8, CaseIterable, Sendable {
    case normal
    case dim
    case title
    case accent
    case highlight
    /// My school's row in any list.
    case mine
    case warning
    case rankUp
    case rankDown
    case puffFresh
    case puffFading
    case puffFaint
    case inputLine
    /// The map: the schools of the league shown, when it is not the national one.
    case mapLit
    /// The map: schools tapping in the last seconds, by how fast (`MapGlow`).
    case mapWarm
    case mapHot
    case mapBlazing
    /// The map: the league's leaders, marked by their place.
    case mapLeader
}

/// One terminal cell. A wide character (Hangul) occupies its cell and the next one, which holds
/// `Cell.continuation` so that nothing is ever drawn into the second half.
public struct Cell: Equatable, Sendable {
    public var character: Character
    public var style: CellStyle

    public init(_ character: Character, style: CellStyle = .normal) {
        self.character = character
        self.style = style
    }

    public static let blank = Cell(" ")
    /// The right half of a wide character.
    public static let continuation = Cell("\u{0}")

    public var isContinuation: Bool { character == "\u{0}" }
}

/// A frame: a grid of cells the size of the terminal, written by `view` and blitted by the adapter.
public struct CellGrid: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(column: Int, row: Int) -> Cell {
        get { cells[row * width + column] }
        set { cells[row * width + column] = newValue }
    }

    /// Writes `text` from (column, row), laid out by display width, clipped at `maxColumn`
    /// (exclusive, default the grid's right edge). A wide character that would straddle the
    /// clip edge is not drawn; nor is a control character's escape that would. Returns the column
    /// after the last cell written.
    @discardableResult
    public mutating func put(_ text: String, column: Int, row: Int, style: CellStyle = .normal, maxColumn: Int? = nil) -> Int {
        guard row >= 0, row < height else { return column }
        let limit = min(maxColumn ?? width, width)
        var x = column
        for character in text {
            let cellWidth = DisplayWidth.of(character)
            if cellWidth == 0 { continue }
            if x + cellWidth > limit { break }
            if let first = character.unicodeScalars.first, VisibleText.isControl(first) {
                // Never into a cell raw, where the terminal would act on it: shown as its escape.
                for (offset, shown) in VisibleText.escaping(String(character)).enumerated() where x + offset >= 0 {
                    write(shown, width: 1, column: x + offset, row: row, style: style)
                }
            } else if x >= 0 {
                write(character, width: cellWidth, column: x, row: row, style: style)
            }
            x += cellWidth
        }
        return x
    }

    private mutating func write(_ character: Character, width cellWidth: Int, column: Int, row: Int, style: CellStyle) {
        clearWideCharacter(at: column, row: row)
        cells[row * width + column] = Cell(character, style: style)
        if cellWidth == 2 {
            clearWideCharacter(at: column + 1, row: row)
            cells[row * width + column + 1] = Cell(Cell.continuation.character, style: style)
        }
    }

    /// Fills a rectangle with blanks of one style.
    public mutating func fill(column: Int, row: Int, width fillWidth: Int, height fillHeight: Int, style: CellStyle = .normal) {
        let x0 = max(0, column), y0 = max(0, row)
        let x1 = min(width, column + fillWidth), y1 = min(height, row + fillHeight)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            clearWideCharacter(at: x0, row: y)
            clearWideCharacter(at: x1 - 1, row: y)
            for x in x0..<x1 { cells[y * width + x] = Cell(" ", style: style) }
        }
    }

    /// The grid as plain text, one line per row, continuation cells dropped: what a person sees.
    public var text: String {
        var lines: [String] = []
        lines.reserveCapacity(height)
        for y in 0..<height {
            var line = ""
            for x in 0..<width where !cells[y * width + x].isContinuation {
                line.append(cells[y * width + x].character)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// Overwriting half of a wide character blanks its other half, so no half glyph survives.
    private mutating func clearWideCharacter(at column: Int, row: Int) {
        guard column >= 0, column < width else { return }
        let index = row * width + column
        if cells[index].isContinuation, column > 0 {
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        } else if column + 1 < width, cells[index + 1].isContinuation, DisplayWidth.of(cells[index].character) == 2 {
            cells[index + 1] = Cell(" ", style: cells[index + 1].style)
        }
    }
}

extension CellGrid: CustomStringConvertible {
    /// What a person sees, so that test failures and debug prints show the screen, not the cells.
    public var description: String { text }
}
