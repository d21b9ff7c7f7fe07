import ArgumentParser
import TouchSchoolCore

/// `touchschool`: the game by default, and the commands around it.
struct TouchSchool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchschool",
        abstract: CommandText.rootAbstract,
        discussion: CommandText.rootDiscussion,
        version: TouchSchoolVersion.release,
        subcommands: [PlayCommand.self, SearchCommand.self, RankCommand.self, StatsCommand.self, ImportCommand.self, ResetCommand.self, ServeCommand.self, AdminCommand.self, RoundCommand.self],
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
        var message = TouchSchool.fullMessage(for: error)
        // ArgumentParser's own prefix is English only; the message after it is ours (in the
        // user's language) or the parser's.
        if message.hasPrefix(CommandText.parserErrorPrefix) {
            message = CommandText.errorPrefix + message.dropFirst(CommandText.parserErrorPrefix.count)
        }
        if exitCode == .success {
            do {
                try output.write(message + "\n")
            } catch {
                output.writeError(TouchSchool.fullMessage(for: error) + "\n")
                exitCode = .failure
            }
        } else if !message.isEmpty {
            output.writeError(message + "\n")
        }
        return exitCode.rawValue
    }
}
