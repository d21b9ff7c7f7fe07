import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A player's WebSocket as NIO channel handlers: each frame is handled on its event loop as it is
/// read, and each batch is sent from a task scheduled there.
///
/// The generator shares the machine's cores with the server it measures, so what it spends is
/// taken from the server. Over Hummingbird's WebSocket client (an async sequence of messages and
/// a sleeping task per player), every message woke a Swift task: at 4,000 players the generator
/// took 0.7 core of the two, and its own queueing was part of every latency it reported
/// (BENCHMARKS.md, "A leaner load generator").
enum PlayerConnection {
    /// Connects, says hello, then plays until the connection closes.
    static func play(_ player: Player, port: Int, run: Run, group: any EventLoopGroup) async {
        do {
            let upgraded: EventLoopFuture<(any Channel)?> = try await ClientBootstrap(group: group)
                .connect(host: "127.0.0.1", port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let upgrader = NIOTypedWebSocketClientUpgrader<(any Channel)?>(maxFrameSize: 1 << 22) { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(PlayerHandler(player: player, run: run))
                                return channel
                            }
                        }
                        var headers = HTTPHeaders()
                        headers.add(name: "Host", value: "127.0.0.1:\(port)")
                        headers.add(name: "Content-Length", value: "0")
                        let configuration = NIOTypedHTTPClientUpgradeConfiguration<(any Channel)?>(
                            upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/v1/play", headers: headers),
                            upgraders: [upgrader],
                            notUpgradingCompletionHandler: { channel in
                                channel.close(promise: nil)
                                return channel.eventLoop.makeSucceededFuture(nil)
                            })
                        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                            configuration: .init(upgradeConfiguration: configuration))
                    }
                }
            guard let channel = try await upgraded.get() else { throw LoadError("the server refused the WebSocket upgrade") }
            // Once the upgrade is over: until then the HTTP handlers stand before the frame encoder.
            let hello = ByteBuffer(string: player.hello(run: run))
            try await channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: hello))
            try? await channel.closeFuture.get()
        } catch {
            player.failed(error)
        }
        player.ended(run: run)
    }
}

/// The player's side of the play protocol, on the upgraded channel.
final class PlayerHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let player: Player
    private let run: Run
    /// A text message whose first frames came (the server sends each in one frame; not assumed).
    private var fragments: ByteBuffer?
    private var tapping: Scheduled<Void>?
    private var seq: UInt64 = 0
    private var lastEnd = wallMillis() - 1000

    init(player: Player, run: Run) {
        self.player = player
        self.run = run
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text where frame.fin:
            message(frame.unmaskedData, context: context)
        case .text:
            fragments = frame.unmaskedData
        case .continuation:
            guard var buffer = fragments else { return }
            var piece = frame.unmaskedData
            buffer.writeBuffer(&piece)
            if frame.fin {
                fragments = nil
                message(buffer, context: context)
            } else {
                fragments = buffer
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            context.close(promise: nil)
        default:
            break
        }
    }

    private func message(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
        let now = nowNanos()
        let welcomed = buffer.withUnsafeReadableBytes { raw in
            player.received(raw.bindMemory(to: UInt8.self), at: now, run: run)
        }
        guard welcomed else { return }
        if run.showsMap { send(#"{"type":"map","show":true}"#, context: context) }
        tap(at: .now() + .milliseconds(Int64.random(in: 0..<1000)), context: context)
    }

    /// The next batch at `deadline` (the first at a random phase, so that the players' seconds do
    /// not line up), each a `batchInterval` after the one before.
    private func tap(at deadline: NIODeadline, context: ChannelHandlerContext) {
        tapping = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            guard !run.stopSending.load(ordering: .relaxed) else { return }
            seq += 1
            send(player.batch(seq: seq, lastEnd: &lastEnd, run: run), context: context)
            tap(at: deadline + TimeAmount(player.batchInterval), context: context)
        }
    }

    private func send(_ text: String, context: ChannelHandlerContext) {
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: context.channel.allocator.buffer(string: text))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        tapping?.cancel()
        tapping = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        player.failed(error)
        context.close(promise: nil)
    }
}
