import ArgumentParser
import TouchSchoolCore

/// `touchschool`: the game by default, and the commands around it.
struct TouchSchool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchschool",
        abstract: CommandText.rootAbstract,
        discussion: CommandText.rootDiscussion,
        version: TouchSchoolVersion.release,
        subcommands: [PlayCommand.self, SearchCommand.self, RankCommand.self, StatsCommand.self, ImportCommand.self, ResetCommand.self, ServeCommand.self, AdminCommand.self],
        defaultSubcommand: PlayCommand.self
    )
}

/// What the commands use for the network; set by `runTouchSchool` before parsing, read only after.
nonisolated(unsafe) private(set) var network: (any NetworkCommands)!

/// Runs the command the arguments name and exits: each executable's whole `main`, with its own
/// network (`NetworkCommands`).
///
/// Instead of `TouchSchool.main()`: help and errors are printed through `StandardStreams` too, so
/// that help lost to a full disk fails and an echoed argument cannot drive the terminal.
public func runTouchSchool(network chosen: any NetworkCommands) -> Never {
    network = chosen
    do {
        var command = try TouchSchool.parseAsRoot()
        try command.run()
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
                try StandardStreams.write(message + "\n")
            } catch {
                StandardStreams.writeError(TouchSchool.fullMessage(for: error) + "\n")
                exitCode = .failure
            }
        } else if !message.isEmpty {
            StandardStreams.writeError(message + "\n")
        }
        TouchSchool.exit(withError: exitCode)
    }
    TouchSchool.exit()
}
