import ArgumentParser
import TouchSchoolCore

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

    @Option(help: ArgumentHelp("How many schools to show.", valueName: "n"))
    var top = 20

    @Option(help: ArgumentHelp("Only one level: 초, 중, 고 (or elementary, middle, high).", valueName: "level"))
    var level: String?

    @Option(help: ArgumentHelp("Only one province (시도): 서울, 경기, 부산광역시, seoul…", valueName: "region"))
    var region: String?

    @Flag(help: "Print a JSON array of {rank, id, name, level, province, district, count}.")
    var json = false

    @OptionGroup var data: DataDirectoryOptions

    func validate() throws {
        guard top >= 1 else { throw ValidationError("--top must be at least 1.") }
        _ = try league()
    }

    func run() throws {
        let directory = data.directory
        let catalog = try loadCatalog(dataDirectory: directory)
        let state = try loadSavedState(directory: directory, catalog: catalog)
        let leaderboard = Leaderboard(catalog: catalog, counts: state.counts(in: catalog))
        let league = try league()
        let size = leaderboard.size(of: league)
        let rows = leaderboard.entries(in: league, places: 0..<min(top, size))
        try StandardStreams.write(json ? Self.json(rows, catalog: catalog) : Self.table(rows, catalog: catalog, title: title(of: league, size: size)))
    }

    /// The league that `--level` and `--region` name.
    func league() throws -> League {
        let parsedLevel = try level.map { text in
            guard let level = SchoolLevel(userInput: text) else {
                throw ValidationError("Unknown level '\(text)': use 초, 중 or 고 (elementary, middle, high).")
            }
            return level
        }
        let province = try region.map { text in
            guard let province = Province.canonical(text) else {
                throw ValidationError("Unknown region '\(text)': use a province (시도) such as 서울, 경기 or 부산광역시.")
            }
            return province
        }
        switch (parsedLevel, province) {
        case (nil, nil): return .national
        case let (level?, nil): return .level(level)
        case let (nil, province?): return .province(province)
        case let (level?, province?): return .levelInProvince(level, province)
        }
    }

    func title(of league: League, size: Int) -> String {
        let scope = switch league {
        case .national: "All schools"
        case let .level(level): "\(level.koreanName)"
        case let .province(province): "\(province)"
        case let .levelInProvince(level, province): "\(province) \(level.koreanName)"
        }
        return "\(scope): \(grouped(UInt64(size))) schools"
    }

    static func table(_ rows: [RankedSchool], catalog: Catalog, title: String) -> String {
        var text = "\(title)\n"
        guard !rows.isEmpty else { return text }
        let countWidth = max(4, rows.map { grouped($0.count).count }.max() ?? 0)
        let rankWidth = max(4, String(rows.last?.rank ?? 0).count)
        text += pad("Rank", rankWidth) + "  " + pad("Taps", countWidth) + "  School\n"
        for row in rows {
            let school = catalog[row.position]
            text += pad(String(row.rank), rankWidth) + "  " + pad(grouped(row.count), countWidth)
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
