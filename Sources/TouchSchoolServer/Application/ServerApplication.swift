import Foundation
import Synchronization
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import UnixSignals
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore

/// How to run a server: where to listen, where the scores and the catalog are.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// The data directory: `battle.sqlite` (the scores, devices and players) and `battle.id`
    /// live here, unless `postgresURL` is given.
    public var dataDirectory: String
    /// PostgreSQL, shared by any number of servers: the scores, devices and catalog live there.
    public var postgresURL: String?
    /// The starter catalog's file: served and played with while the data directory has no
    /// imported `catalog.json` (an import while the server runs is taken up within seconds).
    public var starterCatalogPath: String?
    public var limits: AddressLimitPolicy
    /// The devices the store may hold: past it new devices are refused (`CloseCode.battleFull`)
    /// and the store keeps saving for the others. Each device costs about a kilobyte with its
    /// tallies: two million, a national battle's players, is a couple of gigabytes.
    public var maximumDevices = ServerConfiguration.standardMaximumDevices
    /// The season's length to store at start (`serve --season`); nil: the stored one stays.
    public var seasonLength: SeasonLength?
    /// How far the battle's time of day is moved from the machine's (hidden, for tests: `BattleClock.movedBy`).
    public var clockOffsetMs: Int64 = 0
    public static let standardMaximumDevices = 2_000_000
    /// How long a connection may keep the server waiting (its head, an idle keep-alive, a hello, a
    /// reader that stopped reading): the standard limits unless a test shortens them.
    public var timeouts = ConnectionTimeouts.standard
    /// How long a graceful shutdown (save, acknowledge, close) may take before it is cancelled:
    /// the standard bound unless a test shortens it rather than wait it out.
    public var maximumShutdown = TouchSchoolServer.maximumShutdown
    /// How long one PostgreSQL operation may wait (an unreachable database: for a connection)
    /// before it fails and the battle says the store is away: the standard unless a test shortens it.
    public var postgresTimeout = PostgresBattleStore.standardOperationTimeout
    /// Load balancers whose `X-Forwarded-For` names the player's address for the limits.
    public var trustedProxies: Set<String> = []
    /// The operator's token (`AdminToken`): from this file, else this value (the environment's
    /// `TOUCHSCHOOL_ADMIN_TOKEN`), else the data directory's `admin.token`, made at first start.
    public var adminTokenFile: String?
    public var adminToken: String?

    /// Told every `activityInterval` the players connected and the taps counted in that time,
    /// when there were taps or the players changed (`ActivityLog`).
    public var reportActivity: (@Sendable (ServerActivity) -> Void)?
    public var activityInterval: Duration = .seconds(60)
    /// Told the address of a device that sent a TLS handshake (`https://`) to this plain-HTTP
    /// port, at most once per address per `HTTPSAttempts.quietFor`; nil: logged at debug only.
    public var reportHTTPSAttempt: (@Sendable (String) -> Void)?

    public init(host: String, port: Int, dataDirectory: String, postgresURL: String? = nil, starterCatalogPath: String?,
                limits: AddressLimitPolicy = .standard) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.postgresURL = postgresURL
        self.starterCatalogPath = starterCatalogPath
        self.limits = limits
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public var description: String

    package init(description: String) { self.description = description }
}

/// A port that could not be listened on (`serve`'s HTTP port or its SSH port), as the facts a
/// teacher acts on: the command says them in the user's language (`NetworkCommandText.cannotListen`).
package struct ListeningError: Error, CustomStringConvertible {
    package enum Listener: Sendable { case http, ssh }
    package enum Reason: Equatable, Sendable {
        /// Another program listens there (another server still running?).
        case portInUse
        /// Ports below 1024 need privileges.
        case permissionDenied
        /// This machine has no such address (`--host`).
        case noSuchAddress
        /// Anything else, in the words of the error.
        case other(String)
    }

    package var listener: Listener
    package var host: String
    package var port: Int
    package var reason: Reason

    package init(_ listener: Listener, host: String, port: Int, error: any Error) {
        self.listener = listener
        self.host = host
        self.port = port
        reason = switch (error as? IOError)?.errnoCode {
        case EADDRINUSE: .portInUse
        case EACCES: .permissionDenied
        case EADDRNOTAVAIL: .noSuchAddress
        default: .other("\(error)")
        }
    }

    /// For a log: the system's names. What the user reads is the command's.
    package var description: String {
        let why = switch reason {
        case .portInUse: "EADDRINUSE"
        case .permissionDenied: "EACCES"
        case .noSuchAddress: "EADDRNOTAVAIL"
        case let .other(text): text
        }
        return "cannot listen\(listener == .ssh ? " for SSH" : "") on \(host):\(port): \(why)"
    }
}

/// A way into the battle besides the HTTP server (the game over SSH, `TouchSchoolSSH`): made once
/// the battle and the per-address limits exist, and run as a service beside them that shuts down
/// before the battle, so that its players' last taps are saved.
package protocol PlayEntrance: Sendable {
    func service(battle: BattleHallRuntime, limits: AddressLimits, metrics: ServerMetrics, logger: Logger) throws -> any Service
}

/// The request context of plain HTTP requests: the remote address, for the per-address limits,
/// and the connection, so that a board stream whose reader stopped reading can be closed.
struct HTTPRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}

/// The request context of the play socket: the remote address, for the per-address limits, and
/// the connection.
struct PlayRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let remoteAddress: SocketAddress?
    /// The connection, closed outright when its reader stops reading (`WriteProgress`).
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}

public enum TouchSchoolServer {
    /// Runs the server until SIGTERM or SIGINT: then what arrived is saved and acknowledged,
    /// every socket closed with "going away", and this returns. `onListening` gets the real
    /// address (with the port chosen when `port` was 0). `entrances` run beside the HTTP server.
    package static func run(_ configuration: ServerConfiguration, entrances: [any PlayEntrance] = [], logger: Logger,
                           onListening: @escaping @Sendable (String, Int) -> Void) async throws {
        guard let url = configuration.postgresURL else {
            let store: SQLiteBattleStore
            do {
                store = try SQLiteBattleStore(dataDirectory: configuration.dataDirectory, starterCatalogPath: configuration.starterCatalogPath)
            } catch {
                throw ServerError(description: error.message)
            }
            if let moved = store.moved {
                logger.notice("Moved state.json into the battle database once (state.json is left as it was)", metadata: [
                    "schools": "\(moved.schools)", "taps": "\(moved.taps)", "devices": "\(moved.devices)", "database": "\(store.name)"])
            }
            try await serve(configuration, store: store, services: [], entrances: entrances, logger: logger, onListening: onListening)
            return
        }
        let client: PostgresClient
        do { client = PostgresClient(configuration: try PostgresSchema.configuration(url: url), backgroundLogger: logger) } catch {
            throw ServerError(description: error.message)
        }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do { try await PostgresSchema.prepare(client, url: url, logger: logger) } catch {
                throw ServerError(description: "cannot prepare PostgreSQL at \(PostgresSchema.redacted(url)): \(PostgresSchema.describe(error))")
            }
            let store = PostgresBattleStore(client: client, starterCatalogPath: configuration.starterCatalogPath, logger: logger,
                                            operationTimeout: configuration.postgresTimeout)
            try await serve(configuration, store: store, services: [store], entrances: entrances, logger: logger,
                            onListening: onListening)
        }
    }

    /// Serves the battle kept in `store` until SIGTERM or SIGINT, with `services` (the store's
    /// own loops) and `entrances` running beside it.
    static func serve(_ configuration: ServerConfiguration, store: any BattleStore, services: [any StoreService],
                      entrances: [any PlayEntrance], logger: Logger,
                      onListening: @escaping @Sendable (String, Int) -> Void) async throws {
        let listening = Flag()
        let running = try await Self.services(configuration, store: store, services: services, entrances: entrances, logger: logger) { host, port in
            listening.set()
            onListening(host, port)
        }
        // Shut down in reverse order: the entrances first (each SSH game hands its last taps to the
        // battle), the battle next (save, acknowledge, close the sockets with "going away"),
        // then the HTTP server. A shutdown that takes too long is cancelled, and one still running
        // when the cancellation's time is up too ends the process, in words (ServiceLifecycle's own
        // bound is a crash: SIGILL and a backtrace that took seconds to print); a second SIGTERM or
        // Ctrl-C ends it at once (what was acknowledged is saved; what was not, its clients send again).
        var group = ServiceGroupConfiguration(services: running, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = configuration.maximumShutdown
        group.maximumCancellationDuration = nil
        let bound = configuration.maximumShutdown + Self.maximumCancellation
        let secondSignal = Task {
            var signals = await UnixSignalsSequence(trapping: .sigterm, .sigint).makeAsyncIterator()
            guard await signals.next() != nil, await signals.next() != nil else { return }
            logger.notice("A second signal: exiting now")
            exit(Self.secondSignalStatus)
        }
        // A shutdown cancelled at its bound says so and ends as one that outlived the cancellation
        // too (status 1): whoever stops the server learns it did not end as it should.
        let cutShort = Flag()
        let overdue = Task {
            var signals = await UnixSignalsSequence(trapping: .sigterm, .sigint).makeAsyncIterator()
            guard await signals.next() != nil, (try? await Task.sleep(for: configuration.maximumShutdown)) != nil else { return }
            cutShort.set()
            guard (try? await Task.sleep(for: Self.maximumCancellation)) != nil else { return }
            logger.error("The shutdown took longer than \(bound.components.seconds) s: exiting now (what was acknowledged is saved; what was not, its clients send again)")
            exit(Self.overdueStatus)
        }
        defer {
            secondSignal.cancel()
            overdue.cancel()
        }
        func endIfCutShort() {
            guard cutShort.isSet else { return }
            logger.error("The shutdown took longer than \(configuration.maximumShutdown.components.seconds) s and was cancelled (what was acknowledged is saved; what was not, its clients send again)")
            exit(Self.overdueStatus)
        }
        do {
            defer { endIfCutShort() }
            try await ServiceGroup(configuration: group).run()
        } catch let error as ServerError {
            throw error // already in words
        } catch let error as ListeningError {
            throw error // the SSH port's
        } catch where !listening.isSet {
            throw ListeningError(.http, host: configuration.host, port: configuration.port, error: error)
        }
    }

    /// The server's services on the battle kept in `store`, in the order they start (a service
    /// group shuts them down in reverse): the HTTP application, the battle, `services` (the
    /// store's own loops), the activity reporter and the `entrances` (SSH). `serve` runs them in
    /// a group that SIGTERM and SIGINT shut down gracefully; the tests run them in a group of
    /// their own, in process, and shut it down as a signal would.
    static func services(_ configuration: ServerConfiguration, store: any BattleStore, services: [any StoreService],
                         entrances: [any PlayEntrance] = [], logger: Logger,
                         onListening: @escaping @Sendable (String, Int) -> Void) async throws -> [any Service] {
        let (application, others) = try await assemble(configuration, store: store, services: services, entrances: entrances,
                                                        logger: logger, onListening: onListening)
        return [application] + others
    }

    /// What `services` runs, with the HTTP application apart from the services that run beside it
    /// (the battle first), for the tests that send it requests without a socket (HummingbirdTesting's
    /// `.router`).
    static func assemble(_ configuration: ServerConfiguration, store: any BattleStore, services: [any StoreService],
                         entrances: [any PlayEntrance] = [], logger: Logger,
                         onListening: @escaping @Sendable (String, Int) -> Void) async throws
        -> (application: some ApplicationProtocol, services: [any Service]) {
        let clock = BattleClock.system.movedBy(ms: configuration.clockOffsetMs)
        let catalog: CatalogResource
        let board: StoredBoard
        let battleID: String
        let devicesStored: Int
        do {
            battleID = try await store.battleID()
            guard let loaded = try await store.newCatalog(current: nil) else { throw BattleStoreError(message: "no catalog") }
            catalog = loaded
            var saved = try await store.board()
            devicesStored = try await store.deviceCount()
            if let length = configuration.seasonLength { try await store.setSeasonLength(length) }
            // The season running, whole: its views rank by it from the first.
            if let running = Season.at(try await store.seasonLength(), ms: clock.wallMs()) {
                saved.season = SeasonTotals(season: running, totals: try await store.season(running).totals)
            }
            board = saved
        } catch {
            throw ServerError(description: "cannot start from \(store.name): \(error)")
        }
        let adminToken: AdminToken
        do {
            adminToken = try AdminToken.load(file: configuration.adminTokenFile, environment: configuration.adminToken,
                                             dataDirectory: configuration.dataDirectory)
        } catch {
            throw ServerError(description: error.message)
        }
        let metrics = ServerMetrics()
        let battle = BattleHallRuntime(store: store, battleID: battleID, catalog: catalog, board: board, metrics: metrics,
                            limits: configuration.limits, devicesStored: devicesStored, maximumDevices: configuration.maximumDevices,
                            logger: logger, clock: clock)
        let openFiles = SocketCapacity.raiseOpenFileLimit()
        let capacity = SocketCapacity(openFiles: openFiles, policy: configuration.limits)
        let limits = AddressLimits(policy: configuration.limits, capacity: capacity)
        // A notice only when the open files hold fewer sockets than the policy allows one address
        // (the operator may raise the hard limit); otherwise not in the teacher's view.
        logger.log(level: capacity.perAddress < configuration.limits.socketsPerAddress ? .notice : .debug,
                   "Sockets this process can hold (raise the hard limit on open files for more)", metadata: [
            "open_files": "\(openFiles)", "sockets": "\(capacity.total)", "sockets_per_address": "\(capacity.perAddress)",
            "connections_per_address": "\(capacity.connectionsPerAddress)"])
        let app = try buildApplication(configuration, battle: battle, limits: limits, adminToken: adminToken, metrics: metrics,
                                       logger: logger, onListening: onListening)
        let entered = try entrances.map { try $0.service(battle: battle, limits: limits, metrics: metrics, logger: logger) }
        var reporters: [any Service] = []
        if let report = configuration.reportActivity {
            reporters.append(ActivityReporter(counts: metrics.activity, interval: configuration.activityInterval, report: report))
        }
        return (app, [battle] + services.map { $0.service(for: battle) } + reporters + entered as [any Service])
    }

    /// How long a graceful shutdown (save, acknowledge, close) may take before it is cancelled
    /// (the standard; `ServerConfiguration.maximumShutdown`), and a cancellation before the process is ended.
    static let maximumShutdown: Duration = .seconds(20)
    static let maximumCancellation: Duration = .seconds(5)
    /// The exit status after a second signal: as a shell reports a process ended by SIGTERM.
    static let secondSignalStatus: Int32 = 128 + SIGTERM
    /// The exit status of a shutdown cancelled at `maximumShutdown`, or still running at its bound
    /// (`maximumShutdown` + `maximumCancellation`).
    static let overdueStatus: Int32 = 1

    /// Set once, read from anywhere: the HTTP server listens (a failure before is a failure to
    /// start); the shutdown ran past its time and was cancelled.
    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }
}

/// A store's own loop that runs while the server does (PostgreSQL's listener for other servers).
protocol StoreService: Sendable {
    func service(for battle: BattleHallRuntime) -> any Service
}

extension PostgresBattleStore: StoreService {
    func service(for battle: BattleHallRuntime) -> any Service { Listener(store: self, battle: battle) }

    /// Listens for other servers' commits until the server shuts down.
    struct Listener: Service {
        let store: PostgresBattleStore
        let battle: BattleHallRuntime
        func run() async throws {
            await cancelWhenGracefulShutdown { await store.listen(waking: battle) }
        }
    }
}
