import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore

typealias ConnectionID = UInt64

enum HelloOutcome: Sendable {
    case welcome(String)
    case refused(ProtocolError)
}

/// What a connection's writer sends, in order.
enum Outgoing: Sendable {
    case text(String)
    /// Sends a close frame with this code and reason; nothing after it.
    case close(code: UInt16, reason: String)
}

/// The one battle of a server: the state as last saved, the devices' judges, the batches waiting
/// for the next save, and the connected players.
///
/// Two loops run while the server does: the commit loop gathers what arrives for up to
/// `commitWindow` (counted from the oldest waiting batch's arrival) and saves it in one write of
/// the store (one fsync, or one PostgreSQL transaction), then acknowledges each batch; the
/// broadcast loop sends the schools whose totals changed, at most `broadcastInterval` apart, as
/// one message encoded once, and takes up what other servers on the same store changed.
/// On graceful shutdown, what arrived is saved and acknowledged, and every connection is closed
/// with "going away".
actor Battle: Service {
    let store: any BattleStore
    /// The battle's identity (`BattleStore.battleID()`), told in every welcome.
    nonisolated let battleID: String
    private(set) var catalog: CatalogResource
    let metrics: ServerMetrics
    let logger: Logger

    /// How long the commit loop gathers batches before saving them together.
    static let commitWindow: Duration = .milliseconds(50)
    /// A save is started early when this many batches are waiting.
    static let commitBatchLimit = 2_000
    /// The least time between two board broadcasts (at most four a second).
    static let broadcastInterval: Duration = .milliseconds(250)
    /// How long to wait before trying a failed save again.
    static let retryDelay: Duration = .seconds(1)
    /// A connection whose writer has this many messages waiting is too slow to keep.
    static let outboxLimit = 1_024

    /// Every school's total as last saved (here or by another server on the same store).
    private var scores: [String: UInt64]
    /// The board version each total was read at: an older reading never overwrites a newer one
    /// (a poll and a commit of this server may finish in either order).
    private var scoreVersions: [String: UInt64] = [:]
    private var boardVersion: UInt64
    /// Every change up to this version has been read from the store.
    private var polledVersion: UInt64
    private var histories: [String: DeviceTapHistory] = [:]
    private var pending: [ReceivedBatch] = []
    /// When the oldest waiting batch arrived: the commit window runs from then.
    private var pendingSince: ContinuousClock.Instant?
    /// When the last save started: the next starts a window later at the soonest.
    private var lastCommitStarted: ContinuousClock.Instant?
    /// Devices with batches in the save under way.
    private var inFlight: Set<String> = []
    private var peers: [ConnectionID: Peer] = [:]
    private var connectionOfDevice: [String: ConnectionID] = [:]
    private var changedSinceBroadcast: Set<String> = []
    private var nextConnection: ConnectionID = 1
    private var workWaiter: CheckedContinuation<Void, Never>?
    private var commitWaiters: [CheckedContinuation<Void, Never>] = []
    private var boardText: (version: UInt64, json: String)?
    private var closing = false
    private var lastBroadcast = ContinuousClock.now
    private var stopped = false
    private(set) var lastSaveError: String?
    /// How often the board is asked for other servers' changes (a notification asks at once).
    static let pollInterval: Duration = .milliseconds(200)
    private var pollWaiter: CheckedContinuation<Void, Never>?

    private struct Peer {
        var outbox: AsyncStream<Outgoing>.Continuation
        var device: String?
        /// A board stream (`GET /v1/board`): no device, no hello; every broadcast, as an event.
        var watchesBoard = false
        var waiting = 0
    }

    init(store: any BattleStore, battleID: String, catalog: CatalogResource, board: StoredBoard, metrics: ServerMetrics,
         logger: Logger) {
        self.store = store
        self.battleID = battleID
        self.catalog = catalog
        self.metrics = metrics
        self.logger = logger
        scores = board.scores
        boardVersion = board.version
        polledVersion = board.version
    }

    // MARK: - Service

    func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.commitLoop() }
                group.addTask { await self.broadcastLoop() }
                group.addTask { await self.pollLoop() }
            }
        } onGracefulShutdown: {
            Task { await self.beginClosing() }
        }
    }

    private func beginClosing() {
        guard !closing else { return }
        logger.info("Shutting down: saving what arrived, then closing every connection")
        closing = true
        wakeCommitLoop()
        wakePoll()
    }

    // MARK: - Connections

    /// A new connection, or nil when the server is shutting down.
    func connect(outbox: AsyncStream<Outgoing>.Continuation) -> ConnectionID? {
        guard !closing else { return nil }
        let id = nextConnection
        nextConnection += 1
        peers[id] = Peer(outbox: outbox)
        return id
    }

    /// A new board stream, or nil when the server is shutting down: the whole board now, as the
    /// stream's first event, then every broadcast's event into `outbox`, in order (one actor
    /// call, so no change falls between the two).
    func watchBoard(outbox: AsyncStream<Outgoing>.Continuation) -> (id: ConnectionID, board: String)? {
        guard !closing else { return nil }
        let id = nextConnection
        nextConnection += 1
        peers[id] = Peer(outbox: outbox, watchesBoard: true)
        return (id, BoardStream.event("board", json: boardJSON()))
    }

    func disconnect(_ id: ConnectionID) {
        guard let peer = peers.removeValue(forKey: id) else { return }
        if let device = peer.device, connectionOfDevice[device] == id { connectionOfDevice[device] = nil }
        peer.outbox.finish()
    }

    /// The welcome for a device that said hello: its last applied batch number, its player and
    /// the whole board. Waits for the save of the device's batches still waiting, so that the
    /// number is the truth. Another connection of the same device is closed: the newest wins.
    func hello(_ id: ConnectionID, device: String, player: String) async -> HelloOutcome {
        guard !closing else { return .refused(Self.goingAway) }
        while pending.contains(where: { $0.device == device }) || inFlight.contains(device), !closing {
            await withCheckedContinuation { commitWaiters.append($0) }
        }
        // The device as the store has it (another server may have applied its batches): while
        // the store cannot be read, the hello waits and the connection stays.
        var known: (DeviceRecord, PlayerRecord)?
        while true {
            do throws(BattleStoreError) {
                known = try await store.device(device)
                break
            } catch {
                guard !closing, peers[id] != nil else { return .refused(Self.goingAway) }
                noteSaveFailure(error)
                try? await Task.sleep(for: Self.retryDelay)
            }
        }
        guard !closing, peers[id] != nil else { return .refused(Self.goingAway) }
        if let other = connectionOfDevice[device], other != id {
            send(.close(code: CloseCode.normal, reason: "this device connected again"), to: other)
            if peers[other] != nil { peers[other]?.device = nil }
        }
        connectionOfDevice[device] = id
        peers[id]?.device = device
        return .welcome(welcomeText(lastSeq: known?.0.lastSeq ?? 0, player: CommitRules.playerState(known?.1)))
    }

    /// Queues a batch for the next save. Ignored once the final save of a shutdown has begun:
    /// it was never acknowledged, and the client sends it again.
    /// A connection being closed (a batch out of order, replaced by a newer connection of its
    /// device) has no device any more: what it still sends is not applied.
    func submit(_ batch: ReceivedBatch) {
        guard !stopped, peers[batch.connection]?.device == batch.device else { return }
        if pending.isEmpty { pendingSince = .now }
        pending.append(batch)
        wakeCommitLoop()
    }

    /// The board as saved, for `GET /v1/scores`.
    func board() -> Board {
        Board(version: boardVersion, scores: scores.filter { $0.value > 0 })
    }

    func playerRecord(device: String) async throws(BattleStoreError) -> (PlayerState, DeviceRecord)? {
        guard let (record, player) = try await store.device(device) else { return nil }
        return (CommitRules.playerState(player), record)
    }

    var isSaving: Bool { lastSaveError == nil }

    private func send(_ message: Outgoing, to id: ConnectionID) {
        guard let peer = peers[id] else { return }
        if case .enqueued = peer.outbox.yield(message) { return }
        // Too slow to keep up: the connection is dropped; the client reconnects and resends.
        logger.notice("Dropping a connection too slow to read its messages")
        disconnect(id)
    }

    /// The whole board as JSON, keys sorted: encoded once per version for every welcome and
    /// every board stream's first event.
    private func boardJSON() -> String {
        if let boardText, boardText.version == boardVersion { return boardText.json }
        let json = MessageCoding.encodeJSON(board())
        boardText = (boardVersion, json)
        return json
    }

    private func welcomeText(lastSeq: UInt64, player: PlayerState) -> String {
        // The welcome as `MessageCoding` would write it (keys sorted), with the board encoded
        // once per version instead of once per player.
        let rest = MessageCoding.encode(.welcome(Welcome(battle: battleID, lastSeq: lastSeq, board: Board(version: 0, scores: [:]),
                                                          player: player, catalog: catalog.etag)))
        let empty = "\"board\":{\"scores\":{},\"version\":0}"
        return rest.replacingOccurrences(of: empty, with: "\"board\":" + boardJSON())
    }

    static let goingAway = ProtocolError(code: CloseCode.goingAway, message: "the server is shutting down; connect again later")

    // MARK: - Commit loop

    private func wakeCommitLoop() {
        workWaiter?.resume()
        workWaiter = nil
    }

    private func commitLoop() async {
        while true {
            if pending.isEmpty && !closing {
                await withCheckedContinuation { workWaiter = $0 }
            }
            // The window runs from the oldest waiting batch's arrival, not from the end of the
            // last save: batches that arrived during a save (an fsync can take tens of
            // milliseconds on a busy disk) have waited their window already and are saved at once.
            // Nor does a save start sooner than a window after the previous one started: fast
            // saves (a PostgreSQL transaction takes a few milliseconds) would otherwise follow
            // each other with a batch or two each, and commits would grow with the players
            // instead of staying at most 1 / window a second.
            if !closing && pending.count < Self.commitBatchLimit {
                let now = ContinuousClock.now
                let due = max(pendingSince.map { $0 + Self.commitWindow } ?? now, lastCommitStarted.map { $0 + Self.commitWindow } ?? now)
                if due > now { try? await Task.sleep(until: due, clock: .continuous) }
            }
            if closing {
                // Save and acknowledge what arrived; later batches wait for the next server.
                stopped = true
                var tries = 0
                while !pending.isEmpty && tries < 3 {
                    if await !commit() { tries += 1; try? await Task.sleep(for: .milliseconds(200)) }
                }
                broadcast()
                for (id, peer) in peers {
                    if !peer.watchesBoard { send(.text(MessageCoding.encode(.error(Self.goingAway))), to: id) }
                    send(.close(code: CloseCode.goingAway, reason: "going away"), to: id)
                }
                for waiter in commitWaiters { waiter.resume() }
                commitWaiters = []
                return
            }
            if await !commit() { try? await Task.sleep(for: Self.retryDelay) }
        }
    }

    /// Saves every waiting batch in one write of the store; true when saved (or nothing to do).
    private func commit() async -> Bool {
        guard !pending.isEmpty else { return true }
        let batches = pending
        let since = pendingSince
        lastCommitStarted = .now
        pending = []
        pendingSince = nil
        inFlight = Set(batches.map(\.device))
        defer { inFlight = [] }
        let started = ContinuousClock.now
        let outcome: Result<CommittedWindow, BattleStoreError>
        do throws(BattleStoreError) {
            outcome = .success(try await store.commit(batches, histories: histories, catalog: catalog.catalog,
                                                      nowMs: Int64(Date().timeIntervalSince1970 * 1000)))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case let .failure(error):
            // Nothing is acknowledged: the batches wait (their players stay connected) and are
            // saved when the store works again.
            pending = batches + pending
            pendingSince = since ?? .now
            noteSaveFailure(error)
            return false
        case let .success(window):
            let result = window.rules
            metrics.commitLatency.record(ContinuousClock.now - started)
            metrics.commits.increment()
            noteSaveWorks()
            for note in window.notes { logger.warning("The saved scores were repaired", metadata: ["problem": "\(note)"]) }
            take(window.board)
            self.histories = window.histories
            var acknowledged = 0
            for (received, outcome) in zip(batches, result.outcomes) {
                switch outcome {
                case let .acknowledged(ack):
                    acknowledged += 1
                    if ack.accepted == 0 && ack.refused == 0 && received.batch.totalTaps > 0 { metrics.duplicateBatches.increment() }
                    send(.text(MessageCoding.encode(.ack(ack))), to: received.connection)
                case let .outOfOrder(expected):
                    guard peers[received.connection] != nil else { continue }
                    metrics.protocolErrors.increment()
                    let message = "batch \(received.batch.seq) out of order: expected \(expected)"
                    send(.text(MessageCoding.encode(.error(ProtocolError(code: CloseCode.policyViolation, message: message)))), to: received.connection)
                    send(.close(code: CloseCode.policyViolation, reason: "batch out of order"), to: received.connection)
                    peers[received.connection]?.device = nil
                }
            }
            metrics.batches.increment(by: Int64(acknowledged))
            metrics.tapsAccepted.increment(by: Int64(clamping: result.accepted))
            metrics.tapsRefused.increment(by: Int64(clamping: result.refused))
            // Sent now unless a board went out less than `broadcastInterval` ago (the loop sends
            // it then): players see a save at once, at most four boards a second.
            if ContinuousClock.now - lastBroadcast >= Self.broadcastInterval { broadcast() }
            for waiter in commitWaiters { waiter.resume() }
            commitWaiters = []
            return true
        }
    }

    // MARK: - Broadcast loop

    private func broadcastLoop() async {
        var ticks = 0
        while !closing {
            try? await Task.sleep(for: Self.broadcastInterval / 2)
            if ContinuousClock.now - lastBroadcast >= Self.broadcastInterval { broadcast() }
            ticks += 1
            if ticks % 16 == 0 { await reloadCatalogIfChanged() }
        }
    }

    /// Takes up a new catalog (an import made while the server runs, checked every two
    /// seconds): new players download it (its ETag changed); scores under starter ids move.
    private func reloadCatalogIfChanged() async {
        do throws(BattleStoreError) {
            guard let resource = try await store.newCatalog(current: catalog) else { return }
            logger.info("Serving a new catalog", metadata: ["source": "\(resource.path)", "schools": "\(resource.catalog.count)", "etag": "\(resource.etag)"])
            catalog = resource
            boardText = nil
        } catch {
            logger.warning("Cannot read the new catalog; keeping the one served", metadata: ["error": "\(error)"])
        }
    }

    // MARK: - Other servers

    /// New totals saved here or by another server, read at `changes.version`: the board and the
    /// next broadcast take them. A total read at an older version than the one held is skipped.
    private func take(_ changes: StoredBoard) {
        for (id, total) in changes.scores where (scoreVersions[id] ?? 0) <= changes.version {
            scoreVersions[id] = changes.version
            guard scores[id] != total else { continue }
            scores[id] = total
            changedSinceBroadcast.insert(id)
        }
        if changes.version > boardVersion { boardVersion = changes.version }
        boardText = nil
    }

    /// A hint that the board reached `version` (a PostgreSQL notification): poll now, unless
    /// this server's own commit brought it there already.
    func boardChanged(to version: UInt64?) {
        if let version, version <= boardVersion { return }
        wakePoll()
    }

    private func wakePoll() {
        pollWaiter?.resume()
        pollWaiter = nil
    }

    /// Asks the store for other servers' saves every `pollInterval`, or at once on a hint (a lost
    /// hint costs at most one interval), and pushes them to the players like this server's own.
    private func pollLoop() async {
        // One timer for the loop's whole life: a hint wakes the poll early without adding timers.
        let timer = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.pollInterval)
                await self?.wakePoll()
            }
        }
        defer { timer.cancel() }
        while !closing {
            await withCheckedContinuation { pollWaiter = $0 }
            guard !closing else { return }
            do throws(BattleStoreError) {
                let changes = try await store.changes(since: polledVersion)
                // The store answers again: with nothing waiting to be saved, saving works too.
                if pending.isEmpty && inFlight.isEmpty { noteSaveWorks() }
                guard let changes else { continue }
                metrics.boardPolls.increment()
                polledVersion = max(polledVersion, changes.version)
                take(changes)
                if ContinuousClock.now - lastBroadcast >= Self.broadcastInterval { broadcast() }
            } catch {
                noteSaveFailure(error)
            }
        }
    }

    // MARK: - The store's health

    private func noteSaveFailure(_ error: BattleStoreError) {
        metrics.commitFailures.increment()
        metrics.storeAvailable.set(Double(0))
        if lastSaveError == nil { logger.error("Cannot save the scores; will try again", metadata: ["error": "\(error)"]) }
        lastSaveError = error.message
    }

    private func noteSaveWorks() {
        if lastSaveError != nil { logger.notice("Saving works again") }
        lastSaveError = nil
        metrics.storeAvailable.set(Double(1))
    }

    /// The changed schools' totals, one message encoded once, to every player who said hello, and
    /// as one event encoded once to every board stream.
    private func broadcast() {
        guard !changedSinceBroadcast.isEmpty else { return }
        var scores: [String: UInt64] = [:]
        for id in changedSinceBroadcast { scores[id] = self.scores[id] ?? 0 }
        changedSinceBroadcast = []
        lastBroadcast = ContinuousClock.now
        let changes = BoardChanges(version: boardVersion, scores: scores)
        let text = MessageCoding.encode(.board(changes))
        let event = peers.values.contains(where: \.watchesBoard) ? BoardStream.event("changes", json: MessageCoding.encodeJSON(changes)) : ""
        metrics.broadcasts.increment()
        for (id, peer) in peers {
            if peer.watchesBoard { send(.text(event), to: id) } else if peer.device != nil { send(.text(text), to: id) }
        }
    }
}
