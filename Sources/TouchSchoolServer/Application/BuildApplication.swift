import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import TouchSchoolProtocol

extension TouchSchoolServer {
    /// The server's application, as the hummingbird-examples build theirs: the HTTP routes
    /// (`HTTP/`), the admin API (`Admin/`), the board stream (`Board/`), the page (`Page/`) and the play socket (`Play/`),
    /// all in front of one `battle`. Running it is the caller's (a `ServiceGroup` beside the
    /// battle, which shuts down first).
    /// `limits` are shared with the SSH players (`TouchSchoolSSH`): one address's devices, however they play.
    static func buildApplication(_ configuration: ServerConfiguration, battle: BattleHallRuntime, limits: AddressLimits, adminToken: AdminToken,
                                 metrics: ServerMetrics, logger: Logger,
                                 onListening: @escaping @Sendable (String, Int) -> Void) throws -> some ApplicationProtocol {
        let page = try WebPage()

        let router = Router(context: HTTPRequestContext.self)
        let budgets = RequestBudgets(policy: .standard, clock: battle.clock)
        router.add(middleware: RequestBudgetMiddleware(budgets: budgets, trustedProxies: configuration.trustedProxies, metrics: metrics))
        Routes(battle: battle, metrics: metrics, costly: .shared).add(to: router)
        BoardStream(battle: battle, limits: limits, metrics: metrics, trustedProxies: configuration.trustedProxies,
                    keepAliveInterval: configuration.timeouts.writeStall).add(to: router)
        let join = JoinAddresses { LANAddresses.hosts(listeningOn: configuration.host, interfaces: LANAddresses.current()) }
        PageRoutes(battle: battle, page: page, lookup: SchoolLookup(), join: join, budgets: budgets, costly: .shared).add(to: router)
        AdminRoutes(battle: battle, token: adminToken, trustedProxies: configuration.trustedProxies, logger: logger).add(to: router)
        RoundRoutes(battle: battle, token: adminToken, trustedProxies: configuration.trustedProxies, logger: logger).add(to: router)
        SeasonRoutes(battle: battle).add(to: router)

        let playRouter = Router(context: PlayRequestContext.self)
        playRouter.ws(RouterPath(PlayProtocol.playPath)) { inbound, outbound, context in
            let address = ClientAddress.of(peer: context.requestContext.remoteAddress?.ipAddress,
                                           forwardedFor: context.request.headers[ClientAddress.forwardedFor],
                                           trustedProxies: configuration.trustedProxies)
            try await PlayConnection(battle: battle, limits: limits, metrics: metrics, address: address,
                                     channel: context.requestContext.channel, timeouts: configuration.timeouts, logger: logger)
                .run(inbound: inbound, outbound: outbound)
        }

        let guardPolicy = ConnectionGuardPolicy(timeouts: configuration.timeouts)
        let webSocketResponder = playRouter.buildResponder()
        // Later requests on a kept-alive connection: Hummingbird's idle timeout and the
        // decoder's size limits, from the same policy as the guard of the first.
        let http1 = HTTP1Channel.Configuration(
            idleTimeout: guardPolicy.idleTimeout,
            httpDecoderConfiguration: .init(maxHeaderFieldSize: guardPolicy.maximumHeadBytes, maxHeaderListSize: guardPolicy.maximumHeadBytes,
                                            maxHeaderFieldCount: 100))
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: http1,
            // A client that does not answer a close (a server shutting down, a connection refused
            // at a limit) is dropped after our own grace, not the library's 15 s: a shutdown
            // waits for every connection to end.
            ws: .init(maxFrameSize: PlayConnection.maximumFrameBytes, autoPing: .enabled(timePeriod: .seconds(30)),
                      closeTimeout: PlayConnection.closeGrace))
        let httpsAttempts = configuration.reportHTTPSAttempt.map { HTTPSAttempts(report: $0, now: battle.clock.now) }
        let server = HTTPServerBuilder { responder in
            GuardedChildChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                                    configuration: channelConfiguration),
                                policy: guardPolicy, limits: limits, trustedProxies: configuration.trustedProxies, metrics: metrics,
                                httpsAttempts: httpsAttempts)
        }
        // Hummingbird's own notes ("Server started and listening on 0.0.0.0:P") only when the
        // operator asks for debugging: the teacher's terminal shows the log beside the greeting,
        // which says where the server listens, in words students can type.
        var applicationLogger = logger
        if logger.logLevel > .debug { applicationLogger.logLevel = max(logger.logLevel, .notice) }
        return Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                onListening(configuration.host, channel.localAddress?.port ?? configuration.port)
            },
            logger: applicationLogger
        )
    }
}
