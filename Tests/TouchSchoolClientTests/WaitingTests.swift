import Foundation
import Synchronization
import Testing
import TouchSchoolOutbox
import TouchSchoolTestSupport
@testable import TouchSchoolClient

/// The synchronous waits: `blockingWait` (async work from a synchronous caller) and
/// `ChangeSignal` (a condition changed by another thread).
@Suite(.onOwnThreads) struct WaitingTests {
    struct Refused: Error, Equatable { var code: Int }

    @Test func blockingWaitReturnsTheResultAndThrowsTheError() {
        let sum = blockingWait { () async -> Int in
            await Task.yield()
            return 40 + 2
        }
        #expect(sum == 42)
        // Typed throws: the error arrives as its own type.
        #expect(throws: Refused(code: 7)) {
            try blockingWait { () async throws(Refused) -> Int in throw Refused(code: 7) }
        }
    }

    /// The waiter wakes when another thread changes the state and signals, long before the
    /// timeout; and it sees the condition true.
    @Test func aSignalledChangeEndsTheWaitAtOnce() {
        let signal = ChangeSignal()
        let state = Mutex(false)
        let changer = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            state.withLock { $0 = true }
            signal.changed()
        }
        let start = Date()
        changer.start()
        let met = signal.wait(timeoutNanoseconds: 20_000_000_000) { state.withLock { $0 } }
        #expect(met)
        #expect(Date().timeIntervalSince(start) < 10, "woken by the signal, not the timeout")
    }

    /// Nobody changes the state: the wait ends at its timeout, false.
    @Test func anUnchangedStateWaitsForTheTimeout() {
        let signal = ChangeSignal()
        let start = Date()
        #expect(!signal.wait(timeoutNanoseconds: 200_000_000) { false })
        #expect(Date().timeIntervalSince(start) >= 0.19)
        // Already true: no wait at all.
        #expect(signal.wait(timeoutNanoseconds: 0) { true })
    }
}
