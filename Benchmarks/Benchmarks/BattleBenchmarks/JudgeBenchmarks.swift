import Benchmark
import TouchSchoolCore

/// The server's judge of a batch (issue 18) beside its baseline, the burst rule alone as it was
/// before the minute and hour windows and the address's tap budget: the cost of one batch, and a
/// class of 40 behind one address at full honest speed for a ten-minute battle through each,
/// with the taps refused (the floor: none).
func judgeBenchmarks() {
    // The burst rule alone: the longer windows' limits out of reach.
    var burstOnly = TapGuardPolicy.standard
    burstOnly.minuteLimit = Int(Int32.max)
    burstOnly.hourLimit = Int(Int32.max)

    let perBatch = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds,
                                           scalingFactor: .kilo, maxDuration: .seconds(5))
    for (label, policy, budgeted) in [("judge baseline: a batch, the burst rule alone", burstOnly, false),
                                      ("judge: a batch, burst, minute and hour rules and the address budget", TapGuardPolicy.standard, true)] {
        Benchmark(label, configuration: perBatch) { benchmark in
            var player = HonestPlayer(policy: policy, budgeted: budgeted)
            for _ in benchmark.scaledIterations { blackHole(player.nextBatch()) }
        }
    }

    let battle = Benchmark.Configuration(metrics: [.wallClock, .custom("taps refused", useScalingFactor: false)],
                                         timeUnits: .microseconds, maxDuration: .seconds(10), maxIterations: 50)
    for (label, policy, budgeted) in [("judge baseline: a class of 40, ten minutes, the burst rule alone", burstOnly, false),
                                      ("judge: a class of 40, ten minutes, every rule and the address budget", TapGuardPolicy.standard, true)] {
        Benchmark(label, configuration: battle) { benchmark in
            benchmark.measurement(.custom("taps refused", useScalingFactor: false), Int(HonestClass.play(policy: policy, budgeted: budgeted)))
        }
    }
}

/// One player's batches of 250 ms at full honest speed, as in `HonestClass`, judged one by one.
struct HonestPlayer {
    var history: DeviceTapHistory
    var budget: TapBudget?
    var tick = 0
    static let startMs: Int64 = 1_800_000_000_000

    init(policy: TapGuardPolicy, budgeted: Bool) {
        history = DeviceTapHistory(firstSeenMs: Self.startMs, policy: policy)
        budget = budgeted ? TapBudget(perSecond: 2_000, burst: 10_000, atMs: Self.startMs) : nil
    }

    mutating func nextBatch() -> UInt64 {
        tick += 1
        let endMs = Self.startMs + Int64(tick) * 250
        let verdict = history.judge(taps: HonestClass.taps(atTick: tick - 1), startMs: endMs - 250, endMs: endMs, nowMs: endMs + 30,
                                    atMost: budget?.available(atMs: endMs + 30) ?? .max)
        budget?.spend(verdict.accepted, atMs: endMs + 30)
        return verdict.accepted
    }
}

/// A class of 40 behind one address for ten minutes, every player at full honest speed: a
/// 5-second sprint at 44 taps a second at the top of each minute, 20 a second the rest of it, all
/// sprinting at once (the same class as the server's test `anHonestClassOfFortyAtFullSpeed…`).
enum HonestClass {
    static func taps(atTick tick: Int) -> UInt64 { tick % 240 < 20 ? 11 : 5 }

    /// The taps refused over the whole battle.
    static func play(policy: TapGuardPolicy, budgeted: Bool) -> UInt64 {
        let start = HonestPlayer.startMs
        var histories = (0..<40).map { _ in DeviceTapHistory(firstSeenMs: start, policy: policy) }
        var budget = TapBudget(perSecond: 2_000, burst: 10_000, atMs: start)
        var refused: UInt64 = 0
        for tick in 0..<(600 * 4) {
            let endMs = start + Int64(tick + 1) * 250
            for index in histories.indices {
                let verdict = histories[index].judge(taps: taps(atTick: tick), startMs: endMs - 250, endMs: endMs, nowMs: endMs + 30,
                                                     atMost: budgeted ? budget.available(atMs: endMs + 30) : .max)
                if budgeted { budget.spend(verdict.accepted, atMs: endMs + 30) }
                refused += verdict.refused
            }
        }
        return refused
    }
}
