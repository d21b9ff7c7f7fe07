import ArgumentParser
import Foundation
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolView
import TouchSchoolStarterCatalog
import TouchSchoolServer

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
            is refused with the line at fault, and nothing is changed. An edition older than the one \
            imported already is refused unless --force is given. Games already running carry on \
            with the new catalog within a second.
            """
    )

    @Argument(help: ArgumentHelp("The official list, a CSV file downloaded from data.go.kr.", valueName: "FILE"),
              completion: .file(extensions: ["csv"]))
    var file: String

    @Flag(help: "Import even an edition older than the one imported already.")
    var force = false

    @Option(help: ArgumentHelp("Import into the catalog shared by the servers on this PostgreSQL database (`serve --postgres`) instead of the data directory; running servers take it up within seconds.",
                               valueName: "postgres://user:password@host:port/database"))
    var postgres: String?

    @OptionGroup var data: DataDirectoryOptions

    /// How many renamed or no-longer-listed schools to name before summing up the rest.
    static let listedChangesLimit = 20

    func run() throws {
        let report: String
        do {
            if let postgres { report = try importIntoPostgres(url: postgres) } else { report = try importList() }
        } catch {
            throw CommandError("\(error.message)\nNothing was changed.")
        }
        try StandardStreams.write(report + "\n")
    }

    /// Does the import and returns what to tell the user.
    ///
    /// The whole read-merge-write happens under the state's lock, so that no game saves between
    /// the scores this reads (which decide what to keep) and the ids it moves.
    func importList() throws(ImportFailure) -> String {
        let directory = data.directory
        let list: OfficialSchoolList
        do { list = try OfficialSchoolList.load(path: file) } catch { throw ImportFailure(message: "\(file): \(error)") }
        do {
            try DataDirectory.prepare(directory)
        } catch {
            throw ImportFailure(message: error.message)
        }
        let fileSystem = FileSystem.live
        let store = StateStore(directory: directory, fileSystem: fileSystem)
        let catalogPath = CatalogFile.importedCatalogPath(inDataDirectory: directory)
        var report: ImportReport?
        do {
            _ = try store.change(lockTimeoutNanoseconds: Self.lockTimeoutNanoseconds) { (state: inout SavedState) throws(StoreError) -> Bool in
                let current: Catalog
                do { current = try loadCatalog(dataDirectory: directory) } catch {
                    throw StoreError(message: "cannot read the current catalog: \(error)")
                }
                if case let .official(edition) = current.source, list.edition < edition, !force {
                    throw StoreError(message: "this list is the edition of \(list.edition), older than the one imported "
                                     + "(\(edition)): importing it would mark the newer schools as no longer listed. "
                                     + "Import it anyway with --force.")
                }
                let chosen = Set(state.players.values.compactMap(\.schoolID))
                let merged = CatalogImport.merge(current: current, official: list) { id in
                    (state.scores[id] ?? 0) > 0 || chosen.contains(id)
                }
                do {
                    try CatalogFile.save(merged.catalog, to: catalogPath, fileSystem: fileSystem)
                } catch {
                    throw StoreError(message: "cannot save the catalog: \(error)")
                }
                report = merged.report
                return StateStore.followAliases(merged.catalog.aliases, in: &state)
            }
        } catch {
            // The catalog is written before the state: a failure after it leaves a catalog whose
            // aliases every reader follows, so the scores still add up.
            throw ImportFailure(message: error.message)
        }
        guard let report else { throw ImportFailure(message: "the import did not run") }
        return Self.summary(of: report, schoolCount: list.schools.count, encoding: list.encoding, savedTo: catalogPath)
    }

    /// The same import into PostgreSQL's shared catalog, in one transaction.
    func importIntoPostgres(url: String) throws(ImportFailure) -> String {
        let list: OfficialSchoolList
        do { list = try OfficialSchoolList.load(path: file) } catch { throw ImportFailure(message: "\(file): \(error)") }
        let (force, starter) = (self.force, StarterCatalog.path)
        let outcome = Result { () throws -> ImportReport in
            try runAsync { try await PostgresAdministration.importList(list, force: force, url: url, starterCatalogPath: starter) }
        }
        switch outcome {
        case let .success(report):
            return Self.summary(of: report, schoolCount: list.schools.count, encoding: list.encoding, savedTo: "PostgreSQL (\(PostgresSchema.redacted(url)))")
        case let .failure(error):
            throw ImportFailure(message: "\(error)")
        }
    }

    /// An import waits this long for a game's save to finish before it gives up.
    static let lockTimeoutNanoseconds: Int64 = 10_000_000_000

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
