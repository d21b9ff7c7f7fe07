import ArgumentParser
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolView

/// `touchschool import FILE`: folds the official national school list into the catalog kept in
/// the data directory. All or nothing: any problem leaves every file as it was.
struct ImportCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: CommandText.importAbstract,
        discussion: CommandText.importDiscussion
    )

    @Argument(help: ArgumentHelp(CommandText.importFileHelp, valueName: "FILE"),
              completion: .file(extensions: ["csv"]))
    var file: String

    @Flag(help: ArgumentHelp(CommandText.forceHelp))
    var force = false

    /// With a PostgreSQL URL (--postgres-file, --postgres or $TOUCHSCHOOL_POSTGRES_URL): import
    /// into the catalog shared by the servers on that database (`serve --postgres`) instead of the
    /// data directory; running servers take it up within seconds.
    @OptionGroup var postgres: PostgresOptions

    @OptionGroup var data: DataDirectoryOptions

    func run(in context: CommandContext) throws {
        let postgresURL = try postgres.url(environment: ProcessEnvironment.current)
        let report: String
        do {
            if let url = postgresURL {
                report = try importIntoPostgres(url: url, network: context.network)
            } else {
                report = try importList(output: context.output)
            }
        } catch {
            throw CommandError("\(error.message)\n\(CommandText.nothingWasChanged)")
        }
        try context.output.write(report + "\n")
    }

    /// Does the import and returns what to tell the user.
    ///
    /// The whole read-merge-write happens under the state's lock, so that no game saves between
    /// the scores this reads (which decide what to keep) and the ids it moves. What is wrong with
    /// the current catalog's snapshot is said on `output`'s errors.
    func importList(output: CommandOutput) throws(ImportFailure) -> String {
        let directory = data.directory
        let list: OfficialSchoolList
        do { list = try OfficialSchoolList.load(path: file) } catch {
            throw ImportFailure(message: "\(file): \(CommandText.officialListError(error))")
        }
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
                do { current = try loadCatalog(dataDirectory: directory, output: output) } catch {
                    throw StoreError(message: CommandText.cannotReadCurrentCatalog("\(error)"))
                }
                if !force {
                    do throws(ImportRefusal) { try CatalogImport.check(current: current, official: list) } catch {
                        throw StoreError(message: CommandText.importRefused(error))
                    }
                }
                // A server's battle database counts too: a starter school with taps only there is kept.
                let server = try BattleDatabase.openForReading(dataDirectory: directory)?.savedState() ?? SavedState()
                let chosen = Set((Array(state.players.values) + server.players.values).compactMap(\.schoolID))
                let merged = CatalogImport.merge(current: current, official: list) { id in
                    (state.scores[id] ?? 0) > 0 || (server.scores[id] ?? 0) > 0 || chosen.contains(id)
                }
                do {
                    try CatalogFile.save(merged.catalog, to: catalogPath, fileSystem: fileSystem)
                } catch {
                    throw StoreError(message: CommandText.cannotSaveCatalog("\(error)"))
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
        return ImportSummary.text(of: report, schoolCount: list.schools.count, encoding: list.encoding, savedTo: catalogPath)
    }

    /// The same import into PostgreSQL's shared catalog, in one transaction (on the network side).
    func importIntoPostgres(url: String, network: any NetworkCommands) throws(ImportFailure) -> String {
        do { return try network.importIntoPostgres(file: file, url: url, force: force) } catch let refusal as ImportRefusal {
            throw ImportFailure(message: CommandText.importRefused(refusal))
        } catch let error as OfficialListError {
            throw ImportFailure(message: "\(file): \(CommandText.officialListError(error))")
        } catch { throw ImportFailure(message: "\(error)") }
    }

    /// An import waits this long for a game's save to finish before it gives up.
    static let lockTimeoutNanoseconds: Int64 = 10_000_000_000
}

/// Why an import was refused: said to the user as is.
struct ImportFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
