import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolView

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show a player's own numbers: school, taps, best speed, and the school's rank.",
        discussion: """
            Players are known by name; several can share one data directory. "My taps" counts the \
            player's taps since choosing the current school; the school's taps and national rank \
            include everyone's.
            """)

    @Option(help: ArgumentHelp("Whose numbers (default: your login name).", valueName: "name"))
    var player: String?

    @Flag(help: "Print one JSON object: player; my school's id, name, level, province, district, address; myTaps, bestTapsPerSecond, count (my school's taps), rank, schools.")
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

    func run() throws {
        let name = player ?? DataDirectory.defaultPlayerName(environment: ProcessEnvironment.current)
        let (catalog, state) = try loadBattle(data: data, server: server, player: name)
        let record = state.players[name] ?? PlayerRecord()
        var stats = Stats(player: name, record: record, school: nil, schoolCount: 0, rank: 0, schools: catalog.count)
        if let id = record.schoolID, let position = catalog.position(ofID: id) {
            let leaderboard = Leaderboard(catalog: catalog, counts: state.counts(in: catalog))
            stats.school = catalog[position]
            stats.schoolCount = leaderboard.count(of: position)
            stats.rank = leaderboard.rank(of: position, in: .national)
            stats.schools = leaderboard.size(of: .national)
        }
        try StandardStreams.write(json ? Self.json(stats) : Self.text(stats))
    }

    static func text(_ stats: Stats) -> String {
        let player = VisibleText.escaping(stats.player)
        guard let school = stats.school else {
            return "\(player) has not chosen a school yet. Start `touchschool` to choose one.\n"
        }
        return """
            Player:         \(player)
            School:         \(VisibleText.escaping("\(school.name) (\(school.region)) [\(school.id)]"))
            My taps:        \(NumberText.grouped(stats.record.taps))
            Best speed:     \(stats.record.bestTapsPerSecond) taps/s
            School's taps:  \(NumberText.grouped(stats.schoolCount))
            National rank:  \(stats.rank) of \(NumberText.grouped(stats.schools))

            """
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
            writer.number(stats.rank)
        } else {
            writer.raw(", \"count\": null, \"rank\": null")
        }
        writer.raw(", \"schools\": ")
        writer.number(stats.schools)
        writer.raw("}\n")
        return writer.text
    }
}
