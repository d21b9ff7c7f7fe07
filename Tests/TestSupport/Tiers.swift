import Testing

/// The tiers of the test suites, by what their tests start. A suite that starts one of these
/// carries its tag (several where several); a suite that starts nothing carries none and is in
/// the in-process tier, which `scripts/test --fast` runs alone. `TierTagsTests` checks every
/// suite's tags against what its file starts; `scripts/test --fast` reads the tag names here.
extension Tag {
    /// A program of its own: the game's binary, a server process, a worker, `sqlite3`, `curl`, `nginx`.
    @Tag public static var process: Self
    /// The game in a terminal under tmux (`TmuxSession`).
    @Tag public static var tmux: Self
    /// Headless Chromium and its driver (`Browser`).
    @Tag public static var browser: Self
    /// A throwaway PostgreSQL cluster (`PostgresCluster`, `scripts/pg-cluster`).
    @Tag public static var postgres: Self
    /// OpenSSH's client (`ssh`, `ssh-keygen`) against `serve --ssh-port`.
    @Tag public static var ssh: Self
}
