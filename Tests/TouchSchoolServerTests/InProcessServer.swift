import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization
import TouchSchoolProtocol
import TouchSchoolStore
import TouchSchoolTestSupport
@testable import TouchSchoolServer

/// What the server tests ask of a server, whether it runs in this process or in its own.
protocol RunningServer: Sendable {
    var port: Int { get }
    var dataDirectory: String { get }
    var baseURL: String { get }
    /// Its log, as far as it has written it.
    var errors: String { get }
}

extension RunningServer {
    var playURL: String { "ws://127.0.0.1:\(port)\(PlayProtocol.playPath)" }
}

extension ServerProcess: RunningServer {}

/// The server in this test process: the services `serve` runs (`TouchSchoolServer.services`: the
/// application with its routes, play socket, board stream and connection guard on a real socket,
/// and the battle), on a free port of loopback, with the starter catalog. Its store is the
/// in-memory one (`InMemoryBattleStore`, faults and delays injectable), the data directory's
/// SQLite database where a test reads the files, or a PostgreSQL database that several servers in
/// process may share. `with` shuts it down gracefully after the test,
/// as SIGTERM shuts `serve` down (which stays a process's test: `ServerTests`), and fails if the
/// shutdown fails. Its log is kept (`errors`), at debug level as the processes log.
final class InProcessServer: RunningServer, Sendable {
    enum Store {
        case memory(InMemoryBattleStore.Storage = .init())
        /// `battle.sqlite` in the data directory, as `serve` without `--postgres` keeps it.
        case sqlite
        /// The database at this URL, as `serve --postgres URL` keeps it: migrated at the start, its
        /// client run until the server has shut down, other servers' commits listened for.
        case postgres(url: String)
    }

    let port: Int
    let dataDirectory: String
    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    private let progress: Progress
    private let log: LogCapture
    /// The PostgreSQL client's run, ended after the services (nil: another store).
    private let client: Task<Void, Never>?

    /// What the running services tell the test: the port once they listen, and whether they ended.
    private final class Progress: Sendable {
        let port = Mutex<Int?>(nil)
        let ended = Mutex(false)
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var errors: String { log.text.withLock { $0 } }
    /// Whether it still serves (it ends only when shut down, or failing).
    var isRunning: Bool { !progress.ended.withLock { $0 } }

    /// Runs `body` against a server on `store`, its configuration as `serve`'s defaults (a new
    /// data directory, loopback, the standard limits) changed by `configure`.
    static func with<T>(store: Store = .memory(), dataDirectory: String? = nil, configure: (inout ServerConfiguration) -> Void = { _ in },
                        _ body: (InProcessServer) async throws -> T) async throws -> T {
        let server = try await InProcessServer(store: store, dataDirectory: dataDirectory ?? TemporaryDirectory().path, configure: configure)
        let result: T
        do {
            result = try await body(server)
        } catch {
            try? await server.shutDown()
            throw error
        }
        try await server.shutDown()
        return result
    }

    private init(store kind: Store, dataDirectory: String, configure: (inout ServerConfiguration) -> Void) async throws {
        self.dataDirectory = dataDirectory
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, dataDirectory: dataDirectory,
                                                starterCatalogPath: StarterCatalogFile.path)
        configure(&configuration)
        let log = LogCapture()
        self.log = log
        let logger = Logger(label: "touchschool.serve") { label in CapturingLogHandler(label: label, capture: log) }
        let store: any BattleStore
        var storeServices: [any StoreService] = []
        var postgres: PostgresClient?
        var client: Task<Void, Never>?
        switch kind {
        case let .memory(storage):
            guard let catalogPath = configuration.starterCatalogPath else { throw HarnessError("no starter catalog beside the tests") }
            store = InMemoryBattleStore(storage: storage, catalog: try CatalogResource(path: catalogPath))
        case .sqlite:
            store = try SQLiteBattleStore(dataDirectory: dataDirectory, starterCatalogPath: configuration.starterCatalogPath)
        case let .postgres(url):
            let pool = PostgresClient(configuration: try PostgresSchema.configuration(url: url), backgroundLogger: logger)
            postgres = pool
            client = Task { await pool.run() }
            let postgresStore = PostgresBattleStore(client: pool, starterCatalogPath: configuration.starterCatalogPath, logger: logger,
                                                    operationTimeout: configuration.postgresTimeout)
            store = postgresStore
            storeServices = [postgresStore]
        }
        self.client = client
        let progress = Progress()
        self.progress = progress
        let services: [any Service]
        do {
            if let postgres { try await PostgresSchema.migrate(postgres, logger: logger) }
            services = try await TouchSchoolServer.services(configuration, store: store, services: storeServices, logger: logger,
                                                                onListening: { _, port in progress.port.withLock { $0 = port } })
        } catch {
            await Self.end(client)
            throw error
        }
        var groupConfiguration = ServiceGroupConfiguration(services: services, logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = configuration.maximumShutdown
        groupConfiguration.maximumCancellationDuration = TouchSchoolServer.maximumCancellation
        let group = ServiceGroup(configuration: groupConfiguration)
        let running = Task {
            defer { progress.ended.withLock { $0 = true } }
            try await group.run()
        }
        self.group = group
        self.running = running
        guard try await Wait.until(timeout: 30, every: .milliseconds(10), { progress.port.withLock { $0 } != nil || progress.ended.withLock { $0 } }),
              let port = progress.port.withLock({ $0 }) else {
            running.cancel()
            let failure = await running.result
            await Self.end(client)
            throw HarnessError("the server in process did not listen: \(failure); its log: \(log.text.withLock { $0 })")
        }
        self.port = port
    }

    /// Shuts it down as SIGTERM does (the battle saves, acknowledges and closes its sockets with
    /// "going away", then the HTTP server stops) and waits until it has; what the services threw.
    func shutDown() async throws {
        await group.triggerGracefulShutdown()
        let ended = await running.result
        await Self.end(client)
        try ended.get()
    }

    /// Ends a PostgreSQL client's run (its connections closed).
    private static func end(_ client: Task<Void, Never>?) async {
        client?.cancel()
        await client?.value
    }
}

/// A log kept in memory, every line with its metadata (a test checks what is never logged).
final class LogCapture: Sendable {
    let text = Mutex("")
}

struct CapturingLogHandler: LogHandler {
    let label: String
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        capture.text.withLock { $0 += "\(event.level) \(label): \(fields.isEmpty ? "" : fields + " ")\(event.message)\n" }
    }
}
