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

    @Flag(help: ArgumentHelp(CommandText.allTimeHelp))
    var allTime = false

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
        /// The period the school's taps and rank are of, named (nil: all time, no season to tell apart).
        var period: String? = nil
        /// The id of the season they are of (nil: all time's).
        var season: String? = nil
    }

    func run(in context: CommandContext) throws {
        let name = player ?? DataDirectory.defaultPlayerName(environment: ProcessEnvironment.current)
        let battle = try loadBattle(data: data, server: server, player: name, period: allTime ? .allTime : .season, context: context)
        let (catalog, state) = (battle.catalog, battle.state)
        let record = state.players[name] ?? PlayerRecord()
        var stats = Stats(player: name, record: record, school: nil, schoolCount: 0, rank: 0, schools: catalog.count,
                          period: CommandText.period(allTime ? .allTime : nil, season: battle.season), season: battle.season?.id)
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
        ] + (stats.period.map { [$0] } ?? [])
        // Labels and values in two columns, by display width: the Korean labels are two a syllable.
        let labels = CommandText.statsLabels(withPeriod: stats.period != nil).map { $0 + ":" }
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
        writer.raw(", \"season\": ")
        if let season = stats.season { writer.string(season) } else { writer.raw("null") }
        writer.raw("}\n")
        return writer.text
    }
}
