import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolTerminal
import TouchSchoolView

@Suite(.onOwnThreads) struct EscapeSequenceScreenTests {
    func grid(_ rows: [String], style: CellStyle = .normal) -> CellGrid {
        var grid = CellGrid(width: 10, height: rows.count)
        for (row, text) in rows.enumerated() { grid.put(text, column: 0, row: row, style: style) }
        return grid
    }

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func theFirstFrameClearsAndWritesEveryNonBlankCell() {
        var screen = EscapeSequenceScreen(columns: 10, rows: 2, colors: true)
        let out = text(screen.frame(grid(["ab", "민"])))
        #expect(out.hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
        #expect(out.contains("\u{1B}[1;1Hab"))
        #expect(out.contains("\u{1B}[2;1H민"))
    }

    @Test func laterFramesWriteOnlyTheCellsThatChanged() {
        var screen = EscapeSequenceScreen(columns: 10, rows: 2, colors: true)
        _ = screen.frame(grid(["ab", "cd"]))
        #expect(screen.frame(grid(["ab", "cd"])).isEmpty)
        #expect(text(screen.frame(grid(["ab", "cx"]))) == "\u{1B}[2;2Hx")
    }

    @Test func aResizeRedrawsEverything() {
        var screen = EscapeSequenceScreen(columns: 10, rows: 2, colors: true)
        _ = screen.frame(grid(["ab", "cd"]))
        screen.resize(columns: 10, rows: 2)
        #expect(text(screen.frame(grid(["ab", "cd"]))).contains("\u{1B}[2J"))
    }

    @Test func stylesAreWrittenWithTheirColorsOrWithout() {
        var colored = EscapeSequenceScreen(columns: 10, rows: 1, colors: true)
        #expect(text(colored.frame(grid(["a"], style: .highlight))).contains("\u{1B}[0;30;46ma"))
        var monochrome = EscapeSequenceScreen(columns: 10, rows: 1, colors: false)
        #expect(text(monochrome.frame(grid(["a"], style: .highlight))).contains("\u{1B}[0;7ma"))
    }

    @Test func aControlCharacterInACellNeverReachesTheTerminal() {
        var grid = CellGrid(width: 3, height: 1)
        grid[0, 0] = Cell("\u{1B}")
        grid[1, 0] = Cell("\u{9B}")
        var screen = EscapeSequenceScreen(columns: 3, rows: 1, colors: true)
        let out = screen.frame(grid)
        let afterClear = text(out).components(separatedBy: "\u{1B}[2J").last ?? ""
        #expect(!afterClear.unicodeScalars.contains { $0 == "\u{9B}" })
        #expect(afterClear == "\u{1B}[1;1H  ")
    }

    @Test func cellsBeyondTheTerminalAreNotWritten() {
        var screen = EscapeSequenceScreen(columns: 1, rows: 1, colors: true)
        let out = text(screen.frame(grid(["ab", "cd"])))
        #expect(out.contains("a"))
        #expect(!out.contains("b") && !out.contains("c"))
    }
}
