#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe that ends a wait for the terminal's input from another thread: `wake` writes a byte,
/// `wait` polls the input and the pipe together. (The self-pipe trick: a thread blocked in
/// `poll` cannot be woken by anything else as simply, and a signal would reach curses too.)
final class WakePipe: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Ends the current or the next `wait`. A full pipe already holds a wake: nothing is lost.
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    enum Outcome { case input, woken, timedOut }

    /// Waits up to `milliseconds` for `descriptor` to be readable or for a wake (which it takes).
    func wait(forInput descriptor: Int32, milliseconds: Int) -> Outcome {
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, nfds_t(readEnd >= 0 ? 2 : 1), Int32(clamping: milliseconds))
        if ready > 0, fds[1].revents & Int16(POLLIN) != 0 {
            var drained = [UInt8](repeating: 0, count: 64)
            while read(readEnd, &drained, drained.count) > 0 {}
            return .woken
        }
        return ready > 0 ? .input : .timedOut
    }
}
