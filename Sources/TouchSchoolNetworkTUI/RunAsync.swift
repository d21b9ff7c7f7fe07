import Dispatch
import Synchronization

/// Runs async work to its end from a synchronous command (`import --postgres`, `serve --from`).
func runAsync<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let finished = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<T, any Error>?>(nil)
    Task {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        finished.signal()
    }
    finished.wait()
    return try outcome.withLock { $0! }.get()
}
