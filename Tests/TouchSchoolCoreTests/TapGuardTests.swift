import Testing
import TouchSchoolTestSupport
import TouchSchoolCore

/// One press of a synthetic timeline: which key, and when, in milliseconds.
private struct Press {
    var key: UInt32
    var milliseconds: Double
}

private func judge(_ presses: [Press], guard tapGuard: TapGuard = TapGuard()) -> [TapVerdict] {
    var tapGuard = tapGuard
    return presses.map { tapGuard.judge(key: $0.key, at: Instant(nanoseconds: Int64($0.milliseconds * 1e6))) }
}

private func counted(_ verdicts: [TapVerdict]) -> Int { verdicts.filter { $0 == .counted }.count }

private let a = UInt32(UnicodeScalar("a").value)

/// A held key: the first press, then the terminal's auto-repeat after `delay`, every `every` ms.
private func heldKey(delay: Double = 500, every: Double = 33, repeats: Int = 90) -> [Press] {
    [Press(key: a, milliseconds: 0)] + (0..<repeats).map { Press(key: a, milliseconds: delay + Double($0) * every) }
}

@Suite(.onOwnThreads) struct TapGuardTests {
    @Test func oneFingerOnOneKeyAtTwelveASecondCounts() {
        let presses = (0..<120).map { Press(key: a, milliseconds: Double($0) * 1_000 / 12) }
        #expect(counted(judge(presses)) == 120)
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4, 5])
    func jitteredOneFingerCounts(seed: UInt64) {
        var generator = RandomSource(seed: seed)
        let presses = (0..<120).map {
            Press(key: a, milliseconds: Double($0) * 1_000 / 12 + Double.random(in: -30...30, using: &generator))
        }
        #expect(counted(judge(presses)) == 120)
    }

    @Test func fourFingersAlternatingCount() {
        let keys: [UInt32] = [0x61, 0x73, 0x64, 0x66]
        let presses = (0..<250).map { Press(key: keys[$0 % 4], milliseconds: Double($0) * 40) }
        #expect(counted(judge(presses)) == 250)
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func twoHandsMashingEightKeysCount(seed: UInt64) {
        var generator = RandomSource(seed: seed)
        var keys: [UInt32] = []
        for _ in 0..<400 {
            // One finger cannot press one key at 20 a second, so a key comes at most three times
            // in a row (already faster than a finger: the jitter allowance lets it through).
            var key: UInt32
            repeat { key = UInt32.random(in: 0..<8, using: &generator) } while keys.suffix(3) == [key, key, key]
            keys.append(key)
        }
        let presses = keys.enumerated().map { Press(key: $0.element, milliseconds: Double($0.offset) * 50) }
        #expect(counted(judge(presses)) == 400)
    }

    @Test func aBotAtSixtyASecondIsRefusedForAsLongAsItGoesOn() {
        let presses = (0..<360).map { Press(key: UInt32($0 % 10), milliseconds: Double($0) * 1_000 / 60) }
        let verdicts = judge(presses)
        #expect(counted(verdicts) <= 230)
        let firstRefusal = try! #require(verdicts.firstIndex { $0 != .counted })
        #expect(verdicts[firstRefusal...].allSatisfy { $0 == .refused(.tooManyTaps) })
        #expect(verdicts.last == .refused(.tooManyTaps))
    }

    @Test func theBurstRuleLetsGoFiveSecondsAfterTheBot() {
        var presses = (0..<360).map { Press(key: UInt32($0 % 10), milliseconds: Double($0) * 1_000 / 60) }
        presses.append(Press(key: 1, milliseconds: 6_000 + 5_000))
        #expect(judge(presses).last == .counted)
    }

    @Test func aHeldKeyIsRefusedAfterTheFirstRepeats() {
        let verdicts = judge(heldKey())
        #expect(verdicts[0] == .counted)
        #expect(verdicts[3...].allSatisfy { $0 == .refused(.heldKey) })
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4, 5, 6, 7, 8])
    func aJitteredHeldKeyIsRefusedAfterTheFirstRepeats(seed: UInt64) {
        var generator = RandomSource(seed: seed)
        let presses = heldKey().map {
            Press(key: $0.key, milliseconds: $0.milliseconds + Double.random(in: -15...15, using: &generator))
        }
        #expect(judge(presses)[3...].allSatisfy { $0 == .refused(.heldKey) })
    }

    @Test func aHeldKeyDeliveredInPairsIsRefused() {
        // Each pair of repeats arrives together, then nothing for 66 ms.
        let presses = heldKey().map {
            let sinceFirstRepeat = $0.milliseconds - 500
            guard sinceFirstRepeat >= 0 else { return $0 }
            let pair = (sinceFirstRepeat / 66).rounded(.down)
            return Press(key: $0.key, milliseconds: 500 + pair * 66)
        }
        #expect(judge(presses)[3...].allSatisfy { $0 == .refused(.heldKey) })
    }

    @Test func aPasteBurstCountsAtMostSix() {
        let text = "touch school paste!!".unicodeScalars.map(\.value)
        #expect(text.count == 20)
        let presses = text.enumerated().map { Press(key: $0.element, milliseconds: Double($0.offset) / 20) }
        let verdicts = judge(presses)
        #expect(counted(verdicts) <= 6)
        #expect(verdicts.filter { $0 != .counted }.allSatisfy { $0 == .refused(.paste) })
    }

    @Test func aChordOfSixKeysCounts() {
        let presses = (0..<6).map { Press(key: UInt32($0), milliseconds: 100 + Double($0) * 2) }
        #expect(counted(judge(presses)) == 6)
    }

    @Test func thePolicyIsWhatTheGuardApplies() {
        var policy = TapGuardPolicy.standard
        policy.burstLimit = 3
        policy.burstWindowNanoseconds = 1_000_000_000
        let presses = (0..<5).map { Press(key: UInt32($0), milliseconds: Double($0) * 100) }
        #expect(judge(presses, guard: TapGuard(policy: policy)) == [
            .counted, .counted, .counted, .refused(.tooManyTaps), .refused(.tooManyTaps),
        ])
        #expect(TapGuard().policy == .standard)
    }
}
