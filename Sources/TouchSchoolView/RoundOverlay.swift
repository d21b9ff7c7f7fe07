import TouchSchoolCore

/// The operator's round over the play area: the countdown in large digits, then a line with the
/// seconds left and my place, then my result in a box; nothing once it is over.
extension Frame {
    mutating func drawRound() {
        guard let round = state.round else { return }
        let area = layout.playArea
        guard area.width > 0, area.height > 0 else { return }
        let title = round.title.map { DisplayWidth.truncate($0, toWidth: area.width) }
        switch round.phase(at: now) {
        case let .countdown(seconds):
            let digit = BigDigits.rows(of: seconds)
            let top = area.y + max(0, (area.height - digit.count) / 2)
            clearRows(from: top - (title == nil ? 1 : 2), to: top + digit.count, in: area)
            if let title, top > area.y { putCentered(title, row: top - 1, in: area, style: .title) }
            for (offset, line) in digit.enumerated() where top + offset < area.y + area.height {
                putCentered(line, row: top + offset, in: area, style: .accent)
            }
        case let .race(secondsLeft):
            drawRoundLine(strings.roundRace(title: round.title, secondsLeft: secondsLeft, standing: round.standing), in: area)
        case .counting:
            drawRoundLine(strings.roundCounting(title: round.title), in: area)
        case .result:
            let lines = strings.roundResult(title: round.title, standing: round.standing)
            let width = min(area.width, lines.map(DisplayWidth.of).max().map { $0 + 4 } ?? 0)
            let top = area.y + max(0, (area.height - lines.count - 2) / 2)
            let left = area.x + (area.width - width) / 2
            guard width >= 4 else { return }
            clearRows(from: top - 1, to: top + lines.count + 2, in: area)
            let border = "+" + String(repeating: "-", count: width - 2) + "+"
            grid.put(border, column: left, row: top, style: .accent)
            for (offset, line) in lines.enumerated() where top + 1 + offset < area.y + area.height {
                grid.put("|" + String(repeating: " ", count: width - 2) + "|", column: left, row: top + 1 + offset, style: .accent)
                putCentered(DisplayWidth.truncate(line, toWidth: width - 4), row: top + 1 + offset, in: area,
                            style: offset == 1 ? .mine : .normal)
            }
            if top + 1 + lines.count < area.y + area.height { grid.put(border, column: left, row: top + 1 + lines.count, style: .accent) }
        case .over:
            break
        }
    }

    /// Blanks the play area's rows `first...last` (those of them it has), across its whole width:
    /// an overlay stands on rows of its own with a blank row above and below, so the prompt or
    /// smoke beneath is hidden whole, never cut into pieces around it ("아무 키나█████ 누르세요!").
    private mutating func clearRows(from first: Int, to last: Int, in area: Rect) {
        let top = max(area.y, first), bottom = min(area.y + area.height - 1, last)
        guard top <= bottom else { return }
        grid.fill(column: area.x, row: top, width: area.width, height: bottom - top + 1, style: .normal)
    }

    private mutating func drawRoundLine(_ text: String, in area: Rect) {
        let line = DisplayWidth.truncate(text, toWidth: area.width)
        grid.put(String(repeating: " ", count: area.width), column: area.x, row: area.y, style: .normal)
        putCentered(line, row: area.y, in: area, style: .accent)
    }

    private mutating func putCentered(_ text: String, row: Int, in area: Rect, style: CellStyle) {
        grid.put(text, column: area.x + max(0, (area.width - DisplayWidth.of(text)) / 2), row: row, style: style)
    }
}

/// The countdown's digits, five rows tall: seen from the back of a classroom.
enum BigDigits {
    static func rows(of digit: Int) -> [String] { table[min(max(digit, 0), table.count - 1)] }

    private static let table: [[String]] = [
        ["█████", "█   █", "█   █", "█   █", "█████"],
        ["  █  ", " ██  ", "  █  ", "  █  ", " ███ "],
        ["█████", "    █", "█████", "█    ", "█████"],
        ["█████", "    █", " ████", "    █", "█████"],
    ]
}
