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
/// for the next save, and the connections (players and board streams). This file holds the
/// state, the registry of connections and the service's life; each job is an extension in the
/// folder named after it:
/// - `Play/Welcoming.swift`: a hello answered with the welcome;
/// - `Commit/CommitPipeline.swift`: batches gathered for `commitWindow`, saved in one write of
///   the store (`Stores/`), then acknowledged; on graceful shutdown what arrived is saved and
///   acknowledged and every connection closed with "going away";
/// - `Board/BoardFeed.swift`: changed totals to every player and board stream, at most
///   `broadcastInterval` apart, encoded once, and other servers' saves polled from the store;
/// - `Catalog/CatalogReload.swift`: an import taken up while the server runs.
actor Battle: Service {
    let store: any BattleStore
    /// The battle's identity (`BattleStore.battleID()`), told in every welcome.
    nonisolated let battleID: String
    /// The catalog served; replaced only by `reloadCatalogIfChanged`.
    var catalog: CatalogResource
    let metrics: ServerMetrics
    let logger: Logger

    /// How long the commit loop gathers batches before saving them together.
    static let commitWindow: Duration = .milliseconds(50)
    /// A save is started early when this many batches are waiting.
    static let commitBatchLimit = 2_000
    /// The least time between two board broadcasts: 5.6 a second. A tap reaches the other
    /// players within the commit window, the save and at most this; 180 ms keeps that under 300 ms
    /// at p99 with 3,000 players on a 2-core machine, for 1.22× the CPU of a bare server
    /// broadcasting four times a second (BENCHMARKS.md, "A faster board").
    static let broadcastInterval: Duration = .milliseconds(180)
    /// How often the catalog is looked at for an import made while the server runs.
    static let catalogCheckInterval: Duration = .seconds(2)
    /// How often the store's devices are counted again.
    static let deviceCountInterval: Duration = .seconds(60)
    /// How long to wait before trying a failed save again.
    static let retryDelay: Duration = .seconds(1)
    /// A connection whose writer has this many messages waiting is too slow to keep.
    static let outboxLimit = 1_024

    /// Every school's total as last saved (here or by another server on the same store).
    var scores: [String: UInt64]
    /// The board version each total was read at: an older reading never overwrites a newer one
    /// (a poll and a commit of this server may finish in either order).
    var scoreVersions: [String: UInt64] = [:]
    var boardVersion: UInt64
    /// Every change up to this version has been read from the store.
    var polledVersion: UInt64
    var histories: TapJudges
    /// Devices the store holds: read at start, grown by each save's new devices, read again
    /// every `deviceCountInterval` (other servers on the same store add theirs).
    var devicesStored: Int
    /// No new device is welcomed once the store holds this many (`ServerConfiguration`).
    let maximumDevices: Int
    var devicesCountedAt = ContinuousClock.now
    var pending: [ReceivedBatch] = []
    /// When the oldest waiting batch arrived: the commit window runs from then.
    var pendingSince: ContinuousClock.Instant?
    /// When the last save started: the next starts a window later at the soonest.
    var lastCommitStarted: ContinuousClock.Instant?
    /// Devices with batches in the save under way.
    var inFlight: Set<String> = []
    var peers: [ConnectionID: Peer] = [:]
    var connectionOfDevice: [String: ConnectionID] = [:]
    var changedSinceBroadcast: Set<String> = []
    var nextConnection: ConnectionID = 1
    var workWaiter: CheckedContinuation<Void, Never>?
    var commitWaiters: [CheckedContinuation<Void, Never>] = []
    var boardText: (version: UInt64, json: String)?
    var closing = false
    var lastBroadcast = ContinuousClock.now
    var stopped = false
    private(set) var lastSaveError: String?
    /// How often the board is asked for other servers' changes (a notification asks at once).
    static let pollInterval: Duration = .milliseconds(200)
    var pollWaiter: CheckedContinuation<Void, Never>?

    struct Peer {
        var outbox: AsyncStream<Outgoing>.Continuation
        var device: String?
        /// A board stream (`GET /v1/board`): no device, no hello; every broadcast, as an event.
        var watchesBoard = false
        var waiting = 0
    }

    init(store: any BattleStore, battleID: String, catalog: CatalogResource, board: StoredBoard, metrics: ServerMetrics,
         limits: AddressLimitPolicy = .standard, devicesStored: Int = 0, maximumDevices: Int = .max, logger: Logger) {
        histories = TapJudges(addresses: limits)
        self.devicesStored = devicesStored
        self.maximumDevices = maximumDevices
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

    /// Runs the loops until a graceful shutdown or a cancellation (the service group cancels
    /// when another service fails, e.g. the HTTP server cannot bind its port, or at a second
    /// SIGTERM): either closes the battle, so that every loop ends and the server exits instead of
    /// spinning on sleeps that cancellation cuts short.
    func run() async throws {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await self.commitLoop() }
                    group.addTask { await self.broadcastLoop() }
                    group.addTask { await self.pollLoop() }
                }
            } onGracefulShutdown: {
                Task { await self.beginClosing(saying: true) }
            }
        } onCancel: {
            Task { await self.beginClosing(saying: false) }
        }
    }

    /// `saying`: logs that the server shuts down; not for a cancellation, which is a start refused
    /// (its error follows, and nothing arrived to save) or a second signal after the first said it.
    func beginClosing(saying: Bool) {
        guard !closing else { return }
        if saying { logger.info("Shutting down: saving what arrived, then closing every connection") }
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

    /// The board as saved, for `GET /v1/scores`.
    func board() -> Board {
        Board(version: boardVersion, scores: scores.filter { $0.value > 0 })
    }

    func playerRecord(device: String) async throws(BattleStoreError) -> (PlayerState, DeviceRecord)? {
        guard let (record, player) = try await store.device(device) else { return nil }
        return (CommitRules.playerState(player), record)
    }

    var isSaving: Bool { lastSaveError == nil }

    func send(_ message: Outgoing, to id: ConnectionID) {
        guard let peer = peers[id] else { return }
        if case .enqueued = peer.outbox.yield(message) { return }
        // Too slow to keep up: the connection is dropped; the client reconnects and resends.
        logger.notice("Dropping a connection too slow to read its messages")
        disconnect(id)
    }

    static let goingAway = ProtocolError(code: CloseCode.goingAway, message: "the server is shutting down; connect again later")

    // MARK: - The store's health

    func noteSaveFailure(_ error: BattleStoreError) {
        metrics.commitFailures.increment()
        metrics.storeAvailable.set(Double(0))
        if lastSaveError == nil { logger.error("Cannot save the scores; will try again", metadata: ["error": "\(error)"]) }
        lastSaveError = error.message
    }

    func noteSaveWorks() {
        if lastSaveError != nil { logger.notice("Saving works again") }
        lastSaveError = nil
        metrics.storeAvailable.set(Double(1))
    }

}
