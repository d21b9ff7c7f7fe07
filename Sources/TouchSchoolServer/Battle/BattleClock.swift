import Foundation

/// The server's clock, passed in as a value (as the stores' `StoreClock` is) rather than read
/// wherever time is wanted: one place says what "now" is, and a test can say it instead.
struct BattleClock: Sendable {
    /// An instant of a clock that never goes back: the hall's events, its alarms, waits and latencies.
    var now: @Sendable () -> ContinuousClock.Instant
    /// Milliseconds since 1970, the server's time of day: commits judge by it, rounds are timed
    /// by it, `pong` tells it, the operator's list counts by its hour.
    var wallMs: @Sendable () -> Int64
    /// Milliseconds on a clock that never goes back, as a number: the address budgets' time.
    var monotonicMs: @Sendable () -> Int64

    static let system = BattleClock(now: { .now }, wallMs: { Int64(Date().timeIntervalSince1970 * 1000) },
                                    monotonicMs: { Int64(DispatchTime.now().uptimeNanoseconds / 1_000_000) })

    /// This clock with its time of day moved by `offsetMs` (`serve --clock-offset-ms`, hidden: for
    /// tests of a season's boundary, which a real process reaches only at midnight on a Monday).
    func movedBy(ms offsetMs: Int64) -> BattleClock {
        guard offsetMs != 0 else { return self }
        let wallMs = self.wallMs
        return BattleClock(now: now, wallMs: { wallMs() + offsetMs }, monotonicMs: monotonicMs)
    }
}
