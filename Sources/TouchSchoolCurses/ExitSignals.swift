import CNcurses

/// SIGINT, SIGTERM and SIGHUP: recorded by a C handler, taken by the game loop, which then saves
/// and quits like the player pressed Ctrl-C, giving the terminal back as it was. SIGPIPE is
/// ignored: it comes from a write to a connection the server's side closed, which the game
/// survives offline.
public enum ExitSignals {
    /// Before the terminal opens, so ncurses leaves these signals to us.
    public static func install() { cn_install_signal_handlers() }

    /// Whether one of the signals arrived since the last call.
    public static func takeArrived() -> Bool { cn_take_signal() != 0 }
}
