import Foundation

/// How the tests wait for what happens in its own time (a server's answer, a process's end, a
/// screen, a page): the condition is checked at once, then every `interval` until it holds or
/// `timeout` seconds have passed. A condition that throws has not held yet. `until` for async
/// tests; `untilBlocking`, on the same schedule, for the synchronous ones (processes, tmux, a
/// browser), which block their own thread (`.onOwnThreads`).
public enum Wait {
    /// Whether `condition` held within `timeout` seconds. Throws only if the task is cancelled.
    public static func until(timeout: TimeInterval, every interval: Duration = .milliseconds(50),
                             _ condition: () async throws -> Bool) async throws -> Bool {
        let schedule = Schedule(timeout: timeout)
        while true {
            if (try? await condition()) == true { return true }
            guard schedule.goesOn else { return false }
            try await Task.sleep(for: interval)
        }
    }

    /// Whether `condition` held within `timeout` seconds, blocking the calling thread meanwhile.
    public static func untilBlocking(timeout: TimeInterval, every interval: Duration = .milliseconds(50),
                                     _ condition: () throws -> Bool) -> Bool {
        let schedule = Schedule(timeout: timeout)
        while true {
            if (try? condition()) == true { return true }
            guard schedule.goesOn else { return false }
            Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
        }
    }

    /// The deadline both share.
    private struct Schedule {
        let deadline: ContinuousClock.Instant
        init(timeout: TimeInterval) { deadline = .now + .milliseconds(Int64(timeout * 1_000)) }
        var goesOn: Bool { ContinuousClock.now < deadline }
    }
}
