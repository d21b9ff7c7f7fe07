import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import TouchSchoolProtocol

/// How long a connection may keep the server waiting before it is closed: the standard limits,
/// which tests shorten (`ServerConfiguration.timeouts`, `serve`'s hidden options, e.g.
/// `--idle-seconds`) rather than wait them out.
public struct ConnectionTimeouts: Sendable {
    /// From the connection's start to the end of its first request head (`ConnectionGuardPolicy`).
    public var head: Duration
    /// A keep-alive connection with no request in progress (`ConnectionGuardPolicy`).
    public var idle: Duration
    /// From a play socket's upgrade to the player's hello (`PlayProtocol.helloTimeoutSeconds`).
    public var hello: Duration
    /// How often a play socket's or a board stream's writes are looked at (`WriteProgress`; the
    /// board stream's keep-alive comment goes then): a reader that took nothing from one look to
    /// the next stopped reading, and its connection is closed, one to two of these after.
    public var writeStall: Duration

    public static let standard = ConnectionTimeouts(head: .seconds(10), idle: .seconds(30), hello: .seconds(PlayProtocol.helloTimeoutSeconds),
                                                    writeStall: .seconds(15))

    public init(head: Duration, idle: Duration, hello: Duration, writeStall: Duration) {
        self.head = head
        self.idle = idle
        self.hello = hello
        self.writeStall = writeStall
    }
}

/// How long and how large a connection may be before it has said what it wants. Hummingbird
/// times out a keep-alive connection only once its first request is read, and its WebSocket
/// upgrade waits for a whole request head however long or slowly it comes: a script could hold
/// thousands of sockets open with heads it never finishes.
public struct ConnectionGuardPolicy: Sendable {
    /// From the connection's start to the end of its first request head: a phone on a slow
    /// network sends its few hundred bytes within a second or two.
    public var headTimeout: TimeAmount
    /// A keep-alive connection with no request in progress is closed after this; browsers open
    /// a new one at once when they need it.
    public var idleTimeout: TimeAmount
    /// A request head's size: ours are well under 2 KiB (a browser's cookies for this host are
    /// the largest part); anything larger is answered 431 and closed.
    public var maximumHeadBytes: Int

    /// The head's and the idle keep-alive's timeouts from `timeouts`.
    public init(timeouts: ConnectionTimeouts, maximumHeadBytes: Int = 16 << 10) {
        headTimeout = TimeAmount(timeouts.head)
        idleTimeout = TimeAmount(timeouts.idle)
        self.maximumHeadBytes = maximumHeadBytes
    }
}

/// Hummingbird's HTTP and WebSocket child channel, for connections their address's socket limit
/// admits (each counted while it is open), behind a `ConnectionGuardHandler`, first in the
/// pipeline: it sees the raw bytes before the HTTP decoder and the upgrade.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let policy: ConnectionGuardPolicy
    let limits: AddressLimits
    let trustedProxies: Set<String>
    let metrics: ServerMetrics
    /// Told of a device that sent a TLS handshake, by its address.
    var httpsAttempts: HTTPSAttempts? = nil

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let peer = channel.remoteAddress?.ipAddress ?? "unknown"
        // A load balancer's connections are its players': counted by the address it forwards
        // once a request says it (the play socket and the board stream do).
        if !trustedProxies.contains(peer) {
            let address = ClientAddress.network(of: peer)
            guard limits.openSocket(from: address) else {
                metrics.connectionsRefused.increment()
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(SocketLimitReached())
            }
            channel.closeFuture.whenComplete { _ in limits.closeSocket(from: address) }
        }
        let guardHandler = ConnectionGuardHandler(policy: policy, metrics: metrics) { [httpsAttempts] in
            // Not an error of the server's: a student typed https://. The browser retries every
            // second; the teacher is told once in a while (`HTTPSAttempts`).
            logger.debug("A TLS handshake (https://) on the plain HTTP port: closed", metadata: ["address": "\(peer)"])
            httpsAttempts?.tried(from: peer)
        }
        do {
            try channel.pipeline.syncOperations.addHandler(guardHandler, position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger).assumeIsolated().flatMapThrowing { value in
            // Right behind the HTTP decoder, which Hummingbird leaves without an error handler: a
            // request it cannot parse would otherwise leave the connection waiting for ever.
            let decoder = try channel.pipeline.syncOperations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(RequestErrorCatcher(guardHandler: guardHandler), position: .after(decoder.handler))
            return value
        }.nonisolated()
    }

    struct SocketLimitReached: Error {}

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Guards a connection's first request head: complete within `headTimeout` (else 408, or a
/// plain close if nothing came) and at most `maximumHeadBytes` (else 431), both followed by a
/// close. Later requests on a kept-alive connection meet Hummingbird's idle timeout and the
/// decoder's size limits, set from the same policy. A request the HTTP decoder refuses
/// (`RequestErrorCatcher`) is answered 400 here, first in the pipeline, as raw bytes. A
/// connection that opens with a TLS handshake (`https://` typed for this plain-HTTP server) is
/// closed before the HTTP layers see it, and `onTLSHandshake` told.
final class ConnectionGuardHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    /// Anything the pipeline writes (the HTTP encoder's bytes and files, WebSocket frames) passes
    /// untouched; only whether something was written is noted.
    typealias OutboundIn = Any
    typealias OutboundOut = ByteBuffer

    private let policy: ConnectionGuardPolicy
    private let metrics: ServerMetrics
    private var headBytes = 0
    /// The last three bytes read of the head, for its end ("\r\n\r\n") across reads.
    private var tail: [UInt8] = []
    private var headDone = false
    private var deadline: Scheduled<Void>?
    /// This handler's context, for an answer written from `RequestErrorCatcher` (same event loop).
    private var context: ChannelHandlerContext?
    /// Whether any response has begun: a 400 then would land inside it, so the connection is
    /// only closed.
    private var wroteAnything = false

    private let onTLSHandshake: () -> Void

    init(policy: ConnectionGuardPolicy, metrics: ServerMetrics, onTLSHandshake: @escaping () -> Void = {}) {
        self.policy = policy
        self.metrics = metrics
        self.onTLSHandshake = onTLSHandshake
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        wroteAnything = true
        context.write(data, promise: promise)
    }

    /// The HTTP decoder refused what this connection sent: 400 and a close, or only a close
    /// when a response is already under way.
    func requestRefused() {
        guard let context else { return }
        if wroteAnything {
            headDone = true
            deadline?.cancel()
            metrics.connectionsRefused.increment()
            context.close(promise: nil)
        } else {
            refuse(context: context, status: "400 Bad Request")
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    /// Starts the head's clock, once.
    private func start(context: ChannelHandlerContext) {
        guard deadline == nil, !headDone else { return }
        // On the channel's event loop, where the handler and its context live.
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: policy.headTimeout) { [self] in
            guard !headDone else { return }
            // Nothing at all: a socket held open, closed without a word. A head begun and not
            // finished: told so.
            refuse(context: context, status: headBytes == 0 ? nil : "408 Request Timeout")
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !headDone else { return context.fireChannelRead(data) }
        let bytes = Array(unwrapInboundIn(data).readableBytesView)
        if headBytes == 0, tail.isEmpty, Self.isTLSHandshake(bytes) {
            onTLSHandshake()
            return refuse(context: context, status: nil)
        }
        // Where the head ends in this read, if it does: first across the boundary (the three
        // bytes kept from the last read, then this one's first three), then within this read.
        let end = Self.headEnd(in: tail + bytes.prefix(3)).map { $0 - tail.count } ?? Self.headEnd(in: bytes)
        let taken = end.map { $0 + 1 } ?? bytes.count
        headBytes += taken
        guard headBytes <= policy.maximumHeadBytes else {
            return refuse(context: context, status: "431 Request Header Fields Too Large")
        }
        if end != nil {
            headDone = true
            deadline?.cancel()
        } else {
            tail = Array((tail + bytes.suffix(3)).suffix(3))
        }
        context.fireChannelRead(data)
    }

    /// Whether a connection's first bytes are a TLS record of a handshake (content type 22,
    /// version 3.x: SSL 3.0 to TLS 1.3 all say so), which no HTTP request starts with.
    static func isTLSHandshake(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0x16 && bytes[1] == 0x03 && bytes[2] <= 0x04
    }

    /// The index of the last byte of the first "\r\n\r\n" in `bytes`.
    static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index - 3] == 13 && bytes[index - 2] == 10 && bytes[index - 1] == 13 && bytes[index] == 10 {
            return index
        }
        return nil
    }

    /// Answers `status` (if any) and closes: nothing more of this connection is read.
    private func refuse(context: ChannelHandlerContext, status: String?) {
        headDone = true
        deadline?.cancel()
        metrics.connectionsRefused.increment()
        guard let status else {
            // Told as the peer's end of input first, so that the WebSocket upgrade waiting for a
            // request ends as for a client gone (a trace), not with an error in the teacher's log.
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
            return context.close(promise: nil)
        }
        let response = "HTTP/1.1 \(status)\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: response))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

/// Sits right behind the HTTP decoder and hands the guard the errors it raises (an unknown
/// method, a malformed request line or header, an unsupported version, too many headers,
/// Content-Length beside Transfer-Encoding): without it such a request reaches no handler and
/// its connection is neither answered nor closed. Any other error goes on down the pipeline (after a
/// WebSocket upgrade the decoder is gone and this passes everything on).
final class RequestErrorCatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    private let guardHandler: ConnectionGuardHandler

    init(guardHandler: ConnectionGuardHandler) { self.guardHandler = guardHandler }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else { return context.fireErrorCaught(error) }
        guardHandler.requestRefused()
    }
}
