import Foundation
import Testing

/// Runs each test of the suite (or the one test) it marks on threads of its own instead of the
/// test process's cooperative pool, which has one thread per core (two on this machine). Tests
/// of real processes wait synchronously (tmux, a browser, a program's exit) for seconds or
/// minutes, and tests over the official list compute for seconds; on the pool, two of them
/// starve every task that runs there beside them (a client's reader, the game's connection),
/// which then miss the server's deadlines (seen in CI: a player that could not say hello within
/// 10 seconds). Every suite carries it; the test clients' own readers run on these threads
/// too. The test keeps its task, so what it records and throws is reported as any test's.
public struct OnOwnThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // The suite itself gets no scope of its own: its tests each get theirs.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OnOwnThreads {
    /// Each test on threads of its own, never blocking the cooperative pool (`OnOwnThreads`).
    public static var onOwnThreads: Self { OnOwnThreads() }
}

/// A task executor that runs each job on a new thread: a synchronous test body is one job, so it
/// blocks that thread alone. Threads are cheap beside the processes these tests start.
public final class ThreadPerJobExecutor: TaskExecutor {
    public static let shared = ThreadPerJobExecutor()
    /// Set in the thread dictionary of each thread it starts (`runsTheCaller`).
    static let marker = "touchschool.ownThread"

    /// Whether the caller runs on one of these threads, for the test of `.onOwnThreads`.
    public static var runsTheCaller: Bool { Thread.current.threadDictionary[marker] as? Bool == true }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread {
            Thread.current.threadDictionary[ThreadPerJobExecutor.marker] = true
            job.runSynchronously(on: executor)
        }.start()
    }
}
