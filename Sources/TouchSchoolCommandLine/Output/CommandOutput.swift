/// Where a command prints: the process's standard output and error (`standardStreams`), or,
/// for a test that runs a command in process, wherever the test keeps them. Output and errors stay
/// apart, as on a terminal: a script reads the one and the user the other.
public struct CommandOutput: Sendable {
    private let standard: @Sendable (String) throws(CommandError) -> Void
    private let error: @Sendable (String) -> Void

    /// - Parameters:
    ///   - standard: writes the command's output; throws when it is lost (a full disk).
    ///   - error: writes a message for the user, with nowhere to say that it failed.
    public init(standard: @escaping @Sendable (String) throws(CommandError) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.standard = standard
        self.error = error
    }

    /// The process's own streams, every control character from data escaped (`StandardStreams`).
    public static let standardStreams = CommandOutput(
        standard: { text throws(CommandError) in try StandardStreams.write(text) },
        error: { text in StandardStreams.writeError(text) })

    public func write(_ text: String) throws(CommandError) { try standard(text) }

    public func writeError(_ text: String) { error(text) }
}
