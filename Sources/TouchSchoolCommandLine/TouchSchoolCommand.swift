import ArgumentParser
import TouchSchoolCore

/// `touchschool`: the game by default, and the commands around it.
struct TouchSchool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchschool",
        abstract: CommandText.rootAbstract,
        discussion: CommandText.rootDiscussion,
        version: TouchSchoolVersion.release,
        subcommands: [PlayCommand.self, SearchCommand.self, RankCommand.self, StatsCommand.self, ImportCommand.self, ResetCommand.self, ServeCommand.self, AdminCommand.self, RoundCommand.self, SeasonCommand.self],
        defaultSubcommand: PlayCommand.self
    )
}

/// Runs the command the arguments name with `network` and `output`, and returns the process's
/// exit status: each executable's whole `main` (`exit(runTouchSchool(…))`), and a test's way to
/// run a command in process.
///
/// Instead of `TouchSchool.main()`: help and errors are printed through `output` too, so that
/// help lost to a full disk fails and an echoed argument cannot drive the terminal.
public func runTouchSchool(arguments: [String], network: any NetworkCommands, output: CommandOutput = .standardStreams) -> Int32 {
    do {
        var command = try TouchSchool.parseAsRoot(arguments)
        if let command = command as? any ContextCommand {
            try command.run(in: CommandContext(network: network, output: output))
        } else {
            try command.run()
        }
        return ExitCode.success.rawValue
    } catch {
        var exitCode = TouchSchool.exitCode(for: error)
        if exitCode == .success {
            var message = TouchSchool.fullMessage(for: error)
            let whole = TouchSchool.fullMessage(for: error, columns: HelpLayout.unwrapped)
            if HelpLayout.isHelp(whole) { message = HelpLayout.laidOut(whole, width: HelpLayout.terminalWidth) }
            do {
                try output.write(message + "\n")
            } catch {
                output.writeError(TouchSchool.fullMessage(for: error) + "\n")
                exitCode = .failure
            }
        } else {
            // Unwrapped, as the help: the usage is laid out by display width below, and in Korean
            // its heading is wider than the parser's (사용법: for Usage:).
            var message = TouchSchool.fullMessage(for: error, columns: HelpLayout.unwrapped)
            guard !message.isEmpty else { return exitCode.rawValue }
            // ArgumentParser's own prefix is English only; the message after it is ours (in the
            // user's language) or the parser's.
            if message.hasPrefix(CommandText.parserErrorPrefix) {
                message = CommandText.errorPrefix + CommandText.parsersError(String(message.dropFirst(CommandText.parserErrorPrefix.count)))
            }
            let error = message.split(separator: "\n", omittingEmptySubsequences: false)
                .map { CommandText.parsersWords(String($0)) }.joined(separator: "\n")
            output.writeError(HelpLayout.laidOutUsage(error, width: HelpLayout.terminalWidth) + "\n")
        }
        return exitCode.rawValue
    }
}
