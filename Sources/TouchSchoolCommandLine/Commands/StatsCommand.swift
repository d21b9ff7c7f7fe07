import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolView

struct StatsCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: CommandText.statsAbstract,
        discussion: CommandText.statsDiscussion)

    @Option(help: ArgumentHelp(CommandText.statsPlayerHelp, valueName: "name"))
    var player: String?

    @Flag(help: ArgumentHelp(CommandText.statsJSONHelp))
    var json = false

    @OptionGroup var data: DataDirectoryOptions

    @OptionGroup var server: ServerOptions

    /// One player's numbers, with those of their school when they have chosen one.
    struct Stats {
        var player: String
        var record: PlayerRecord
        var school: School?
        var schoolCount: UInt64
        var rank: Int
        /// Schools in the national ranking.
        var schools: Int
    }

    func run(in context: CommandContext) throws {
        let name = player ?? DataDirectory.defaultPlayerName(environment: ProcessEnvironment.current)
        let (catalog, state) = try loadBattle(data: data, server: server, player: name, context: context)
        let record = state.players[name] ?? PlayerRecord()
        var stats = Stats(player: name, record: record, school: nil, schoolCount: 0, rank: 0, schools: catalog.count)
        if let id = record.schoolID, let position = catalog.position(ofID: id) {
            let leaderboard = Leaderboard(catalog: catalog, counts: state.counts(in: catalog))
            stats.school = catalog[position]
            stats.schoolCount = leaderboard.count(of: position)
            stats.rank = leaderboard.rank(of: position, in: .national)
            stats.schools = leaderboard.size(of: .national)
        }
        try context.output.write(json ? Self.json(stats) : Self.text(stats))
    }

    static func text(_ stats: Stats) -> String {
        let player = VisibleText.escaping(stats.player)
        guard let school = stats.school else {
            return CommandText.noSchoolChosen(player)
        }
        let values = [
            player,
            VisibleText.escaping("\(school.name) (\(school.region)) [\(school.id)]"),
            NumberText.grouped(stats.record.taps),
            CommandText.tapsPerSecond(stats.record.bestTapsPerSecond),
            NumberText.grouped(stats.schoolCount),
            stats.schoolCount == 0 ? CommandText.notRanked : CommandText.rank(stats.rank, of: NumberText.grouped(stats.schools)),
        ]
        // Labels and values in two columns, by display width: the Korean labels are two a syllable.
        let labels = CommandText.statsLabels.map { $0 + ":" }
        let width = (labels.map(DisplayWidth.of).max() ?? 0) + 2
        return zip(labels, values).map { DisplayWidth.pad($0, toWidth: width) + $1 + "\n" }.joined() + "\n"
    }

    static func json(_ stats: Stats) -> String {
        var writer = JSONWriter()
        writer.raw("{\"player\": ")
        writer.string(stats.player)
        if let school = stats.school {
            writer.raw(", ")
            writer.schoolMembers(school)
        } else {
            writer.raw(", \"id\": null, \"name\": null, \"level\": null, \"province\": null, \"district\": null, \"address\": null")
        }
        writer.raw(", \"myTaps\": ")
        writer.number(stats.record.taps)
        writer.raw(", \"bestTapsPerSecond\": ")
        writer.number(stats.record.bestTapsPerSecond)
        if stats.school != nil {
            writer.raw(", \"count\": ")
            writer.number(stats.schoolCount)
            writer.raw(", \"rank\": ")
            // No taps, no rank yet: as `rank` shows it.
            if stats.schoolCount == 0 { writer.raw("null") } else { writer.number(stats.rank) }
        } else {
            writer.raw(", \"count\": null, \"rank\": null")
        }
        writer.raw(", \"schools\": ")
        writer.number(stats.schools)
        writer.raw("}\n")
        return writer.text
    }
}
