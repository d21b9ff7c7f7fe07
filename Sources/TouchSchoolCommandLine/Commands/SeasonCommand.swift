import ArgumentParser
import TouchSchoolCore

/// `touchschool season`: a running server's seasons (docs/operations.md, "Seasons"): anyone lists
/// them and reads one's standing and hall of fame.
struct SeasonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "season",
        abstract: CommandText.seasonAbstract,
        discussion: CommandText.seasonDiscussion,
        subcommands: [SeasonListCommand.self, SeasonShowCommand.self])
}

struct SeasonListCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: CommandText.seasonListAbstract)

    @Flag(help: ArgumentHelp(CommandText.roundJSONHelp))
    var json = false

    @Option(help: ArgumentHelp(CommandText.adminServerHelp, valueName: "url"))
    var server: String?

    func run(in context: CommandContext) throws {
        try context.output.write(try context.network.season(SeasonRequest(server: try AdminConnectionOptions.server(server),
                                                                          action: .list(json: json), language: commandLanguage)))
    }
}

struct SeasonShowCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: CommandText.seasonShowAbstract)

    @Argument(help: ArgumentHelp(CommandText.seasonIDHelp, valueName: "season"))
    var season: SeasonID

    @Flag(help: ArgumentHelp(CommandText.roundJSONHelp))
    var json = false

    @Option(help: ArgumentHelp(CommandText.adminServerHelp, valueName: "url"))
    var server: String?

    func run(in context: CommandContext) throws {
        try context.output.write(try context.network.season(SeasonRequest(server: try AdminConnectionOptions.server(server),
                                                                          action: .show(season.value, json: json), language: commandLanguage)))
    }
}

/// A season as `season list` names it: its length and number (`week-2960`).
struct SeasonID: ExpressibleByArgument {
    let value: Season

    init?(argument: String) {
        guard let season = Season.named(argument.lowercased()) else { return nil }
        value = season
    }
}
