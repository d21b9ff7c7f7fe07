import ArgumentParser
import TouchSchoolCore
import TouchSchoolStarterCatalog
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

    @Option(help: "Only this level: elementary/초, middle/중, high/고.")
    var level: String?

    @Option(help: "Only this province (시도): 서울, 서울특별시, busan, 충북, …")
    var region: String?

    @Option(help: "At most this many results.")
    var limit: Int = 20

    @Flag(help: "Print the results as a JSON array.")
    var json = false

    @Option(name: .customLong("data-dir"), help: "The data directory (default: $TOUCHSCHOOL_HOME, else $XDG_DATA_HOME/touchschool, else ~/.local/share/touchschool).")
    var dataDir: String?

    func run() throws {
        var schoolLevel: SchoolLevel?
        if let level {
            guard let parsed = SchoolLevel(userInput: level) else {
                throw failure("unknown level \"\(level)\": use elementary (초), middle (중) or high (고).")
            }
            schoolLevel = parsed
        }
        var province: String?
        if let region {
            guard let canonical = Province.canonical(region) else {
                throw failure("unknown region \"\(region)\": use a province (시도) such as 서울, 부산, 경기, 충북 or \(Province.all[0]).")
            }
            province = canonical
        }
        guard limit > 0 else { throw failure("--limit must be at least 1.") }
        let text = query.joined(separator: " ")
        guard !SchoolSearch.normalize(text).isEmpty || schoolLevel != nil || province != nil else {
            throw failure("nothing to search for: give a name (touchschool search 서울고), or --level / --region.")
        }

        let directory = SearchData.dataDirectory(explicit: dataDir)
        let catalog: Catalog
        do { catalog = try SearchData.loadCatalog(dataDirectory: directory) } catch { throw failure(error.description) }
        let scores = SearchData.loadScores(dataDirectory: directory, catalog: catalog)

        let hits = SchoolSearch(catalog: catalog).search(SearchQuery(text: text, level: schoolLevel, province: province, limit: limit))
        let rows = hits.map { (school: catalog[$0.position], score: scores[$0.position]) }
        if json {
            print(Self.json(rows), terminator: "")
        } else if rows.isEmpty {
            print("No school matches \"\(text)\"\(filterDescription(schoolLevel, province)).")
        } else {
            print(Self.table(rows), terminator: "")
        }
        if rows.isEmpty, catalog.source == .starter {
            let hint = """
                The starter catalog lists only \(catalog.count) schools. For every school in Korea, download \
                전국초중등학교위치표준데이터 (data.go.kr, dataset 15021148) as CSV and run: touchschool import FILE
                """
            if json { printToStandardError(hint) } else { print(hint) }
        }
    }

    private func filterDescription(_ level: SchoolLevel?, _ province: String?) -> String {
        let filters = [level?.koreanName, province].compactMap { $0 }
        return filters.isEmpty ? "" : " among \(filters.joined(separator: ", "))"
    }

    /// Says what is wrong on standard error; the command then exits with status 1.
    private func failure(_ message: String) -> ExitCode {
        printToStandardError("touchschool search: \(message)")
        return ExitCode.failure
    }

    /// Rank, name, level, province, district and score, aligned by display width.
    static func table(_ rows: [(school: School, score: UInt64)]) -> String {
        let header = ["#", "School", "Level", "Province", "District", "Score"]
        var lines = [header]
        for (rank, row) in rows.enumerated() {
            let name = row.school.isListed ? row.school.name : "\(row.school.name) (no longer listed)"
            lines.append([String(rank + 1), name, row.school.level.koreanName, row.school.province,
                          row.school.district.isEmpty ? "-" : row.school.district, String(row.score)])
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
            writer.raw("\"id\": "); writer.string(row.school.id)
            writer.raw(", \"name\": "); writer.string(row.school.name)
            writer.raw(", \"level\": "); writer.string(row.school.level.rawValue)
            writer.raw(", \"province\": "); writer.string(row.school.province)
            writer.raw(", \"district\": "); writer.string(row.school.district)
            writer.raw(", \"address\": "); writer.string(row.school.address)
            writer.raw(", \"score\": "); writer.number(row.score)
            writer.raw("}")
        }
        writer.raw(rows.isEmpty ? "]\n" : "\n]\n")
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

private func printToStandardError(_ message: String) {
    let bytes = Array("\(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// Terminal cells a string takes: Hangul and other East Asian wide characters take two, combining
/// marks none. (The view has its own; the lead will keep one.)
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        var width = 0
        for scalar in text.unicodeScalars { width += of(scalar) }
        return width
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}

/// Minimal loading of the data directory for `search`. Stand-ins until the catalog file
/// (`CatalogFile`), the state store and `DataDirectory.resolve` land; the lead will switch over.
enum SearchData {
    static func dataDirectory(explicit: String?) -> String {
        func environment(_ name: String) -> String? {
            guard let value = getenv(name) else { return nil }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
        if let explicit { return explicit }
        if let home = environment("TOUCHSCHOOL_HOME") { return home }
        if let data = environment("XDG_DATA_HOME") { return "\(data)/touchschool" }
        return "\(environment("HOME") ?? ".")/.local/share/touchschool"
    }

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The imported official list `<data dir>/catalog.json`, else the starter catalog.
    static func loadCatalog(dataDirectory: String) throws(LoadError) -> Catalog {
        let imported = "\(dataDirectory)/catalog.json"
        let path: String
        if FileIO.exists(imported) {
            path = imported
        } else if let starter = StarterCatalog.path {
            path = starter
        } else {
            throw LoadError(description: "the starter catalog is missing from the installation")
        }
        let document: JSONValue
        do { document = try JSONValue.parse(bytes: try FileIO.read(path)) } catch {
            throw LoadError(description: "cannot read the catalog \(path): \(error)")
        }
        var schools: [School] = []
        for value in document["schools"]?.arrayValue ?? [] {
            guard let id = value["id"]?.stringValue, let name = value["name"]?.stringValue,
                  let level = value["level"]?.stringValue.flatMap(SchoolLevel.init(rawValue:)),
                  let province = value["province"]?.stringValue else {
                throw LoadError(description: "the catalog \(path) has a school without id, name, level or province")
            }
            schools.append(School(
                id: id, name: name, level: level, province: province,
                district: value["district"]?.stringValue ?? "", address: value["address"]?.stringValue ?? "",
                isListed: value["listed"]?.boolValue ?? true
            ))
        }
        var aliases: [String: String] = [:]
        for (former, target) in document["aliases"]?.objectValue ?? [] { aliases[former] = target.stringValue }
        let source: CatalogSource = document["source"]?.stringValue == "official"
            ? .official(edition: document["edition"]?.stringValue ?? "") : .starter
        return Catalog(schools: schools, aliases: aliases, source: source)
    }

    /// Each school's saved taps, by catalog position: the `scores` object of `<data dir>/state.json`.
    /// A missing or unreadable file counts as no taps (the game itself reports and repairs it).
    static func loadScores(dataDirectory: String, catalog: Catalog) -> [UInt64] {
        var scores = Array(repeating: UInt64(0), count: catalog.count)
        guard let bytes = try? FileIO.read("\(dataDirectory)/state.json"),
              let document = try? JSONValue.parse(bytes: bytes) else { return scores }
        for (id, value) in document["scores"]?.objectValue ?? [] {
            guard let position = catalog.position(ofID: id), let count = value.uint64Value else { continue }
            let (sum, overflow) = scores[position].addingReportingOverflow(count)
            scores[position] = overflow ? .max : sum
        }
        return scores
    }
}
