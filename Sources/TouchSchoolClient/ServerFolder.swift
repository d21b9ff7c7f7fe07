import Foundation
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore

/// What a data directory keeps for one server, apart from the local battle's scores:
/// `<data dir>/servers/<host>_<port>/` with the server's catalog (`catalog.json`, `catalog.etag`),
/// the last board seen (`board.json`), the outbox (`outbox.json`) and the lock of the game that
/// plays on it (`play.lock`).
///
/// Several servers sharing one battle (`--server` given more than once, servers on one
/// PostgreSQL) are one battle to the game: the folder is named after the first, and the game
/// moves to the next one in turn when a server fails.
public struct ServerFolder: Sendable {
    public let server: ServerAddress
    /// Every server of the battle, `server` first.
    public let servers: [ServerAddress]
    public let path: String
    public let fileSystem: FileSystem

    public init(dataDirectory: String, server: ServerAddress, alternates: [ServerAddress] = [], fileSystem: FileSystem = .live) {
        self.server = server
        servers = [server] + alternates.filter { $0 != server }
        self.path = "\(dataDirectory)/servers/\(server.directoryName)"
        self.fileSystem = fileSystem
    }

    public var catalogPath: String { "\(path)/catalog.json" }
    public var etagPath: String { "\(path)/catalog.etag" }
    public var boardPath: String { "\(path)/board.json" }
    public var outboxPath: String { "\(path)/outbox.json" }
    public var lockPath: String { "\(path)/play.lock" }
    public var outbox: OutboxFile { OutboxFile(path: outboxPath, fileSystem: fileSystem) }

    public func create() throws {
        try fileSystem.createDirectory(path)
    }

    // MARK: The catalog

    /// The cached catalog and its ETag, nil when none was cached (or it cannot be read).
    public func cachedCatalog() -> (catalog: Catalog, etag: String?)? {
        guard fileSystem.exists(catalogPath), let catalog = try? CatalogFile.load(path: catalogPath) else { return nil }
        let etag = (try? fileSystem.read(etagPath, 4096)).map { String(decoding: $0, as: UTF8.self) }
        return (catalog, etag.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Keeps a catalog the server sent (checked by reading it first), then its ETag.
    public func saveCatalog(bytes: [UInt8], etag: String?) throws -> Catalog {
        let catalog = try CatalogFile.decode(bytes: bytes)
        try create()
        try fileSystem.replaceAtomically(catalogPath, with: bytes)
        try fileSystem.replaceAtomically(etagPath, with: Array((etag ?? "").utf8))
        return catalog
    }

    /// The server's catalog: the cached copy when there is one (so that a player who joined once
    /// can play while the server is down), else downloaded now.
    public func catalogForStart() throws -> (catalog: Catalog, etag: String?) {
        if let cached = cachedCatalog() { return cached }
        return try downloadCatalog()
    }

    /// Downloads `GET /v1/catalog` from the first server that answers, and keeps it.
    public func downloadCatalog() throws -> (catalog: Catalog, etag: String?) {
        var failure: any Error = ServerRequestError(description: "no server")
        for server in servers {
            do {
                let response = try ServerHTTP.getWaiting(server, ServerPaths.catalog, timeoutSeconds: servers.count > 1 ? 5 : 30)
                guard response.status == 200 else {
                    throw ServerRequestError(description: "the server at \(server) answered \(ServerPaths.catalog) with HTTP \(response.status)")
                }
                return (try saveCatalog(bytes: response.body, etag: response.etag), response.etag)
            } catch {
                failure = error
            }
        }
        throw failure
    }

    // MARK: The last board seen

    public func cachedBoard() -> BoardMirror? {
        guard let bytes = try? fileSystem.read(boardPath, 64 << 20) else { return nil }
        return try? JSONDecoder().decode(BoardMirror.self, from: Data(bytes))
    }

    public func saveBoard(_ board: BoardMirror) throws {
        try create()
        try fileSystem.replaceAtomically(boardPath, with: Array(try JSONEncoder().encode(board)))
    }
}
