import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization
import TouchSchoolCore
import TouchSchoolProtocol

/// `GET /v1/board?count=N` (and `from`, `level`, `province`, as in protocol 2's `watch`): one page
/// of one league's board as Server-Sent Events, for a page that shows the board without playing
/// (the projector's `/?board`, a tab waiting for the device): no device, no hello, so it never
/// takes a player's place. A `page` event at once and whenever the page changes, at most as often
/// as the views: bounded by the page's rows, not by the schools that played (the whole board,
/// streamed before protocol 2, was ≈ 250 KB to every reader with the official list played); a
/// comment every `keepAliveInterval` keeps a quiet page's stream open through proxies. Without
/// `count`: 400.
///
/// Bounded like a play connection: counted against its address's connection limit (shared with
/// the play sockets); a reader more than `sendQueueLimit` events behind is dropped by the battle, as
/// a slow player is; a reader that stops reading altogether (a write still unfinished a whole
/// keep-alive interval later) has its connection closed; every stream ends on a graceful shutdown.
struct BoardStream {
    let battle: BattleHallRuntime
    let limits: AddressLimits
    let metrics: ServerMetrics
    let trustedProxies: Set<String>
    /// The keep-alive comment's interval, and the look at the writer's (`ConnectionTimeouts.writeStall`).
    let keepAliveInterval: Duration

    /// Events waiting for one reader: sixteen seconds of boards at four a second. Fewer than a play
    /// connection keeps: a board that far behind is of no use to a screen, and the reader comes
    /// back with the whole board.
    static let sendQueueLimit = 64
    static let keepAlive = ": keep-alive\n\n"

    func add(to router: Router<HTTPRequestContext>) {
        router.get(RouterPath(PlayProtocol.boardPath)) { request, context -> Response in
            let address = ClientAddress.of(peer: context.remoteAddress?.ipAddress,
                                           forwardedFor: request.headers[ClientAddress.forwardedFor],
                                           trustedProxies: trustedProxies)
            let page: BoardViewKey
            do throws(BoardRanking.WatchRefusal) {
                page = try Self.page(request.uri.queryParameters)
            } catch {
                return Routes.json(MessageCoding.encodeJSON(["error": error.message]), status: .badRequest)
            }
            // `map=1`: the map's `map` events too (`MapNews`), for a screen that shows it.
            let map = request.uri.queryParameters.get("map") == "1"
            // `period=all`: all time's numbers; the season's otherwise (a `season` event says which).
            guard let period = Routes.period(request) else { return Routes.periodRefused }
            return response(from: address, page: page, period: period, map: map, channel: context.channel, logger: context.logger)
        }
    }

    /// The page a stream's query names (`count`, `from`, `level`, `province`).
    static func page(_ query: Parameters) throws(BoardRanking.WatchRefusal) -> BoardViewKey {
        guard let count = query.get("count") else {
            throw .init(message: "name a page: count (1 to \(Watch.maximumCount)), with from, level and province as in watch")
        }
        func number(_ text: String?, default value: Int) throws(BoardRanking.WatchRefusal) -> Int {
            guard let text else { return value }
            guard text.utf8.count <= 7, let number = Int(text) else { throw .init(message: "from and count are whole numbers") }
            return number
        }
        let watch = Watch(league: LeagueName(level: query.get("level"), province: query.get("province")),
                          from: try number(query.get("from"), default: 0), count: try number(count, default: 0))
        guard let key = try BoardRanking.key(of: watch) else { throw .init(message: "name a page: count, from 0") }
        return key
    }

    /// One event: its name, and its JSON on one `data` line (JSON text has no line breaks).
    static func event(_ name: String, json: String) -> String {
        "event: \(name)\ndata: \(json)\n\n"
    }

    private func response(from address: String, page: BoardViewKey, period: RankingPeriod, map: Bool, channel: any Channel, logger: Logger) -> Response {
        guard let slot = AddressSlot(limits: limits, address: address) else {
            logger.debug("Board stream refused: too many connections", metadata: ["address": "\(address)"])
            metrics.connectionsRefused.increment()
            return Routes.json(#"{"error":"too many connections from \#(address)"}"#, status: .tooManyRequests)
        }
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache", .xContentTypeOptions: "nosniff",
            // nginx (docs/nginx-touchschool.conf) passes each event on at once instead of buffering it.
            HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer { slot.release() }
            try await stream(to: &writer, page: page, period: period, map: map, channel: channel, slot: slot, logger: logger)
        })
    }

    private func stream(to writer: inout any ResponseBodyWriter, page: BoardViewKey, period: RankingPeriod, map: Bool, channel: any Channel, slot: AddressSlot,
                        logger: Logger) async throws {
        let (events, sendQueue) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .bufferingOldest(Self.sendQueueLimit))
        // A server shutting down ends the stream at once: the page reads it again elsewhere.
        guard let id = await battle.streamPage(page, period: period, sendQueue: sendQueue) else {
            try await writer.finish(nil)
            return
        }
        if map { await battle.showMap(id, true) }
        metrics.boardStreams.increment()
        defer { metrics.boardStreams.decrement() }
        let progress = WriteProgress()
        // A reader that closed its connection ends the stream now, not at the next write, which
        // may be a keep-alive interval away: its place is given back at once, not after the
        // stream's ending has waited for the battle and the writer.
        let readerGone = ReaderGone {
            logger.debug("Board stream's reader closed its side")
            slot.release()
            sendQueue.finish()
        }
        do {
            try await channel.pipeline.addHandler(readerGone, position: .first).get()
        } catch {
            logger.debug("Board stream cannot watch its reader", metadata: ["error": "\(error)"])
        }
        channel.closeFuture.whenComplete { _ in
            logger.debug("Board stream's connection closed")
            slot.release()
            sendQueue.finish()
        }
        logger.debug("Board stream started")
        let outcome: Result<Void, any Error>
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await keepAlive(sendQueue, watching: progress, closing: channel) }
                reading: for await message in events {
                    switch message {
                    case let .text(text): try await progress.track { try await writer.write(ByteBuffer(string: text)) }
                    case .close: break reading
                    }
                }
                group.cancelAll()
            }
            try await writer.finish(nil)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        logger.debug("Board stream ended", metadata: ["outcome": "\(outcome)"])
        await battle.disconnect(id)
        // The connection may serve further requests.
        try? await channel.pipeline.removeHandler(readerGone).get()
        try outcome.get()
    }

    /// Every `keepAliveInterval`, until cancelled: a comment into the stream, and a look at the
    /// writer (`WriteProgress`). A stalled write, or a stream too full to take the comment, is a
    /// reader that stopped reading: its connection is closed (which ends the write).
    private func keepAlive(_ sendQueue: AsyncStream<Outgoing>.Continuation, watching progress: WriteProgress,
                           closing channel: any Channel) async {
        await progress.watch(every: keepAliveInterval, channel: channel) {
            if case .enqueued = sendQueue.yield(.text(Self.keepAlive)) { return true }
            return false
        } stalled: {
            channel.close(promise: nil)
        }
    }
}

/// Tells that the reader closed its side of the connection. The server keeps half-closed
/// connections open (a request may still be answered), so nothing else tells it before a write
/// fails.
final class ReaderGone: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer
    private let gone: @Sendable () -> Void

    init(_ gone: @escaping @Sendable () -> Void) { self.gone = gone }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { gone() }
        context.fireUserInboundEventTriggered(event)
    }
}

/// One connection counted against its address's limit, given back once: when its response ends,
/// or when a response that never ran its body is dropped.
final class AddressSlot: Sendable {
    private let limits: AddressLimits
    private let address: String
    private let held = Mutex(true)

    init?(limits: AddressLimits, address: String) {
        guard limits.openConnection(from: address) else { return nil }
        self.limits = limits
        self.address = address
    }

    func release() {
        guard held.withLock({ held in defer { held = false }; return held }) else { return }
        limits.closeConnection(from: address)
    }

    deinit { release() }
}
