import Foundation
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolStore

/// What a data directory keeps for one battle: `<data dir>/battles/<battle id>/` with the
/// battle's catalog (`catalog.json`, `catalog.etag`), the last board seen (`board.json`), the
/// outbox (`outbox.json`) and the lock of the game that plays it (`play.lock`).
///
/// Kept by the battle's identity (the server's `welcome.battle`, `GET /v1/battle`), not by the
/// address typed: `http://127.0.0.1:8080` and `http://localhost:8080`, the teacher's address and
/// hostname, or several servers on one PostgreSQL are one battle, one outbox and one numbering
/// of this device's batches. `servers` are the addresses to reach it, tried in turn when one fails.
public struct BattleFolder: Sendable {
    public let battle: String
    public let dataDirectory: String
    /// Every address of the battle given, the preferred one first.
    public let servers: [ServerAddress]
    public let path: String
    public let fileSystem: FileSystem

    /// - Precondition: `battle` passed `BattleRules.isValidBattleID` (it names a folder).
    public init(dataDirectory: String, battle: String, servers: [ServerAddress], fileSystem: FileSystem = .live) {
        precondition(BattleRules.isValidBattleID(battle) && !servers.isEmpty)
        self.battle = battle
        self.dataDirectory = dataDirectory
        var unique: [ServerAddress] = []
        for server in servers where !unique.contains(server) { unique.append(server) }
        self.servers = unique
        self.path = "\(dataDirectory)/battles/\(battle)"
        self.fileSystem = fileSystem
    }

    /// The address tried first.
    public var server: ServerAddress { servers[0] }

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
