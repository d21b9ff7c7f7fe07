#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCore
import TouchSchoolView

/// A terminal the game loop plays on: the player's own (ncurses) or a remote one (an SSH
/// channel, written as escape sequences). The loop only reads inputs, draws grids and rings.
public protocol GameTerminal: AnyObject {
    /// How long `read` waits for input: 0 returns at once.
    func setReadTimeout(milliseconds: Int)
    /// The next input, or nil when none came within the read timeout, or when `wakeUp` was
    /// called since the last read.
    func read() -> TerminalInput?
    /// Makes a `read` waiting now (or the next one) return at once; callable from any thread.
    /// The battle calls it when its answers arrive (another player's taps, a save), so that the
    /// screen shows them when they come rather than at the loop's next idle tick.
    var wakeUp: @Sendable () -> Void { get }
    /// Shows `grid`, writing only what differs from what the terminal shows.
    func draw(_ grid: CellGrid)
    func beep()
    /// Whether something outside the game asked it to end since the last call (a signal, a
    /// closed connection, a server shutting down): the loop then saves and quits as on Ctrl-C.
    func takeEndRequest() -> Bool
}
