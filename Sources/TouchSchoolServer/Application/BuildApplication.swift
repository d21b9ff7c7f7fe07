import Hummingbird
import HummingbirdWebSocket
import Logging
import TouchSchoolProtocol

extension TouchSchoolServer {
    /// The server's application, as the hummingbird-examples build theirs: the HTTP routes
    /// (`HTTP/`), the admin API (`Admin/`), the board stream (`Board/`), the page (`Page/`) and the play socket (`Play/`),
    /// all in front of one `battle`. Running it is the caller's (a `ServiceGroup` beside the
    /// battle, which shuts down first).
    /// `limits` are shared with the SSH players (`SSH/`): one address's devices, however they play.
    static func buildApplication(_ configuration: ServerConfiguration, battle: Battle, limits: AddressLimits, adminToken: AdminToken,
                                 metrics: ServerMetrics, logger: Logger,
                                 onListening: @escaping @Sendable (String, Int) -> Void) throws -> some ApplicationProtocol {
        let page = try WebPage()

        let router = Router(context: HTTPRequestContext.self)
        Routes(battle: battle, metrics: metrics).add(to: router)
        BoardStream(battle: battle, limits: limits, metrics: metrics, trustedProxies: configuration.trustedProxies).add(to: router)
        PageRoutes(battle: battle, page: page, lookup: SchoolLookup()).add(to: router)
        AdminRoutes(battle: battle, token: adminToken, trustedProxies: configuration.trustedProxies, logger: logger).add(to: router)

        let playRouter = Router(context: PlayRequestContext.self)
        playRouter.ws(RouterPath(PlayProtocol.playPath)) { inbound, outbound, context in
            let address = ClientAddress.of(peer: context.requestContext.remoteAddress?.ipAddress,
                                           forwardedFor: context.request.headers[ClientAddress.forwardedFor],
                                           trustedProxies: configuration.trustedProxies)
            try await PlayConnection(battle: battle, limits: limits, metrics: metrics, address: address, logger: logger)
                .run(inbound: inbound, outbound: outbound)
        }

        return Application(
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
    }
}
