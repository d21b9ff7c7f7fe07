import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

@Suite(.onOwnThreads) struct GameViewTests {
    static let puffStyles: Set<CellStyle> = [.puffFresh, .puffFading, .puffFaint]

    /// Cells drawn with each puff style, and whether any lies outside `area`.
    func puffCells(in grid: CellGrid, area: Rect) -> (styles: [CellStyle: Int], outside: Int) {
        var styles: [CellStyle: Int] = [:]
        var outside = 0
        for row in 0..<grid.height {
            for column in 0..<grid.width where Self.puffStyles.contains(grid[column, row].style) {
                styles[grid[column, row].style, default: 0] += 1
                if !area.contains(column: column, row: row) { outside += 1 }
            }
        }
        return (styles, outside)
    }

    @Test(arguments: [(40, 12), (120, 40)])
    func aTapPuffsSmokeThatShrinksFadesAndGoes(columns: Int, rows: Int) {
        var state = Fixture.game(.korean, columns: columns, rows: rows)
        let tapped = Fixture.start.adding(milliseconds: 500)
        _ = update(&state, .key(.character("g")), now: tapped)
        let area = state.layout.playArea

        let fresh = puffCells(in: view(state, now: tapped), area: area)
        #expect(fresh.outside == 0)
        #expect(fresh.styles[.puffFresh, default: 0] > 0)
        #expect(fresh.styles[.puffFading] == nil && fresh.styles[.puffFaint] == nil)

        let fading = puffCells(in: view(state, now: tapped.adding(milliseconds: 300)), area: area)
        #expect(fading.styles[.puffFading, default: 0] > 0 && fading.styles[.puffFresh] == nil)
        #expect(fading.styles[.puffFading, default: 0] <= fresh.styles[.puffFresh, default: 0])

        let faint = puffCells(in: view(state, now: tapped.adding(milliseconds: 800)), area: area)
        #expect(faint.styles[.puffFaint, default: 0] > 0 && faint.styles.count == 1)

        let gone = view(state, now: tapped.adding(milliseconds: 1_100))
        #expect(puffCells(in: gone, area: area).styles.isEmpty)
        #expect(gone.contains("아무 키나 마구 누르세요!"))
        #expect(!view(state, now: tapped).contains("아무 키나 마구 누르세요!"))
    }

    @Test(arguments: [(40, 12), (80, 24), (120, 40)])
    func clicksInEveryCornerStayInsideThePlayArea(columns: Int, rows: Int) {
        var state = Fixture.game(.english, columns: columns, rows: rows)
        let area = state.layout.playArea
        let corners = [(area.x, area.y), (area.x + area.width - 1, area.y), (area.x, area.y + area.height - 1),
                       (area.x + area.width - 1, area.y + area.height - 1)]
        var now = Fixture.start
        for (column, row) in corners {
            now = now.adding(milliseconds: 150)
            _ = update(&state, .click(column: column, row: row), now: now)
        }
        let grid = view(state, now: now)
        let cells = puffCells(in: grid, area: area)
        #expect(cells.outside == 0)
        #expect(cells.styles.values.reduce(0, +) > 8)
        // The header and the panel are untouched by smoke.
        #expect(grid.contains("My taps 9"))
        #expect(grid.contains("National ranking"))
        expectWholeColumns(grid)
    }

    @Test func thirtyPuffsAtOnceAllShowWithSafeGlyphs() {
        var state = Fixture.game(.korean, columns: 200, rows: 60)
        let end = Fixture.tap(40, into: &state, from: Fixture.start)
        #expect(state.puffs.count == 30)  // never more than 30 puffs at once
        let grid = view(state, now: end)
        var glyphs = Set<Character>()
        for row in 0..<grid.height {
            for column in 0..<grid.width where Self.puffStyles.contains(grid[column, row].style) {
                glyphs.insert(grid[column, row].character)
            }
        }
        #expect(glyphs.count >= 4)
        #expect(glyphs.isSubset(of: Set("@*o.+~':")))
        expectWholeColumns(grid)
    }

    @Test func puffShapesDependOnVariantAngleAndStage() {
        func shape(_ variant: UInt8, _ stage: Int, _ angle: UInt8) -> [String] {
            SmokePuff.cells(variant: variant, stage: stage, angle: angle).map { "\($0.dx),\($0.dy),\($0.glyph)" }
        }
        for variant in UInt8(0)..<4 {
            for angle in UInt8(0)..<8 {
                let sizes = (0..<PuffRing.fadeStages).map { shape(variant, $0, angle).count }
                #expect(sizes.first! > sizes.last!)
                #expect(sizes.allSatisfy { $0 >= 1 })
                for stage in 0..<PuffRing.fadeStages {
                    for cell in SmokePuff.cells(variant: variant, stage: stage, angle: angle) {
                        #expect(TerminalWidth.of(cell.glyph) == 1 && cell.glyph.allSatisfy(\.isASCII))
                        #expect(abs(cell.dx) <= 8 && abs(cell.dy) <= 4)
                    }
                }
            }
        }
        #expect(shape(0, 0, 0) != shape(1, 0, 0))
        #expect(shape(2, 0, 0) != shape(3, 0, 0))
        #expect(shape(1, 0, 0) != shape(1, 0, 2))
        // Out-of-range inputs wrap instead of trapping.
        #expect(shape(4, 0, 8) == shape(0, 0, 0))
    }

    @Test(arguments: Language.allCases)
    func theLeaderIsToldSo(language: Language) {
        let players = ["tester": PlayerRecord(schoolID: "S2", taps: 1)]
        let state = GameState(catalog: Fixture.catalog, saved: SavedState(scores: Fixture.scores, players: players),
                              player: "tester", language: language, now: Fixture.start, columns: 80, rows: 24, seed: 3)
        let grid = view(state, now: Fixture.start)
        #expect(grid.contains(language == .korean ? "1위!" : "#1!"))
        #expect(grid.contains(language == .korean ? "전국 1위" : "#1 nationally"))
        #expect(!grid.contains(language == .korean ? "까지" : "to overtake"))
    }

    @Test(arguments: Language.allCases)
    func countsAndSpeedFollowTheTaps(language: Language) {
        var state = Fixture.game(language, columns: 120, rows: 40)
        let end = Fixture.tap(10, into: &state, from: Fixture.start)
        let grid = view(state, now: end)
        // 5 taps before, 10 now, 100 ms apart: all ten within the last second, a new best over 9.
        let expected = language == .korean
            ? ["내 터치 15", "이번 판 10", "학교 합계 1,234,577", "휘문고등학교까지 765,424번", "초당 10번 · 최고 10번"]
            : ["My taps 15", "This session 10", "School total 1,234,577", "765,424 taps to overtake 휘문고등학교", "10 taps/s · best 10"]
        for text in expected { #expect(grid.contains(text), "\(text)") }
    }

    @Test func thePanelShowsTheTopThreeAndTheSchoolsAroundMineWithAGap() {
        let state = Fixture.crowd(100, myPlace: 50, .korean, columns: 120, rows: 40)
        let grid = view(state, now: Fixture.start)
        let panel = state.layout.leaderboardPanel
        let rows = (panel.y + 1..<(panel.y + panel.height)).map { grid.text(row: $0, columns: (panel.x + 1)..<(panel.x + panel.width)) }
        #expect(rows.count == 34)
        for (index, name) in ["학교01", "학교02", "학교03"].enumerated() { #expect(rows[index].contains(name)) }
        #expect(rows[3].contains("..."))
        // The other 30 rows: places 37 to 66, mine (51st) in their middle.
        for (index, row) in rows.dropFirst(4).enumerated() { #expect(row.contains("학교\(37 + index) "), "\(row)") }
        #expect(rows[18].contains("51 ") && rows[18].contains("500"))
        // Mine stands out across the whole row.
        let mineRow = panel.y + 1 + 18
        #expect(grid[panel.x + 2, mineRow].style == .mine && grid[panel.x + panel.width - 2, mineRow].style == .mine)
        #expect(grid[panel.x + 2, mineRow - 1].style == .normal)
    }

    /// The places of the schools the panel shows, row by row (nil for the "..." between runs).
    static func panelPlaces(_ grid: CellGrid, _ state: GameState) -> [Int?] {
        let panel = state.layout.leaderboardPanel
        return (panel.y + 1..<(panel.y + panel.height)).map { row in
            let text = grid.text(row: row, columns: panel.x..<(panel.x + panel.width))
            let name = text.split(separator: " ").first { $0.hasPrefix("학교") }
            return name.flatMap { Int($0.dropFirst(2)) }.map { $0 - 1 }
        }
    }

    /// Beside the play area the panel fills its height: the top three, then as many schools around
    /// mine as fit, runs that do not meet with "..." between; every row holds a school.
    @Test(arguments: [(160, 48), (80, 24), (120, 40)], [0, 2, 12, 60, 100, 190, 199])
    func thePanelFillsItsHeightWithSchools(size: (columns: Int, rows: Int), myPlace: Int) {
        let state = Fixture.crowd(200, myPlace: myPlace, .english, columns: size.columns, rows: size.rows)
        let grid = view(state, now: Fixture.start)
        let panel = state.layout.leaderboardPanel
        #expect(panel.x > 0, "beside the play area")
        let places = Self.panelPlaces(grid, state)
        let gaps = places.indices.filter { places[$0] == nil }
        #expect(gaps.count <= 1 && gaps.allSatisfy { $0 == 3 }, "\(places)\n\(grid.text)")
        for gap in gaps {
            #expect(grid.text(row: panel.y + 1 + gap, columns: panel.x..<(panel.x + panel.width)).contains("..."))
        }
        let shown = places.compactMap { $0 }
        #expect(shown.count == panel.height - 1 - gaps.count, "every row a school: \(places)")
        #expect(Array(shown.prefix(3)) == [0, 1, 2])
        // In order, one after the other but across the gap, mine among them with rivals on both sides.
        for (above, below) in zip(shown, shown.dropFirst()) where !(above == 2 && gaps == [3]) {
            #expect(below == above + 1, "\(places)")
        }
        let mine = try! #require(shown.firstIndex(of: myPlace), "\(places)")
        if myPlace > 0 { #expect(mine > 0) }
        if myPlace < 199 { #expect(mine < shown.count - 1) }
        expectWholeColumns(grid)
    }

    @Test(arguments: [(0, 12), (1, 13), (29, 15), (10, 12), (10, 13), (15, 19)])
    func thePanelFitsWhateverRoomItHas(myPlace: Int, rows: Int) {
        // Narrow terminals put the panel under the play area, with 2 to 6 rows.
        let state = Fixture.crowd(30, myPlace: myPlace, .english, columns: 60, rows: rows)
        let grid = view(state, now: Fixture.start)
        let panel = state.layout.leaderboardPanel
        #expect(panel.x == 0)
        let names = (panel.y + 1..<(panel.y + panel.height)).map { grid.lines[$0] }
        let me = myPlace < 9 ? "학교0\(myPlace + 1)" : "학교\(myPlace + 1)"
        #expect(names.contains { $0.contains(me) }, "\(grid.text)")
        expectWholeColumns(grid)
    }

    /// The leaderboard panel's rows, without the play area beside them.
    func panelRows(_ grid: CellGrid, _ state: GameState) -> [String] {
        let panel = state.layout.leaderboardPanel
        return grid.lines[(panel.y + 1)..<(panel.y + panel.height)].map { String($0.dropFirst(panel.x)) }
    }

    @Test func rankMovementShowsArrowsForSchoolsPassedOnly() throws {
        // 서울고 (tied with 경기고 at 2) pulls ahead: it passed no one, and no one passed 경기고.
        var tieBreak = Fixture.game(.korean, columns: 120, rows: 40)
        let tapped = Fixture.tap(3, into: &tieBreak, from: Fixture.start)
        let untied = panelRows(view(tieBreak, now: tapped), tieBreak)
        #expect(untied.contains { $0.contains("2 -    서울고등학교") } && untied.contains { $0.contains("3 -    경기고등학교") }, "\(untied)")
        #expect(!untied.contains { $0.contains("▲") || $0.contains("▼") }, "\(untied)")

        // 세종과학예술영재학교 (5) passes 금성초 of 부산 (15) with 11 taps.
        let players = ["tester": PlayerRecord(schoolID: "S7", taps: 0)]
        var state = GameState(catalog: Fixture.catalog, saved: SavedState(scores: Fixture.scores, players: players), player: "tester",
                              language: .korean, now: Fixture.start, columns: 120, rows: 40, seed: 5)
        let end = Fixture.tap(11, into: &state, from: Fixture.start)
        let grid = view(state, now: end)
        let rows = panelRows(grid, state)
        #expect(rows.contains { $0.contains("5 ▲1   세종과학예술영재학교") }, "\(rows)")
        #expect(rows.contains { $0.contains("6 ▼1   금성초등학교") }, "\(rows)")
        #expect(rows.filter { $0.contains("▲") || $0.contains("▼") }.count == 2, "\(rows)")
        #expect(grid.style(of: "▼1") == .rankDown)
        // A moment later the arrows are gone.
        _ = update(&state, .tick, now: end.adding(milliseconds: 11_000))
        let later = view(state, now: end.adding(milliseconds: 11_000))
        #expect(!later.contains("▼") && !later.contains("▲"))
    }

    @Test(arguments: Language.allCases)
    func aRefusedBurstIsWarnedOnTheStatusLine(language: Language) {
        var state = Fixture.game(language, columns: 40, rows: 12)
        for index in 0..<40 { _ = update(&state, .key(.character("a")), now: Fixture.start.adding(milliseconds: Int64(index) * 10)) }
        let warning = try! #require(state.warning)
        let grid = view(state, now: Fixture.start.adding(milliseconds: 400))
        let status = grid.lines.last!
        let text = language == .korean ? "비정상적인 터치 수가 감지되었습니다." : "Abnormal tapping detected."
        #expect(status.hasPrefix(" " + text))
        #expect(grid[0, 11].style == .warning && grid[39, 11].style == .warning)

        var wideState = state
        _ = update(&wideState, .resize(columns: 120, rows: 40), now: Fixture.start)
        let wide = view(wideState, now: Fixture.start)
        #expect(warning.reason == .heldKey && warning.refusedTaps > 0 && warning.refusedTaps < 40)
        #expect(wide.lines.last!.contains(language == .korean
            ? "비정상적인 터치 수가 감지되었습니다. (키를 누르고 있음 · \(warning.refusedTaps)번 무시됨)"
            : "Abnormal tapping detected. (key held down, \(warning.refusedTaps) taps refused)"))

        _ = update(&state, .tick, now: Fixture.start.adding(milliseconds: 5_000))
        #expect(!view(state, now: Fixture.start.adding(milliseconds: 5_000)).contains(text))
    }

    @Test(arguments: Language.allCases)
    func aPasteIsWarnedAsAPaste(language: Language) {
        var state = Fixture.game(language, columns: 120, rows: 40)
        _ = update(&state, .paste("aaaa"), now: Fixture.start)
        let status = view(state, now: Fixture.start).lines.last!
        #expect(status.contains(language == .korean ? "붙여넣기" : "pasted text"))
    }

    @Test(arguments: Language.allCases)
    func aFailingSaveIsShownUntilASaveWorks(language: Language) {
        var state = Fixture.game(language, columns: 120, rows: 40)
        _ = update(&state, .syncFailed(PendingChanges(player: "tester"), reason: "disk full"), now: Fixture.start)
        let grid = view(state, now: Fixture.start)
        let text = language == .korean ? "점수가 저장되지 않고 있습니다: disk full" : "Scores are not being saved: disk full"
        #expect(grid.lines.last!.contains(text))
        #expect(grid.style(of: text) == .warning)
        // Other screens show it too.
        _ = update(&state, .key(.tab), now: Fixture.start)
        #expect(view(state, now: Fixture.start).lines.last!.contains(text))

        _ = update(&state, .synced(SyncedBoard(SavedState(scores: Fixture.scores), catalog: state.catalog, generation: state.catalogGeneration, player: state.player)), now: Fixture.start)
        #expect(!view(state, now: Fixture.start).contains(text))
    }

    /// A battle's start: no school has a tap, and mine has no rank yet (every school read 1위),
    /// with one tap to take the first place; one tap later it is first.
    @Test(arguments: Language.allCases)
    func aSchoolWithoutATapHasNoRankYet(language: Language) {
        let ko = language == .korean
        let players = ["tester": PlayerRecord(schoolID: "S1", taps: 0, bestTapsPerSecond: 0)]
        var state = GameState(catalog: Fixture.catalog, saved: SavedState(scores: [:], players: players), player: "tester",
                              language: language, now: Fixture.start, columns: 80, rows: 24, seed: 42)
        let before = view(state, now: Fixture.start).text
        #expect(before.contains(ko ? "아직 순위 없음" : "no rank yet") && before.contains(ko ? "첫 터치면 1위!" : "One tap takes #1!"), "\(before)")
        #expect(!before.contains(ko ? "전국 1위" : "#1 nationally"), "\(before)")
        let tapped = Fixture.start.adding(milliseconds: 100)
        _ = update(&state, .key(.character("a")), now: tapped)
        let after = view(state, now: tapped).text
        #expect(after.contains(ko ? "전국 1위" : "#1 nationally") && after.contains(ko ? "1위!" : "#1!"), "\(after)")
    }
}
