import Testing
@testable import TouchSchoolCore

/// A round as the game shows it: its times moved from the server's clock onto the game's when it
/// is told, so that the countdown and the seconds left follow the server's; the place as the
/// server tells it; the result shown for a while once final, rung for once when the player was
/// there at the end.
@Suite struct RoundOnScreenTests {
    /// The server's clock reads 1 000 000 when the game's reads 50 000 (ms): 950 000 ahead.
    static let told = Instant.milliseconds(50_000)
    static func news(place: Int? = nil, count: UInt64 = 0, players: Int = 0, final: Bool = false, endsAtMs: Int64 = 1_013_000,
                     serverNowMs: Int64 = 1_000_000) -> RoundNews {
        RoundNews(id: 4, title: "3반", startsAtMs: 1_003_000, endsAtMs: endsAtMs, graceMs: 5_000, serverNowMs: serverNowMs,
                  standing: RoundStanding(id: 4, place: place, count: count, players: players, final: final))
    }
    static func at(_ ms: Int64) -> Instant { .milliseconds(ms) }

    @Test func theCountdownAndTheRaceFollowTheServersClock() {
        let round = RoundOnScreen(Self.news(), now: Self.told)
        // Opens at the game's 53 000, ends at 63 000; the grace ends at 68 000.
        #expect(round.phase(at: Self.at(50_000)) == .countdown(3))
        #expect(round.phase(at: Self.at(51_001)) == .countdown(2))
        #expect(round.phase(at: Self.at(52_999)) == .countdown(1))
        #expect(round.phase(at: Self.at(53_000)) == .race(secondsLeft: 10))
        #expect(round.phase(at: Self.at(62_001)) == .race(secondsLeft: 1))
        #expect(round.phase(at: Self.at(63_000)) == .counting)
        // Never final: after the grace and the result's time, nothing more to show.
        #expect(round.phase(at: Self.at(68_000 + RoundOnScreen.resultMilliseconds)) == .over)
        // Told mid-race (the server's clock at 1 008 400): the race where it is, no countdown.
        let late = RoundOnScreen(Self.news(serverNowMs: 1_008_400), now: Self.told)
        #expect(late.phase(at: Self.told) == .race(secondsLeft: 5))
    }

    @Test func placesAreTakenAndTheFinalResultRingsOnce() {
        var state = GameTests().makeGame(school: 0)
        state.bellEnabled = true
        #expect(update(&state, .roundTold(Self.news()), now: Self.told) == [])
        #expect(update(&state, .roundPlaceTold(RoundStanding(id: 4, place: 2, count: 30, players: 5, final: false)), now: Self.at(56_000)) == [])
        #expect(state.round?.standing.place == 2 && state.round?.title == "3반")
        // Another round's place is not this one's.
        #expect(update(&state, .roundPlaceTold(RoundStanding(id: 3, place: 1, count: 99, players: 5, final: true)), now: Self.at(57_000)) == [])
        #expect(state.round?.standing.count == 30)
        // Final a second after the grace: the result, and the bell.
        let final = RoundStanding(id: 4, place: 1, count: 41, players: 5, final: true)
        #expect(update(&state, .roundPlaceTold(final), now: Self.at(69_000)) == [.bell])
        #expect(state.round?.phase(at: Self.at(69_000)) == .result)
        #expect(state.round?.phase(at: Self.at(69_000 + RoundOnScreen.resultMilliseconds)) == .over)
        // Told again (a reconnection): no second bell, the result keeps its time.
        #expect(update(&state, .roundTold(Self.news(place: 1, count: 41, players: 5, final: true, serverNowMs: 1_019_500)), now: Self.at(69_500)) == [])
        #expect(state.round?.phase(at: Self.at(69_000 + RoundOnScreen.resultMilliseconds)) == .over)
        // With the bell off, nothing rings.
        var quiet = GameTests().makeGame(school: 0)
        quiet.bellEnabled = false
        _ = update(&quiet, .roundTold(Self.news()), now: Self.told)
        #expect(update(&quiet, .roundPlaceTold(final), now: Self.at(69_000)) == [])
    }

    @Test func aRoundFinalLongBeforeTheGameJoinedShowsItsResultWithoutRinging() {
        var state = GameTests().makeGame(school: 0)
        state.bellEnabled = true
        // Told 2 minutes after the grace: shown, not rung for.
        let commands = update(&state, .roundTold(Self.news(place: 3, count: 12, players: 9, final: true, serverNowMs: 1_138_000)), now: Self.told)
        #expect(commands == [])
        #expect(state.round?.phase(at: Self.told) == .result)
        // A round stopped in its countdown (its window closes where it opened) counts nothing and races not.
        let stopped = RoundOnScreen(Self.news(endsAtMs: 1_003_000), now: Self.told)
        #expect(stopped.phase(at: Self.at(53_000)) == .counting)
    }
}

/// A round on a game's screen: when what it shows changes by the clock alone, so that an idle
/// game wakes for the countdown's digits, GO and the seconds left instead of its next idle tick.
@Suite struct RoundOnScreenChangeTests {
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

extension RoundOnScreenChangeTests {
    /// News taken by the game a moment after it came is placed from when it came.
    @Test func theTimesAreMovedFromWhenTheNewsCame() {
        let news = RoundNews(id: 1, title: nil, startsAtMs: 1_003_000, endsAtMs: 1_013_000, graceMs: 5_000, serverNowMs: 1_000_000,
                             standing: RoundStanding(id: 1, place: nil, count: 0, players: 0, final: false), toldAt: told)
        let taken = RoundOnScreen(news, now: at(80))
        #expect(taken.startsAt == at(3_000) && taken.endsAt == at(13_000))
    }
}
