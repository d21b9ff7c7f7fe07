import Testing
import TouchSchoolTestSupport
import TouchSchoolCore

/// A round's rules, with the times written out.
@Suite(.onOwnThreads) struct RoundTests {
    let now: Int64 = 1_800_000_000_000

    /// Asked for at `now`: the window opens 3 s later and lasts 60 s.
    var round: Round { Round.starting(id: 1, title: "3반 대항전", seconds: 60, nowMs: now)! }

    @Test func theWindowOpensAfterTheCountdown() {
        #expect(round.startsAtMs == now + 3_000)
        #expect(round.endsAtMs == now + 63_000)
        #expect(Round.starting(id: 1, title: nil, seconds: 4, nowMs: now) == nil)
        #expect(Round.starting(id: 1, title: nil, seconds: 3_601, nowMs: now) == nil)
    }

    /// A batch wholly inside counts whole; one before the start or after the end counts nothing;
    /// one across an edge counts the share of its time inside.
    @Test func tapsCountByTheirTimeInTheWindow() {
        let start = now + 3_000, end = now + 63_000
        #expect(round.counted(taps: 10, startMs: start, endMs: start + 1_000, receivedAtMs: start + 1_100) == 10)
        #expect(round.counted(taps: 10, startMs: start - 1_000, endMs: start, receivedAtMs: start + 100) == 0)
        #expect(round.counted(taps: 10, startMs: start - 1_000, endMs: start + 1_000, receivedAtMs: start + 1_100) == 5)
        #expect(round.counted(taps: 9, startMs: end - 1_000, endMs: end + 2_000, receivedAtMs: end + 2_100) == 3)
        #expect(round.counted(taps: 10, startMs: end, endMs: end + 1_000, receivedAtMs: end + 1_100) == 0)
        // A batch of one instant counts when the instant is in [start, end).
        #expect(round.counted(taps: 1, startMs: start, endMs: start, receivedAtMs: start) == 1)
        #expect(round.counted(taps: 1, startMs: end, endMs: end, receivedAtMs: end) == 0)
    }

    /// A batch made in the window and delivered within 5 s of its end counts; later, nothing.
    @Test func lateBatchesCountUntilTheGraceIsOver() {
        let end = now + 63_000
        #expect(round.counted(taps: 10, startMs: end - 1_000, endMs: end - 1, receivedAtMs: end + 4_999) == 10)
        #expect(round.counted(taps: 10, startMs: end - 1_000, endMs: end - 1, receivedAtMs: end + 5_000) == 0)
        #expect(round.takesBatches(atMs: end + 4_999))
        #expect(!round.takesBatches(atMs: end + 5_000))
    }

    /// Stopped early the window closes at the stop; stopped in its countdown it counts nothing;
    /// stopped after its end it stays as it was.
    @Test func stoppingClosesTheWindow() {
        #expect(round.stopped(atMs: now + 10_000).endsAtMs == now + 10_000)
        // Stopped in its countdown: over at the stop (not 3 s later, when the window would have
        // opened), a window of no length.
        let inCountdown = round.stopped(atMs: now + 1_000)
        #expect(inCountdown.startsAtMs == now + 1_000 && inCountdown.endsAtMs == now + 1_000)
        #expect(inCountdown.counted(taps: 5, startMs: now + 3_000, endMs: now + 3_000, receivedAtMs: now + 3_000) == 0)
        #expect(inCountdown.counted(taps: 5, startMs: now + 500, endMs: now + 4_000, receivedAtMs: now + 4_000) == 0)
        #expect(round.stopped(atMs: now + 99_000).endsAtMs == now + 63_000)
    }

    /// Equal counts share the place, as the national board ranks schools (1, 1, 3): listed the
    /// count reached first first, then by key, so that the same counts always list the same.
    @Test func tiesShareThePlace() {
        let places = RoundStandings.places([
            RoundCount(key: "b", count: 5, reachedMs: 20),
            RoundCount(key: "a", count: 5, reachedMs: 20),
            RoundCount(key: "c", count: 5, reachedMs: 10),
            RoundCount(key: "d", count: 9, reachedMs: 30),
            RoundCount(key: "f", count: 2, reachedMs: 5),
            RoundCount(key: "e", count: 0, reachedMs: 0),
        ])
        #expect(places.map(\.entry.key) == ["d", "c", "a", "b", "f"])
        #expect(places.map(\.place) == [1, 2, 2, 2, 5])
        #expect(places.map(\.tied) == [false, true, true, true, false])
        let three = RoundStandings.places([150, 150, 150].enumerated().map { RoundCount(key: "p\($0.offset)", count: $0.element, reachedMs: 1) })
        #expect(three.map(\.place) == [1, 1, 1])
        let podium = RoundStandings.places([150, 150, 90].enumerated().map { RoundCount(key: "p\($0.offset)", count: $0.element, reachedMs: 1) })
        #expect(podium.map(\.place) == [1, 1, 3])
    }

    @Test func oneSchoolHasNoSchoolStandings() {
        #expect(RoundStandings.schoolPlaces([RoundCount(key: "s1", count: 3, reachedMs: 1)]).isEmpty)
        #expect(RoundStandings.schoolPlaces([RoundCount(key: "s1", count: 3, reachedMs: 1),
                                             RoundCount(key: "s2", count: 4, reachedMs: 1)]).map(\.entry.key) == ["s2", "s1"])
    }

    @Test func titlesAreTrimmedAndControlsRefused() {
        #expect(Round.title("  3반 대항전 ") == ("3반 대항전", true))
        #expect(Round.title("   ") == (nil, true))
        #expect(Round.title("a\u{1B}[2J") == (nil, false))
        #expect(Round.title(String(repeating: "가", count: 61)) == (nil, false))
    }

    @Test func countsAddUpAndKeepTheLatestTime() {
        var count = RoundCount(key: "a", count: 0, reachedMs: 0)
        count.add(3, atMs: 50)
        count.add(0, atMs: 90)
        count.add(2, atMs: 70)
        #expect(count == RoundCount(key: "a", count: 5, reachedMs: 70))
    }
}
