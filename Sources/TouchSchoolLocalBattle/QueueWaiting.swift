import Dispatch

extension DispatchQueue {
    /// Queues `work` (by default nothing: a wait for what is queued already) and waits for it to
    /// end, at most `timeoutNanoseconds`; whether it ended in time. Unlike `sync`, the wait has a
    /// deadline: a game that quits must not hang on a stuck disk.
    public func asyncAndWait(timeoutNanoseconds: Int64, _ work: @escaping @Sendable () -> Void = {}) -> Bool {
        let done = DispatchSemaphore(value: 0)
        self.async {
            work()
            done.signal()
        }
        return done.wait(timeout: .now() + .nanoseconds(Int(max(0, timeoutNanoseconds)))) == .success
    }
}
