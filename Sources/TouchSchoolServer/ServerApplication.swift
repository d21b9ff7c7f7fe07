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
    /// The catalog file to serve and play with (`catalog.json` of the data directory, else the
    /// starter catalog).
    public var catalogPath: String
    public var limits: AddressLimitPolicy

    public init(host: String, port: Int, dataDirectory: String, catalogPath: String, limits: AddressLimitPolicy = .standard) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.catalogPath = catalogPath
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
        do { catalog = try CatalogResource(path: configuration.catalogPath) } catch {
            throw ServerError(description: "cannot read the school catalog: \(error)")
        }
        let metrics = ServerMetrics()
        let store = StateStore(directory: configuration.dataDirectory)
        let battle: Battle
        do { battle = try Battle(store: store, catalog: catalog, metrics: metrics, logger: logger) } catch {
            throw ServerError(description: "cannot read the saved scores: \(error)")
        }
        let limits = AddressLimits(policy: configuration.limits)

        let router = Router()
        Routes(battle: battle, catalog: catalog, metrics: metrics).add(to: router)

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
