import TouchSchoolCore
import TouchSchoolView

/// Cell grids as the bytes that show them on an xterm-like terminal (xterm, the terminal
/// emulators of every desktop, tmux, screen, the Linux console, PuTTY, Windows Terminal): the
/// ncurses adapter's drawing without ncurses, for a terminal at the end of an SSH channel. Only
/// the cells that differ from what the terminal shows are written, as ncurses does.
///
/// Only the grid's text reaches the terminal, and never a control character: `CellGrid.put`
/// already shows every control as its escape (school and player names come from data), and a
/// cell that still held one (`VisibleText.isControl`, the same rule) is drawn as a space rather
/// than let a byte of data steer the player's terminal.
public struct EscapeSequenceScreen {
    /// The terminal's size as last told (the pty request, then each window change).
    public private(set) var columns: Int
    public private(set) var rows: Int
    private let colors: Bool
    /// What the terminal shows now; nil when unknown, so that the next frame writes every cell.
    private var shown: CellGrid?
    /// Where the terminal's cursor is (nil: unknown), and the style it writes with.
    private var cursor: (column: Int, row: Int)?
    private var style: CellStyle?
    /// Each style's select-graphic-rendition sequence, by `CellStyle.rawValue`, made once.
    private let renditions: [[UInt8]]

    public init(columns: Int, rows: Int, colors: Bool) {
        self.columns = columns
        self.rows = rows
        self.colors = colors
        var renditions = [[UInt8]](repeating: [], count: CellStyle.allCases.count)
        for style in CellStyle.allCases { renditions[Int(style.rawValue)] = Self.rendition(of: TerminalStyle.look(of: style), colors: colors) }
        self.renditions = renditions
    }

    /// Takes the terminal: the alternate screen (what was there comes back at the end), no
    /// cursor, bracketed paste (pasted text never taps) and clicks reported (a click taps, as in
    /// the local game).
    public static let opening: [UInt8] = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h\u{1B}[?1000h\u{1B}[?1006h".utf8)
    /// Gives it back as it was.
    public static let closing: [UInt8] = Array("\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
    public static let bell: [UInt8] = [0x07]

    /// The terminal has a new size: what it shows is unknown (terminals reflow or clear), so the
    /// next frame is drawn whole.
    public mutating func resize(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        shown = nil
    }

    /// The bytes that turn what the terminal shows into `grid` (empty when nothing changed).
    public mutating func frame(_ grid: CellGrid) -> [UInt8] {
        var out: [UInt8] = []
        let width = min(grid.width, columns), height = min(grid.height, rows)
        let previous = shown.flatMap { $0.width == grid.width && $0.height == grid.height ? $0 : nil }
        if previous == nil {
            out.append(contentsOf: Self.reset)
            out.append(contentsOf: Self.clear)
            style = .normal
            cursor = nil
        }
        grid.changes(over: previous, width: width, height: height) { column, row, cell, cells in
            put(cell, width: cells, column: column, row: row, into: &out)
        }
        shown = grid
        return out
    }

    private mutating func put(_ cell: Cell, width: Int, column: Int, row: Int, into out: inout [UInt8]) {
        if cursor == nil || cursor! != (column, row) {
            out.append(contentsOf: Self.move(column: column, row: row))
        }
        if style != cell.style {
            out.append(contentsOf: renditions[Int(cell.style.rawValue)])
            style = cell.style
        }
        if !cell.character.unicodeScalars.contains(where: VisibleText.isControl) {
            out.append(contentsOf: cell.character.utf8)
            cursor = (column + width, row)
        } else {
            out.append(UInt8(ascii: " "))
            cursor = (column + 1, row)
        }
    }

    private static let reset: [UInt8] = Array("\u{1B}[0m".utf8)
    private static let clear: [UInt8] = Array("\u{1B}[H\u{1B}[2J".utf8)

    /// `Esc [ row ; column H`, 1-based.
    private static func move(column: Int, row: Int) -> [UInt8] {
        Array("\u{1B}[\(row + 1);\(column + 1)H".utf8)
    }

    /// `Esc [ 0 ; attributes ; colors m`: every attribute is reset first, so that a style never
    /// inherits the previous one's.
    private static func rendition(of look: TerminalStyle.Look, colors: Bool) -> [UInt8] {
        var codes = ["0"]
        let attributes = colors ? look.colorAttributes : look.monochromeAttributes
        if attributes.contains(.bold) { codes.append("1") }
        if attributes.contains(.dim) { codes.append("2") }
        if attributes.contains(.reverse) { codes.append("7") }
        if colors {
            if look.foreground != .default { codes.append("\(30 + look.foreground.rawValue)") }
            if look.background != .default { codes.append("\(40 + look.background.rawValue)") }
        }
        return Array("\u{1B}[\(codes.joined(separator: ";"))m".utf8)
    }
}
