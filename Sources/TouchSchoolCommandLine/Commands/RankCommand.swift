import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolView

struct RankCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rank",
        abstract: "Show the leaderboard: schools by their saved taps, most first.",
        discussion: """
            Ranks the schools of the catalog (the imported official list, else the starter catalog) by \
            the taps saved in the data directory, including those of games still running. Schools with \
            equal taps share a rank (1, 2, 2, 4).

            Examples:
              touchschool rank                            the national top 20
              touchschool rank --level 고 --region 서울   high schools in Seoul
              touchschool rank --top 5 --json             the top 5 as JSON
            """)

    // Unconditional: `--top -1` is a bad count to refuse, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("How many schools to show: a positive whole number.", valueName: "n"))
    var top = PositiveCount(20)

    @OptionGroup var filter: SchoolFilterOptions

    @Flag(help: "Print a JSON array of {rank, id, name, level, province, district, count}.")
    var json = false

    @OptionGroup var data: DataDirectoryOptions

    @OptionGroup var server: ServerOptions

    func run() throws {
        let (catalog, state) = try loadBattle(data: data, server: server)
        let leaderboard = Leaderboard(catalog: catalog, counts: state.counts(in: catalog))
        let league = filter.league
        let size = leaderboard.size(of: league)
        let rows = leaderboard.entries(in: league, places: 0..<min(top.value, size))
        try StandardStreams.write(json ? Self.json(rows, catalog: catalog) : Self.table(rows, catalog: catalog, title: title(of: league, size: size)))
    }

    func title(of league: League, size: Int) -> String {
        let scope = switch league {
        case .national: "All schools"
        case let .level(level): "\(level.koreanName)"
        case let .province(province): "\(province)"
        case let .levelInProvince(level, province): "\(province) \(level.koreanName)"
        }
        return "\(scope): \(NumberText.grouped(size)) schools"
    }

    static func table(_ rows: [RankedSchool], catalog: Catalog, title: String) -> String {
        var text = "\(title)\n"
        guard !rows.isEmpty else { return text }
        let countWidth = max(4, rows.map { NumberText.grouped($0.count).count }.max() ?? 0)
        let rankWidth = max(4, String(rows.last?.rank ?? 0).count)
        text += pad("Rank", rankWidth) + "  " + pad("Taps", countWidth) + "  School\n"
        for row in rows {
            let school = catalog[row.position]
            text += pad(String(row.rank), rankWidth) + "  " + pad(NumberText.grouped(row.count), countWidth)
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
            writer.number(row.rank)
            writer.raw(", ")
            writer.schoolMembers(school)
            writer.raw(", \"count\": ")
            writer.number(row.count)
            writer.raw("}")
        }
        writer.raw(rows.isEmpty ? "]\n" : "\n]\n")
        return writer.text
    }

    /// Right-aligns ASCII text (ranks, counts, headings) in `width` columns.
    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
