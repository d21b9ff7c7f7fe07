#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CNcurses
import TouchSchoolTerminal
import TouchSchoolView

/// The terminal, through ncurses: draws cell grids and reads input. Only this type talks to
/// curses; everything it draws comes from the pure view, everything it reads goes to the decoder.
public final class TerminalScreen: GameTerminal {
    /// Why the terminal cannot be opened; the command says it in its own words.
    public enum OpenFailure: Error, Equatable {
        /// Standard input (`input`) or output is not a terminal.
        case notATerminal(input: Bool)
        /// `TERM` names a terminal that cannot place the cursor.
        case cannotPlaceCursor
        /// curses knows no terminal of `TERM`'s name.
        case unknownTerminal
    }

    /// Both ends must be a terminal: the game reads keys one by one and draws with escape codes.
    public static func checkIsTerminal() throws(OpenFailure) {
        guard isatty(STDIN_FILENO) == 1 else { throw .notATerminal(input: true) }
        guard isatty(STDOUT_FILENO) == 1 else { throw .notATerminal(input: false) }
    }

    /// What the terminal shows now; nil when unknown, so that the next draw writes every cell.
    private var shown: CellGrid?
    private var isOpen = false
    /// Reused for each cell's scalars, so drawing allocates nothing per cell.
    private var scalarBuffer: [UInt32] = []
    private var timeoutMilliseconds = 0
    private let wake = WakePipe()

    /// Opens the terminal. `colors` is false under `NO_COLOR`: styles then use bold, reverse and dim only.
    public init(colors: Bool, mouse: Bool) throws(OpenFailure) {
        try Self.checkIsTerminal()
        _ = cn_setup_locale()
        switch cn_open() {
        case 0: break
        case -2: throw .cannotPlaceCursor
        default: throw .unknownTerminal
        }
        isOpen = true
        let useColor = colors && cn_start_colors() == 1
        for style in CellStyle.allCases {
            let look = TerminalStyle.look(of: style)
            // TerminalColor and TerminalAttributes number as curses does (CN_COLOR_*, CN_ATTR_*).
            cn_define_style(Int32(style.rawValue), useColor ? 1 : 0, look.foreground.rawValue, look.background.rawValue,
                            (useColor ? look.colorAttributes : look.monochromeAttributes).rawValue)
        }
        if mouse { _ = cn_enable_mouse() }
        scalarBuffer.reserveCapacity(8)
    }

    deinit { restore() }

    public var size: (columns: Int, rows: Int) {
        var columns: Int32 = 0, rows: Int32 = 0
        cn_size(&columns, &rows)
        return (Int(columns), Int(rows))
    }

    /// Gives the terminal back as it was: cursor visible, bracketed paste off, modes restored.
    /// Safe to call more than once; called on every way out.
    public func restore() {
        guard isOpen else { return }
        isOpen = false
        cn_close()
    }

    /// How long `read` waits for input: 0 returns at once.
    public func setReadTimeout(milliseconds: Int) {
        timeoutMilliseconds = milliseconds
    }

    public var wakeUp: @Sendable () -> Void { { [wake] in wake.wake() } }

    /// Ctrl-Z, which raw mode delivers as a character instead of a signal.
    static let suspendCharacter: UInt32 = 0x1A

    /// The next input, or nil when none came within the read timeout. Ctrl-Z never comes back
    /// from here: it suspends the game, as in every terminal program, even inside a paste (a lost
    /// paste end must not take it away), and reading goes on once the game is resumed.
    public func read() -> TerminalInput? {
        // What curses holds already (the rest of an escape sequence, a resize), then a wait in
        // poll for a key or a wake; then curses reads what came without waiting. A signal (a
        // resize, Ctrl-C) ends the wait too: curses then says the resize, the loop the end.
        cn_set_read_timeout(0)
        if timeoutMilliseconds > 0, let input = readAvailable() { return input }
        if timeoutMilliseconds > 0, wake.wait(forInput: STDIN_FILENO, milliseconds: timeoutMilliseconds) == .woken { return nil }
        return readAvailable()
    }

    private func readAvailable() -> TerminalInput? {
        while true {
            var value: UInt32 = 0
            switch cn_read(&value) {
            case Int32(CN_READ_CHARACTER):
                if value == Self.suspendCharacter {
                    cn_suspend()
                    continue
                }
                return .character(value)
            case Int32(CN_READ_KEY):
                if let input = keyInput(Int32(value)) { return input }
                // A key the game has no use for: read on, the caller asked for input.
            default:
                return nil
            }
        }
    }

    private func keyInput(_ code: Int32) -> TerminalInput? {
        switch code {
        case Int32(CN_KEY_UP): .key(.up)
        case Int32(CN_KEY_DOWN): .key(.down)
        case Int32(CN_KEY_LEFT): .key(.left)
        case Int32(CN_KEY_RIGHT): .key(.right)
        case Int32(CN_KEY_PAGE_UP): .key(.pageUp)
        case Int32(CN_KEY_PAGE_DOWN): .key(.pageDown)
        case Int32(CN_KEY_HOME): .key(.home)
        case Int32(CN_KEY_END): .key(.end)
        case Int32(CN_KEY_F1): .key(.f1)
        case Int32(CN_KEY_F2): .key(.f2)
        case Int32(CN_KEY_BACKSPACE): .key(.backspace)
        case Int32(CN_KEY_ENTER): .key(.enter)
        case Int32(CN_KEY_PASTE_START): .key(.pasteStart)
        case Int32(CN_KEY_PASTE_END): .key(.pasteEnd)
        case Int32(CN_KEY_RESIZE):
            resized()
        case Int32(CN_KEY_MOUSE):
            click()
        default:
            nil
        }
    }

    private func resized() -> TerminalInput {
        // ncurses resized its own buffers; what the terminal shows is unknown now, so redraw it all.
        shown = nil
        let (columns, rows) = size
        return .resize(columns: columns, rows: rows)
    }

    private func click() -> TerminalInput? {
        var column: Int32 = 0, row: Int32 = 0
        guard cn_take_click(&column, &row) == 1 else { return nil }
        return .click(column: Int(column), row: Int(row))
    }

    public func beep() { cn_beep() }

    /// SIGINT, SIGTERM, SIGHUP or SIGPIPE arrived (`ExitSignals`).
    public func takeEndRequest() -> Bool { ExitSignals.takeArrived() }

    /// Shows `grid`, writing only the cells that differ from what the terminal shows, then sends
    /// the frame in one update. A wide character is one write covering its two cells.
    public func draw(_ grid: CellGrid) {
        let (columns, rows) = size
        let width = min(grid.width, columns), height = min(grid.height, rows)
        let previous = shown.flatMap { $0.width == grid.width && $0.height == grid.height ? $0 : nil }
        if previous == nil { cn_clear() }
        var wroteAny = previous == nil
        grid.changes(over: previous, width: width, height: height) { column, row, cell, _ in
            put(cell, column: column, row: row)
            wroteAny = true
        }
        shown = grid
        if wroteAny { cn_refresh() }
    }

    private func put(_ cell: Cell, column: Int, row: Int) {
        scalarBuffer.removeAll(keepingCapacity: true)
        for scalar in cell.character.unicodeScalars { scalarBuffer.append(scalar.value) }
        scalarBuffer.withUnsafeBufferPointer { scalars in
            cn_put_cell(Int32(column), Int32(row), scalars.baseAddress, Int32(scalars.count), Int32(cell.style.rawValue))
        }
    }
}
