import NIOCore

/// A task executor on one NIO event loop, for `Task(executorPreference:)`: the nonisolated parts
/// of such a task (a store's async calls and their resumptions) run on that loop's thread rather
/// than on Swift's shared pool. The battle hall's calls into its store run on one (see
/// `BattleHallRuntime.storeThread`): on the shared pool each of them queued twice (to start, and
/// again when the database answered) behind thousands of connections' jobs.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        eventLoop.execute { job.runSynchronously(on: executor) }
    }
}
