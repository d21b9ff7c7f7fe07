import TouchSchoolCore

/// Choosing a school, and confirming a switch.
extension Frame {
    mutating func drawPicker() {
        let columns = layout.columns
        drawTitleBar(strings.title, right: strings.player(state.player))
        grid.put(DisplayWidth.truncate(strings.searchPrompt, toWidth: columns - 2), column: 1, row: 1, style: .accent)

        // The search line keeps its end, where the cursor is, in view.
        grid.fill(column: 0, row: 2, width: columns, height: 1, style: .inputLine)
        let shown = DisplayWidth.truncateLeading(state.picker.query, toWidth: columns - 5)
        let cursor = grid.put("> " + shown, column: 1, row: 2, style: .inputLine)
        grid.put("_", column: cursor, row: 2, style: .inputLine)

        // What the list holds on the left, my current school on the right.
        var rightStart = columns - 1
        if let mySchool = state.mySchool {
            let mine = DisplayWidth.truncate(strings.myCurrentSchool(state.catalog[mySchool].name), toWidth: columns / 2)
            rightStart = grid.putRight(mine, endColumn: columns - 1, row: 3, style: .mine)
        }
        let info = if state.picker.query.isEmpty {
            strings.searchExample
        } else if state.picker.resultsAreGuesses, let closest = state.picker.results.first {
            strings.didYouMean(state.catalog[closest.position].name)
        } else {
            strings.resultCount(state.picker.results.count, more: state.picker.moreResults)
        }
        grid.put(DisplayWidth.truncate(info, toWidth: rightStart - 3), column: 1, row: 3, style: .dim)

        let area = layout.pickerResults
        if state.picker.results.isEmpty {
            drawPickerHints(in: area)
            return
        }
        for line in 0..<area.height {
            let index = state.picker.scroll + line
            guard index < state.picker.results.count else { break }
            drawResult(state.picker.results[index].position, row: area.y + line, width: area.width,
                       isSelected: index == state.picker.selection)
        }
    }

    private mutating func drawPickerHints(in area: Rect) {
        var blocks: [TextBlock]
        if state.picker.query.isEmpty {
            blocks = strings.searchHints.map { .paragraph($0, .dim) }
        } else {
            blocks = [.paragraph(strings.noResults, .warning)]
            if state.catalog.source == .starter {
                blocks.append(.blank)
                blocks += strings.starterCatalogHint.map { .paragraph($0, .dim) }
            }
        }
        drawText(blocks, fromRow: area.y + 1)
    }

    /// One result: name, then region (where same-name schools differ) and level, and the count.
    private mutating func drawResult(_ position: Int, row: Int, width: Int, isSelected: Bool) {
        let school = state.catalog[position]
        let isMine = position == state.mySchool
        let style: CellStyle = isSelected ? .highlight : isMine ? .mine : .normal
        if style != .normal { grid.fill(column: 0, row: row, width: width, height: 1, style: style) }
        if isSelected { grid.put(">", column: 0, row: row, style: style) }
        if isMine { grid.put("*", column: 1, row: row, style: style) }

        let count = NumberText.grouped(state.leaderboard.count(of: position))
        let countStart = grid.putRight(count, endColumn: width - 1, row: row, style: style)
        var detail = school.region + " · " + strings.levelName(school.level)
        if !school.isListed { detail += " " + strings.unlisted }
        putNameAndDetail(school.name, detail, column: 3, row: row, endColumn: countStart - 2,
                         nameStyle: style, detailStyle: style == .normal ? .dim : style)
    }

    /// A name and a dimmer detail after it, both cut with "…" so the name keeps most of the room.
    mutating func putNameAndDetail(_ name: String, _ detail: String, column: Int, row: Int, endColumn: Int,
                                   nameStyle: CellStyle, detailStyle: CellStyle) {
        let available = endColumn - column
        guard available > 0 else { return }
        let nameWidth = DisplayWidth.of(name), detailWidth = DisplayWidth.of(detail)
        let nameRoom = min(nameWidth, max(available * 3 / 5, available - 2 - detailWidth))
        let afterName = grid.put(DisplayWidth.truncate(name, toWidth: nameRoom), column: column, row: row, style: nameStyle)
        let detailRoom = endColumn - afterName - 2
        if detailRoom >= 3 {
            grid.put(DisplayWidth.truncate(detail, toWidth: detailRoom), column: afterName + 2, row: row, style: detailStyle)
        }
    }

    mutating func drawConfirmSwitch(to position: Int) {
        drawTitleBar(strings.title + " · " + strings.confirmTitle, right: strings.player(state.player))
        func described(_ position: Int) -> String {
            let school = state.catalog[position]
            return "\(school.name) (\(school.region))"
        }
        var blocks: [TextBlock] = [.paragraph(strings.confirmQuestion, .warning), .blank]
        if let mySchool = state.mySchool { blocks.append(.paragraph(strings.confirmFrom(described(mySchool)), .mine)) }
        blocks.append(.paragraph(strings.confirmTo(described(position)), .highlight))
        blocks.append(.blank)
        blocks.append(.paragraph(strings.confirmKeepsScore(state.counter.myTaps), .dim))
        drawText(blocks, fromRow: 2)
    }
}
