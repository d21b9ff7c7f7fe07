import Foundation
import Synchronization
import TouchSchoolCore
import TouchSchoolProtocol

/// The school search and the school directory of the catalog being served, built once per
/// catalog (the core's `SchoolSearch`: the page searches exactly as the game does) and built
/// again when an import changes the catalog's ETag.
final class SchoolLookup: Sendable {
    private struct Built: Sendable {
        let etag: String
        let catalog: Catalog
        let search: SchoolSearch
        /// `GET /v1/schools`, encoded and gzipped once.
        let directory: ServedBody
    }

    private let built = Mutex<Built?>(nil)

    func search(_ text: String, limit: Int, in resource: CatalogResource) -> SearchAnswer {
        let current = current(resource)
        let hits = current.search.search(SearchQuery(text: text, limit: limit))
        guard hits.isEmpty else { return SearchAnswer(query: text, schools: hits.map { Self.row(current.catalog[$0.position]) }) }
        // Nothing found: the closest names, if any, as suggestions (a pass of their own, only now).
        let closest = current.search.closestNames(SearchQuery(text: text, limit: min(limit, SchoolEndpoints.maximumSuggestions)))
        return SearchAnswer(query: text, schools: [], suggestions: closest.isEmpty ? nil : closest.map { Self.row(current.catalog[$0.position]) })
    }

    func directory(of resource: CatalogResource) -> ServedBody { current(resource).directory }

    private func current(_ resource: CatalogResource) -> Built {
        built.withLock { built in
            if let built, built.etag == resource.etag { return built }
            let catalog = resource.catalog
            let directory = SchoolDirectory(catalog: resource.etag, rows: catalog.schools.map(Self.row))
            let made = Built(etag: resource.etag, catalog: catalog, search: SchoolSearch(catalog: catalog),
                             directory: ServedBody(bytes: Array(MessageCoding.encodeJSON(directory).utf8), etag: resource.etag))
            built = made
            return made
        }
    }

    static func row(_ school: School) -> SchoolRow {
        SchoolRow(id: school.id, name: school.name, level: school.level.rawValue, province: school.province, district: school.district)
    }
}
