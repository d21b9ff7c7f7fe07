import TouchSchoolCore
import TouchSchoolStarterCatalog

// TEMPORARY: stands in until the catalog work's `CatalogFile` lands; the lead switches the callers
// (rank, stats) to it and deletes this file. It reads just enough of the catalog format to rank.

/// The imported official list, `<data dir>/catalog.json`, else the starter catalog.
func loadCatalog(dataDirectory: String) throws -> Catalog {
    let imported = "\(dataDirectory)/catalog.json"
    let isImported = FileIO.exists(imported)
    guard let path = isImported ? imported : StarterCatalog.path else {
        throw CommandError("The starter catalog is missing from this build of touchschool.")
    }
    let document: JSONValue
    do {
        document = try JSONValue.parse(bytes: FileIO.read(path))
    } catch {
        throw CommandError("Cannot read the catalog \(path): \(error)")
    }
    var schools: [School] = []
    for entry in document["schools"]?.arrayValue ?? [] {
        guard let id = entry["id"]?.stringValue, let name = entry["name"]?.stringValue,
              let levelText = entry["level"]?.stringValue,
              let level = SchoolLevel(rawValue: levelText) ?? SchoolLevel.allCases.first(where: { $0.koreanName == levelText })
        else { throw CommandError("\(path) is not a catalog this touchschool can read.") }
        schools.append(School(id: id, name: name, level: level, province: entry["province"]?.stringValue ?? "",
                              district: entry["district"]?.stringValue ?? "", address: entry["address"]?.stringValue ?? ""))
    }
    var aliases: [String: String] = [:]
    for (former, target) in document["aliases"]?.objectValue ?? [] { aliases[former] = target.stringValue }
    let source: CatalogSource = isImported ? .official(edition: document["edition"]?.stringValue ?? "") : .starter
    return Catalog(schools: schools, aliases: aliases, source: source)
}
