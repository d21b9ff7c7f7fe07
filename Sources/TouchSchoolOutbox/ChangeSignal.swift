import Foundation

/// A synchronous caller's wait, up to a deadline, for a condition on state that other threads
/// change: whoever changes it calls `changed()`, which wakes the waiters to test the condition
/// again. Instead of polling: the waiter wakes as soon as the state changes, and sleeps until then.
///
/// Call `changed()` after the change and outside any lock the condition takes: the waiter tests
/// the condition while holding this signal's lock.
public final class ChangeSignal: @unchecked Sendable {
    private let condition = NSCondition()

    public init() {}

    /// Wakes every waiter to test its condition again.
    public func changed() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `isTrue()`, at most `timeoutNanoseconds`; whether it is true.
    public func wait(timeoutNanoseconds: Int64, until isTrue: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(max(0, timeoutNanoseconds)) / 1_000_000_000)
        condition.lock()
        defer { condition.unlock() }
        while !isTrue() {
            guard condition.wait(until: deadline) else { return isTrue() }
        }
        return true
    }
}
