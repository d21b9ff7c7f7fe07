#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CNcurses
import TouchSchoolCore
import TouchSchoolStore

/// SIGINT, SIGTERM and SIGHUP: recorded by a C handler, taken by the game loop, which then saves
/// and quits like the player pressed Ctrl-C, giving the terminal back as it was. SIGPIPE is
/// ignored: it comes from a write to a connection the server's side closed, which the game
/// survives offline.
enum ExitSignals {
    /// Before the terminal opens, so ncurses leaves these signals to us.
    static func install() { cn_install_signal_handlers() }

    /// Whether one of the signals arrived since the last call.
    static func takeArrived() -> Bool { cn_take_signal() != 0 }
}
