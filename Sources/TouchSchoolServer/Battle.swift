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
/// `commitWindow` (counted from the oldest waiting batch's arrival) and saves it in one
/// `StateStore.change` (one fsync), then acknowledges each batch; the broadcast loop sends the
/// schools whose totals changed, at most `broadcastInterval` apart, as one message encoded once.
/// On graceful shutdown, what arrived is saved and acknowledged, and every connection is closed
/// with "going away".
actor Battle: Service {
    let store: StateStore
    private(set) var catalog: CatalogResource
    let starterCatalogPath: String?
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

    private var state: SavedState
    private var histories: [String: DeviceTapHistory] = [:]
    private var pending: [ReceivedBatch] = []
    /// When the oldest waiting batch arrived: the commit window runs from then.
    private var pendingSince: ContinuousClock.Instant?
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
    /// A catalog file that could not be read, not to be tried again until it changes.
    private var unreadableCatalog: String?
    private var stopped = false
    private(set) var lastSaveError: String?
    private let saveQueue = DispatchQueue(label: "touchschool.save")

    private struct Peer {
        var outbox: AsyncStream<Outgoing>.Continuation
        var device: String?
        var waiting = 0
    }

    init(store: StateStore, catalog: CatalogResource, starterCatalogPath: String?, metrics: ServerMetrics,
         logger: Logger) throws(StoreError) {
        self.store = store
        self.catalog = catalog
        self.starterCatalogPath = starterCatalogPath
        self.metrics = metrics
        self.logger = logger
        let (state, problems) = try store.read()
        for case let .notRepaired(details) in problems {
            logger.warning("The saved scores need repair; the first save repairs them and keeps a copy", metadata: ["details": "\(details)"])
        }
        self.state = state
    }

    // MARK: - Service

    func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.commitLoop() }
                group.addTask { await self.broadcastLoop() }
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
        guard !closing, peers[id] != nil else { return .refused(Self.goingAway) }
        if let other = connectionOfDevice[device], other != id {
            send(.close(code: CloseCode.normal, reason: "this device connected again"), to: other)
            if peers[other] != nil { peers[other]?.device = nil }
        }
        connectionOfDevice[device] = id
        peers[id]?.device = device
        let lastSeq = state.devices[device]?.lastSeq ?? 0
        let playerState = CommitRules.playerState(state.players[device])
        return .welcome(welcomeText(lastSeq: lastSeq, player: playerState))
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
        Board(version: state.boardVersion, scores: state.scores.filter { $0.value > 0 })
    }

    func playerRecord(device: String) -> (PlayerState, DeviceRecord)? {
        guard let record = state.devices[device] else { return nil }
        return (CommitRules.playerState(state.players[device]), record)
    }

    var isSaving: Bool { lastSaveError == nil }

    private func send(_ message: Outgoing, to id: ConnectionID) {
        guard let peer = peers[id] else { return }
        if case .enqueued = peer.outbox.yield(message) { return }
        // Too slow to keep up: the connection is dropped; the client reconnects and resends.
        logger.notice("Dropping a connection too slow to read its messages")
        disconnect(id)
    }

    private func welcomeText(lastSeq: UInt64, player: PlayerState) -> String {
        if boardText?.version != state.boardVersion || boardText == nil {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let json = String(decoding: try! encoder.encode(board()), as: UTF8.self)
            boardText = (state.boardVersion, json)
        }
        // The welcome as `MessageCoding` would write it (keys sorted), with the board encoded
        // once per version instead of once per player.
        let rest = MessageCoding.encode(.welcome(Welcome(lastSeq: lastSeq, board: Board(version: 0, scores: [:]),
                                                          player: player, catalog: catalog.etag)))
        let empty = "\"board\":{\"scores\":{},\"version\":0}"
        return rest.replacingOccurrences(of: empty, with: "\"board\":" + boardText!.json)
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
            if !closing && pending.count < Self.commitBatchLimit {
                let waited = pendingSince.map { ContinuousClock.now - $0 } ?? .zero
                if waited < Self.commitWindow { try? await Task.sleep(for: Self.commitWindow - waited) }
            }
            if closing {
                // Save and acknowledge what arrived; later batches wait for the next server.
                stopped = true
                var tries = 0
                while !pending.isEmpty && tries < 3 {
                    if await !commit() { tries += 1; try? await Task.sleep(for: .milliseconds(200)) }
                }
                broadcast()
                for id in peers.keys {
                    send(.text(MessageCoding.encode(.error(Self.goingAway))), to: id)
                    send(.close(code: CloseCode.goingAway, reason: "going away"), to: id)
                }
                for waiter in commitWaiters { waiter.resume() }
                commitWaiters = []
                return
            }
            if await !commit() { try? await Task.sleep(for: Self.retryDelay) }
        }
    }

    /// Saves every waiting batch in one change of the store; true when saved (or nothing to do).
    private func commit() async -> Bool {
        guard !pending.isEmpty else { return true }
        let batches = pending
        let since = pendingSince
        pending = []
        pendingSince = nil
        inFlight = Set(batches.map(\.device))
        defer { inFlight = [] }
        let histories = self.histories
        let catalog = self.catalog.catalog
        let aliases = catalog.aliases
        let store = self.store
        let started = ContinuousClock.now
        let outcome: Result<(StateStore.Saved, CommitRules.Result, [String: DeviceTapHistory]), StoreError> =
            await withCheckedContinuation { continuation in
                saveQueue.async {
                    var histories = histories
                    var rules: CommitRules.Result?
                    do throws(StoreError) {
                        // Waits in line for the lock: a local game on the same directory holds it briefly.
                        let saved = try store.change(lockTimeoutNanoseconds: 10 * StateStore.defaultLockTimeoutNanoseconds) { state in
                            let nowMs = Int64(Date().timeIntervalSince1970 * 1000)
                            var result = CommitRules.apply(batches, to: &state, histories: &histories, catalog: catalog, nowMs: nowMs)
                            // Scores kept under a starter id move to the official id, as every
                            // local save does (after an import into the server's directory).
                            let moved = aliases.filter { state.scores[$0.key] != nil }
                            let followed = StateStore.followAliases(aliases, in: &state)
                            if !moved.isEmpty {
                                result.changedSchools.formUnion(moved.keys)
                                result.changedSchools.formUnion(moved.values)
                                state.boardVersion = state.boardVersion.addingSaturating(1)
                            }
                            rules = result
                            return followed || result.outcomes.contains { if case .acknowledged = $0 { true } else { false } }
                        }
                        continuation.resume(returning: .success((saved, rules!, histories)))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        switch outcome {
        case let .failure(error):
            pending = batches + pending
            pendingSince = since ?? .now
            metrics.commitFailures.increment()
            if lastSaveError == nil { logger.error("Cannot save the scores; will try again", metadata: ["error": "\(error)"]) }
            lastSaveError = error.message
            return false
        case let .success((saved, result, histories)):
            metrics.commitLatency.record(ContinuousClock.now - started)
            metrics.commits.increment()
            if lastSaveError != nil { logger.notice("Saving works again") }
            lastSaveError = nil
            for problem in saved.problems { logger.warning("The saved scores were repaired", metadata: ["problem": "\(problem)"]) }
            state = saved.state
            boardText = nil
            self.histories = histories
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
            changedSinceBroadcast.formUnion(result.changedSchools)
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

    /// The imported `catalog.json` of the data directory, else the starter catalog.
    static func catalogPath(dataDirectory: String, starter: String?) -> String? {
        let imported = CatalogFile.importedCatalogPath(inDataDirectory: dataDirectory)
        return FileIO.exists(imported) ? imported : starter
    }

    /// Takes up an import made while the server runs (checked every two seconds): new players
    /// download the new catalog (its ETag changed); scores under starter ids move at the next save.
    private func reloadCatalogIfChanged() async {
        guard let path = Self.catalogPath(dataDirectory: store.directory, starter: starterCatalogPath) else { return }
        let stamp = CatalogResource.stamp(of: path)
        guard path != catalog.path || stamp != catalog.stamp, "\(path) \(stamp ?? "")" != unreadableCatalog else { return }
        let loaded: Result<CatalogResource, CatalogFileError> = await withCheckedContinuation { continuation in
            saveQueue.async {
                do throws(CatalogFileError) { continuation.resume(returning: .success(try CatalogResource(path: path))) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        switch loaded {
        case let .success(resource):
            logger.info("Serving a new catalog", metadata: ["path": "\(path)", "schools": "\(resource.catalog.count)", "etag": "\(resource.etag)"])
            catalog = resource
            boardText = nil
        case let .failure(error):
            logger.warning("Cannot read the new catalog; keeping the one served", metadata: ["error": "\(error)"])
            unreadableCatalog = "\(path) \(stamp ?? "")"
        }
    }

    /// The changed schools' totals, one message encoded once, to every player who said hello.
    private func broadcast() {
        guard !changedSinceBroadcast.isEmpty else { return }
        var scores: [String: UInt64] = [:]
        for id in changedSinceBroadcast { scores[id] = state.scores[id] ?? 0 }
        changedSinceBroadcast = []
        lastBroadcast = ContinuousClock.now
        let text = MessageCoding.encode(.board(BoardChanges(version: state.boardVersion, scores: scores)))
        metrics.broadcasts.increment()
        for (id, peer) in peers where peer.device != nil { send(.text(text), to: id) }
    }
}
