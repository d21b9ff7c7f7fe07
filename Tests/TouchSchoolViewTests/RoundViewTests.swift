import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

/// The round over the play area: the countdown's large digit, the race's line (seconds left, my
/// place and count), "counting", the result in a box, in Korean and English; the operator's title
/// drawn as text (an escape shown, never sent to the terminal).
@Suite(.onOwnThreads) struct RoundViewTests {
    /// Told at the game's start: the window opens 3 s later and lasts 10 s, my place 2nd of 5 with 57 taps.
    static func game(_ language: Language, title: String? = "3반 대항전", final: Bool = false) -> GameState {
        var state = ServedViewTests.served(language)
        let news = RoundNews(id: 1, title: title, startsAtMs: 10_003_000, endsAtMs: 10_013_000, graceMs: 5_000, serverNowMs: 10_000_000,
                             standing: RoundStanding(id: 1, place: 2, count: 1_057, players: 5, final: final))
        _ = update(&state, .roundTold(news), now: Fixture.start)
        return state
    }

    static func screen(_ state: GameState, afterMs ms: Int64) -> String {
        view(state, now: Fixture.start.adding(milliseconds: ms)).text
    }

    @Test func theCountdownIsDrawnLargeThenTheRaceLineInBothLanguages() {
        let korean = Self.game(.korean)
        let three = Self.screen(korean, afterMs: 0)
        #expect(three.contains("3반 대항전"))
        #expect(three.contains("█████") && three.contains(" ████"), "the digit 3:\n\(three)")
        let one = Self.screen(korean, afterMs: 2_500)
        #expect(one.contains(" ██  ") && one.contains(" ███ "), "the digit 1:\n\(one)")
        #expect(Self.screen(korean, afterMs: 3_000).contains("3반 대항전 · 남은 시간 10초 · 2위 / 5명 · 1,057번"))
        #expect(Self.screen(korean, afterMs: 12_100).contains("남은 시간 1초"))
        #expect(Self.screen(korean, afterMs: 13_000).contains("3반 대항전 · 종료! 집계 중…"))
        let english = Self.game(.english)
        #expect(Self.screen(english, afterMs: 3_000).contains("3반 대항전 · 10s left · 2nd of 5 · 1,057 taps"))
        #expect(Self.screen(english, afterMs: 13_000).contains("Time! Counting…"))
    }

    @Test func theResultInABoxThenNothing() {
        for (language, lines) in [(Language.korean, ["3반 대항전", "2위 / 5명", "1,057번"]), (.english, ["3반 대항전", "2nd of 5", "1,057 taps"])] {
            var state = Self.game(language)
            _ = update(&state, .roundPlaceTold(RoundStanding(id: 1, place: 2, count: 1_057, players: 5, final: true)),
                       now: Fixture.start.adding(milliseconds: 19_000))
            let shown = Self.screen(state, afterMs: 19_000)
            for line in lines { #expect(shown.contains("| ") && shown.contains(line), "\(line) in\n\(shown)") }
            #expect(shown.contains("+---"))
            let later = Self.screen(state, afterMs: 19_000 + RoundOnScreen.resultMilliseconds)
            #expect(!later.contains(lines[1]), "gone after its time:\n\(later)")
        }
    }

    /// A shared place says so, during the race and in the result: three tied at 150 are each first.
    @Test func aSharedPlaceSaysTied() {
        for (language, race, result) in [(Language.korean, "공동 1위 / 3명 · 150번", "공동 1위 / 3명"), (.english, "tied 1st of 3 · 150 taps", "tied 1st of 3")] {
            var state = Self.game(language)
            _ = update(&state, .roundPlaceTold(RoundStanding(id: 1, place: 1, tied: true, count: 150, players: 3, final: false)),
                       now: Fixture.start.adding(milliseconds: 4_000))
            let racing = Self.screen(state, afterMs: 4_000)
            #expect(racing.contains(race), "\(race) in\n\(racing)")
            _ = update(&state, .roundPlaceTold(RoundStanding(id: 1, place: 1, tied: true, count: 150, players: 3, final: true)),
                       now: Fixture.start.adding(milliseconds: 19_000))
            let shown = Self.screen(state, afterMs: 19_000)
            #expect(shown.contains("| ") && shown.contains(result), "\(result) in\n\(shown)")
        }
    }

    /// Taps are counted in 번 on every screen (the header's chase, the page, the commands): never 회.
    @Test func theRoundCountsTapsInBeonAsEveryScreenDoes() {
        var state = Self.game(.korean)
        let race = Self.screen(state, afterMs: 3_000)
        #expect(race.contains("1,057번") && !race.contains("회"), "\(race)")
        _ = update(&state, .roundPlaceTold(RoundStanding(id: 1, place: 2, count: 1_057, players: 5, final: true)),
                   now: Fixture.start.adding(milliseconds: 19_000))
        let result = Self.screen(state, afterMs: 19_000)
        #expect(result.contains("1,057번") && !result.contains("회"), "\(result)")
    }

    /// The countdown's digit and the result's box stand on rows of their own: the prompt beneath
    /// ("아무 키나 마구 누르세요!") is whole or hidden, never cut by the overlay into pieces.
    @Test(arguments: Language.allCases, [(80, 24), (160, 48), (40, 12), (100, 30)])
    func theOverlayNeverCutsThroughTheTextBeneath(language: Language, size: (columns: Int, rows: Int)) {
        var state = Self.game(language)
        _ = update(&state, .resize(columns: size.columns, rows: size.rows), now: Fixture.start)
        let hint = Strings(language).mashHint
        let area = state.layout.playArea
        var result = state
        _ = update(&result, .roundPlaceTold(RoundStanding(id: 1, place: 2, count: 1_057, players: 5, final: true)),
                   now: Fixture.start.adding(milliseconds: 19_000))
        for (name, shown, ms) in [("3", state, Int64(0)), ("1", state, 2_500), ("result", result, 19_000)] {
            let grid = view(shown, now: Fixture.start.adding(milliseconds: ms))
            expectWholeColumns(grid, "\(name) \(size)")
            // The play area's part of each row: the overlay's text alone, or the whole prompt, or neither.
            for row in area.y..<(area.y + area.height) {
                let cells = grid.text(row: row, columns: area.x..<(area.x + area.width))
                let line = String(cells.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
                let overlay = line.contains("█") || line.hasPrefix("|") || line.hasPrefix("+-")
                guard overlay else {
                    #expect(!hint.split(separator: " ").contains { line.contains($0) } || line == hint,
                            "\(name) \(size): the prompt cut: \(line)")
                    continue
                }
                if line.contains("█") {
                    #expect(line.allSatisfy { $0 == "█" || $0 == " " }, "\(name) \(size): \(line)")
                } else {
                    #expect(line.hasSuffix("|") || line.hasSuffix("+"), "\(name) \(size): \(line)")
                }
            }
        }
    }

    @Test func theTitleIsTextNeverAnEscape() {
        let state = Self.game(.english, title: "evil\u{1B}[2Jtitle")
        let grid = view(state, now: Fixture.start.adding(milliseconds: 3_000))
        let shown = grid.text
        #expect(!shown.contains("\u{1B}"))
        #expect(shown.contains("evil\\u{1B}[2Jtitle"), "\(shown)")
    }
}
