import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

/// English counts read as a person reads them: "1 tap", "2 taps", grouped from the thousands, on
/// the round line, the overtake hint and the status; Korean (번, 명, 개) has no plural.
@Suite(.onOwnThreads) struct CountWordsTests {
    @Test func theRoundLineSaysOneTap() {
        for (language, race) in [(Language.english, "2nd of 4 · 1 tap"), (.korean, "2위 / 4명 · 1번")] {
            var state = RoundViewTests.game(language)
            _ = update(&state, .roundPlaceTold(RoundStanding(id: 1, place: 2, count: 1, players: 4, final: false)),
                       now: Fixture.start.adding(milliseconds: 4_000))
            let racing = RoundViewTests.screen(state, afterMs: 4_000)
            #expect(racing.contains(race) && !racing.contains(race + "s"), "\(race) in\n\(racing)")
        }
    }

    /// 41 taps from 휘문고등학교: 39 taps later, two to go; one more ties it, which shares its
    /// place and leaves the school above it to overtake (`BattleRules.standing`, as played locally).
    @Test func theOvertakeHintCountsDownPastATie() {
        var state = ServedViewTests.served(.english)
        var end = Fixture.tap(39, into: &state, from: Fixture.start)
        #expect(view(state, now: end).contains("2 taps to overtake 휘문고등학교"))
        end = Fixture.tap(1, into: &state, from: end.adding(milliseconds: 100))
        let grid = view(state, now: end)
        #expect(grid.contains("#499 nationally") && grid.contains("11 taps to overtake \(state.catalog[5].name)"), "\(grid.text)")
    }

    @Test func theStatusSaysOneTapWaiting() {
        let line = { (status: ConnectionStatus) -> String in
            var state = Fixture.game(.english, columns: 160, rows: 24)
            _ = update(&state, .connectionChanged(status), now: Fixture.start)
            return view(state, now: Fixture.start).lines.last!
        }
        #expect(line(.offline(waitingTaps: 1)).contains("Offline: the server cannot be reached. 1 tap waiting (sent when it is back)"))
        #expect(line(.offline(waitingTaps: 2)).contains("2 taps waiting"))
        #expect(line(.connecting(waitingTaps: 1)).contains("Connecting to the server… 1 tap waiting to be sent"))
        #expect(line(.wrongAddress(.plainHTTP, waitingTaps: 1)).contains("not HTTPS. 1 tap waiting"))
        #expect(line(.otherBattle(waitingTaps: 1)).contains("1 tap is kept for its own battle"))
    }

    /// Every other English count in the catalogue: one is singular, and the thousands grouped.
    @Test func everyEnglishCountSaysOneInTheSingular() {
        let english = Strings(.english)
        #expect(english.saveDelayed(waitingTaps: 1).contains("1 tap waiting"))
        #expect(english.saveDelayed(waitingTaps: 1_234).contains("1,234 taps waiting"))
        #expect(english.warning(.tooManyTaps, refused: 1).hasSuffix("(too many taps, 1 tap refused)"))
        #expect(english.moveUp(taps: 1) == "1 tap to move up")
        #expect(english.speed(now: 1, best: 1) == "1 tap/s · best 1")
        #expect(english.confirmKeepsScore(1) == "Your 1 tap stays in your current school's total.")
        #expect(english.resultCount(1, more: true) == "More than 1 school")
        #expect(english.catalogSource(.starter, schools: 1) == "School list in use: the starter list (1 school)")
        #expect(english.roundResult(title: nil, standing: RoundStanding(id: 1, place: 1, count: 1, players: 1, final: true)).last == "1 tap")
        let korean = Strings(.korean)
        #expect(korean.moveUp(taps: 1) == "다음 순위까지 1번" && korean.moveUp(taps: 1_234) == "다음 순위까지 1,234번")
    }
}
