import Testing
import TouchSchoolTestSupport
import TouchSchoolCore

/// A round on a game's screen: when what it shows changes by the clock alone, so that an idle
/// game wakes for the countdown's digits, GO and the seconds left instead of its next idle tick.
@Suite(.onOwnThreads) struct RoundOnScreenTests {
    /// Told at 10 s on the game's clock, by a server whose clock read 1,000,000 ms: the window
    /// opens 3 s later and lasts 10 s.
    let told = Instant(nanoseconds: 10_000_000_000)
    var round: RoundOnScreen {
        RoundOnScreen(RoundNews(id: 1, title: nil, startsAtMs: 1_003_000, endsAtMs: 1_013_000, graceMs: 5_000, serverNowMs: 1_000_000,
                                standing: RoundStanding(id: 1, place: nil, count: 0, players: 0, final: false)), now: told)
    }

    func at(_ milliseconds: Int64) -> Instant { told.adding(milliseconds: milliseconds) }

    @Test func theNextChangeIsTheNextDigitOrTheStartOrTheEnd() {
        #expect(round.nextChange(after: at(0)) == at(1_000))
        #expect(round.nextChange(after: at(250)) == at(1_000))
        #expect(round.nextChange(after: at(2_999)) == at(3_000))
        #expect(round.phase(at: at(3_000)) == .race(secondsLeft: 10))
        #expect(round.nextChange(after: at(3_000)) == at(4_000))
        #expect(round.nextChange(after: at(12_400)) == at(13_000))
        // Counting until a message makes it final, or until it is given up on.
        #expect(round.nextChange(after: at(13_000)) == at(13_000 + 5_000 + RoundOnScreen.resultMilliseconds))
        var final = round
        final.standing.final = true
        final.resultUntil = at(40_000)
        #expect(final.nextChange(after: at(19_000)) == at(40_000))
        #expect(final.nextChange(after: at(40_000)) == nil)
    }
}

extension RoundOnScreenTests {
    /// News taken by the game a moment after it came is placed from when it came.
    @Test func theTimesAreMovedFromWhenTheNewsCame() {
        let news = RoundNews(id: 1, title: nil, startsAtMs: 1_003_000, endsAtMs: 1_013_000, graceMs: 5_000, serverNowMs: 1_000_000,
                             standing: RoundStanding(id: 1, place: nil, count: 0, players: 0, final: false), toldAt: told)
        let taken = RoundOnScreen(news, now: at(80))
        #expect(taken.startsAt == at(3_000) && taken.endsAt == at(13_000))
    }
}
