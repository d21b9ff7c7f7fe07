import Foundation
import HummingbirdWSClient
import Logging
import NIOPosix
import Synchronization
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolStore

/// The network battle's connection task: keeps one WebSocket to the server open, says hello,
/// sends the outbox in order, and turns the server's messages into the battle's state. Offline is
/// normal: a failed or dropped connection is tried again after a short wait that doubles up to
/// `maximumRetrySeconds`, with jitter so that a class of games does not reconnect in step.
extension NetworkBattle {
    /// A restarted server sees the waiting taps within this long.
    static let maximumRetrySeconds = 2.0
    static let firstRetrySeconds = 0.1
    /// How long a game the server refused (`ServerRefusal`) waits before asking again, as the
    /// page does: nothing changes until the operator acts (docs/protocol.md, "retry much later").
    static let refusedRetrySeconds = 60.0
    /// Longest from opening a connection to the server's welcome (the default of
    /// `handshakeSeconds`): a server that takes the connection and says nothing (or closes its
    /// side without answering) is offline after it. The server gives a client as long for its hello.
    public static let standardHandshakeSeconds = 15.0
    /// How often the outbox is looked at for batches to send.
    static let sendPollNanoseconds: UInt64 = 50_000_000
    /// An idle connection sends a ping this often; without a word from the server for
    /// `silenceSeconds` it is taken for dead.
    static let keepAliveSeconds = 15.0
    static let silenceSeconds = 40.0

    private static let logger = Logger(label: "touchschool.client", factory: { _ in SwiftLogNoOpLogHandler() })

    func keepConnected() async {
        var failures = 0
        var otherBattles: Set<ServerAddress> = []
        // What answered at each address that failed in a way a mistake explains, asked once.
        var identified: [ServerAddress: ServerFailure?] = [:]
        let servers = folder.servers
        while !Task.isCancelled, !shared.withLock({ $0.isClosing }) {
            let server = servers[shared.withLock { $0.serverIndex } % servers.count]
            enterPhase("connecting to \(server)")
            let outcome = await connectOnce(server)
            enterPhase("after \(outcome), waiting to try again")
            var refusedAgain = false
            switch outcome {
            case .unsupportedProtocol:
                setLink(.unsupportedProtocol)
                return // the taps stay in the outbox for a game that speaks the server's version
            case .welcomedThenClosed:
                failures = 0
                otherBattles.removeAll()
                setLink(.connecting)
            case let .failed(cause):
                failures += 1
                // Refused or unreachable is a server down: offline. Anything else may be the
                // wrong address, which retrying never mends ("offline" for ever, with `https://`).
                if cause != .refused, cause != .unreachable, identified[server] == nil {
                    identified[server] = await Task.detached { ServerProbe.identify(server) }.value
                }
                if let mistake = identified[server] ?? nil { setLink(.wrongAddress(mistake)) } else { setLink(.offline) }
            case .cannotSaveOutbox:
                // Said by `welcomed`; the save is tried again at the next welcome.
                failures += 1
            case let .refused(refusal):
                // Tried again, but much later: the operator may lift the ban or make room.
                failures += 1
                setLink(.refused(refusal))
                refusedAgain = true
            case .otherBattle:
                failures += 1
                otherBattles.insert(server)
                setLink(.otherBattle)
                // The taps stay for their own battle: no server of this game serves it any more.
                if otherBattles.count == servers.count { return }
            }
            // With several servers, the next one is tried: they share the battle, and the outbox
            // (numbered per device) is sent there from the number that server's store has.
            shared.withLock { $0.serverIndex = ($0.serverIndex + 1) % servers.count }
            // A whole round of servers failing backs off as one server would.
            let rounds = servers.count > 1 ? failures / servers.count : failures
            let ceiling = min(Self.maximumRetrySeconds, Self.firstRetrySeconds * pow(2, Double(min(rounds, 10))))
            let delay = refusedAgain ? Self.refusedRetrySeconds : ceiling * Double.random(in: 0.5...1.0)
            try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
        }
    }

    enum ConnectionOutcome: Sendable {
        /// No welcome: why, when the connection failed with an error (nil: given up, or closed).
        case failed(ServerFailure?)
        case welcomedThenClosed, unsupportedProtocol, cannotSaveOutbox, otherBattle
        case refused(ServerRefusal)
    }

    /// What a session learned, shared by its reading and writing halves.
    private final class SessionState: Sendable {
        let lock = Mutex(Session())
        func withLock<Result>(_ body: (inout Session) -> Result) -> Result { lock.withLock { body(&$0) } }
    }

    private struct Session: Sendable {
        /// The last batch number sent (or known to the server); nil until the welcome.
        var sentUpTo: UInt64?
        /// The page and period this connection asked for (a new one watches none, by the season).
        var watchSent = Watch(nil)
        /// Whether this connection asked for the map (a new one asks for none).
        var mapSent = false
        /// The catalog of the map's grid, as this connection's last `map` message naming one said.
        var mapCatalog: String?
        /// A welcome of this battle arrived before the handshake deadline: the connection is
        /// kept however long the welcome takes to handle (the outbox's renumbering is saved).
        var welcoming = false
        var welcomed = false
        /// No welcome came in time: the connection task has moved on, and a welcome that comes
        /// after all is not taken (this connection must send nothing beside the next one's).
        var givenUp = false
        var unsupported = false
        var otherBattle = false
        var cannotSaveOutbox = false
        /// The server said why it would not take the game (its error before closing).
        var refusal: ServerRefusal?
        /// Why the connection failed, when it failed with an error.
        var failure: ServerFailure?
        var lastHeard = Date()
        /// This connection's measure of the server's clock.
        var clock = ServerClock()

        /// At the handshake deadline: whether the connection is given up (no welcome began).
        mutating func giveUpUnlessWelcomed() -> Bool {
            if welcoming { return false }
            givenUp = true
            return true
        }

        /// At a welcome: whether it is taken (the connection was not given up).
        mutating func beginWelcome() -> Bool {
            if givenUp { return false }
            welcoming = true
            return true
        }
    }

    /// One connection, from opening it to its end; at the handshake deadline without a welcome,
    /// the connection is given up: cancelled, and no longer waited for.
    ///
    /// Given up rather than torn down: its event loop is shut down only `givenUpGraceSeconds`
    /// later, if the connection has not ended by then. Shutting the loop down under a live
    /// connection (the first way this was done) closed the socket, but the WebSocket layer's
    /// closing handshake then scheduled work on the stopped loop, which NIO drops ("Cannot
    /// schedule tasks on an EventLoop that has already shut down"), and the connection task
    /// waited on it for ever: the game stayed "connecting" (seen in the restore tests under load,
    /// with a server slow to welcome).
    private func connectOnce(_ server: ServerAddress) async -> ConnectionOutcome {
        let session = SessionState()
        // The connection on an event loop of its own, shut down when the connection has ended,
        // or, for one given up, when it is left no other way to end: the one way to end a
        // handshake the WebSocket client would otherwise wait on for ever (it keeps a
        // connection the server half-closed open, waiting for an answer that cannot come).
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        // Finished when the connection ends or is given up, whichever comes first.
        let (ended, end) = AsyncStream.makeStream(of: Void.self)
        let connection = Task {
            await self.talk(to: server, session: session, on: loop)
            end.finish()
            try? await loop.shutdownGracefully()
        }
        let deadline = Task {
            try await Task.sleep(for: .seconds(handshakeSeconds))
            guard session.withLock({ $0.giveUpUnlessWelcomed() }) else { return }
            end.finish()
            connection.cancel()
            try await Task.sleep(for: .seconds(Self.givenUpGraceSeconds))
            try? await loop.shutdownGracefully()
        }
        // The game closing cancels the connection and waits no longer; the deadline is left to
        // shut the loop down should the cancelled connection not end (a half-closed handshake).
        await withTaskCancellationHandler { for await _ in ended {} } onCancel: { connection.cancel() }
        let closing = Task.isCancelled
        return session.withLock { session in
            if session.givenUp { return .failed(session.failure) }
            if !closing { deadline.cancel() } // the connection has ended, its loop with it
            if session.unsupported { return .unsupportedProtocol }
            if session.otherBattle { return .otherBattle }
            if session.cannotSaveOutbox { return .cannotSaveOutbox }
            if let refusal = session.refusal { return .refused(refusal) }
            return session.welcomed ? .welcomedThenClosed : .failed(session.failure)
        }
    }

    /// How long a connection given up at the handshake deadline has to end by itself (its
    /// cancellation closes an upgraded WebSocket at once) before its event loop is shut down.
    static let givenUpGraceSeconds = 15.0

    /// A step of a connection not given up: one given up may still be ending beside the next
    /// attempt, whose steps are the ones worth telling.
    private func enterPhase(_ step: String, of session: SessionState) {
        if !session.withLock({ $0.givenUp }) { enterPhase(step) }
    }

    /// The WebSocket: hello, then the server's messages and the outbox's batches until it ends.
    private func talk(to server: ServerAddress, session: SessionState, on loop: MultiThreadedEventLoopGroup) async {
        var configuration = WebSocketClientConfiguration()
        configuration.maxFrameSize = PlayProtocol.maximumServerMessageBytes
        do {
            let close = try await WebSocketClient.connect(url: server.playURL, configuration: configuration, eventLoopGroup: loop,
                                                          logger: Self.logger) {
                inbound, outbound, _ in
                self.enterPhase("upgraded, saying hello to \(server)", of: session)
                try await outbound.write(.text(MessageCoding.encode(.hello(Hello(protocol: PlayProtocol.version, device: self.device, player: self.player, client: .terminal)))))
                self.enterPhase("waiting for the welcome of \(server)", of: session)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await self.receive(inbound, session: session, server: server) }
                    group.addTask { try await self.send(outbound, session: session) }
                    try await group.next()
                    self.enterPhase("connection to \(server) ending", of: session)
                    group.cancelAll()
                }
            }
            if let close, UInt16(webSocketErrorCode: close.closeCode) == CloseCode.unsupportedVersion {
                session.withLock { $0.unsupported = true }
            }
        } catch {
            // Refused, dropped, timed out: offline for now.
            session.withLock { $0.failure = ServerHTTP.classify(error) }
        }
    }

    /// Reads the server's messages until the connection ends.
    private func receive(_ inbound: WebSocketInboundStream, session: SessionState, server: ServerAddress) async throws {
        for try await message in inbound.messages(maxSize: PlayProtocol.maximumServerMessageBytes) {
            guard case let .text(text) = message else { continue }
            session.withLock { $0.lastHeard = Date() }
            let message = try MessageCoding.decodeServer(text)
            switch message {
            case let .welcome(welcome):
                guard welcome.protocol == PlayProtocol.version else {
                    session.withLock { $0.unsupported = true }
                    return
                }
                guard welcome.battle == folder.battle else {
                    // The address serves another battle now: nothing of this one is sent there,
                    // and the next game started on the address joins the new one.
                    if BattleRules.isValidBattleID(welcome.battle) {
                        try? BattleLocator(dataDirectory: folder.dataDirectory).remember(welcome.battle, at: server)
                    }
                    session.withLock { $0.otherBattle = true }
                    return
                }
                guard session.withLock({ $0.beginWelcome() }) else { return }
                enterPhase("welcomed by \(server): keeping the renumbered outbox")
                guard let sentUpTo = welcomed(welcome) else {
                    session.withLock { $0.cannotSaveOutbox = true }
                    return
                }
                session.withLock {
                    $0.welcomed = true
                    $0.sentUpTo = sentUpTo
                }
                enterPhase("online with \(server)")
                refreshCatalogIfChanged(welcome.catalog, from: server)
            case let .ack(ack):
                acknowledged(ack)
            case .schoolView, .page:
                viewed(message)
            case .round, .roundPlace:
                // Both clocks read together: the game moves the round's times from this moment,
                // not from when it takes the event.
                let (clock, now, toldAt) = session.withLock { ($0.clock, BatchClock.wallClockMs(), MonotonicClock.now()) }
                if let event = GameEvent.round(message, clock: clock, localMs: now, toldAt: toldAt) { told(event) }
            case let .map(report):
                let catalog = session.withLock { session in
                    if let named = report.catalog { session.mapCatalog = named }
                    return session.mapCatalog
                }
                mapReported(report, catalog: catalog)
            case let .pong(serverMs):
                let offset = session.withLock { session in
                    session.clock.ponged(serverMs: serverMs, atMs: BatchClock.wallClockMs())
                    return session.clock.offsetMs
                }
                // Kept beyond this connection: taps made offline claim the last measure.
                if let offset { shared.withLock { $0.serverOffsetMs = offset } }
            case let .season(summary):
                told(.seasonTold(summary.flatMap(Season.init)))
            case let .error(error):
                if error.code == CloseCode.unsupportedVersion { session.withLock { $0.unsupported = true } }
                if let refusal = ServerRefusal(closeCode: error.code) { session.withLock { $0.refusal = refusal } }
            }
        }
    }

    /// Sends the outbox's new batches in order as they come, and a ping when idle.
    private func send(_ outbound: WebSocketOutboundWriter, session: SessionState) async throws {
        var lastSent = Date()
        var lastClockPing = Date.distantPast
        while true {
            try await Task.sleep(nanoseconds: Self.sendPollNanoseconds)
            let (sentUpTo, lastHeard) = session.withLock { ($0.sentUpTo, $0.lastHeard) }
            if Date().timeIntervalSince(lastHeard) > Self.silenceSeconds { return } // a dead connection
            guard let sentUpTo else { continue }
            let (batches, watching, showsMap, askAgain) = shared.withLock { state in
                defer { state.mapAskAgain = false }
                return (state.outbox.batches.filter { $0.seq > sentUpTo }, Watch(state.watching, period: state.period), state.showsMap,
                        state.mapAskAgain)
            }
            if watching != session.withLock({ $0.watchSent }) {
                try await outbound.write(.text(MessageCoding.encode(.watch(watching))))
                session.withLock { $0.watchSent = watching }
                lastSent = Date()
            }
            if askAgain, session.withLock({ $0.mapSent }) {
                try await outbound.write(.text(MessageCoding.encode(.showMap(false))))
                session.withLock { $0.mapSent = false }
            }
            // After the watch: the server takes a watch to mean the map is not shown.
            if showsMap != session.withLock({ $0.mapSent }) {
                try await outbound.write(.text(MessageCoding.encode(.showMap(showsMap))))
                session.withLock { $0.mapSent = showsMap }
                lastSent = Date()
            }
            for batch in batches {
                try await outbound.write(.text(MessageCoding.encode(.taps(batch))))
                session.withLock { $0.sentUpTo = batch.seq }
                lastSent = Date()
            }
            // A few pings at the start measure the server's clock (a round's countdown is shown
            // by it: `ServerClock.wantsSample`); then one when idle keeps the connection open.
            let measuring = session.withLock { $0.clock.wantsSample }
                && Date().timeIntervalSince(lastClockPing) >= ServerClock.sampleIntervalSeconds
            if measuring || (batches.isEmpty && Date().timeIntervalSince(lastSent) >= Self.keepAliveSeconds) {
                session.withLock { $0.clock.pinged(atMs: BatchClock.wallClockMs()) }
                try await outbound.write(.text(MessageCoding.encode(.ping)))
                lastSent = Date()
                lastClockPing = Date()
            }
        }
    }

    /// An ETag's value, whether given quoted (as in the header) or not, weak or strong.
    static func entityTag(_ tag: String) -> String {
        var value = Substring(tag.trimmingCharacters(in: .whitespaces))
        if value.hasPrefix("W/") { value = value.dropFirst(2) }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
        return String(value)
    }

    /// The server's catalog is not the one kept: fetch it (if it changed) in the background.
    private func refreshCatalogIfChanged(_ version: String, from server: ServerAddress) {
        let known = shared.withLock { $0.catalogETag }
        guard Self.entityTag(version) != known.map(Self.entityTag) else { return }
        Task.detached { [self] in
            var headers: [(String, String)] = []
            if let known { headers.append(("If-None-Match", known)) }
            guard let response = try? await ServerHTTP.get(server, ServerPaths.catalog, headers: headers, timeoutSeconds: 60),
                  response.status == 200 else { return }
            catalogDownloaded(bytes: response.body, etag: response.etag)
        }
    }
}
