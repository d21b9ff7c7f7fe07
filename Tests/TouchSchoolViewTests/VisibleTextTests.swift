import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

/// Controls in data reach the screen as visible escapes, never as cells the terminal would act on.
@Suite(.onOwnThreads) struct VisibleTextTests {
    @Test func escapesEveryControlAndNothingElse() {
        #expect(VisibleText.escaping("서울고 \u{1B}[2J\u{9B}1m\u{7F}\u{202E}\u{2069}\t\n") == #"서울고 \u{1B}[2J\u{9B}1m\u{7F}\u{202E}\u{2069}\u{9}\u{A}"#)
        let harmless = "Maple Elementary 한빛고등학교 é ‐ \u{200D}"
        #expect(VisibleText.escaping(harmless) == harmless)
        #expect(VisibleText.isControl("\u{202A}") && VisibleText.isControl("\u{2066}") && VisibleText.isControl("\u{85}"))
        #expect(!VisibleText.isControl("\u{A0}") && !VisibleText.isControl("\u{2029}") && !VisibleText.isControl("\u{2070}"))
    }

    @Test func theGridShowsControlsAsEscapes() {
        var grid = CellGrid(width: 30, height: 2)
        grid.put("a\u{1B}[2Jb", column: 0, row: 0)
        grid.put("x\u{202E}y\u{9B}", column: 0, row: 1)
        #expect(grid.lines.map { $0.trimmingTrailingSpaces } == [#"a\u{1B}[2Jb"#, #"x\u{202E}y\u{9B}"#])
    }

    @Test func anEscapeTakesItsWidthAndIsClippedWhole() {
        #expect(DisplayWidth.of("a\u{1B}b\r\n") == 1 + 6 + 1 + 10)
        #expect(DisplayWidth.truncate("ab\u{1B}cd", toWidth: 8) == "ab…")
        var grid = CellGrid(width: 7, height: 1)
        #expect(grid.put("a\u{1B}bc", column: 0, row: 0) == 7)
        #expect(grid.lines == [#"a\u{1B}"#])
        var narrow = CellGrid(width: 7, height: 1)
        #expect(narrow.put("xy\u{1B}", column: 0, row: 0) == 2)
        #expect(narrow.lines == ["xy     "])
    }

    @Test(arguments: Language.allCases)
    func aPlayerNameWithControlsIsShownVisibly(language: Language) {
        let state = GameState(catalog: Fixture.catalog, saved: SavedState(scores: Fixture.scores, players: [:]),
                              player: "\u{1B}[2J\u{202E}kim", language: language, now: Fixture.start,
                              columns: 120, rows: 40, seed: 1)
        let grid = view(state, now: Fixture.start)
        #expect(grid.contains(#"\u{1B}[2J\u{202E}kim"#), "\(grid)")
        for cell in grid.cells where !cell.isContinuation {
            #expect(!cell.character.unicodeScalars.contains(where: VisibleText.isControl), "\(cell)")
        }
    }
}

private extension String {
    var trimmingTrailingSpaces: String { String(reversed().drop(while: { $0 == " " }).reversed()) }
}
