import TouchSchoolCore
import TouchSchoolStore

/// The catalog every command and the game use: the imported official list
/// (`<data dir>/catalog.json`), else the starter catalog shipped with the binary. A snapshot
/// that could not be used is said on `output`'s errors.
func loadCatalog(dataDirectory: String, output: CommandOutput) throws -> Catalog {
    do {
        let (catalog, snapshotProblem) = try CatalogFile.loadCurrentReporting(dataDirectory: dataDirectory, starterPath: StarterCatalogFile.path)
        if let snapshotProblem {
            output.writeError(CommandText.snapshotNotUsed("\(snapshotProblem)", rebuilt: snapshotProblem.rebuilt) + "\n")
        }
        return catalog
    } catch {
        throw CommandError(CommandText.cannotReadCatalog("\(error)"))
    }
}
