import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolProtocol
@testable import TouchSchoolServer

/// A commit is given the judges of its own batches and its answer put back over the hall's: the
/// same verdicts as judging with every device's and address's, window after window.
@Suite(.onOwnThreads) struct TapJudgesTests {
    let catalog = Catalog(schools: ["A", "B", "C"].map {
        School(id: $0, name: "\($0) school", level: .high, province: "서울특별시", district: "", address: "")
    }, aliases: [:], source: .starter)

    /// SplitMix64: the same windows on every run, a seed per case.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func theJudgesOfABatchAloneJudgeAsTheWholeDoes(seed: UInt64) {
        var random = Random(state: seed)
        // 40 devices behind 5 addresses, so that the addresses' budgets refuse taps too; the
        // clock moves 0.05–3 s a window, past the budgets' sweep (60 s) several times.
        let devices = (0..<40).map { "device-\($0)" }
        let networks = (0..<5).map { "10.0.0.\($0)" }
        var nextSeq: [String: UInt64] = [:]
        var lastEnd: [String: Int64] = [:]
        var nowMs: Int64 = 1_800_000_000_000
        var whole = TapJudges(addresses: .standard), split = TapJudges(addresses: .standard)
        var wholeState = SavedState(), splitState = SavedState()
        var refused: UInt64 = 0
        for window in 0..<400 {
            nowMs += Int64.random(in: 50...3_000, using: &random)
            var batches: [ReceivedBatch] = []
            for device in devices.shuffled(using: &random).prefix(Int.random(in: 1...12, using: &random)) {
                let seq = nextSeq[device, default: 0] + 1
                nextSeq[device] = seq
                let start = max(lastEnd[device] ?? nowMs - 1_000, nowMs - Int64.random(in: 200...2_000, using: &random))
                let end = min(nowMs, start + Int64.random(in: 50...1_000, using: &random))
                lastEnd[device] = end
                let taps = UInt64.random(in: 0...(Bool.random(using: &random) ? 12 : 400), using: &random)
                let network = networks[Int(device.dropFirst(7))! % networks.count]
                batches.append(ReceivedBatch(connection: 1, device: device, player: "p",
                                             batch: TapBatch(seq: seq, taps: ["ABC".map(String.init)[Int(seq) % 3]: taps], playerTaps: taps,
                                                             switchedToSchool: seq == 1 ? "A" : nil, bestTapsPerSecond: 5,
                                                             startMs: start, endMs: end),
                                             address: network, network: network))
            }
            let expected = CommitRules.apply(batches, to: &wholeState, histories: &whole, catalog: catalog, nowMs: nowMs)
            var judged = split.judging(batches)
            #expect(judged.devices.count <= batches.count, "a commit holds its batches' judges, not every device's")
            let got = CommitRules.apply(batches, to: &splitState, histories: &judged, catalog: catalog, nowMs: nowMs)
            split.update(with: judged)
            #expect(got.outcomes == expected.outcomes, "window \(window)")
            refused += expected.refused
            if got.outcomes != expected.outcomes { return }
        }
        #expect(splitState == wholeState)
        #expect(split.devices == whole.devices)
        for network in networks {
            for later in [0, 500, 5_000] as [Int64] {
                #expect(split.addresses.available(to: network, atMs: nowMs + later) == whole.addresses.available(to: network, atMs: nowMs + later))
            }
        }
        // Some taps were refused and some accepted: the case is not trivial.
        #expect(wholeState.scores.values.reduce(0, +) > 0 && refused > 0, "\(refused) refused")
    }
}
