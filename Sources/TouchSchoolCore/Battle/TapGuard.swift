/// Why a tap was not counted.
public enum TapRefusal: Equatable, Sendable {
    /// More taps in the window than a human makes (the original's 비정상 터치).
    case tooManyTaps
    /// One key repeating faster than anyone presses one key: the terminal's auto-repeat.
    case heldKey
    /// Pasted text.
    case paste
    /// The server's operator banned this device: no tap of it counts, however it is made.
    case banned
}

public enum TapVerdict: Equatable, Sendable {
    case counted
    case refused(TapRefusal)
}

/// Every threshold of `TapGuard`, with the reason for its value.
public struct TapGuardPolicy: Equatable, Sendable {
    /// The burst rule's window. The original app's rule: more than 230 taps within any 5 seconds is
    /// not human. Five seconds is long enough that a human's short flurries average out.
    public var burstWindowNanoseconds: Int64
    /// The most tap attempts (counted or refused) allowed within `burstWindowNanoseconds`: the
    /// original's 230, i.e. 46 taps a second sustained for 5 s, beyond any human but a few times
    /// below a bot or a held key. Refused attempts count too, so a bot keeps being refused for as
    /// long as it goes on instead of slipping 230 taps through every 5 s.
    public var burstLimit: Int

    /// The shortest interval at which anyone presses one single key again: the world record for
    /// one finger on one key is about 16 presses a second, 62.5 ms apart. Terminal auto-repeat sends
    /// one key 25–40 times a second (25–40 ms apart), well below it.
    public var singleKeyIntervalNanoseconds: Int64
    /// How much a remote terminal may bunch or delay one press: tens of milliseconds. Jitter moves
    /// each press on its own, so it does not accumulate: a span of several intervals is off by at
    /// most this much, however many intervals it covers.
    public var jitterAllowanceNanoseconds: Int64
    /// The spans checked end at the newest press and cover this many consecutive intervals of one
    /// key. A single interval says nothing (jitter can bunch two deliberate presses to 0 ms apart);
    /// from two intervals on, the allowance is small against the span. Eight intervals, a third of a
    /// second of auto-repeat, is enough to see through any bunching pattern.
    public var heldKeyIntervalSpans: ClosedRange<Int>

    /// The most presses a human can deliver at once: a USB keyboard's 6-key rollover.
    public var simultaneousPressLimit: Int
    /// How close presses must be to count as "at once": 20 ms is less than any human needs
    /// between two deliberate presses, yet more than a terminal needs to deliver a chord.
    public var simultaneityWindowNanoseconds: Int64

    /// The server's judge of backlogs (`DeviceTapHistory`) adds two longer windows: the burst
    /// rule alone would let a script claim its 46 taps a second for every second of any time it
    /// says it played. This one is over claimed time, like the burst rule.
    public var minuteWindowNanoseconds: Int64
    /// 1,500 in any minute: 25 taps a second kept up for a whole minute. The burst rule's 46 a
    /// second is a sprint of a few seconds; the fastest tappers' one-minute records are about
    /// 15–20 a second, so 25 leaves them a margin while a backlog claiming sprints for minutes
    /// on end is a script's.
    public var minuteLimit: Int
    /// The hour rule's window, on the server's clock (when taps are judged), not the claimed
    /// one: a device can claim any past it likes, but it cannot make the hours it is judged in.
    public var hourWindowNanoseconds: Int64
    /// 36,000 in any hour: 10 taps a second for an hour without a rest, more than any person
    /// keeps up (and what the benchmark's honest players make). A key idle for a day, or a
    /// year, thus claims at most an hour of play when it comes back, while an honest offline
    /// session counts in full up to it.
    public var hourLimit: Int

    public init(
        burstWindowNanoseconds: Int64, burstLimit: Int,
        singleKeyIntervalNanoseconds: Int64, jitterAllowanceNanoseconds: Int64, heldKeyIntervalSpans: ClosedRange<Int>,
        simultaneousPressLimit: Int, simultaneityWindowNanoseconds: Int64,
        minuteWindowNanoseconds: Int64, minuteLimit: Int, hourWindowNanoseconds: Int64, hourLimit: Int
    ) {
        precondition(burstLimit >= 1 && simultaneousPressLimit >= 1 && heldKeyIntervalSpans.lowerBound >= 1)
        precondition(minuteLimit >= 1 && hourLimit >= 1)
        self.burstWindowNanoseconds = burstWindowNanoseconds
        self.burstLimit = burstLimit
        self.singleKeyIntervalNanoseconds = singleKeyIntervalNanoseconds
        self.jitterAllowanceNanoseconds = jitterAllowanceNanoseconds
        self.heldKeyIntervalSpans = heldKeyIntervalSpans
        self.simultaneousPressLimit = simultaneousPressLimit
        self.simultaneityWindowNanoseconds = simultaneityWindowNanoseconds
        self.minuteWindowNanoseconds = minuteWindowNanoseconds
        self.minuteLimit = minuteLimit
        self.hourWindowNanoseconds = hourWindowNanoseconds
        self.hourLimit = hourLimit
    }

    public static let standard = TapGuardPolicy(
        burstWindowNanoseconds: 5_000_000_000, burstLimit: 230,
        singleKeyIntervalNanoseconds: 62_500_000, jitterAllowanceNanoseconds: 40_000_000, heldKeyIntervalSpans: 2...8,
        simultaneousPressLimit: 6, simultaneityWindowNanoseconds: 20_000_000,
        minuteWindowNanoseconds: 60_000_000_000, minuteLimit: 1_500, hourWindowNanoseconds: 3_600_000_000_000, hourLimit: 36_000
    )
}

/// Detects taps too fast to be human. All thresholds live in `TapGuardPolicy`.
///
/// Three rules, each O(1) per press over rings of recent press times (every press is an attempt,
/// counted or refused):
/// - burst: counting this press would put more than `burstLimit` attempts in the trailing window;
/// - simultaneity: more than `simultaneousPressLimit` presses within the simultaneity window;
/// - held key: within a run of consecutive presses of one key, some span of the last j intervals
///   (j in `heldKeyIntervalSpans`) is shorter than j single-key intervals less the jitter allowance.
///   Presses of different keys never form a run, so mashing many keys or alternating fingers is
///   never refused by this rule. Auto-repeat starts after a pause of 250–600 ms; the first one or
///   two repeats after it span that pause and cannot be told apart from deliberate presses when
///   they arrive, so they count. Every repeat after them is refused.
/// When several rules refuse a press, the burst rule's reason wins: it is the original's warning.
public struct TapGuard: Sendable {
    public let policy: TapGuardPolicy

    /// The times of the last `burstLimit` attempts; `burstNext` is the oldest once full.
    private var burstTimes: ContiguousArray<Int64>
    private var burstNext = 0
    /// The times of the last `simultaneousPressLimit` attempts, likewise.
    private var simultaneousTimes: ContiguousArray<Int64>
    private var simultaneousNext = 0
    /// The times of the current run of one key: the last `heldKeyIntervalSpans.upperBound + 1`
    /// presses (enough for that many intervals).
    private var runTimes: ContiguousArray<Int64>
    private var runNext = 0
    private var runLength = 0
    private var runKey: UInt32 = 0

    /// The time of the attempts before the first: far enough in the past that they never fall
    /// inside a window, yet near enough that subtracting it from any clock reading cannot overflow.
    private static let longAgo = Int64.min / 4

    public init() { self.init(policy: .standard) }

    public init(policy: TapGuardPolicy = .standard) {
        self.policy = policy
        burstTimes = ContiguousArray(repeating: Self.longAgo, count: policy.burstLimit)
        simultaneousTimes = ContiguousArray(repeating: Self.longAgo, count: policy.simultaneousPressLimit)
        runTimes = ContiguousArray(repeating: Self.longAgo, count: policy.heldKeyIntervalSpans.upperBound + 1)
    }

    /// `key` identifies the key pressed (its Unicode scalar value or key code).
    public mutating func judge(key: UInt32, at now: Instant) -> TapVerdict {
        let time = now.nanoseconds
        // The oldest of the last `burstLimit` attempts: if it is inside the window, this press
        // would make one more than the limit.
        let tooManyTaps = time &- burstTimes[burstNext] < policy.burstWindowNanoseconds
        burstTimes[burstNext] = time
        burstNext = burstNext + 1 == burstTimes.count ? 0 : burstNext + 1

        let simultaneous = time &- simultaneousTimes[simultaneousNext] < policy.simultaneityWindowNanoseconds
        simultaneousTimes[simultaneousNext] = time
        simultaneousNext = simultaneousNext + 1 == simultaneousTimes.count ? 0 : simultaneousNext + 1

        let held = recordInRun(key: key, at: time)

        if tooManyTaps { return .refused(.tooManyTaps) }
        if simultaneous { return .refused(.paste) }
        if held { return .refused(.heldKey) }
        return .counted
    }

    /// Adds the press to the run of its key (starting a new run on another key) and tells whether
    /// the run now repeats faster than one finger can press one key.
    private mutating func recordInRun(key: UInt32, at time: Int64) -> Bool {
        if runLength == 0 || key != runKey {
            runKey = key
            runLength = 0
        }
        runTimes[runNext] = time
        runNext = runNext + 1 == runTimes.count ? 0 : runNext + 1
        runLength = min(runLength + 1, runTimes.count)

        let intervals = runLength - 1
        guard intervals >= policy.heldKeyIntervalSpans.lowerBound else { return false }
        for span in policy.heldKeyIntervalSpans.lowerBound...min(intervals, policy.heldKeyIntervalSpans.upperBound) {
            // The press `span` presses before this one; `runNext` has moved past this press.
            var slot = runNext - 1 - span
            if slot < 0 { slot += runTimes.count }
            let shortest = Int64(span) * policy.singleKeyIntervalNanoseconds - policy.jitterAllowanceNanoseconds
            if time &- runTimes[slot] < shortest { return true }
        }
        return false
    }
}
