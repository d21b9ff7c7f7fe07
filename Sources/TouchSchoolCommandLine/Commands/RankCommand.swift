import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolView

struct RankCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "rank",
        abstract: CommandText.rankAbstract,
        discussion: CommandText.rankDiscussion)

    // Unconditional: `--top -1` is a bad count to refuse, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp(CommandText.topHelp, valueName: "n"))
    var top = PositiveCount(20)

    @OptionGroup var filter: SchoolFilterOptions

    @Flag(help: ArgumentHelp(CommandText.rankJSONHelp))
    var json = false

    @Flag(help: ArgumentHelp(CommandText.allTimeHelp))
    var allTime = false

    @OptionGroup var data: DataDirectoryOptions

    @OptionGroup var server: ServerOptions

    func run(in context: CommandContext) throws {
        let league = filter.league
        let period: RankingPeriod = allTime ? .allTime : .season
        let battle = try loadBattle(data: data, server: server, board: .top(league, count: top.value), period: period, context: context)
        let catalog = battle.catalog
        let leaderboard = Leaderboard(catalog: catalog, counts: battle.state.counts(in: catalog))
        let size = leaderboard.size(of: league)
        let rows = leaderboard.entries(in: league, places: 0..<min(top.value, size))
        let title = title(of: league, size: size, period: CommandText.period(allTime ? .allTime : nil, season: battle.season))
        try context.output.write(json ? Self.json(rows, catalog: catalog) : Self.table(rows, catalog: catalog, title: title))
    }

    /// The league, and the period its ranks are of when there is one to name (a line of its own).
    func title(of league: League, size: Int, period: String?) -> String {
        (period.map { "\($0)\n" } ?? "") + CommandText.leagueTitle(league, size: size)
    }

    static func table(_ rows: [RankedSchool], catalog: Catalog, title: String) -> String {
        var text = "\(title)\n"
        guard !rows.isEmpty else { return text }
        let headings = CommandText.rankHeadings
        let countWidth = max(DisplayWidth.of(headings.taps), rows.map { NumberText.grouped($0.count).count }.max() ?? 0)
        let rankWidth = max(DisplayWidth.of(headings.rank), String(rows.last?.rank ?? 0).count)
        text += pad(headings.rank, rankWidth) + "  " + pad(headings.taps, countWidth) + "  \(headings.school)\n"
        for row in rows {
            let school = catalog[row.position]
            text += pad(Self.shownRank(row), rankWidth) + "  " + pad(NumberText.grouped(row.count), countWidth)
                + "  \(VisibleText.escaping("\(school.name) (\(school.region))"))\n"
        }
        return text
    }

    static func json(_ rows: [RankedSchool], catalog: Catalog) -> String {
        var writer = JSONWriter()
        writer.raw("[")
        for (index, row) in rows.enumerated() {
            let school = catalog[row.position]
            writer.raw(index == 0 ? "\n  {\"rank\": " : ",\n  {\"rank\": ")
            if let rank = row.shownRank { writer.number(rank) } else { writer.raw("null") }
            writer.raw(", ")
            writer.schoolMembers(school)
            writer.raw(", \"count\": ")
            writer.number(row.count)
            writer.raw("}")
        }
        writer.raw(rows.isEmpty ? "]\n" : "\n]\n")
        return writer.text
    }

    /// A school without taps has no rank yet (`RankedSchool.shownRank`; the game says 아직 순위 없음).
    static func shownRank(_ row: RankedSchool) -> String {
        row.shownRank.map(String.init) ?? "-"
    }

    /// Right-aligns ranks, counts and headings in `width` columns (Korean headings are two a syllable).
    private static func pad(_ text: String, _ width: Int) -> String {
        DisplayWidth.pad(text, toWidth: width, alignRight: true)
    }
}
