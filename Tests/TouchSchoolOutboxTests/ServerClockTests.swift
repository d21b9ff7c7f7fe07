import Testing
@testable import TouchSchoolOutbox

/// The server's clock as a game measures it, a value fed the times of its pings and pongs.
struct ServerClockTests {
    /// One ping sent at `sent` and answered at `received`, the server's clock reading `server`.
    static func sample(_ clock: inout ServerClock, sent: Int64, server: Int64, received: Int64) {
        clock.pinged(atMs: sent)
        clock.ponged(serverMs: server, atMs: received)
    }

    /// A game started on a loaded machine takes its three samples while its own reader is slow,
    /// each pong read ~280 ms after the server sent it. The server's clock is this machine's, yet
    /// the kept sample puts it 135 ms behind: a round's start would be drawn that late. The game
    /// keeps measuring until a sample's round trip is short.
    @Test func aClockMeasuredOnlyThroughSlowRoundTripsIsMeasuredAgainUntilOneIsShort() {
        var clock = ServerClock()
        for second in Int64(0)..<3 {
            let sent = second * 1_000
            Self.sample(&clock, sent: sent, server: sent + 10, received: sent + 290)
        }
        #expect(clock.serverNow(localMs: 5_000, messageNowMs: 0) == 5_000 - 135)
        #expect(clock.wantsSample)
        Self.sample(&clock, sent: 3_000, server: 3_004, received: 3_008)
        #expect(clock.serverNow(localMs: 5_000, messageNowMs: 0) == 5_000)
        #expect(!clock.wantsSample)
    }

    @Test func threeShortRoundTripsAreEnough() {
        var clock = ServerClock()
        #expect(clock.wantsSample)
        for second in Int64(0)..<2 {
            Self.sample(&clock, sent: second * 1_000, server: second * 1_000 + 7 + 42_000, received: second * 1_000 + 12)
            #expect(clock.wantsSample, "only \(second + 1) samples")
        }
        Self.sample(&clock, sent: 2_000, server: 2_003 + 42_000, received: 2_006)
        #expect(!clock.wantsSample)
        #expect(clock.serverNow(localMs: 10_000, messageNowMs: 0) == 10_000 + 42_000)
    }

    /// A link that is slow every time (a phone's tethering, a far server) is measured a bounded
    /// number of times, then as well as it can be; pongs without the server's clock count too,
    /// so that a server that never tells it is not pinged every second for ever.
    @Test func aSlowLinkIsMeasuredABoundedNumberOfTimes() {
        var clock = ServerClock()
        var pings = 0
        while clock.wantsSample && pings < 100 {
            pings += 1
            let sent = Int64(pings) * 1_000
            clock.pinged(atMs: sent)
            clock.ponged(serverMs: pings.isMultiple(of: 2) ? nil : sent + 150, atMs: sent + 300)
        }
        #expect(pings == ServerClock.samplesAtMost)
        #expect(clock.serverNow(localMs: 20_000, messageNowMs: 0) == 20_000)
    }

    /// What a game moves its batches' times by (issue 48): nothing known before a sample, then the
    /// best sample's offset, whichever way the clocks differ.
    @Test func theOffsetBatchesClaimByIsTheBestSamples() {
        var clock = ServerClock()
        #expect(clock.offsetMs == nil)
        Self.sample(&clock, sent: 1_000, server: 1_150 - 5_000, received: 1_300)
        #expect(clock.offsetMs == -5_000)
        Self.sample(&clock, sent: 2_000, server: 2_010 - 5_030, received: 2_020)
        #expect(clock.offsetMs == -5_030)
        clock.pinged(atMs: 3_000)
        clock.ponged(serverMs: nil, atMs: 3_001)
        #expect(clock.offsetMs == -5_030)
    }
}
