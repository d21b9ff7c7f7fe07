import TouchSchoolCore

/// The ranking screen's map (`v`): every school a braille dot at its place, the schools tapping in
/// the last seconds glowing by how fast (on a server the whole nation's, as its map tells them:
/// `GameState.servedMap`), the leaders marked by their place and my school by a star, the
/// league's own schools lit; a legend beside or under it. The dots come drawn
/// (`GameState.mapCanvas`): a frame costs the canvas's cells and the cells that glow.
extension Frame {
    /// My school's mark on the map.
    static let myMapMark: Character = "*"

    /// The character of a braille cell with these dots (`BrailleDots`).
    static func braille(_ dots: UInt8) -> Character {
        Character(Unicode.Scalar(0x2800 + UInt32(dots))!)
    }

    mutating func drawMap() {
        // `update` makes the canvas whenever the map shows; a state made otherwise shows none.
        guard let canvas = state.mapCanvas else { return }
        let pane = layout.rankingMap
        let left = pane.x + 1, top = pane.y
        let league = state.ranking.league
        let lighting = league != .national
        for row in 0..<canvas.rows {
            for column in 0..<canvas.columns {
                let cell = row * canvas.columns + column
                guard canvas.dots[cell] != 0 else { continue }
                let style: CellStyle = canvas.lit[cell] ? .mapLit : lighting ? .dim : .normal
                grid.put(String(Self.braille(canvas.dots[cell])), column: left + column, row: top + row, style: style)
            }
        }
        func restyle(column: Int, row: Int, _ style: CellStyle, mark: Character? = nil) {
            let cell = grid[left + column, top + row]
            grid[left + column, top + row] = Cell(mark ?? cell.character, style: style)
        }
        func restyle(_ school: Int, _ style: CellStyle, mark: Character? = nil) {
            guard let (column, row) = canvas.cell(of: school) else { return }
            restyle(column: column, row: row, style, mark: mark)
        }
        // Per canvas cell, the brightest glow: the game's own (its taps and the totals it was
        // told), and on a server the grid's cells it says glow, the whole nation's.
        var glows: [Int: MapGlow] = [:]
        func glow(_ cell: (column: Int, row: Int), _ level: MapGlow) {
            let key = cell.row * canvas.columns + cell.column
            if glows[key].map({ $0 < level }) ?? true { glows[key] = level }
        }
        for (school, taps) in state.recentTaps.schools(at: now) {
            if let cell = canvas.cell(of: school) { glow(cell, MapGlow(taps: taps)) }
        }
        if let served = state.servedMap, let placed = state.gridOnCanvas {
            for (cell, level) in served.glowing {
                for drawn in placed.canvasCells(of: cell) { glow(drawn, level) }
            }
        }
        for (cell, level) in glows { restyle(column: cell % canvas.columns, row: cell / canvas.columns, Self.style(of: level)) }
        // The leaders' marks, the first last; then mine, which wins a cell it shares: the player
        // looks for it first. Mine among the leaders is marked by its place. On a server they are
        // the nation's whatever the league (the server marks the national first three, and my
        // school's view names them); without the view yet, the server's marks stand unnamed.
        let leadersLeague = state.isOnServer ? League.national : league
        var leaders = state.isOnServer
            ? state.myView?.top ?? []
            : state.rankingRows(in: league, places: 0..<GameState.mapLeaders).map(\.entry)
        leaders = leaders.filter { $0.count > 0 }
        func mark(_ place: Int) -> Character { Character(String(place + 1)) }
        if leaders.isEmpty, let served = state.servedMap, let placed = state.gridOnCanvas {
            for (place, cell) in served.marks.enumerated().reversed() {
                if let drawn = placed.canvasCells(of: cell).first { restyle(column: drawn.column, row: drawn.row, .mapLeader, mark: mark(place)) }
            }
        }
        for (place, entry) in leaders.enumerated().reversed() where entry.position != state.mySchool {
            restyle(entry.position, .mapLeader, mark: mark(place))
        }
        if let mine = state.mySchool {
            restyle(mine, .mine, mark: leaders.firstIndex { $0.position == mine }.map(mark) ?? Self.myMapMark)
        }
        drawMapLegend(canvas: canvas, leaders: leaders, of: leadersLeague,
                      marked: !leaders.isEmpty || !(state.servedMap?.marks.isEmpty ?? true))
    }

    private static func style(of glow: MapGlow) -> CellStyle {
        switch glow {
        case .warm: .mapWarm
        case .hot: .mapHot
        case .blazing: .mapBlazing
        }
    }

    /// Beside the map when there is room (`MapCanvas.legendBeside`), else under it; cut at the
    /// pane's end. The starter list's line comes first: without it the map of a few dots would
    /// look broken.
    private mutating func drawMapLegend(canvas: MapCanvas, leaders: [RankedSchool], of leadersLeague: League, marked: Bool) {
        let pane = layout.rankingMap
        let left = canvas.legendBeside ? pane.x + 1 + canvas.columns + 2 : pane.x + 1
        let top = canvas.legendBeside ? pane.y : pane.y + canvas.rows + 1
        let right = pane.x + pane.width - 1
        let width = right - left
        guard width > 0 else { return }
        let league = state.ranking.league
        var row = top
        func line(_ pieces: [(String, CellStyle)]) {
            guard row < pane.y + pane.height else { return }
            var x = left
            for (text, style) in pieces where x < right {
                x = grid.put(DisplayWidth.truncate(text, toWidth: right - x), column: x, row: row, style: style)
            }
            row += 1
        }
        if state.catalog.source == .starter {
            for text in DisplayWidth.wrap(strings.mapAtProvinceCentres, toWidth: width) { line([(text, .accent)]) }
            row += 1
        }
        let sample = String(Self.braille(0xFF))
        // The three glows, then what they mean, wrapped under itself.
        for (index, text) in DisplayWidth.wrap(strings.mapGlowLegend, toWidth: max(1, width - 4)).enumerated() {
            line(index == 0 ? [(sample, .mapWarm), (sample, .mapHot), (sample, .mapBlazing), (" " + text, .normal)] : [("    " + text, .normal)])
        }
        if marked {
            line([(strings.mapLeadersLegend(strings.leagueName(leadersLeague), count: GameState.mapLeaders), .normal)])
            for (place, entry) in leaders.enumerated() {
                let isMine = entry.position == state.mySchool
                line([("\(place + 1)", isMine ? .mine : .mapLeader), (" " + state.catalog[entry.position].name, .normal),
                      ("  " + NumberText.grouped(entry.count), .dim)])
            }
        }
        if let mine = state.mySchool, !leaders.contains(where: { $0.position == mine }) {
            line([(String(Self.myMapMark), .mine), (" " + strings.mapMineLegend + " · " + state.catalog[mine].name, .normal)])
        }
        if league != .national {
            line([(sample, .mapLit), (" " + strings.mapLitLegend(strings.leagueName(league)), .normal)])
        }
    }
}
