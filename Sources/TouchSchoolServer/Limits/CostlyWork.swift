#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Work that some HTTP requests cause (a search over the catalog, a QR code drawn, a whole board
/// encoded), done on one thread of its own at a lower scheduling priority, one piece at a time,
/// so that play is served first. On the cooperative threads, which the battle and the play
/// sockets share, it waited in front of them: 199 addresses searching 1,300 times a second (within
/// every budget) moved a player's acknowledgement from 59 ms to 430 ms at p99 while the server
/// used under half a core. The budgets bound how much of it there is; this thread, whom it delays.
final class CostlyWork: Sendable {
    /// One for the process, as NIO's event loops are: a thread that lives as long as it.
    static let shared = CostlyWork(niceness: 10, resumingOn: MultiThreadedEventLoopGroup.singleton.next())

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let waiting = DispatchSemaphore(value: 0)
    private let resumer: any EventLoop

    /// `niceness`: the thread's nice value (Linux schedules each thread by its own: at 10 it gets
    /// about a tenth of a core while play's threads are busy, and all it needs while they are
    /// not). Callers are resumed from `resumer`, not from this thread: a thread inherits the
    /// nice value of the thread that makes it, and the cooperative pool makes its threads from
    /// whichever thread hands it work.
    init(niceness: Int32, resumingOn resumer: any EventLoop) {
        self.resumer = resumer
        let thread = Thread { [self] in
            #if os(Linux)
            // 0: the calling thread, on Linux, where the nice value is each thread's own.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
            #endif
            while true {
                waiting.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job()
            }
        }
        thread.start()
    }

    /// Runs `work` on the thread, after what was given before; its result.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            jobs.withLock {
                $0.append { [resumer] in
                    let result = work()
                    resumer.execute { continuation.resume(returning: result) }
                }
            }
            waiting.signal()
        }
    }
}
