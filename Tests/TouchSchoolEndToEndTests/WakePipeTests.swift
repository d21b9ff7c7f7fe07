#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCurses

/// The terminal's wait for a key ends when the battle has news (`GameTerminal.wakeUp`), from
/// another thread, at once; a wake before the wait is not lost; input still ends it as input.
@Suite(.onOwnThreads) struct WakePipeTests {
    /// A pipe standing for the terminal's input: nothing is typed unless the test writes.
    static func input() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    @Test func aWakeFromAnotherThreadEndsTheWaitAtOnce() {
        let wake = WakePipe()
        let keys = Self.input()
        defer { close(keys.read); close(keys.write) }
        let started = Date()
        Thread.detachNewThread {
            usleep(50_000)
            wake.wake()
        }
        #expect(wake.wait(forInput: keys.read, milliseconds: 10_000) == .woken)
        // Ten seconds was the limit: the wake came after 50 ms (a busy machine may take longer).
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(wake.wait(forInput: keys.read, milliseconds: 20) == .timedOut, "a wake is taken once")
    }

    @Test func aWakeBeforeTheWaitIsKeptAndInputIsInput() {
        let wake = WakePipe()
        let keys = Self.input()
        defer { close(keys.read); close(keys.write) }
        wake.wake()
        wake.wake()
        #expect(wake.wait(forInput: keys.read, milliseconds: 10_000) == .woken)
        var key: UInt8 = 0x61
        #expect(write(keys.write, &key, 1) == 1)
        #expect(wake.wait(forInput: keys.read, milliseconds: 10_000) == .input)
    }
}
