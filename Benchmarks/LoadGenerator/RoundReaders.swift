import Foundation
import Synchronization

/// Readers of a round's standings beside the players (issue 48, `--round-readers`): each its own
/// loopback address (127.0.0.2, 127.0.0.3, …, which the server sees as that many addresses),
/// reading `path` `perSecond` times a second over a connection of its own each time, as a page
/// left open on the results does, from `start` until `end` (nanoseconds of `nowNanos`). Each runs
/// on a thread of its own with blocking sockets, away from the players' event loops.
final class RoundReaders: Sendable {
    let count: Int
    private let answers = Mutex<(statuses: [Int: Int], latencies: [UInt32], bytes: Int)>(([:], [], 0))
    private let running = Atomic<Int>(0)

    init(count: Int) { self.count = count }

    static func address(_ reader: Int) -> String { "127.0.0.\(2 + reader)" }

    func start(port: Int, path: String, perSecond: Double, from start: UInt64, until end: UInt64) {
        let interval = UInt64(1e9 / perSecond)
        for reader in 0..<count {
            running.add(1, ordering: .relaxed)
            Thread.detachNewThread { [self] in
                defer { running.subtract(1, ordering: .relaxed) }
                // Spread over the interval, so that the readers do not all ask at once.
                var due = start + interval * UInt64(reader) / UInt64(count)
                while due < end {
                    let now = nowNanos()
                    if due > now { usleep(useconds_t((due - now) / 1_000)) }
                    let asked = nowNanos()
                    let answer = httpExchange("GET", port: port, path: path, timeoutSeconds: 10, source: Self.address(reader))
                    let took = UInt32(clamping: (nowNanos() - asked) / 1_000)
                    answers.withLock { answers in
                        answers.statuses[answer?.status ?? 0, default: 0] += 1
                        answers.latencies.append(took)
                        if answer?.status == 200 { answers.bytes = max(answers.bytes, answer?.body.utf8.count ?? 0) }
                    }
                    due += interval
                }
            }
        }
    }

    /// Waits (bounded) for every reader to end.
    func wait(timeoutSeconds: Double) {
        let deadline = nowNanos() + UInt64(timeoutSeconds * 1e9)
        while running.load(ordering: .relaxed) > 0, nowNanos() < deadline { usleep(20_000) }
    }

    /// The answers by status (0: none came), the reads' time p50 and p99 in ms, the largest answer's bytes.
    var result: (statuses: [Int: Int], p50ms: Double, p99ms: Double, bytes: Int) {
        answers.withLock { answers in
            let sorted = answers.latencies.sorted()
            return (answers.statuses, percentile(sorted, 0.5) ?? -1, percentile(sorted, 0.99) ?? -1, answers.bytes)
        }
    }
}
