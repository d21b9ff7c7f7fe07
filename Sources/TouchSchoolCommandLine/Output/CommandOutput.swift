/// Where a command prints: the process's standard output and error (`standardStreams`), or,
/// for a test that runs a command in process, wherever the test keeps them. Output and errors stay
/// apart, as on a terminal: a script reads the one and the user the other.
public struct CommandOutput: Sendable {
    private let standard: @Sendable (String) throws(CommandError) -> Void
    private let error: @Sendable (String) -> Void
    private let coloured: (@Sendable (ColouredText) throws(CommandError) -> Void)?

    /// - Parameters:
    ///   - standard: writes the command's output; throws when it is lost (a full disk).
    ///   - error: writes a message for the user, with nowhere to say that it failed.
    ///   - coloured: writes output with the program's own colours; without it, its plain text
    ///     goes to `standard`.
    public init(standard: @escaping @Sendable (String) throws(CommandError) -> Void, error: @escaping @Sendable (String) -> Void,
                coloured: (@Sendable (ColouredText) throws(CommandError) -> Void)? = nil) {
        self.standard = standard
        self.error = error
        self.coloured = coloured
    }

    /// The process's own streams, every control character from data escaped (`StandardStreams`);
    /// colours only to a terminal.
    public static let standardStreams = CommandOutput(
        standard: { text throws(CommandError) in try StandardStreams.write(text) },
        error: { text in StandardStreams.writeError(text) },
        coloured: { text throws(CommandError) in try StandardStreams.write(text) })

    public func write(_ text: String) throws(CommandError) { try standard(text) }

    public func write(_ text: ColouredText) throws(CommandError) {
        if let coloured { try coloured(text) } else { try standard(text.plain) }
    }

    public func writeError(_ text: String) { error(text) }
}
