import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TouchSchoolProtocol

/// The browser's side of the server: the page itself (`GET /` and its script and style) and the
/// endpoints it needs beyond the play socket: the school search, the school directory, and the
/// projector's join addresses and QR code.
struct PageRoutes {
    static let qrPath = "/v1/qr.svg"
    let battle: BattleHallRuntime
    let page: WebPage
    let lookup: SchoolLookup
    let join: JoinAddresses
    /// The server's budget for QR codes not cached.
    let budgets: RequestBudgets
    /// Where searches and QR codes are worked out: not in front of play.
    let costly: CostlyWork
    let qrCodes = QRCodeCache()

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
            let answer = await costly.run { [limit] in MessageCoding.encodeJSON(lookup.search(text, limit: limit, in: catalog)) }
            var response = Routes.json(answer)
            response.headers[.cacheControl] = "no-cache"
            return response
        }
        // The projector's QR code of the address it was opened at: the one encoder `serve` also
        // draws in the terminal with. Only modules come out, never the text.
        router.get(RouterPath(Self.qrPath)) { request, _ -> Response in
            let bad = Routes.json(#"{"error":"give text=, at most 106 bytes"}"#, status: .badRequest)
            guard let text = request.uri.queryParameters.get("text"), !text.isEmpty else { return bad }
            let svg: String
            // A code cached is answered here; only one to draw goes to the costly thread.
            var drawn = qrCodes.svg(for: text) { false }
            if drawn == .busy {
                drawn = await costly.run { [qrCodes] in qrCodes.svg(for: text) { budgets.drawQRCode(atMs: budgets.nowMs()) } }
            }
            switch drawn {
            case let .svg(drawn): svg = drawn
            case .tooLong: return bad
            case .busy: return RequestBudgets.busy
            }
            return Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "max-age=86400", .xContentTypeOptions: "nosniff"],
                            body: .init(byteBuffer: ByteBuffer(string: svg)))
        }
        router.get(RouterPath(JoinAddresses.path)) { _, context -> Response in
            guard let port = context.channel.localAddress?.port else { return Response(status: .serviceUnavailable) }
            var response = Routes.json(join.answer(port: port))
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.get(RouterPath(SchoolEndpoints.schoolsPath)) { request, _ -> Response in
            let catalog = await battle.catalog
            return lookup.directory(of: catalog).response(
                to: request, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"])
        }
    }
}
