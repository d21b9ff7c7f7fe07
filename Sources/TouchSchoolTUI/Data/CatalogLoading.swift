import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolStarterCatalog

/// The catalog every command and the game use: the imported official list
/// (`<data dir>/catalog.json`), else the starter catalog shipped with the binary.
func loadCatalog(dataDirectory: String) throws -> Catalog {
    do {
        return try CatalogFile.loadCurrent(dataDirectory: dataDirectory, starterPath: StarterCatalog.path)
    } catch {
        throw CommandError("cannot read the school catalog: \(error)")
    }
}
