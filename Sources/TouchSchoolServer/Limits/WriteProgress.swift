import Synchronization

/// A connection's writes, watched for a reader that stopped reading. Such a reader fills its
/// socket's buffers and the next write waits for room for ever: nothing else ends it (a ping
/// waits behind it too). `watch` looks every interval and, when a write has been under way since
/// the previous look without one finishing, calls `stalled` (which closes the connection).
final class WriteProgress: Sendable {
    private let state = Mutex((writing: false, completed: 0))

    /// Runs `write`, counted.
    func track<T>(_ write: () async throws -> T) async throws -> T {
        state.withLock { $0.writing = true }
        defer { state.withLock { $0 = (false, $0.completed + 1) } }
        return try await write()
    }

    /// Looks every `interval` until cancelled or stalled; `tick` runs at each look that found
    /// the writer moving and returns false to stop watching.
    func watch(every interval: Duration, tick: () -> Bool = { true }, stalled: () -> Void) async {
        var seen = state.withLock { $0 }
        while true {
            do { try await Task.sleep(for: interval) } catch { return }
            let now = state.withLock { $0 }
            if now.writing && now.completed == seen.completed {
                stalled()
                return
            }
            seen = now
            guard tick() else {
                stalled()
                return
            }
        }
    }
}
