import ArgumentParser
import TouchSchoolCore

/// `touchschool round`: a round for a class on a running server (docs/operations.md, "A round for
/// a class"): the operator starts and stops one with the admin token; anyone lists the rounds and
/// reads one's results.
struct RoundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "round",
        abstract: CommandText.roundAbstract,
        discussion: CommandText.roundDiscussion,
        subcommands: [RoundStartCommand.self, RoundStopCommand.self, RoundListCommand.self, RoundShowCommand.self])
}

/// The seconds a round lasts, in `Round.seconds`.
struct RoundSeconds: ExpressibleByArgument {
    let value: Int

    init?(argument: String) {
        guard let value = Int(argument), Round.seconds.contains(value) else { return nil }
        self.value = value
    }
}

struct RoundStartCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "start", abstract: CommandText.roundStartAbstract)

    @Option(help: ArgumentHelp(CommandText.roundSecondsHelp, valueName: "n"))
    var seconds: RoundSeconds

    @Option(help: ArgumentHelp(CommandText.roundTitleHelp, valueName: "title"))
    var title: String?

    @Flag(help: ArgumentHelp(CommandText.roundJSONHelp))
    var json = false

    @OptionGroup var connection: AdminConnectionOptions

    func validate() throws {
        // The server's rule, checked before anything is sent.
        guard Round.title(title).valid else { throw ValidationError(CommandText.roundTitleRefused) }
    }

    func run(in context: CommandContext) throws {
        let request = try connection.request(.devices(top: 0, json: false))
        try context.output.write(try context.network.round(RoundRequest(
            server: request.server, token: request.token,
            action: .start(seconds: seconds.value, title: Round.title(title).title, json: json), language: commandLanguage)))
    }
}

struct RoundStopCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: CommandText.roundStopAbstract)

    @Flag(help: ArgumentHelp(CommandText.roundJSONHelp))
    var json = false

    @OptionGroup var connection: AdminConnectionOptions

    func run(in context: CommandContext) throws {
        let request = try connection.request(.devices(top: 0, json: false))
        try context.output.write(try context.network.round(RoundRequest(server: request.server, token: request.token,
                                                                        action: .stop(json: json), language: commandLanguage)))
    }
}

struct RoundListCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: CommandText.roundListAbstract)

    @Flag(help: ArgumentHelp(CommandText.roundJSONHelp))
    var json = false

    @Option(help: ArgumentHelp(CommandText.adminServerHelp, valueName: "url"))
    var server: String?

    func run(in context: CommandContext) throws {
        try context.output.write(try context.network.round(RoundRequest(server: try AdminConnectionOptions.server(server), token: nil,
                                                                        action: .list(json: json), language: commandLanguage)))
    }
}

struct RoundShowCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: CommandText.roundShowAbstract)

    @Argument(help: ArgumentHelp(CommandText.roundIDHelp, valueName: "id"))
    var id: RoundID

    @Flag(help: ArgumentHelp(CommandText.roundJSONHelp))
    var json = false

    @Option(help: ArgumentHelp(CommandText.adminServerHelp, valueName: "url"))
    var server: String?

    func run(in context: CommandContext) throws {
        try context.output.write(try context.network.round(RoundRequest(server: try AdminConnectionOptions.server(server), token: nil,
                                                                        action: .show(id: id.value, json: json), language: commandLanguage)))
    }
}

/// A round's id as `round list` shows it: a whole number from 1.
struct RoundID: ExpressibleByArgument {
    let value: Int64

    init?(argument: String) {
        guard let value = Int64(argument), value > 0 else { return nil }
        self.value = value
    }
}
