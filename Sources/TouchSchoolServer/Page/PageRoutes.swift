import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TouchSchoolProtocol

/// The browser's side of the server: the page itself (`GET /` and its script and style) and the
/// two endpoints it needs beyond the play socket, the school search and the school directory.
struct PageRoutes {
    let battle: Battle
    let page: WebPage
    let lookup: SchoolLookup

    func add(to router: Router<HTTPRequestContext>) {
        router.get("/") { request, _ in page.response(for: WebPage.indexName, request: request) }
        for name in page.names where name != WebPage.indexName {
            router.get(RouterPath(name)) { request, _ in page.response(for: name, request: request) }
        }
        router.get(RouterPath(SchoolEndpoints.searchPath)) { request, _ -> Response in
            let text = request.uri.queryParameters.get("q") ?? ""
            guard text.utf8.count <= SchoolEndpoints.maximumQueryBytes else {
                return Routes.json(#"{"error":"the query is too long: at most \#(SchoolEndpoints.maximumQueryBytes) bytes"}"#, status: .badRequest)
            }
            var limit = SchoolEndpoints.defaultSearchLimit
            if let given = request.uri.queryParameters.get("limit") {
                guard let number = Int(given), (1...SchoolEndpoints.maximumSearchLimit).contains(number) else {
                    return Routes.json(#"{"error":"limit must be a whole number from 1 to \#(SchoolEndpoints.maximumSearchLimit)"}"#, status: .badRequest)
                }
                limit = number
            }
            let catalog = await battle.catalog
            var response = Routes.json(MessageCoding.encodeJSON(lookup.search(text, limit: limit, in: catalog)))
            response.headers[.cacheControl] = "no-cache"
            return response
        }
        router.get(RouterPath(SchoolEndpoints.schoolsPath)) { request, _ -> Response in
            let catalog = await battle.catalog
            return lookup.directory(of: catalog).response(
                to: request, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"])
        }
    }
}
