import TouchSchoolCore

/// The whole screen for `state` at `now`: a pure function, drawn fresh every frame.
public func view(_ state: GameState, now: Instant) -> CellGrid {
    var frame = Frame(state: state, now: now)
    frame.draw()
    return frame.grid
}

/// Text for the prose screens (help, about, confirmations, hints).
enum TextBlock {
    case paragraph(String, CellStyle)
    case blank
    /// Keys and what they do, as a two-column table.
    case keys([(key: String, description: String)])
}

/// One frame being drawn. Each screen's drawing lives in its own file as an extension.
struct Frame {
    let state: GameState
    let now: Instant
    let strings: Strings
    let layout: GameLayout
    var grid: CellGrid

    init(state: GameState, now: Instant) {
        self.state = state
        self.now = now
        strings = Strings(state.language)
        layout = state.layout
        grid = CellGrid(width: state.layout.columns, height: state.layout.rows)
    }

    mutating func draw() {
        if layout.isTooSmall {
            drawTooSmall()
            return
        }
        switch state.screen {
        case .picker:
            drawPicker()
            drawStatusLine(keys: strings.pickerKeys(canGoBack: !state.history.isEmpty))
        case let .confirmSwitch(position):
            drawConfirmSwitch(to: position)
            drawStatusLine(keys: strings.confirmKeys)
        case .game:
            drawGame()
            drawStatusLine(keys: strings.gameKeys)
        case .ranking:
            drawRanking()
            drawStatusLine(keys: state.ranking.tab == .map ? strings.rankingMapKeys : strings.rankingKeys)
        case .help:
            drawHelp()
            drawStatusLine(keys: strings.helpKeys)
        case .about:
            drawAbout()
            drawStatusLine(keys: strings.aboutKeys)
        }
        if !state.notices.isEmpty { drawNotices() }
    }

    // MARK: Shared parts

    /// "Make the terminal bigger" with the sizes, shortened and clipped to whatever is there.
    private mutating func drawTooSmall() {
        let columns = layout.columns
        func fitting(_ long: String, _ short: String) -> String {
            DisplayWidth.truncate(DisplayWidth.of(long) <= columns ? long : short, toWidth: columns)
        }
        let message = fitting(strings.tooSmall, strings.tooSmallShort)
        let size = fitting(
            strings.terminalSize(columns: layout.columns, rows: layout.rows),
            strings.terminalSizeShort(columns: layout.columns, rows: layout.rows)
        )
        let lines = layout.rows >= 2 ? [message, size] : [message]
        let top = max(0, (layout.rows - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            grid.putCentered(line, row: top + offset, style: offset == 0 ? .warning : .normal)
        }
    }

    /// The top line: a title on the left, something small on the right (which yields to the title
    /// down to a third of the width).
    mutating func drawTitleBar(_ title: String, right: String = "") {
        let columns = layout.columns
        grid.fill(column: 0, row: 0, width: columns, height: 1, style: .title)
        let rightRoom = max(columns / 3, columns - 3 - DisplayWidth.of(title))
        let shownRight = DisplayWidth.truncate(right, toWidth: rightRoom)
        let rightWidth = DisplayWidth.of(shownRight)
        grid.put(DisplayWidth.truncate(title, toWidth: columns - 2 - (rightWidth > 0 ? rightWidth + 1 : 0)), column: 1, row: 0, style: .title)
        if rightWidth > 0 { grid.putRight(shownRight, endColumn: columns - 1, row: 0, style: .title) }
    }

    /// The bottom line: the question whether to quit, else a refused burst, else a failing or
    /// slow save, else a server out of reach, else the screen's keys; the last two with where the
    /// game plays at the right (the server, or this computer only), when there is room for it.
    private mutating func drawStatusLine(keys: String) {
        let line = layout.statusLine
        let width = line.width - 2
        func warn(_ text: String) {
            grid.fill(column: 0, row: line.y, width: line.width, height: 1, style: .warning)
            grid.put(DisplayWidth.truncate(text, toWidth: width), column: 1, row: line.y, style: .warning)
        }
        if state.isAskingToQuit {
            warn(strings.quitQuestion)
        } else if let warning = state.warning {
            warn(strings.warning(warning.reason, refused: warning.refusedTaps))
        } else if let failure = state.saveFailure {
            warn(strings.saveFailure(failure))
        } else if state.isSaveDelayed(at: now) {
            grid.put(DisplayWidth.truncate(strings.saveDelayed(waitingTaps: state.unsavedChanges.playerTaps), toWidth: width), column: 1, row: line.y, style: .warning)
        } else {
            let connection = state.connection.flatMap { strings.connection($0) }
            let text = connection ?? keys
            var room = width
            // The keys keep all they need first (cut, they hid how to quit), the connection's
            // trouble at least half the line; then the label, shorter if need be (the server
            // without the word), or none.
            let labels = state.server.map { [strings.playingOn($0), $0] } ?? (state.connection == nil ? [strings.playingLocally] : [])
            let needed = connection == nil ? DisplayWidth.of(text) : min(DisplayWidth.of(text), width / 2)
            if let label = labels.first(where: { width - DisplayWidth.of($0) - 2 >= needed }) {
                grid.putRight(label, endColumn: line.width - 1, row: line.y, style: .dim)
                room -= DisplayWidth.of(label) + 2
            }
            grid.put(DisplayWidth.truncate(text, toWidth: room), column: 1, row: line.y, style: connection == nil ? .dim : .warning)
        }
    }

    /// Text blocks wrapped into the screen from `row` down to the status line. When they do not all
    /// fit, blank lines go first; what still does not fit is cut off at the bottom.
    mutating func drawText(_ blocks: [TextBlock], fromRow row: Int, margin: Int = 2) {
        let width = layout.columns - 2 * margin
        var lines: [(column: Int, text: String, style: CellStyle)] = []
        for block in blocks {
            switch block {
            case .blank:
                lines.append((margin, "", .normal))
            case let .paragraph(text, style):
                for line in DisplayWidth.wrap(text, toWidth: width) { lines.append((margin, line, style)) }
            case let .keys(keys):
                // Keys in a column, descriptions beside them, wrapped under themselves.
                let keyWidth = min(width / 3, keys.reduce(0) { max($0, DisplayWidth.of($1.key)) })
                let descriptionColumn = margin + keyWidth + 2
                for (key, description) in keys {
                    lines.append((margin, DisplayWidth.truncate(key, toWidth: keyWidth), .accent))
                    for (index, line) in DisplayWidth.wrap(description, toWidth: width - keyWidth - 2).enumerated() {
                        if index == 0 {
                            lines[lines.count - 1].text = DisplayWidth.pad(lines[lines.count - 1].text, toWidth: keyWidth + 2) + line
                        } else {
                            lines.append((descriptionColumn, line, .normal))
                        }
                    }
                }
            }
        }
        let room = max(0, layout.statusLine.y - row)
        if lines.count > room { lines.removeAll { $0.text.isEmpty } }
        for (offset, line) in lines.prefix(room).enumerated() {
            grid.put(line.text, column: line.column, row: row + offset, style: line.style)
        }
    }

    /// Messages from loading, boxed in the middle of the screen until a key is pressed.
    private mutating func drawNotices() {
        let maxInner = max(1, min(layout.columns - 6, 72))
        var lines: [String] = []
        for notice in state.notices { lines += DisplayWidth.wrap(strings.notice(notice), toWidth: maxInner) }
        let footer = DisplayWidth.truncate(strings.pressAnyKey, toWidth: maxInner)
        let room = max(0, layout.rows - 4 - 2)
        if lines.count > room { lines = Array(lines.prefix(room)) }
        let inner = max(DisplayWidth.of(footer), lines.reduce(0) { max($0, DisplayWidth.of($1)) })
        let boxWidth = inner + 4
        let boxHeight = lines.count + 4
        let left = max(0, (layout.columns - boxWidth) / 2)
        let top = max(0, (layout.rows - boxHeight) / 2)
        grid.fill(column: left, row: top, width: boxWidth, height: boxHeight, style: .normal)
        let edge = "+" + String(repeating: "-", count: boxWidth - 2) + "+"
        grid.put(edge, column: left, row: top, style: .accent)
        grid.put(edge, column: left, row: top + boxHeight - 1, style: .accent)
        for y in (top + 1)..<(top + boxHeight - 1) {
            grid.put("|", column: left, row: y, style: .accent)
            grid.put("|", column: left + boxWidth - 1, row: y, style: .accent)
        }
        for (offset, line) in lines.enumerated() {
            grid.put(line, column: left + 2, row: top + 1 + offset, style: .normal)
        }
        grid.put(footer, column: left + 2, row: top + boxHeight - 2, style: .dim)
    }
}

extension CellGrid {
    /// `text` ending just before `endColumn`; returns where it starts.
    @discardableResult
    mutating func putRight(_ text: String, endColumn: Int, row: Int, style: CellStyle = .normal) -> Int {
        let start = endColumn - DisplayWidth.of(text)
        put(text, column: start, row: row, style: style, maxColumn: endColumn)
        return start
    }

    /// `text` centered on the row (clipped, never wrapped).
    mutating func putCentered(_ text: String, row: Int, style: CellStyle = .normal) {
        put(text, column: max(0, (width - DisplayWidth.of(text)) / 2), row: row, style: style)
    }

    /// Pieces left to right with `gap` cells between, as many as fit whole; the first is cut to fit
    /// when even it does not. Returns the column after the last piece.
    @discardableResult
    mutating func putPieces(_ pieces: [(String, CellStyle)], column: Int, row: Int, endColumn: Int, gap: Int = 3) -> Int {
        var x = column
        for (index, (text, style)) in pieces.enumerated() {
            let start = index == 0 ? x : x + gap
            let textWidth = DisplayWidth.of(text)
            if start + textWidth > endColumn {
                if index == 0 { x = put(DisplayWidth.truncate(text, toWidth: endColumn - start), column: start, row: row, style: style) }
                break
            }
            x = put(text, column: start, row: row, style: style)
        }
        return x
    }
}
