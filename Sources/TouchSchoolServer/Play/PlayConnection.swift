import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization
import TouchSchoolCore
import TouchSchoolProtocol

/// One player's WebSocket at `/v1/play`: hello first (within `ConnectionTimeouts.hello`),
/// then numbered batches and pings. Anything malformed, oversized or out of order closes this
/// connection alone, with an `error` message and its close code, and counts nothing.
package struct PlayConnection {
    let battle: BattleHallRuntime
    let limits: AddressLimits
    let metrics: ServerMetrics
    let address: String
    /// Closed outright when the reader stops reading: a write waiting for room waits for ever.
    let channel: any Channel
    /// The hello's time, and how often the socket is looked at (`ConnectionTimeouts.writeStall`): a
    /// reader that acknowledged nothing owed from one look to the next (one to two intervals: 15 to
    /// 30 seconds) stopped reading, and its connection is closed.
    let timeouts: ConnectionTimeouts
    let logger: Logger

    /// The largest frame accepted: a message over the protocol's limit is still read whole (up to
    /// this) so that the client is told why it is closed; beyond this the WebSocket layer closes
    /// the connection itself (1009).
    static let maximumFrameBytes = 4 * PlayProtocol.maximumClientMessageBytes

    /// How long a closed connection waits for the peer's close frame before it is dropped.
    static let closeGrace: Duration = .seconds(3)
    /// A welcome slower than this is logged as a notice.
    static let slowWelcome: Duration = .seconds(2)

    private enum Closing: Error {
        case error(ProtocolError)
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        guard limits.openConnection(from: address) else {
            metrics.connectionsRefused.increment()
            // Told after the client's first message (or a short wait): frames sent right after
            // the upgrade can reach a client before it reads them and be lost.
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    var messages = inbound.messages(maxSize: Self.maximumFrameBytes).makeAsyncIterator()
                    _ = try? await messages.next()
                }
                group.addTask { try? await Task.sleep(for: .seconds(2)) }
                await group.next()
                group.cancelAll()
            }
            try await close(outbound, ProtocolError(code: CloseCode.tooManyConnections,
                                                    message: "too many connections from \(address)"))
            return
        }
        defer { limits.closeConnection(from: address) }
        let buffer = SocketWriteBuffer(channel: channel)
        // Whatever ends the connection, nothing is written after the WebSocket layer's close.
        defer { buffer.end() }
        guard let id = await battle.connect(sendQueue: .socket(buffer)) else {
            try await close(outbound, BattleHallRuntime.goingAway)
            return
        }
        metrics.connections.increment()
        metrics.activity.connected()
        defer {
            metrics.connections.decrement()
            metrics.activity.disconnected()
        }
        let greeted = Flag()
        let layerError = CaughtError()
        // The write buffer's writes are the event loop's, never under way in this task: the socket's
        // progress alone tells a reader that stopped reading (`SocketProgress`), and a reader
        // that leaves more than `SocketWriteBuffer.bufferLimit` unread is dropped at once.
        let progress = WriteProgress()
        enum Part { case writer, reader, timer, grace }
        await withTaskGroup(of: Part.self) { group in
            // The writer's end: the write buffer writes the messages; its close (after them) goes through
            // the WebSocket layer, which then waits for the peer's.
            group.addTask {
                switch await buffer.ending() {
                case let .close(code, reason):
                    try? await outbound.close(.init(codeNumber: Int(code)), reason: reason)
                case .tooSlow:
                    // Too slow to keep up: the connection is dropped; the client reconnects and resends.
                    logger.notice("Dropping a connection too slow to read its messages", metadata: ["address": "\(address)"])
                    channel.close(promise: nil)
                case .finished, nil:
                    break
                }
                return .writer
            }
            // The reader.
            group.addTask {
                let failure: ProtocolError?
                do {
                    try await read(inbound, id: id, buffer: buffer, greeted: greeted)
                    failure = nil
                } catch let Closing.error(error) {
                    failure = error
                } catch {
                    // The WebSocket layer's own errors (a message too large across its fragments,
                    // the peer gone): handed back to it when the connection ends, so that it
                    // closes with the code it chose (1009 for a message over the limit).
                    layerError.keep(error)
                    failure = nil
                }
                if let failure { fail(failure, buffer: buffer) }
                // Either way, the connection is over once the reader is: the write buffer sends
                // what is queued (a close at the end when there was an error), then ends.
                await battle.disconnect(id)
                return .reader
            }
            // A reader that stopped reading.
            group.addTask {
                await progress.watch(every: timeouts.writeStall, channel: channel) {
                    logger.notice("Closing a connection whose reader stopped reading", metadata: ["address": "\(address)"])
                    metrics.protocolErrors.increment()
                    channel.close(promise: nil)
                }
                return .timer
            }
            // Hello in time.
            group.addTask {
                try? await Task.sleep(for: timeouts.hello)
                if !Task.isCancelled, !greeted.isSet {
                    fail(ProtocolError(code: CloseCode.policyViolation,
                                       message: "no hello within \(timeouts.hello.components.seconds) seconds"), buffer: buffer)
                }
                return .timer
            }
            // Once the writer has closed the socket (or dropped it), the reader sees the peer's
            // close frame and ends; a peer that never answers is dropped after `closeGrace`.
            var (readerDone, writerDone) = (false, false)
            while let part = await group.next() {
                switch part {
                case .writer:
                    writerDone = true
                    if readerDone {
                        group.cancelAll()
                    } else {
                        group.addTask {
                            try? await Task.sleep(for: Self.closeGrace)
                            return .grace
                        }
                    }
                case .reader:
                    // The write buffer still sends what the reader queued (an error, a close), then
                    // ends: the reader's end had the battle finish it.
                    readerDone = true
                    if writerDone { group.cancelAll() }
                case .grace:
                    group.cancelAll()
                case .timer:
                    break
                }
            }
        }
        await battle.disconnect(id)
        if let error = layerError.error { throw error }
    }

    private func fail(_ failure: ProtocolError, buffer: SocketWriteBuffer) {
        metrics.protocolErrors.increment()
        logger.debug("Closing a connection", metadata: ["address": "\(address)", "reason": "\(failure.message)"])
        buffer.send(.text(MessageCoding.encode(.error(failure))))
        buffer.send(.close(code: failure.code, reason: Self.reason(failure.code)))
    }

    private func read(_ inbound: WebSocketInboundStream, id: ConnectionID, buffer: SocketWriteBuffer,
                      greeted: Flag) async throws {
        var messages = inbound.messages(maxSize: Self.maximumFrameBytes).makeAsyncIterator()
        guard let first = try await messages.next() else { return }
        let device: String
        let player: String
        let client: ClientKind?
        switch try decode(first) {
        case let .hello(hello):
            // The player said hello in time: what follows (the store's answers) is the server's
            // own time, however long a busy disk makes it.
            greeted.set()
            // Protocol 1 (the whole board to every player) is refused like any other version:
            // a game that speaks it says it must be updated, and keeps its waiting taps.
            guard hello.protocol == PlayProtocol.version else {
                throw Closing.error(ProtocolError(code: CloseCode.unsupportedVersion,
                                                  message: "protocol \(hello.protocol) is not spoken here: this server speaks \(PlayProtocol.version)"))
            }
            guard BattleRules.isValidDeviceKey(hello.device) else {
                throw Closing.error(ProtocolError(code: CloseCode.policyViolation, message: "not a device key: 22 to 64 base64url characters"))
            }
            let said = battle.clock.now()
            if let refusal = await Self.refusal(of: hello.device, from: address, battle: battle, limits: limits, metrics: metrics) {
                throw Closing.error(refusal)
            }
            player = PlayerNames.clean(hello.player)
            client = hello.client.flatMap(ClientKind.init(rawValue:))
            switch await battle.hello(id, device: hello.device) {
            case let .welcome(welcome, then):
                buffer.send(.text(welcome))
                for text in then { buffer.send(.text(text)) }
            case let .refused(error): throw Closing.error(error)
            }
            // A welcome the store held back is worth the operator's notice: a game gives up a
            // connection not welcomed within 15 s and tries again.
            let waited = battle.clock.now() - said
            logger.log(level: waited > Self.slowWelcome ? .notice : .debug, "Welcomed a device",
                       metadata: ["address": "\(address)", "after_ms": "\(waited / .milliseconds(1))"])
            device = hello.device
        default:
            throw Closing.error(ProtocolError(code: CloseCode.policyViolation, message: "the first message must be hello"))
        }
        let network = ClientAddress.network(of: address)
        while let message = try await messages.next() {
            switch try decode(message) {
            case .hello:
                throw Closing.error(ProtocolError(code: CloseCode.policyViolation, message: "hello twice"))
            case .ping:
                buffer.send(.text(MessageCoding.encode(.pong(nowMs: battle.clock.wallMs()))))
            case let .watch(watch):
                do {
                    await battle.watch(id, try BoardRanking.key(of: watch), period: watch.period)
                } catch {
                    throw Closing.error(ProtocolError(code: CloseCode.policyViolation, message: error.message))
                }
            case let .showMap(shows):
                await battle.showMap(id, shows)
            case let .taps(batch):
                try Self.validate(batch)
                // The save checks the number against the device's last applied one: a repeat
                // is acknowledged again, a gap closes the connection.
                await battle.submit(ReceivedBatch(connection: id, device: device, player: player, batch: batch, address: address,
                                                  network: network, client: client))
            }
        }
    }

    private func decode(_ message: WebSocketMessage) throws -> ClientMessage {
        guard case let .text(text) = message else {
            throw Closing.error(ProtocolError(code: CloseCode.policyViolation, message: "binary frames are not messages: send JSON text"))
        }
        do {
            return try MessageCoding.decodeClient(text)
        } catch {
            throw Closing.error(ProtocolError(code: error.code, message: error.description))
        }
    }

    /// Why a device may not play from `address` now (a banned address, too many devices from
    /// it this hour), or nil: asked of every player, whatever brought them (this socket, SSH).
    package static func refusal(of device: String, from address: String, battle: BattleHallRuntime, limits: AddressLimits,
                        metrics: ServerMetrics) async -> ProtocolError? {
        // A store that cannot be read now lets the player in: a ban is the operator's tool
        // against a few cheaters, not worth refusing every player while the store is down.
        // Bans are kept by network (`ClientAddress.bannedNetwork`); one of a single IPv6
        // address, made before bans covered its /64, under the address itself.
        let network = ClientAddress.network(of: address)
        var banned = false
        for key in network == address ? [address] : [network, address] where !banned {
            banned = (try? await battle.isBanned(address: key)) == true
        }
        if banned {
            return ProtocolError(code: CloseCode.banned, message: "this address is banned from the battle")
        }
        guard limits.admitDevice(device, from: address, nowSeconds: battle.clock.monotonicMs() / 1_000) else {
            metrics.connectionsRefused.increment()
            return ProtocolError(code: CloseCode.tooManyConnections, message: "too many devices from \(address) this hour")
        }
        return nil
    }

    /// What a batch must be to be judged at all.
    static func validate(_ batch: TapBatch) throws {
        func violation(_ message: String) -> Closing { .error(ProtocolError(code: CloseCode.policyViolation, message: message)) }
        guard batch.seq >= 1 else { throw violation("batch numbers start at 1") }
        guard batch.taps.count <= PlayProtocol.maximumSchoolsPerBatch else {
            throw violation("batch \(batch.seq) names \(batch.taps.count) schools: at most \(PlayProtocol.maximumSchoolsPerBatch)")
        }
        guard batch.startMs <= batch.endMs else { throw violation("batch \(batch.seq) ends before it starts") }
        guard batch.bestTapsPerSecond >= 0 else { throw violation("batch \(batch.seq): a negative best") }
        guard batch.playerTaps <= batch.totalTaps else { throw violation("batch \(batch.seq): more player taps than taps") }
        if let school = batch.switchedToSchool, batch.taps[school] == nil, batch.playerTaps > 0 {
            throw violation("batch \(batch.seq): the player's taps are for a school the batch does not name")
        }
    }

    private func close(_ outbound: WebSocketOutboundWriter, _ error: ProtocolError) async throws {
        try await outbound.write(.text(MessageCoding.encode(.error(error))))
        try await outbound.close(.init(codeNumber: Int(error.code)), reason: Self.reason(error.code))
    }

    static func reason(_ code: UInt16) -> String {
        switch code {
        case CloseCode.goingAway: "going away"
        case CloseCode.messageTooBig: "message too big"
        case CloseCode.unsupportedVersion: "unsupported protocol version"
        case CloseCode.tooManyConnections: "too many connections"
        case CloseCode.banned: "banned"
        default: "protocol violation"
        }
    }

    /// An error kept by one task for another.
    final class CaughtError: Sendable {
        private let value = Mutex<(any Error)?>(nil)
        var error: (any Error)? { value.withLock { $0 } }
        func keep(_ error: any Error) { value.withLock { $0 = error } }
    }

    /// Set once, read from another task.
    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }
}
