import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// A player's connection from a chosen loopback address (127.0.0.2, 127.0.0.3, …: Linux routes
/// all of 127/8 to the loopback interface), for the per-address limits. HummingbirdWSClient
/// cannot bind a local address, so this is NIO's own WebSocket client, bound with
/// `ClientBootstrap.bind(to:)`: text messages only, what the server sent kept in order.
final class BoundPlayer: Sendable {
    private enum Upgrade {
        case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused
    }

    private struct State {
        var messages: [ServerMessage] = []
        var outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>?
        var ended = false
        /// The close frame's payload (code and reason) when the server closed the connection.
        var closeFrame: ByteBuffer?
    }
    private let state = Mutex(State())

    /// Why the server closed the connection, for a failure's message: its code and reason, and
    /// the error it sent before.
    var closedBecause: String {
        state.withLock { state in
            let errors = state.messages.compactMap { if case let .error(error) = $0 { "\(error.code) \(error.message)" } else { nil } }
            guard var frame = state.closeFrame else { return errors.isEmpty ? "open" : errors.joined(separator: "; ") }
            let code = frame.readInteger(as: UInt16.self).map(String.init) ?? "?"
            return "closed \(code) \(frame.readString(length: frame.readableBytes) ?? ""); \(errors.joined(separator: "; "))"
        }
    }
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Connects from `local` to the server's play socket, says hello and waits for the welcome.
    static func join(_ server: some RunningServer, from local: String, device: TestDevice) async throws -> (BoundPlayer, Welcome) {
        let player = try await connect(server, from: local)
        try await player.send(.hello(Hello(protocol: PlayProtocol.version, device: device.key, player: device.name)))
        let welcome = try await player.next("welcome") { if case let .welcome(welcome) = $0 { welcome } else { nil } }
        return (player, welcome)
    }

    /// Connects from `local` (an IPv4 address to the server's 127.0.0.1, an IPv6 one to its ::1)
    /// to the server's play socket, and says nothing yet.
    static func connect(_ server: some RunningServer, from local: String) async throws -> BoundPlayer {
        let player = BoundPlayer()
        let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: .singletonMultiThreadedEventLoopGroup)
            // An address of a network routed to this machine without being one of its own
            // (`LoopbackNetwork`) is bound only so.
            .channelOption(ChannelOptions.socket(SocketOptionLevel(IPPROTO_IP), SocketOptionName(IP_FREEBIND)), value: 1)
            .bind(to: try SocketAddress(ipAddress: local, port: 0))
            .connect(host: local.contains(":") ? "::1" : "127.0.0.1", port: server.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: 1 << 22) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            .websocket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "127.0.0.1:\(server.port)")
                    headers.add(name: "Content-Length", value: "0")
                    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: PlayProtocol.playPath, headers: headers)
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                        upgradeRequestHead: head, upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { .refused } })
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: configuration))
                }
            }
        guard case let .websocket(channel) = try await upgrade.get() else { throw HarnessError("no WebSocket from \(local)") }
        // On threads of its own: a reader on the cooperative pool waits behind whatever
        // synchronous test holds the pool's two threads, and misses the server's deadlines.
        let task = Task(executorPreference: ThreadPerJobExecutor.shared) {
            try? await channel.executeThenClose { inbound, outbound in
                player.state.withLock { $0.outbound = outbound }
                var text = ByteBuffer()
                for try await frame in inbound {
                    switch frame.opcode {
                    case .text, .continuation:
                        var data = frame.unmaskedData
                        text.writeBuffer(&data)
                        guard frame.fin else { continue }
                        let decoded = try? MessageCoding.decodeServer(String(buffer: text))
                        text.clear()
                        if let decoded { player.state.withLock { $0.messages.append(decoded) } }
                    case .connectionClose:
                        player.state.withLock { $0.closeFrame = frame.unmaskedData }
                        return
                    case .ping:
                        // As every WebSocket client does: the server closes a connection whose
                        // pings go unanswered.
                        try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
                    default:
                        continue
                    }
                }
            }
            player.state.withLock { $0.ended = true }
        }
        player.task.withLock { $0 = task }
        return player
    }

    /// The code of the error the server sent before closing: why it refused this player.
    func refusal() async throws -> UInt16 {
        try await next("an error") { if case let .error(error) = $0 { error.code } else { nil } }
    }

    func send(_ message: ClientMessage) async throws {
        _ = try await Wait.until(timeout: 20, every: .milliseconds(5)) { state.withLock { $0.outbound != nil || $0.ended } }
        guard let outbound = state.withLock({ $0.outbound }) else { throw HarnessError("not connected") }
        // A client masks every frame it sends (RFC 6455, 5.3).
        do {
            try await outbound.write(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(),
                                                    data: ByteBuffer(string: MessageCoding.encode(message))))
        } catch {
            throw HarnessError("cannot send: \(error) (the server's side: \(closedBecause))")
        }
    }

    var acks: [Acknowledgement] { state.withLock { $0.messages.compactMap { if case let .ack(ack) = $0 { ack } else { nil } } } }

    func ack(_ seq: UInt64, timeout: TimeInterval = 30) async throws -> Acknowledgement {
        try await next("ack \(seq)", timeout: timeout) { if case let .ack(ack) = $0, ack.seq == seq { ack } else { nil } }
    }

    func next<T>(_ what: String, timeout: TimeInterval = 30, _ match: (ServerMessage) -> T?) async throws -> T {
        var found: T?
        _ = try await Wait.until(timeout: timeout, every: .milliseconds(10)) {
            let (messages, ended) = state.withLock { ($0.messages, $0.ended) }
            found = messages.lazy.compactMap(match).first
            return found != nil || ended
        }
        if let found { return found }
        let (messages, ended) = state.withLock { ($0.messages, $0.ended) }
        throw HarnessError("no \(what) (ended: \(ended); received: \(messages.map { "\($0)".prefix(200) }))")
    }

    /// Sends a close frame and ends the connection.
    func close() async {
        if let outbound = state.withLock({ $0.outbound }) {
            var code = ByteBuffer()
            code.write(webSocketErrorCode: .normalClosure)
            try? await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: code))
        }
        let task = self.task.withLock { $0 }
        _ = try? await Wait.until(timeout: 5, every: .milliseconds(10)) { state.withLock { $0.ended } }
        task?.cancel()
        await task?.value
    }
}
