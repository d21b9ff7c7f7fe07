import TouchSchoolServer
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSH
import ServiceLifecycle

/// `serve --ssh-port`: the game itself for players with nothing installed but an SSH client
/// (`ssh -p PORT NAME@HOST`), in the same battle as everyone else. A service beside the HTTP
/// server; on a graceful shutdown it stops listening and ends every game (each hands its last
/// taps to the battle, which shuts down after it and saves them).
///
/// Hostile by default (`SSHPolicy`): a connection must open its game within a grace period, an
/// address may hold so many connections, the server so many games; a game ends after a while
/// without a key; a connection has one session channel, and every other channel
/// (port forwarding both ways: `direct-tcpip`, and `tcpip-forward` global requests, refused by
/// NIOSSH's default delegate) and request (`exec`, subsystems) is refused.
struct SSHServer: Service {
    let host: String
    let port: Int
    let policy: SSHPolicy
    let context: SSHGameContext
    let onListening: @Sendable (Int) -> Void

    /// Authentication attempts per connection: a key or two of the client's agent, then a password.
    static let maximumAuthAttempts = 20
    /// How long shutting down waits for the games to hand over their last taps.
    static let shutdownWait: Duration = .seconds(5)

    init(host: String, port: Int, policy: SSHPolicy, battle: BattleHallRuntime, hostKey: SSHHostKey, limits: AddressLimits,
         metrics: ServerMetrics, logger: Logger, onListening: @escaping @Sendable (Int) -> Void) {
        self.host = host
        self.port = port
        self.policy = policy
        context = SSHGameContext(battle: battle, hostKey: hostKey, limits: limits, metrics: metrics,
                                 sessions: SSHSessions(maximum: policy.maximumSessions),
                                 idleTimeout: .seconds(policy.idleTimeoutSeconds), logger: logger)
        self.onListening = onListening
    }

    func run() async throws {
        // The play sockets' count of open connections per address, for SSH connections (only
        // the connection count of this policy is used: sockets, devices and taps are
        // `context.limits`', shared with every other player).
        let connections = AddressLimits(policy: AddressLimitPolicy(connectionsPerAddress: policy.gamesPerAddress, socketsPerAddress: 0,
                                                                   devicesPerAddressPerHour: 0, tapsPerSecond: 0, tapBurst: 0))
        let context = context
        let loginGrace = TimeAmount.seconds(Int64(policy.loginGraceSeconds))
        let listener: any Channel
        do {
            listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    Self.accept(channel, connections: connections, loginGrace: loginGrace, context: context)
                }
                .bind(host: host, port: port)
                .get()
        } catch {
            throw ListeningError(.ssh, host: host, port: port, error: error)
        }
        onListening(listener.localAddress?.port ?? port)
        await withGracefulShutdownHandler {
            try? await listener.closeFuture.get()
        } onGracefulShutdown: {
            listener.close(promise: nil)
        }
        listener.close(promise: nil)
        context.sessions.endAll()
        let deadline = ContinuousClock.now + Self.shutdownWait
        while context.sessions.count > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A new TCP connection: counted against its address (as one of its sockets, whatever they
    /// carry, and as one of its SSH connections), given `loginGrace` to start its game
    /// (authenticated, its session open and its shell requested), else closed.
    private static func accept(_ channel: any Channel, connections: AddressLimits, loginGrace: TimeAmount,
                               context: SSHGameContext) -> EventLoopFuture<Void> {
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        // Sockets are counted per network (an IPv6 /64), as `ConnectionGuard` counts them.
        let network = ClientAddress.network(of: address)
        guard context.limits.openSocket(from: network) else {
            context.metrics.connectionsRefused.increment()
            return channel.close()
        }
        guard connections.openConnection(from: address) else {
            context.limits.closeSocket(from: network)
            context.metrics.connectionsRefused.increment()
            return channel.close()
        }
        channel.closeFuture.whenComplete { _ in
            connections.closeConnection(from: address)
            context.limits.closeSocket(from: network)
        }
        let authentication = SSHPlayerAuthentication()
        let session = SessionState()
        channel.eventLoop.scheduleTask(in: loginGrace) {
            if !session.playing { channel.close(promise: nil) }
        }
        var configuration = SSHServerConfiguration(hostKeys: [context.hostKey.privateKey], userAuthDelegate: authentication)
        configuration.maxAuthAttempts = maximumAuthAttempts
        // The least a channel's packets may be (RFC 4253): a player's keys are a few bytes each,
        // and the window NIOSSH grants each channel (64 packets) is what a client may have the
        // server hold unread, 2 MiB instead of the default's 8.
        configuration.maximumPacketSize = 32_768
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandlers([
                NIOSSHHandler(role: .server(configuration), allocator: channel.allocator) { child, type in
                    // Only the game's session, once per connection: no port forwarding.
                    guard case .session = type, !session.opened, let identity = authentication.identity else {
                        return child.eventLoop.makeFailedFuture(SSHRefusal.notTheGame)
                    }
                    session.opened = true
                    return child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.addHandler(SSHSessionHandler(identity: identity, address: address, context: context) {
                            session.playing = true
                        })
                    }
                },
                ConnectionErrorHandler(),
            ])
        }
    }

    /// Whether a connection has opened its session, and started its game in it (touched on its
    /// event loop only: the child channels share their connection's).
    private final class SessionState: @unchecked Sendable {
        var opened = false
        var playing = false
    }

    enum SSHRefusal: Error {
        case notTheGame
    }

    /// A connection that breaks the protocol (or a client that goes away mid-handshake) is closed.
    private final class ConnectionErrorHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = Any
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
