import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceLifecycle
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolTestSupport
@testable import TouchSchoolServer

/// The server's application without a socket: the routes `buildApplication` adds, answered by
/// HummingbirdTesting's `.router` client, with the battle (and the services beside it) running on
/// the in-memory store with the starter catalog, as `serve` runs them. For what a plain request
/// shows (the page's files, search, the directory, the QR code); what depends on a connection (the
/// play socket, the board stream, the connection guard, per-address limits) stays with
/// `InProcessServer`, on a real socket: here every request comes from no address.
struct RoutedServer: Sendable {
    struct Response: Sendable {
        let status: UInt
        /// Names as sent, in order.
        let headers: [(String, String)]
        /// The body's bytes as the server wrote them (gzipped when it gzipped them).
        let bytes: [UInt8]
        var body: String { String(decoding: bytes, as: UTF8.self) }

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    private let client: any TestClientProtocol

    func get(_ path: String, headers: [(String, String)] = []) async throws -> Response {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        let response = try await client.execute(uri: path, method: .get, headers: fields, body: nil)
        return Response(status: UInt(response.status.code), headers: response.headers.map { ($0.name.rawName, $0.value) },
                        bytes: Array(response.body.readableBytesView))
    }

    /// Runs `body` against the application, its configuration `serve`'s defaults; shuts the
    /// battle down after, as SIGTERM does.
    static func with<T: Sendable>(season: SeasonLength? = nil,
                                  _ body: @escaping @Sendable (RoutedServer) async throws -> T) async throws -> T {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, dataDirectory: folder.path,
                                                starterCatalogPath: StarterCatalogFile.path)
        configuration.seasonLength = season
        guard let catalogPath = configuration.starterCatalogPath else { throw HarnessError("no starter catalog beside the tests") }
        let store = InMemoryBattleStore(storage: .init(), catalog: try CatalogResource(path: catalogPath))
        let logger = Logger(label: "touchschool.serve")
        let (application, services) = try await TouchSchoolServer.assemble(configuration, store: store, services: [], logger: logger,
                                                                           onListening: { _, _ in })
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))
        let running = Task { try await group.run() }
        let result: Result<T, any Error>
        do {
            result = .success(try await application.test(.router) { client in try await body(RoutedServer(client: client)) })
        } catch {
            result = .failure(error)
        }
        await group.triggerGracefulShutdown()
        try await running.value
        return try result.get()
    }
}
