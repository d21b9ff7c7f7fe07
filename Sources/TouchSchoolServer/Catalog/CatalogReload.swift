import Foundation
import Logging
import TouchSchoolCore
import TouchSchoolProtocol

extension Battle {
    /// Takes up a new catalog (an import made while the server runs, checked every two
    /// seconds): new players download it (its ETag changed); scores under starter ids move.
    func reloadCatalogIfChanged() async {
        do throws(BattleStoreError) {
            guard let resource = try await store.newCatalog(current: catalog) else { return }
            logger.info("Serving a new catalog", metadata: ["source": "\(resource.path)", "schools": "\(resource.catalog.count)", "etag": "\(resource.etag)"])
            catalog = resource
            boardText = nil
        } catch {
            logger.warning("Cannot read the new catalog; keeping the one served", metadata: ["error": "\(error)"])
        }
    }
}
