import ArgumentParser
import Foundation
import TouchSchoolCore
import TouchSchoolView
import TouchSchoolStarterCatalog

/// `touchschool import FILE`: folds the official national school list into the catalog kept in
/// the data directory. All or nothing: any problem leaves every file as it was.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import the official national school list (전국초중등학교위치표준데이터).",
        discussion: """
            Download the list from 공공데이터포털 (https://www.data.go.kr), standard dataset 15021148 \
            "전국초중등학교위치표준데이터" (provided by 한국교육시설안전원), as CSV, and give the file to this \
            command. The file may be in CP949, as the portal serves it, or in UTF-8.

            The imported list replaces the small starter catalog for every game using the same data \
            directory; it is kept there as catalog.json. Importing a newer edition later updates it. \
            A renamed school keeps its identity (its 학교ID) and so its score. A school the new edition \
            no longer lists stays, with its score, marked as no longer listed. A starter-catalog school \
            is matched to its official entry by name, province and level, and its score carries over; \
            one that cannot be matched is kept only if it has a score.

            The file is checked first: a file in another encoding, with missing columns or a broken row \
            is refused with the line at fault, and nothing is changed. Games already running keep \
            their catalog until they are started again.
            """
    )

    @Argument(help: ArgumentHelp("The official list, a CSV file downloaded from data.go.kr.", valueName: "FILE"),
              completion: .file(extensions: ["csv"]))
    var file: String

    @OptionGroup var data: DataDirectoryOptions

    /// How many renamed or no-longer-listed schools to name before summing up the rest.
    static let listedChangesLimit = 20

    func run() throws {
        let report: String
        do {
            report = try importList()
        } catch {
            throw CommandError("\(error.message)\nNothing was changed.")
        }
        try StandardStreams.write(report + "\n")
    }

    /// Does the import and returns what to tell the user.
    func importList() throws(ImportFailure) -> String {
        let directory = data.directory
        let current: Catalog
        do { current = try loadCatalog(dataDirectory: directory) } catch {
            throw ImportFailure(message: "cannot read the current catalog: \(error)")
        }
        let list: OfficialSchoolList
        do { list = try OfficialSchoolList.load(path: file) } catch { throw ImportFailure(message: "\(file): \(error)") }
        let scored = try scoredSchoolIDs(inDataDirectory: directory)

        let (catalog, report) = CatalogImport.merge(current: current, official: list, hasScore: scored.contains)
        let catalogPath = CatalogFile.importedCatalogPath(inDataDirectory: directory)
        do {
            try FileIO.createDirectory(directory)
            try FileIO.replaceAtomically(catalogPath, with: CatalogFile.encode(catalog))
        } catch {
            throw ImportFailure(message: "cannot save the catalog: \(error)")
        }
        return Self.summary(of: report, schoolCount: list.schools.count, encoding: list.encoding, savedTo: catalogPath)
    }

    /// The ids the saved state has a score for: an unmatched starter school is kept only then.
    private func scoredSchoolIDs(inDataDirectory directory: String) throws(ImportFailure) -> Set<String> {
        let statePath = "\(directory)/state.json"
        guard FileIO.exists(statePath) else { return [] }
        do {
            return try Self.scoredSchoolIDs(stateJSON: try FileIO.read(statePath))
        } catch {
            throw ImportFailure(message: "cannot read the scores in \(statePath), so cannot tell which schools to keep: \(error)")
        }
    }

    /// Reads only the `scores` object (school id → total) of the state file: ids with a total above 0.
    static func scoredSchoolIDs(stateJSON: [UInt8]) throws -> Set<String> {
        let state = try JSONValue.parse(bytes: stateJSON)
        guard let scores = state["scores"] else { return [] }
        guard let members = scores.objectValue else { throw ImportFailure(message: "\"scores\" is not an object") }
        // A total that is not a plain whole number still counts as a score: better to keep a school.
        return Set(members.filter { $0.1.uint64Value != 0 }.map(\.0))
    }

    static func summary(of report: ImportReport, schoolCount: Int, encoding: TextEncoding, savedTo path: String) -> String {
        var lines = [
            "Imported \(NumberText.grouped(schoolCount)) schools of the official list of \(VisibleText.escaping(report.edition)) (\(encoding.rawValue)).",
            "Source: 공공데이터포털 (data.go.kr) 표준데이터 15021148 전국초중등학교위치표준데이터.",
            "",
        ]
        let counts: [(String, Int)] = [
            ("added", report.added.count),
            ("renamed", report.renamed.count),
            ("no longer listed (kept, with their scores)", report.noLongerListed.count),
            ("listed again", report.relisted.count),
            ("details updated", report.updated.count),
            ("unchanged", report.unchangedCount),
            ("starter schools matched (scores carried over)", report.matchedStarter.count),
            ("starter schools not found, kept for their scores", report.keptUnlistedStarter.count),
            ("starter schools not found, without a score, removed", report.droppedStarter.count),
        ]
        let width = counts.map { NumberText.grouped($0.1).count }.max() ?? 0
        for (label, count) in counts where count > 0 || label == "added" {
            let number = NumberText.grouped(count)
            lines.append("  \(String(repeating: " ", count: width - number.count))\(number)  \(label)")
        }
        appendList("Renamed:", report.renamed.map { "\($0.oldName) → \($0.newName) (\($0.id))" }, to: &lines)
        appendList("No longer listed:", report.noLongerListed.map { "\($0.name), \($0.region) (\($0.id))" }, to: &lines)
        appendList("Starter schools not found, kept:", report.keptUnlistedStarter.map { "\($0.name), \($0.region)" }, to: &lines)
        lines.append("")
        lines.append("Saved to \(path).")
        return lines.joined(separator: "\n")
    }

    private static func appendList(_ title: String, _ items: [String], to lines: inout [String]) {
        guard !items.isEmpty else { return }
        lines.append("")
        lines.append(title)
        lines.append(contentsOf: items.prefix(listedChangesLimit).map { "  \(VisibleText.escaping($0))" })
        if items.count > listedChangesLimit { lines.append("  … and \(items.count - listedChangesLimit) more") }
    }
}

/// Why an import was refused: said to the user as is.
struct ImportFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
