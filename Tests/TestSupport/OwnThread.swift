import Foundation

/// Runs `work` on a thread of its own and waits for it without holding a thread of the test
/// process's cooperative pool (two on this machine): a long synchronous test (a browser driven for
/// a minute) would otherwise starve the asynchronous network tests that Swift Testing runs beside
/// it, whose clients then miss the server's deadlines. Expectations recorded on that thread still
/// fail the run (Swift Testing reports them under «unknown», with their file and line); errors
/// thrown, `#require` among them, come back to the test; so does what `work` returns.
public func onOwnThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
        Thread {
            do {
                continuation.resume(returning: try work())
            } catch {
                continuation.resume(throwing: error)
            }
        }.start()
    }
}
