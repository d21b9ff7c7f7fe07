import TouchSchoolCurses

extension TerminalScreen {
    /// The terminal opened for the game; a failure said as the command's error.
    static func open(colors: Bool, mouse: Bool, environment: [String: String]) throws(CommandError) -> TerminalScreen {
        do { return try TerminalScreen(colors: colors, mouse: mouse) } catch { throw CommandError(error, environment: environment) }
    }
}

extension CommandError {
    /// Why the game's terminal cannot be opened, in the command's words, with the `TERM` at fault.
    init(_ failure: TerminalScreen.OpenFailure, environment: [String: String]) {
        let term = quoted(environment["TERM"] ?? "")
        switch failure {
        case let .notATerminal(input): self.init(CommandText.needsATerminal(input: input))
        case .cannotPlaceCursor: self.init(CommandText.terminalCannotPlaceCursor(term))
        case .unknownTerminal: self.init(CommandText.unknownTerminal(term))
        }
    }
}
