import TouchSchoolCore

/// The game: numbers on top, smoke in the play area, the nearby national ranking in the panel.
extension Frame {
    mutating func drawGame() {
        drawHeader()
        drawPlayArea()
        drawRound()
        drawLeaderboardPanel()
    }

    private mutating func drawHeader() {
        let columns = layout.columns
        let header = layout.header
        drawTitleBar(strings.title, right: strings.player(state.player))
        guard let mySchool = state.mySchool else {
            grid.put(DisplayWidth.truncate(strings.noSchool, toWidth: columns - 2), column: 1, row: header.y + 1, style: .warning)
            return
        }
        let school = state.catalog[mySchool]
        let standing = state.nationalStanding(of: mySchool)
        let total = standing.total

        let ranked = total == 0 || standing.rank == nil ? strings.noRankYet : strings.nationalRank(NumberText.grouped(standing.rank ?? 0))
        let rank = strings.ofPeriod(ranked, periodName)
        let rankStart = grid.putRight(rank, endColumn: columns - 1, row: header.y + 1, style: .accent)
        putNameAndDetail(school.name, school.region, column: 1, row: header.y + 1, endColumn: rankStart - 2,
                         nameStyle: .mine, detailStyle: .dim)

        grid.putPieces([
            (strings.myTaps(NumberText.grouped(state.counter.myTaps)), .accent),
            (strings.schoolTotal(NumberText.grouped(total)), .normal),
            (strings.sessionTaps(NumberText.grouped(state.counter.sessionTaps)), .normal),
        ], column: 1, row: header.y + 2, endColumn: columns - 1)

        let chase: (String, CellStyle)
        if let above = standing.chase {
            chase = (above.school.map { strings.overtake(state.catalog[$0].name, taps: above.taps) } ?? strings.moveUp(taps: above.taps), .normal)
        } else if standing.rank != 1 {
            // No rank yet, or on a server past the distance its view said: the next view says more.
            chase = ("", .normal)
        } else {
            chase = (total == 0 ? strings.firstTapLeads : strings.leader, .accent)
        }
        let speed = strings.speed(now: state.counter.tapsPerSecond(at: now), best: state.counter.bestTapsPerSecond)
        grid.putPieces([chase, (speed, .dim)], column: 1, row: header.y + 3, endColumn: columns - 1)
    }

    private mutating func drawPlayArea() {
        let area = layout.playArea
        guard area.width > 0, area.height > 0 else { return }
        var anyVisible = false
        for puff in state.puffs.puffs {
            guard let stage = PuffRing.stage(of: puff, at: now) else { continue }
            anyVisible = true
            drawPuff(puff, stage: stage, in: area)
        }
        if !anyVisible {
            let hint = DisplayWidth.truncate(strings.mashHint, toWidth: area.width)
            grid.put(hint, column: area.x + (area.width - DisplayWidth.of(hint)) / 2, row: area.y + area.height / 2, style: .dim)
        }
    }

    private mutating func drawPuff(_ puff: Puff, stage: Int, in area: Rect) {
        let centerColumn = area.x + min(area.width - 1, max(0, Int(puff.x * Float(area.width))))
        let centerRow = area.y + min(area.height - 1, max(0, Int(puff.y * Float(area.height))))
        let style: CellStyle = stage == 0 ? .puffFresh : stage >= PuffRing.fadeStages - 1 ? .puffFaint : .puffFading
        for cell in SmokePuff.cells(variant: puff.variant, stage: stage, angle: puff.angle) {
            let column = centerColumn + cell.dx, row = centerRow + cell.dy
            guard area.contains(column: column, row: row) else { continue }
            grid.put(cell.glyph, column: column, row: row, style: style)
        }
    }

    /// The top three and the schools around mine in the national league.
    private mutating func drawLeaderboardPanel() {
        let panel = layout.leaderboardPanel
        guard panel.width > 0, panel.height > 0 else { return }
        let besidePlayArea = panel.x > 0
        let left = besidePlayArea ? panel.x + 2 : panel.x + 1
        let right = panel.x + panel.width - 1
        if besidePlayArea {
            for row in panel.y..<(panel.y + panel.height) { grid.put("|", column: panel.x, row: row, style: .dim) }
        }
        // The period its ranks are of, while a season runs, when the panel has room for it.
        let named = strings.ofPeriod(strings.nationalPanelTitle, periodName)
        let title = DisplayWidth.of(named) <= right - left ? named : strings.nationalPanelTitle
        let afterTitle = grid.put(DisplayWidth.truncate(title, toWidth: right - left), column: left, row: panel.y, style: .title)
        if afterTitle + 1 < right {
            grid.put(String(repeating: "-", count: right - afterTitle - 1), column: afterTitle + 1, row: panel.y, style: .dim)
        }

        let rows = panel.height - 1
        let entries = state.isOnServer ? servedPanelEntries(rows: rows) : localPanelEntries(rows: rows)
        let columns = RankColumns(panelEntries: entries.compactMap { $0 }, width: right - left)
        for (offset, entry) in entries.prefix(rows).enumerated() {
            let row = panel.y + 1 + offset
            if let entry {
                drawRankRow(entry, movement: state.movement(of: entry.position, in: .national), columns: columns,
                            column: left, row: row)
            } else {
                grid.put("...", column: left, row: row, style: .dim)
            }
        }
    }

    /// The panel's rows from the local leaderboard, nil between runs that do not meet.
    private func localPanelEntries(rows: Int) -> [RankedSchool?] {
        let board = state.leaderboard
        var entries: [RankedSchool?] = []
        var lastPlace = -1
        for range in panelPlaces(rows: rows) {
            if lastPlace >= 0, range.lowerBound > lastPlace + 1 { entries.append(nil) }
            entries += board.entries(in: .national, places: range).map { Optional($0) }
            lastPlace = range.upperBound - 1
        }
        return entries
    }

    /// The panel's rows from the server's view: the top three and my neighbours (±2), cut down as
    /// the local panel is (first the neighbours, then the top) until they fit `rows`; the top
    /// alone before the first view; a taller panel filled from its page once it came. My row
    /// shows the total with my unsaved taps.
    private func servedPanelEntries(rows: Int) -> [RankedSchool?] {
        guard rows > 0 else { return [] }
        guard let view = state.myView else { return (state.served.school?.top ?? []).prefix(rows).map { Optional($0) } }
        let mine = RankedSchool(position: view.school, rank: view.national.rank, count: state.leaderboard.count(of: view.school))
        if let filled = pagedPanelEntries(view: view, mine: mine, rows: rows) { return filled }
        for (top, radius) in [(3, 2), (3, 1), (2, 1), (1, 1), (1, 0)] {
            let topRows = Array(view.top.prefix(top))
            let around = view.above.suffix(radius) + [mine] + view.below.prefix(radius)
            // The neighbours that are in the top already are shown once, with the top.
            let shown = Set(topRows.map(\.position))
            let rest = around.filter { !shown.contains($0.position) }
            // A run of the top that my neighbours do not continue: "..." between (ties make a
            // rank one more than the last place of the top run, place and rank alike).
            let apart = !topRows.isEmpty && !rest.isEmpty && rest.count == around.count && rest[0].rank > topRows.count + 1
            let entries = topRows.map { Optional($0) } + (apart ? [nil] : []) + rest.map { Optional($0) }
            if entries.count <= rows { return entries }
        }
        return [mine]
    }

    /// A panel taller than the view from the page of the places around mine (`panelPage`): the
    /// view's top, then the page's rows with the view's fresher ones (my neighbours, mine) in
    /// their place, as many around mine as fit; nil while no page of the panel holding mine came.
    private func pagedPanelEntries(view: SchoolView, mine: RankedSchool, rows: Int) -> [RankedSchool?]? {
        guard state.panelPage != nil, let page = state.served.page, page.league == .national,
              page.rows.contains(where: { $0.position == mine.position }) else { return nil }
        let top = Array(view.top.prefix(SchoolView.topCount))
        let inTop = Set(top.map(\.position))
        var fresh: [Int: RankedSchool] = [mine.position: mine]
        for row in view.above + view.below { fresh[row.position] = row }
        // The page's order, with what the view says fresher; a neighbour the page has not yet, added.
        var seen = Set<Int>()
        var around: [(order: Int, row: RankedSchool)] = []
        for (order, row) in (page.rows + view.above + [mine] + view.below).enumerated()
            where !inTop.contains(row.position) && seen.insert(row.position).inserted {
            around.append((order, fresh[row.position] ?? row))
        }
        around.sort { ($0.row.rank, $0.order) < ($1.row.rank, $1.order) }
        let all = around.map(\.row)
        let myIndex = all.firstIndex { $0.position == mine.position } ?? 0
        // As many as fit under the top, mine in their middle.
        func fitting(_ room: Int) -> [RankedSchool] {
            guard all.count > room else { return all }
            let first = max(0, min(myIndex - (room - 1) / 2, all.count - room))
            return Array(all[first..<(first + max(1, room))])
        }
        // A run of the top that the rest does not continue: "..." between, a row less for the
        // rest (ties make a rank one more than the last place of the top run).
        func apart(_ rest: [RankedSchool]) -> Bool { !top.isEmpty && !rest.isEmpty && rest[0].rank > top.count + 1 }
        var rest = fitting(rows - top.count)
        if apart(rest) { rest = fitting(rows - top.count - 1) }
        let entries = top.map { Optional($0) } + (apart(rest) ? [nil] : []) + rest.map { Optional($0) }
        return Array(entries.prefix(rows))
    }

    /// Which national places the panel shows, as runs: every school when all fit; else the top
    /// three and as many places around mine (at least ±2, mine in their middle) as fill the rows
    /// left; cut down (first the neighbours, then the top, at last to a window around mine) until
    /// they and the gap between them fit `rows`. Runs that meet, or would leave out one place
    /// only, are one.
    private func panelPlaces(rows: Int) -> [Range<Int>] {
        let size = state.leaderboard.size(of: .national)
        guard rows > 0, size > 0 else { return [] }
        guard size > rows, let mySchool = state.mySchool else { return [0..<min(rows, size)] }
        let myPlace = state.leaderboard.place(of: mySchool, in: .national)
        for (top, radius) in [(3, 2), (3, 1), (2, 1), (1, 1), (1, 0)] {
            // The rows under the top and its gap, all of them, but never fewer than mine ±radius.
            let window = max(2 * radius + 1, rows - top - 1)
            let start = max(top, min(myPlace - (window - 1) / 2, size - window))
            if start <= top + 1 {
                if myPlace < rows { return [0..<rows] }
                continue
            }
            if top + 1 + window <= rows { return [0..<top, start..<(start + window)] }
        }
        // Too few rows for the top as well: the places around mine, the rival above first.
        let first = max(0, min(myPlace - rows / 2, size - rows))
        return [first..<min(size, first + rows)]
    }
}

/// Puff shapes, made once: for each variant, fade stage and eighth of a turn, the cells to draw
/// around the centre. Drawing a puff is then a table lookup and a few writes.
enum SmokePuff {
    struct PuffCell: Sendable {
        let dx: Int
        let dy: Int
        let glyph: String
    }

    static let variants = 4
    static let angles = 8

    static func cells(variant: UInt8, stage: Int, angle: UInt8) -> [PuffCell] {
        let stage = min(max(0, stage), stageScales.count - 1)
        return table[(Int(variant) % variants * stageScales.count + stage) * angles + Int(angle) % angles]
    }

    /// Blobs of each shape (centre and radius, in cell widths; a cell is two widths tall).
    private static let shapes: [[(x: Float, y: Float, radius: Float)]] = [
        [(0, 0, 3)],
        [(-2, 0, 2.2), (2, 0.6, 2.2)],
        [(0, -1.2, 2), (-2.5, 1, 1.8), (2.5, 1, 1.8)],
        [(0, 0, 2.5), (3, -1.5, 1.3), (5, -2.5, 0.9)],
    ]
    /// Puffs shrink as they fade.
    private static let stageScales: [Float] = [1, 0.75, 0.5, 0.3]
    /// Dense, middle and edge glyphs of each stage: heavy smoke first, wisps last.
    private static let glyphs: [[String]] = [["@", "*", "o"], ["*", "o", "~"], ["o", "+", ":"], [".", "'", "."]]

    private static let table: [[PuffCell]] = {
        let half: Float = 0.70710677
        let cosines: [Float] = [1, half, 0, -half, -1, -half, 0, half]
        let sines: [Float] = [0, half, 1, half, 0, -half, -1, -half]
        var table: [[PuffCell]] = []
        for variant in 0..<variants {
            for stage in 0..<stageScales.count {
                let scale = stageScales[stage]
                for angle in 0..<angles {
                    let blobs = shapes[variant].map { blob in
                        (x: (blob.x * cosines[angle] - blob.y * sines[angle]) * scale,
                         y: (blob.x * sines[angle] + blob.y * cosines[angle]) * scale,
                         radius: blob.radius * scale)
                    }
                    let reach = blobs.reduce(Float(0)) { max($0, max(abs($1.x), abs($1.y)) + $1.radius) }
                    let spanX = Int(reach.rounded(.up)), spanY = Int((reach / 2).rounded(.up))
                    var cells: [PuffCell] = []
                    for dy in -spanY...spanY {
                        for dx in -spanX...spanX {
                            let px = Float(dx), py = Float(dy) * 2
                            var density: Float = 0
                            for blob in blobs {
                                let distance = ((px - blob.x) * (px - blob.x) + (py - blob.y) * (py - blob.y)).squareRoot()
                                density = max(density, 1 - distance / blob.radius)
                            }
                            guard density > 0 else { continue }
                            let level = density > 0.6 ? 0 : density > 0.3 ? 1 : 2
                            // Gaps along the edge make the puff look airy rather than stamped.
                            if level == 2, (dx &* 7 &+ dy &* 13 &+ variant &+ angle) & 3 == 0 { continue }
                            cells.append(PuffCell(dx: dx, dy: dy, glyph: glyphs[stage][level]))
                        }
                    }
                    if cells.isEmpty { cells.append(PuffCell(dx: 0, dy: 0, glyph: glyphs[stage][0])) }
                    table.append(cells)
                }
            }
        }
        return table
    }()
}
