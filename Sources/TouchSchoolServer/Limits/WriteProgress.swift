import NIOCore
import Synchronization

/// A connection's writes, watched for a reader that stopped reading. Such a reader fills its
/// socket's buffers and the next write waits for room for ever: nothing else ends it (a ping
/// waits behind it too). `watch` looks every interval and, when the same write was under way at
/// the previous look and still is, calls `stalled` (which closes the connection): a write stuck
/// for between one and two intervals.
final class WriteProgress: Sendable {
    /// Whether a write is under way, and how many have started (the one under way is the last).
    private let state = Mutex((writing: false, started: 0))

    /// Runs `write`, counted.
    func track<T>(_ write: () async throws -> T) async throws -> T {
        state.withLock { $0 = (true, $0.started + 1) }
        defer { state.withLock { $0.writing = false } }
        return try await write()
    }

    /// Looks every `interval` until cancelled or stalled; `tick` runs at each look that found
    /// the writer moving and returns false to stop watching (and close). The writer is stalled
    /// when one write took from one look to the next, or when `channel`'s socket shows its
    /// reader read nothing between them (`SocketProgress`: the writes still fit the kernel's
    /// buffers, but nobody takes them).
    func watch(every interval: Duration, channel: (any Channel)?, tick: () -> Bool = { true }, stalled: () -> Void) async {
        func socket() async -> SocketProgress? {
            guard let channel else { return nil }
            return await SocketProgress.of(channel)
        }
        var seen = state.withLock { $0 }
        var socketSeen = await socket()
        while true {
            do { try await Task.sleep(for: interval) } catch { return }
            let now = state.withLock { $0 }
            let socketNow = await socket()
            let unread = socketNow.flatMap { now in socketSeen.map { now.showsNoReading(since: $0) } } ?? false
            if (now.writing && seen.writing && now.started == seen.started) || unread {
                stalled()
                return
            }
            seen = now
            socketSeen = socketNow
            guard tick() else {
                stalled()
                return
            }
        }
    }
}
