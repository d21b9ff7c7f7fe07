/// The server's side of the tap guard: a networked client could send anything, so the server
/// judges each batch of a device by the guard's burst rule (`TapGuardPolicy`: 230 taps in any
/// 5 seconds) over the time the client says the taps were made, bounded by what the server can
/// check: batches may not overlap, nor lie in the future, and no batch holds more taps than its
/// time allows. Judging by claimed time, not arrival, lets a backlog played offline arrive at once.
public struct DeviceTapHistory: Equatable, Sendable {
    /// The end of the last batch judged, in client milliseconds: the next one starts after it.
    public private(set) var lastEndMs: Int64
    /// Accepted taps of recent batches, by the end of their time, oldest first.
    private var recent: [(endMs: Int64, taps: UInt64)] = []

    public init(firstSeenMs: Int64) { lastEndMs = firstSeenMs }

    public static func == (lhs: DeviceTapHistory, rhs: DeviceTapHistory) -> Bool {
        lhs.lastEndMs == rhs.lastEndMs && lhs.recent.elementsEqual(rhs.recent) { $0.endMs == $1.endMs && $0.taps == $1.taps }
    }

    /// How far ahead of the server's clock a client's clock may be.
    public static let clockSkewMs: Int64 = 2_000

    /// Judges `taps` claimed over `startMs...endMs` at server time `nowMs`; returns how many count.
    public mutating func judge(taps: UInt64, startMs: Int64, endMs: Int64, nowMs: Int64,
                               policy: TapGuardPolicy = .standard) -> (accepted: UInt64, refused: UInt64) {
        let windowMs = policy.burstWindowNanoseconds / 1_000_000
        let start = max(startMs, lastEndMs)
        let end = max(start, min(endMs, nowMs + Self.clockSkewMs))
        // The burst rule's sustained rate over the claimed time, plus one chord of simultaneous
        // presses, which take no time.
        let byTime = UInt64(policy.simultaneousPressLimit) + UInt64((end - start) * Int64(policy.burstLimit) / max(1, windowMs))
        recent.removeAll { $0.endMs <= end - windowMs }
        let inWindow = recent.reduce(UInt64(0)) { $0 + $1.taps }
        let byWindow = UInt64(policy.burstLimit) > inWindow ? UInt64(policy.burstLimit) - inWindow : 0
        let accepted = min(taps, byTime, byWindow)
        if accepted > 0 { recent.append((end, accepted)) }
        lastEndMs = end
        return (accepted, taps - accepted)
    }
}
