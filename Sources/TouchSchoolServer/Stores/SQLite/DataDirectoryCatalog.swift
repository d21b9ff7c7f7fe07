import Dispatch
import Synchronization
import TouchSchoolStore

/// The catalog a server on a data directory plays with: the directory's imported `catalog.json`,
/// else the starter catalog; an import made while the server runs is taken up when the file's
/// path or stamp changes.
final class DataDirectoryCatalog: Sendable {
    let directory: String
    let starterCatalogPath: String?
    /// A catalog file that could not be read, not to be tried again until it changes.
    private let unreadable = Mutex<String?>(nil)
    private let queue = DispatchQueue(label: "touchschool.catalog")

    init(directory: String, starterCatalogPath: String?) {
        self.directory = directory
        self.starterCatalogPath = starterCatalogPath
    }

    /// The imported `catalog.json` of the data directory, else the starter catalog.
    var path: String? {
        let imported = CatalogFile.importedCatalogPath(inDataDirectory: directory)
        return FileIO.exists(imported) ? imported : starterCatalogPath
    }

    /// The catalog when it differs from `current` (or there is none yet), else nil.
    func newCatalog(current: CatalogResource?) async throws(BattleStoreError) -> CatalogResource? {
        guard let path else {
            if current == nil { throw BattleStoreError(message: "the starter catalog is missing from the installation") }
            return nil
        }
        let stamp = CatalogResource.stamp(of: path)
        let key = "\(path) \(stamp ?? "")"
        guard path != current?.path || stamp != current?.stamp, current == nil || key != unreadable.withLock({ $0 }) else { return nil }
        // Read off the cooperative threads: the official list is a few megabytes.
        let loaded: Result<CatalogResource, CatalogFileError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(CatalogFileError) { continuation.resume(returning: .success(try CatalogResource(path: path))) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        switch loaded {
        case let .success(resource): return resource
        case let .failure(error):
            unreadable.withLock { $0 = key }
            throw BattleStoreError(message: "cannot read the school catalog: \(error)")
        }
    }
}
