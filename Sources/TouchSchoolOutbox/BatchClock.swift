import Foundation
import TouchSchoolCore
import TouchSchoolStore

/// The clocks a batch's span is measured by, for the client's games and the SSH server's alike.
public enum BatchClock {
    /// When a batch of `changes` handed over at `nowMs` starts (`BattleRules.batchStartMs`), its
    /// first tap's time moved from the game's clock to the wall clock.
    package static func batchStartMs(after lastSubmitMs: Int64, _ changes: PendingChanges, nowMs: Int64) -> Int64 {
        let firstTapMs = changes.firstTapAt.map { nowMs - MonotonicClock.now().nanoseconds(since: $0) / 1_000_000 }
        return BattleRules.batchStartMs(after: lastSubmitMs, firstTapMs: firstTapMs, taps: changes.scoreDeltas.values.reduce(0, +), nowMs: nowMs)
    }

    /// The wall clock in milliseconds, by which batches' spans are measured (also the SSH server's
    /// games', in the server: their clock is the server's); a game claims them on the server's
    /// clock (`NetworkBattle`'s `serverOffsetMs`).
    public static func wallClockMs() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
