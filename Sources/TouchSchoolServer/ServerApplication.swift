import Foundation
import Synchronization
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore

/// How to run a server: where to listen, where the scores and the catalog are.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// The data directory: `state.json` (the scores, with the devices) lives here.
    public var dataDirectory: String
    /// The starter catalog's file: served and played with while the data directory has no
    /// imported `catalog.json` (an import while the server runs is taken up within seconds).
    public var starterCatalogPath: String?
    public var limits: AddressLimitPolicy

    public init(host: String, port: Int, dataDirectory: String, starterCatalogPath: String?, limits: AddressLimitPolicy = .standard) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.starterCatalogPath = starterCatalogPath
        self.limits = limits
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public var description: String
}

/// The request context of the play socket: the remote address, for the per-address limits.
struct PlayRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }
}

public enum TouchSchoolServer {
    /// Runs the server until SIGTERM or SIGINT: then what arrived is saved and acknowledged,
    /// every socket closed with "going away", and this returns. `onListening` gets the real
    /// address (with the port chosen when `port` was 0).
    public static func run(_ configuration: ServerConfiguration, logger: Logger,
                           onListening: @escaping @Sendable (String, Int) -> Void) async throws {
        let catalog: CatalogResource
        guard let path = Battle.catalogPath(dataDirectory: configuration.dataDirectory, starter: configuration.starterCatalogPath) else {
            throw ServerError(description: "the starter catalog is missing from the installation")
        }
        do { catalog = try CatalogResource(path: path) } catch {
            throw ServerError(description: "cannot read the school catalog: \(error)")
        }
        let metrics = ServerMetrics()
        let store = StateStore(directory: configuration.dataDirectory)
        let battle: Battle
        do { battle = try Battle(store: store, catalog: catalog, starterCatalogPath: configuration.starterCatalogPath,
                                                 metrics: metrics, logger: logger) } catch {
            throw ServerError(description: "cannot read the saved scores: \(error)")
        }
        let limits = AddressLimits(policy: configuration.limits)
        let page = try WebPage()

        let router = Router()
        Routes(battle: battle, metrics: metrics).add(to: router)
        PageRoutes(battle: battle, page: page, lookup: SchoolLookup()).add(to: router)

        let playRouter = Router(context: PlayRequestContext.self)
        playRouter.ws(RouterPath(PlayProtocol.playPath)) { inbound, outbound, context in
            let address = context.requestContext.remoteAddress?.ipAddress ?? "unknown"
            try await PlayConnection(battle: battle, limits: limits, metrics: metrics, address: address, logger: logger)
                .run(inbound: inbound, outbound: outbound)
        }

        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: playRouter,
                configuration: .init(ws: .init(maxFrameSize: PlayConnection.maximumFrameBytes,
                                               autoPing: .enabled(timePeriod: .seconds(30))))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                onListening(configuration.host, channel.localAddress?.port ?? configuration.port)
            },
            logger: logger
        )
        // Shut down in reverse order: the battle first (save, acknowledge, close the sockets
        // with "going away"), then the HTTP server.
        let group = ServiceGroup(configuration: .init(services: [app, battle], gracefulShutdownSignals: [.sigterm, .sigint],
                                                      logger: logger))
        try await group.run()
    }
}

extension TouchSchoolServer {
    /// For a command-line program: logs to standard error through swift-log (`level`: trace …
    /// critical, default info), runs the server and blocks until it has shut down.
    public static func runBlocking(_ configuration: ServerConfiguration, logLevel: String?,
                                   onListening: @escaping @Sendable (String, Int) -> Void) throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel.flatMap(Logger.Level.init(rawValue:)) ?? .info
            return handler
        }
        let logger = Logger(label: "touchschool.serve")
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<(any Error)?>(nil)
        Task {
            do { try await run(configuration, logger: logger, onListening: onListening) } catch {
                outcome.withLock { $0 = error }
            }
            finished.signal()
        }
        finished.wait()
        if let error = outcome.withLock({ $0 }) { throw error }
    }
}
