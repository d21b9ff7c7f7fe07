import Testing
import TouchSchoolCore
@testable import TouchSchoolView

/// A small catalog with the cases the view must handle: same-name schools in two regions, a
/// name far too long for any column, a province without districts, a tie, and big counts.
enum Fixture {
    static let catalog = Catalog(schools: [
        School(id: "S1", name: "서울고등학교", level: .high, province: "서울특별시", district: "서초구", address: ""),
        School(id: "S2", name: "휘문고등학교", level: .high, province: "서울특별시", district: "강남구", address: ""),
        School(id: "S3", name: "금성초등학교", level: .elementary, province: "부산광역시", district: "금정구", address: ""),
        School(id: "S4", name: "금성초등학교", level: .elementary, province: "전라남도", district: "담양군", address: ""),
        School(id: "S5", name: "경기고등학교", level: .high, province: "서울특별시", district: "강남구", address: ""),
        School(id: "S6", name: "한국과학영재학교부설아주아주긴이름을가진시험용고등학교", level: .high, province: "부산광역시", district: "부산진구", address: ""),
        School(id: "S7", name: "세종과학예술영재학교", level: .high, province: "세종특별자치시", district: "", address: ""),
        School(id: "S8", name: "대전중학교", level: .middle, province: "대전광역시", district: "중구", address: ""),
    ], source: .starter)

    static let mySchool = 0
    static let scores: [String: UInt64] = ["S1": 1_234_567, "S2": 2_000_000, "S3": 15, "S5": 1_234_567, "S6": 999, "S7": 5]
    static let start = Instant.milliseconds(1_000)

    static let small = (columns: 40, rows: 12)
    static let large = (columns: 120, rows: 40)

    /// A game; with `chosen`, the player already plays for 서울고등학교 with 5 taps of their own.
    static func game(_ language: Language, columns: Int, rows: Int, chosen: Bool = true, catalog: Catalog = catalog,
                     notices: [String] = []) -> GameState {
        let players = chosen ? ["tester": PlayerRecord(schoolID: "S1", taps: 5, bestTapsPerSecond: 9)] : [:]
        return GameState(catalog: catalog, saved: SavedState(scores: scores, players: players), player: "tester",
                         language: language, now: start, columns: columns, rows: rows, seed: 42, notices: notices.map(Notice.message))
    }

    static func type(_ text: String, into state: inout GameState, at now: Instant = start) {
        for character in text { _ = update(&state, .key(.character(character)), now: now) }
    }

    /// Human taps: different keys, 100 ms apart, from `from`.
    static func tap(_ times: Int, into state: inout GameState, from: Instant) -> Instant {
        let keys = Array("asdfjkl;")
        var now = from
        for index in 0..<times {
            _ = update(&state, .key(.character(keys[index % keys.count])), now: now)
            now = now.adding(milliseconds: 100)
        }
        return now.adding(milliseconds: -100)
    }

    enum ScreenName: String, CaseIterable, Sendable {
        case picker, confirmSwitch, game, ranking, help, about
    }

    /// A game brought to `screen` the way a player gets there.
    static func state(on screen: ScreenName, _ language: Language, columns: Int, rows: Int) -> GameState {
        var state = game(language, columns: columns, rows: rows, chosen: screen != .picker)
        switch screen {
        case .picker, .game: break
        case .confirmSwitch:
            _ = update(&state, .key(.chooseSchool), now: start)
            type("휘문고", into: &state)
            _ = update(&state, .key(.enter), now: start)
        case .ranking: _ = update(&state, .key(.tab), now: start)
        case .help: _ = update(&state, .key(.help), now: start)
        case .about:
            _ = update(&state, .key(.help), now: start)
            _ = update(&state, .key(.tab), now: start)
        }
        return state
    }
}

extension CellGrid {
    var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The text with every space and line break removed, so a wrapped sentence can be found whole.
    var squeezed: String { text.filter { $0 != " " && $0 != "\n" } }

    func contains(_ text: String) -> Bool { self.text.contains(text) }
    func containsWrapped(_ text: String) -> Bool { squeezed.contains(text.filter { $0 != " " }) }

    /// The row whose text contains `text`.
    func row(containing text: String) -> Int? { lines.firstIndex { $0.contains(text) } }

    /// The text of the cells `columns` of `row` (a wide character whose first cell is in them counts whole).
    func text(row: Int, columns: Range<Int>) -> String {
        String(columns.map { self[$0, row] }.filter { !$0.isContinuation }.map(\.character))
    }

    /// The style of the first cell of `text` on its row.
    func style(of text: String) -> CellStyle? {
        guard let row = row(containing: text) else { return nil }
        let line = Array(lines[row])
        let needle = Array(text)
        var column = 0
        for start in line.indices {
            if Array(line[start...].prefix(needle.count)) == needle { return self[column, row].style }
            column += TerminalWidth.of(line[start])
        }
        return nil
    }
}

extension Fixture {
    /// `count` schools named 학교01…, school i with score (count - i) * 10, so place i is school i;
    /// the player plays for the school at `myPlace`.
    static func crowd(_ count: Int, myPlace: Int, _ language: Language, columns: Int, rows: Int) -> GameState {
        let provinces = ["서울특별시", "부산광역시"]
        var schools: [School] = []
        var scores: [String: UInt64] = [:]
        for index in 0..<count {
            let id = "C\(index)"
            let name = index < 9 ? "학교0\(index + 1)" : "학교\(index + 1)"
            schools.append(School(id: id, name: name, level: index.isMultiple(of: 2) ? .high : .middle,
                                  province: provinces[index % 2], district: "중구", address: ""))
            scores[id] = UInt64((count - index) * 10)
        }
        let catalog = Catalog(schools: schools, source: .official(edition: "2026-03-20"))
        let players = ["tester": PlayerRecord(schoolID: "C\(myPlace)", taps: 3)]
        return GameState(catalog: catalog, saved: SavedState(scores: scores, players: players), player: "tester",
                         language: language, now: start, columns: columns, rows: rows, seed: 1)
    }
}

/// Hangul takes two cells and never breaks: every wide character is followed by its continuation,
/// no continuation stands alone, and every row is exactly as wide as the grid. Widths are the
/// terminal's (`wcwidth`), not the view's own table, which would agree with itself whatever it said.
func expectWholeColumns(_ grid: CellGrid, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    for row in 0..<grid.height {
        var column = 0
        while column < grid.width {
            let cell = grid[column, row]
            if cell.isContinuation {
                Issue.record("orphan continuation at \(column),\(row) \(comment?.description ?? "")", sourceLocation: sourceLocation)
                column += 1
                continue
            }
            let width = TerminalWidth.of(cell.character)
            if width == 0 { Issue.record("zero-width cell at \(column),\(row)", sourceLocation: sourceLocation) }
            if width == 2 {
                let whole = column + 1 < grid.width && grid[column + 1, row].isContinuation
                if !whole { Issue.record("wide character cut at \(column),\(row) \(comment?.description ?? "")", sourceLocation: sourceLocation) }
                column += 2
            } else {
                column += 1
            }
        }
        #expect(TerminalWidth.of(grid.lines[row]) == grid.width, comment, sourceLocation: sourceLocation)
    }
}

/// Whether the text has a Hangul syllable: Korean UI text, or a school's name.
func containsHangul(_ text: some StringProtocol) -> Bool {
    text.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
}
