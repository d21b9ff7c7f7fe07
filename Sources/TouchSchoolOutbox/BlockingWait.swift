import Dispatch
import Synchronization

/// Runs `work` as a task and blocks the calling thread until it has ended: the one bridge from
/// synchronous code to async work.
///
/// Why it exists: the callers are synchronous by nature and the work is async. ArgumentParser's
/// `run()` is synchronous, and so is the game's frame loop (`GameRunner`), which the commands and
/// an SSH session run on a thread of their own; the HTTP client, the PostgreSQL client and the
/// server are async.
///
/// Never call it from a task on the cooperative pool: the thread it blocks may be one that `work`
/// needs (the pool has one thread per core, two on a small machine).
public func blockingWait<Success: Sendable, Failure: Error>(
    for work: @escaping @Sendable () async throws(Failure) -> Success
) throws(Failure) -> Success {
    let finished = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<Success, Failure>?>(nil)
    Task {
        let result: Result<Success, Failure>
        do throws(Failure) { result = .success(try await work()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        finished.signal()
    }
    finished.wait()
    return try outcome.withLock { $0! }.get()
}
