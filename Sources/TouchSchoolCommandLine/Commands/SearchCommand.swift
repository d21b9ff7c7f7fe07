import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolView

/// `touchschool search QUERY...`: the school search of the game, from the command line.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find schools by name, abbreviation (서울고), 초성 (ㅎㅁㄱ), English-keyboard typing (tjdnfrh) or region (부산 금성초).",
        discussion: """
            Words may come as separate arguments or one quoted argument. Each result shows the school's \
            name, level, province and district, and its score (taps saved in the data directory). \
            With no words, --level and/or --region list schools in catalog order.
            """
    )

    @Argument(help: "What to search for.")
    var query: [String] = []

    @OptionGroup var filter: SchoolFilterOptions

    // Unconditional: `--limit -1` is a bad count to refuse, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many results: a positive whole number.", valueName: "n"))
    var limit = PositiveCount(20)

    @Flag(help: "Print the results as a JSON array.")
    var json = false

    @OptionGroup var data: DataDirectoryOptions

    @OptionGroup var server: ServerOptions

    func run() throws {
        if query.contains(where: Self.argumentsNotUTF8.contains) {
            throw CommandError("the query is not valid UTF-8: give it as UTF-8 text (check the terminal's or the script's encoding).")
        }
        let schoolLevel = filter.level, province = filter.province
        let text = query.joined(separator: " ")
        guard !SchoolSearch.normalize(text).isEmpty || schoolLevel != nil || province != nil else {
            throw CommandError("nothing to search for: give a name (touchschool search 서울고), or --level / --region.")
        }

        let (catalog, state) = try loadBattle(data: data, server: server)
        let scores = state.counts(in: catalog)

        let hits = SchoolSearch(catalog: catalog).search(SearchQuery(text: text, level: schoolLevel, province: province, limit: limit.value))
        let rows = hits.map { (school: catalog[$0.position], score: scores[$0.position]) }
        if json {
            try StandardStreams.write(Self.json(rows))
        } else if rows.isEmpty {
            try StandardStreams.write("No school matches \"\(quoted(text))\"\(filterDescription(schoolLevel, province)).\n")
        } else {
            try StandardStreams.write(Self.table(rows))
        }
        if rows.isEmpty, catalog.source == .starter {
            let hint = """
                The starter catalog lists only \(catalog.count) schools. For every school in Korea, download \
                전국초중등학교위치표준데이터 (data.go.kr, dataset 15021148) as CSV and run: touchschool import FILE
                """
            if json { StandardStreams.writeError(hint + "\n") } else { try StandardStreams.write(hint + "\n") }
        }
    }

    /// The command-line arguments that were not valid UTF-8, as Swift gives them (each bad byte
    /// replaced by U+FFFD): such a query would otherwise match nothing, or the wrong thing.
    static let argumentsNotUTF8: Set<String> = {
        var repaired: Set<String> = []
        for index in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index], String(validatingCString: argument) == nil else { continue }
            repaired.insert(String(cString: argument))
        }
        return repaired
    }()

    private func filterDescription(_ level: SchoolLevel?, _ province: String?) -> String {
        let filters = [level?.koreanName, province].compactMap { $0 }
        return filters.isEmpty ? "" : " among \(filters.joined(separator: ", "))"
    }

    /// Rank, name, level, province, district and score, aligned by display width.
    static func table(_ rows: [(school: School, score: UInt64)]) -> String {
        let header = ["#", "School", "Level", "Province", "District", "Score"]
        var lines = [header]
        for (rank, row) in rows.enumerated() {
            let name = row.school.isListed ? row.school.name : "\(row.school.name) (no longer listed)"
            lines.append([String(rank + 1), name, row.school.level.koreanName, row.school.province,
                          row.school.district.isEmpty ? "-" : row.school.district, String(row.score)].map(VisibleText.escaping))
        }
        var widths = Array(repeating: 0, count: header.count)
        for line in lines { for (column, cell) in line.enumerated() { widths[column] = max(widths[column], DisplayWidth.of(cell)) } }
        var output = ""
        for line in lines {
            var cells: [String] = []
            for (column, cell) in line.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
                // Numbers right-aligned, text left-aligned; no trailing spaces.
                if column == 0 || column == line.count - 1 { cells.append(padding + cell) }
                else { cells.append(cell + padding) }
            }
            output += cells.joined(separator: "  ") + "\n"
        }
        return output
    }

    static func json(_ rows: [(school: School, score: UInt64)]) -> String {
        var writer = JSONWriter()
        writer.raw("[")
        for (index, row) in rows.enumerated() {
            writer.raw(index == 0 ? "\n  {" : ",\n  {")
            writer.schoolMembers(row.school)
            writer.raw(", \"score\": "); writer.number(row.score)
            writer.raw("}")
        }
        writer.raw(rows.isEmpty ? "]\n" : "\n]\n")
        return writer.text
    }
}

