import Testing
import TouchSchoolTestSupport
import TouchSchoolCore

@Suite(.onOwnThreads) struct PuffRingTests {
    private func puff(_ number: Int) -> Puff {
        Puff(x: Float(number), y: 0.5, born: .milliseconds(Int64(number)), variant: UInt8(number % 3), angle: UInt8(number % 8))
    }

    @Test func keepsTheNewestThirtyOldestFirst() {
        var generator = RandomSource(seed: 5)
        for _ in 0..<40 {
            let added = Int.random(in: 0...10_000, using: &generator)
            var ring = PuffRing()
            for number in 0..<added {
                ring.add(puff(number))
                #expect(ring.count <= PuffRing.capacity)
            }
            #expect(ring.count == min(added, 30))
            #expect(ring.puffs == (max(0, added - 30)..<added).map(puff))
        }
    }

    @Test func fillsUpOneByOne() {
        var ring = PuffRing()
        #expect(ring.puffs.isEmpty)
        for number in 0..<31 {
            ring.add(puff(number))
            #expect(ring.puffs.last == puff(number))
            #expect(ring.puffs.first == puff(max(0, number - 29)))
        }
    }

    @Test func fadesThroughItsStagesWithinOneSecond() {
        let born = Instant.milliseconds(1_000)
        let puff = Puff(x: 0, y: 0, born: born, variant: 0, angle: 0)
        #expect(PuffRing.stage(of: puff, at: born) == 0)
        #expect(PuffRing.stage(of: puff, at: born.adding(milliseconds: 249)) == 0)
        #expect(PuffRing.stage(of: puff, at: born.adding(milliseconds: 250)) == 1)
        #expect(PuffRing.stage(of: puff, at: born.adding(milliseconds: 500)) == 2)
        #expect(PuffRing.stage(of: puff, at: born.adding(milliseconds: 999)) == PuffRing.fadeStages - 1)
        #expect(PuffRing.stage(of: puff, at: born.adding(milliseconds: 1_000)) == nil)
        #expect(PuffRing.stage(of: puff, at: born.adding(milliseconds: -5)) == 0)
    }

    @Test func visibleWhileAnyPuffIsFading() {
        var ring = PuffRing()
        #expect(!ring.hasVisiblePuffs(at: .milliseconds(0)))
        ring.add(Puff(x: 0, y: 0, born: .milliseconds(0), variant: 0, angle: 0))
        ring.add(Puff(x: 0, y: 0, born: .milliseconds(600), variant: 0, angle: 0))
        #expect(ring.hasVisiblePuffs(at: .milliseconds(1_200)))
        #expect(ring.hasVisiblePuffs(at: .milliseconds(1_599)))
        #expect(!ring.hasVisiblePuffs(at: .milliseconds(1_600)))
    }
}
