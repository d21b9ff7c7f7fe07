/// The SSH server's limits, each with its reason (`serve --ssh-port`).
public struct SSHPolicy: Sendable {
    /// Connections one address may hold at once: a school lab of 40 behind one NAT, and more.
    public var connectionsPerAddress: Int
    /// Games the server holds at once: each runs on a thread of its own.
    public var maximumSessions: Int
    /// A game with no key for this long ends: a forgotten window must not hold a thread and a
    /// connection for ever (watching the board for a whole lesson without a key is not playing).
    public var idleTimeoutSeconds: Int
    /// From connecting to playing: OpenSSH's `LoginGraceTime` is 120 s; a person needs a few
    /// seconds, or as long as it takes to type any password.
    public var loginGraceSeconds: Int

    /// Memory one address's games may hold together: a lab of 40 at the largest screen, and
    /// more. 60 games at 500 × 200 from one address used to take 3.5 MB each.
    public var memoryPerAddress = 64 << 20

    /// What one game holds at most, at the largest screen it is drawn at
    /// (`SSHSessionHandler.maximumColumns` × `maximumRows`, 24,576 cells): the server's memory
    /// grew by 1.02 to 1.04 MB a game at that size (`SSHPlayEndToEndTests`, games in 500 × 200
    /// terminals), 344 KB at 80 × 24 (BENCHMARKS.md, "The game over SSH"), 3.9 MB at 500 × 200
    /// before the bound.
    static let bytesPerGameAtLargestScreen = 1 << 20

    /// Connections one address may hold: `connectionsPerAddress`, and no more games than its
    /// memory holds at the largest screen.
    public var gamesPerAddress: Int { max(1, min(connectionsPerAddress, memoryPerAddress / Self.bytesPerGameAtLargestScreen)) }

    public static let standard = SSHPolicy(connectionsPerAddress: 100, maximumSessions: 2_000, idleTimeoutSeconds: 15 * 60,
                                           loginGraceSeconds: 30)

    public init(connectionsPerAddress: Int, maximumSessions: Int, idleTimeoutSeconds: Int, loginGraceSeconds: Int) {
        self.connectionsPerAddress = connectionsPerAddress
        self.maximumSessions = maximumSessions
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.loginGraceSeconds = loginGraceSeconds
    }
}
