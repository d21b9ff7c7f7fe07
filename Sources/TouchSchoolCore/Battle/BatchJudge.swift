/// The server's side of the tap guard: a networked client could send anything, so the server
/// judges each batch of a device by `TapGuardPolicy` over the time the client says the taps were
/// made, bounded by what the server can check: batches may not overlap, nor lie in the future, and
/// no batch holds more taps than its time allows. Judging by claimed time, not arrival, lets a
/// backlog played offline arrive at once; the hour rule, on the server's clock, keeps a backlog
/// to what a person plays in an hour however long the absence it claims.
///
/// Constant memory and work per device: each window is a `WindowTally` of a few dozen slots, and
/// a batch's accepted taps are counted at the end of its claimed time (the hour's at its
/// judgement).
public struct DeviceTapHistory: Equatable, Sendable {
    /// The end of the last batch judged, in client milliseconds: the next one starts after it.
    public private(set) var lastEndMs: Int64
    private let policy: TapGuardPolicy
    /// The burst rule's window in tenths (500 ms): bunching finer than that is the batch rule's.
    private var burst: WindowTally
    /// The minute rule's in twelfths (5 s), the burst window's length.
    private var minute: WindowTally
    /// The hour rule's in minutes, on the server's clock.
    private var hour: WindowTally

    public init(firstSeenMs: Int64, policy: TapGuardPolicy = .standard) {
        lastEndMs = firstSeenMs
        self.policy = policy
        burst = WindowTally(windowMs: policy.burstWindowNanoseconds / 1_000_000, slotCount: 10, atMs: firstSeenMs)
        minute = WindowTally(windowMs: policy.minuteWindowNanoseconds / 1_000_000, slotCount: 12, atMs: firstSeenMs)
        hour = WindowTally(windowMs: policy.hourWindowNanoseconds / 1_000_000, slotCount: 60, atMs: firstSeenMs)
    }

    /// How far ahead of the server's clock a client's clock may be.
    public static let clockSkewMs: Int64 = 2_000

    /// Judges `taps` claimed over `startMs...endMs` at server time `nowMs`, accepting at most
    /// `atMost` (what the address's budget has left); returns how many count, and the time they
    /// are judged as made over (the claim cut to after the last batch and to the server's clock):
    /// a round counts the accepted taps by that time (`Round.counted`).
    public mutating func judge(taps: UInt64, startMs: Int64, endMs: Int64, nowMs: Int64,
                               atMost: UInt64 = .max) -> (accepted: UInt64, refused: UInt64, startMs: Int64, endMs: Int64) {
        let start = max(startMs, lastEndMs)
        let end = max(start, min(endMs, nowMs + Self.clockSkewMs))
        // The burst rule's sustained rate over the claimed time, plus one chord of simultaneous
        // presses, which take no time.
        let burstWindowMs = max(1, policy.burstWindowNanoseconds / 1_000_000)
        let byTime = UInt64(policy.simultaneousPressLimit) + UInt64((end - start) * Int64(policy.burstLimit) / burstWindowMs)
        burst.advance(to: end)
        minute.advance(to: end)
        hour.advance(to: nowMs)
        let accepted = min(taps, byTime, atMost,
                           Self.room(in: burst, limit: policy.burstLimit),
                           Self.room(in: minute, limit: policy.minuteLimit),
                           Self.room(in: hour, limit: policy.hourLimit))
        burst.add(accepted)
        minute.add(accepted)
        hour.add(accepted)
        lastEndMs = end
        return (accepted, taps - accepted, start, end)
    }

    private static func room(in window: WindowTally, limit: Int) -> UInt64 {
        UInt64(limit) > window.total ? UInt64(limit) - window.total : 0
    }
}
