import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolView

/// `touchschool search QUERY...`: the school search of the game, from the command line.
struct SearchCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: CommandText.searchAbstract,
        discussion: CommandText.searchDiscussion
    )

    @Argument(help: ArgumentHelp(CommandText.queryHelp))
    var query: [String] = []

    @OptionGroup var filter: SchoolFilterOptions

    // Unconditional: `--limit -1` is a bad count to refuse, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp(CommandText.limitHelp, valueName: "n"))
    var limit = PositiveCount(20)

    @Flag(help: ArgumentHelp(CommandText.searchJSONHelp))
    var json = false

    @OptionGroup var data: DataDirectoryOptions

    @OptionGroup var server: ServerOptions

    func run(in context: CommandContext) throws {
        if query.contains(where: Self.argumentsNotUTF8.contains) {
            throw CommandError(CommandText.queryNotUTF8)
        }
        let schoolLevel = filter.level, province = filter.province
        let text = query.joined(separator: " ")
        guard !SchoolSearch.normalize(text).isEmpty || schoolLevel != nil || province != nil else {
            throw CommandError(CommandText.nothingToSearchFor)
        }

        // All time's totals, as before seasons: a search finds a school, `rank` and `stats` rank it.
        let battle = try loadBattle(data: data, server: server, period: .allTime, context: context)
        let (catalog, state) = (battle.catalog, battle.state)
        let scores = state.counts(in: catalog)

        let search = SchoolSearch(catalog: catalog)
        var searchQuery = SearchQuery(text: text, level: schoolLevel, province: province, limit: limit.value)
        let hits = search.search(searchQuery)
        let rows = hits.map { (school: catalog[$0.position], score: scores[$0.position]) }
        // Only when nothing matched: the closest names, as the game's picker offers them.
        searchQuery.limit = min(limit.value, Self.guessLimit)
        let guesses = rows.isEmpty ? search.closestNames(searchQuery).map { (school: catalog[$0.position], score: scores[$0.position]) } : []
        if json {
            try context.output.write(Self.json(query: text, rows, suggestions: guesses))
        } else if rows.isEmpty {
            try context.output.write(CommandText.noMatch(quoted(text), among: [schoolLevel?.koreanName, province].compactMap { $0 }) + "\n")
            if let closest = guesses.first {
                try context.output.write(CommandText.didYouMean(VisibleText.escaping(closest.school.name)) + "\n" + Self.table(guesses))
            }
        } else {
            try context.output.write(Self.table(rows))
        }
        if rows.isEmpty, catalog.source == .starter {
            let hint = CommandText.starterCatalogHint(schoolCount: catalog.count)
            if json { context.output.writeError(hint + "\n") } else { try context.output.write(hint + "\n") }
        }
    }

    /// How many guesses a search that found nothing offers: as many as the game's picker.
    static let guessLimit = GameTiming.pickerGuessLimit

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

    /// Rank, name, level, province, district and score, aligned by display width.
    static func table(_ rows: [(school: School, score: UInt64)]) -> String {
        let header = CommandText.searchHeadings
        var lines = [header]
        for (rank, row) in rows.enumerated() {
            let name = row.school.isListed ? row.school.name : "\(row.school.name) \(CommandText.noLongerListed)"
            lines.append([String(rank + 1), name, Strings(commandLanguage).levelName(row.school.level), row.school.province,
                          row.school.district.isEmpty ? "-" : row.school.district, String(row.score)].map(VisibleText.escaping))
        }
        // The rank and the score are numbers.
        return TextTable.render(lines, rightAligned: [0, header.count - 1])
    }

    /// The shape of `GET /v1/search`'s answer (docs/protocol.md), each school with its score:
    /// `{"query", "schools", "suggestions"}`, the suggestions only when nothing matched and some
    /// names are close (a typo: `휘뮨고`).
    static func json(query: String, _ rows: [(school: School, score: UInt64)], suggestions: [(school: School, score: UInt64)]) -> String {
        var writer = JSONWriter()
        writer.raw("{\n  \"query\": "); writer.string(query)
        writer.raw(",\n  \"schools\": "); list(rows, into: &writer)
        if !suggestions.isEmpty { writer.raw(",\n  \"suggestions\": "); list(suggestions, into: &writer) }
        writer.raw("\n}\n")
        return writer.text
    }

    private static func list(_ rows: [(school: School, score: UInt64)], into writer: inout JSONWriter) {
        writer.raw("[")
        for (index, row) in rows.enumerated() {
            writer.raw(index == 0 ? "\n    {" : ",\n    {")
            writer.schoolMembers(row.school)
            writer.raw(", \"score\": "); writer.number(row.score)
            writer.raw("}")
        }
        writer.raw(rows.isEmpty ? "]" : "\n  ]")
    }
}

