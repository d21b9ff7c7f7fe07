import Testing
import TouchSchoolTestSupport
import TouchSchoolCore

@Suite(.onOwnThreads) struct EffectRingTests {
    private func effect(_ number: Int) -> Effect {
        Effect(x: Float(number), y: 0.5, born: .milliseconds(Int64(number)), variant: UInt8(number % 3), angle: UInt8(number % 8))
    }

    @Test func keepsTheNewestThirtyOldestFirst() {
        var generator = RandomSource(seed: 5)
        for _ in 0..<40 {
            let added = Int.random(in: 0...10_000, using: &generator)
            var ring = EffectRing()
            for number in 0..<added {
                ring.add(effect(number))
                #expect(ring.count <= EffectRing.capacity)
            }
            #expect(ring.count == min(added, 30))
            #expect(ring.effects == (max(0, added - 30)..<added).map(effect))
        }
    }

    @Test func fillsUpOneByOne() {
        var ring = EffectRing()
        #expect(ring.effects.isEmpty)
        for number in 0..<31 {
            ring.add(effect(number))
            #expect(ring.effects.last == effect(number))
            #expect(ring.effects.first == effect(max(0, number - 29)))
        }
    }

    @Test func fadesThroughItsStagesWithinOneSecond() {
        let born = Instant.milliseconds(1_000)
        let puff = Effect(x: 0, y: 0, born: born, variant: 0, angle: 0)
        #expect(EffectRing.stage(of: puff, at: born) == 0)
        #expect(EffectRing.stage(of: puff, at: born.adding(milliseconds: 249)) == 0)
        #expect(EffectRing.stage(of: puff, at: born.adding(milliseconds: 250)) == 1)
        #expect(EffectRing.stage(of: puff, at: born.adding(milliseconds: 500)) == 2)
        #expect(EffectRing.stage(of: puff, at: born.adding(milliseconds: 999)) == EffectRing.fadeStages - 1)
        #expect(EffectRing.stage(of: puff, at: born.adding(milliseconds: 1_000)) == nil)
        #expect(EffectRing.stage(of: puff, at: born.adding(milliseconds: -5)) == 0)
    }

    @Test func visibleWhileAnyEffectIsFading() {
        var ring = EffectRing()
        #expect(!ring.hasVisibleEffects(at: .milliseconds(0)))
        ring.add(Effect(x: 0, y: 0, born: .milliseconds(0), variant: 0, angle: 0))
        ring.add(Effect(x: 0, y: 0, born: .milliseconds(600), variant: 0, angle: 0))
        #expect(ring.hasVisibleEffects(at: .milliseconds(1_200)))
        #expect(ring.hasVisibleEffects(at: .milliseconds(1_599)))
        #expect(!ring.hasVisibleEffects(at: .milliseconds(1_600)))
    }
}
