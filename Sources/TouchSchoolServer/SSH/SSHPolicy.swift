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

    public static let standard = SSHPolicy(connectionsPerAddress: 100, maximumSessions: 2_000, idleTimeoutSeconds: 15 * 60,
                                           loginGraceSeconds: 30)

    public init(connectionsPerAddress: Int, maximumSessions: Int, idleTimeoutSeconds: Int, loginGraceSeconds: Int) {
        self.connectionsPerAddress = connectionsPerAddress
        self.maximumSessions = maximumSessions
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.loginGraceSeconds = loginGraceSeconds
    }
}
