import TouchSchoolCore
import TouchSchoolStore

/// The catalog every command and the game use: the imported official list
/// (`<data dir>/catalog.json`), else the starter catalog shipped with the binary. A snapshot
/// that could not be used is said on `output`'s errors.
func loadCatalog(dataDirectory: String, output: CommandOutput) throws -> Catalog {
    do {
        let (catalog, snapshotProblem) = try CatalogFile.loadCurrentReporting(dataDirectory: dataDirectory, starterPath: StarterCatalogFile.path)
        if let snapshotProblem {
            let outcome = snapshotProblem.rebuilt ? "rebuilt from the catalog file" : "the catalog file was read instead"
            output.writeError("touchschool: the catalog snapshot \(snapshotProblem): not used; \(outcome)\n")
        }
        return catalog
    } catch {
        throw CommandError("cannot read the school catalog: \(error)")
    }
}
