import Dispatch
import Foundation
import Synchronization
import TouchSchoolCore
import TouchSchoolLocalBattle
import TouchSchoolOutbox
import TouchSchoolProtocol

/// The battle on a server, as the game loop sees it. The game never waits on the network: each
/// `submit` is kept in the durable outbox (on a thread of its own) and answered at once with the
/// board as last heard from the server plus every tap still waiting, whether or not the server is
/// reachable. A connection task (`ServerConnection.swift`) sends the outbox, removes what the server
/// acknowledges and keeps the board up to date.
public final class NetworkBattle: BattleConnection {
    let folder: BattleFolder
    let device: String
    let player: String
    /// Longest from opening a connection to the server's welcome (`standardHandshakeSeconds`).
    let handshakeSeconds: Double
    /// Outbox writes and the answers to the game, one at a time, in order.
    let queue = DispatchQueue(label: "touchschool.network-battle")
    let shared: Mutex<Shared>
    private let connection = Mutex<Task<Void, Never>?>(nil)
    /// Signalled when the link changes or the server acknowledges a batch: what
    /// `waitUntilOnline` and `finish` wait for.
    private let linkOrDeliveryChanged = ChangeSignal()
    /// Wakes the game loop when an answer or the server's news arrives (`whenEventsArrive`).
    private let wakeGame = Mutex<(@Sendable () -> Void)?>(nil)

    /// How the socket stands, as the connection task last said.
    enum Link: Equatable, Sendable {
        case connecting, online, offline, unsupportedProtocol
        /// What answers is no TouchSchool server, for a reason the player can fix (`ServerProbe`).
        case wrongAddress(ServerFailure)
        /// The renumbered outbox cannot be saved: nothing is sent.
        case cannotSaveOutbox
        /// This server serves another battle.
        case otherBattle
        /// The server refuses this game for now.
        case refused(ServerRefusal)
    }

    struct Shared: Sendable {
        var outbox: Outbox
        var mirror: BoardMirror
        var catalog: Catalog
        var catalogETag: String?
        /// The page the game watches: sent on every connection, since a server forgets it.
        var watching: PageWatch?
        /// The period the views and the page are ranked by: sent with the page watched, on every
        /// connection once it is not the server's default (the season).
        var period = RankingPeriod.season
        /// Whether the game shows the map: sent on every connection after the page watched.
        var showsMap = false
        /// The catalog changed while the map shows: it is asked for again, so that the server
        /// tells it whole in the grid the game now has (what it told before was of another).
        var mapAskAgain = false
        var generation = 0
        var events: [GameEvent] = []
        /// Wall-clock end of the last span handed over: the next batch's start.
        var lastSubmitMs: Int64
        /// How far the server's clock is ahead of this machine's, as last measured (`ServerClock`;
        /// 0 before any measure): batches claim their times on the server's clock, since the server
        /// counts a round by the times claimed (a clock 3 s slow would lose a race's first 3 s).
        var serverOffsetMs: Int64 = 0
        var link: Link = .connecting
        var reported: ConnectionStatus?
        /// The board or the outbox changed since the last answer (else the answer is `nil`).
        var changed = true
        var isClosing = false
        /// Which of `folder.servers` the connection task uses now.
        var serverIndex = 0
        /// Where the connection task is, and since when: for a stalled connection's diagnosis.
        var phase = ConnectionPhase(step: "not started", since: Date())
    }

    /// A step of the connection task and when it began.
    struct ConnectionPhase: Sendable, CustomStringConvertible {
        var step: String
        var since: Date
        var description: String { "\(step) (for \(String(format: "%.1f", Date().timeIntervalSince(since))) s)" }
    }

    func enterPhase(_ step: String) {
        shared.withLock { $0.phase = ConnectionPhase(step: step, since: Date()) }
    }

    /// Where the connection task is now, and for how long.
    var connectionPhase: String { shared.withLock { "\($0.phase)" } }

    /// - Parameters:
    ///   - catalog: the server's catalog the game starts with (generation 0), and its ETag.
    ///   - board: the last board seen, so that a game started offline shows it.
    ///   - handshakeSeconds: how long a server has to welcome a connection before it is given up.
    public init(folder: BattleFolder, device: String, player: String, catalog: Catalog, catalogETag: String?,
                board: BoardMirror, outbox: Outbox, handshakeSeconds: Double = NetworkBattle.standardHandshakeSeconds) {
        self.folder = folder
        self.device = device
        self.player = player
        self.handshakeSeconds = handshakeSeconds
        // The views kept are shown at once, whether or not the server answers.
        self.shared = Mutex(Shared(outbox: outbox, mirror: board, catalog: catalog, catalogETag: catalogETag,
                                   events: board.views(in: catalog).map { .viewed($0, catalogGeneration: 0) },
                                   lastSubmitMs: BatchClock.wallClockMs()))
    }

    /// The battle as the game should start with it: the last board seen plus the waiting taps.
    public var startingState: SavedState {
        shared.withLock { $0.mirror.savedState(adding: $0.outbox, player: player) }
    }

    /// Taps not yet acknowledged by the server.
    public var waitingTaps: UInt64 { shared.withLock { $0.outbox.waitingTaps } }

    /// Starts connecting in the background (again and again until `finish`).
    public func start() {
        shared.withLock { report(&$0) }
        connection.withLock { task in
            guard task == nil else { return }
            task = Task.detached { [self] in await self.keepConnected() }
        }
    }

    /// Waits until the server has welcomed this game, at most `timeoutNanoseconds`, and not at all
    /// once a connection has failed; false if not welcomed.
    public func waitUntilOnline(timeoutNanoseconds: Int64) -> Bool {
        var link = Link.connecting
        _ = linkOrDeliveryChanged.wait(timeoutNanoseconds: timeoutNanoseconds) {
            link = shared.withLock { $0.link }
            return link != .connecting // refused or unreachable: offline at once
        }
        return link == .online
    }

    // MARK: BattleConnection

    public func submit(_ changes: PendingChanges) {
        queue.async { [self] in
            let now = BatchClock.wallClockMs()
            var (outbox, lastSubmitMs, offset) = shared.withLock { ($0.outbox, $0.lastSubmitMs, $0.serverOffsetMs) }
            let startMs = BatchClock.batchStartMs(after: lastSubmitMs, changes, nowMs: now)
            if outbox.append(changes, startMs: startMs + offset, endMs: now + offset) != nil {
                do {
                    try folder.create()
                    try folder.outbox.save(outbox)
                } catch {
                    shared.withLock { $0.events.append(.syncFailed(changes, reason: "\(error)")) }
                    wake()
                    return
                }
            }
            shared.withLock { state in
                state.lastSubmitMs = max(state.lastSubmitMs, now)
                if !changes.isEmpty {
                    state.outbox = outbox
                    state.changed = true
                }
                let board = state.changed
                    ? state.mirror.board(adding: state.outbox, catalog: state.catalog, generation: state.generation, player: player)
                    : nil
                state.changed = false
                state.events.append(.synced(board))
                report(&state)
            }
            wake()
        }
    }

    public func whenEventsArrive(_ wake: @escaping @Sendable () -> Void) {
        wakeGame.withLock { $0 = wake }
    }

    /// The game loop takes what arrived now rather than at its next idle tick.
    private func wake() { wakeGame.withLock { $0 }?() }

    public func watch(_ page: PageWatch?) {
        shared.withLock { $0.watching = page }
    }

    public func showMap(_ shows: Bool) {
        shared.withLock { $0.showsMap = shows }
    }

    public func rankBy(_ period: RankingPeriod) {
        shared.withLock { $0.period = period }
    }

    public func takeEvents() -> [GameEvent] {
        shared.withLock { state in
            defer { state.events.removeAll(keepingCapacity: true) }
            return state.events
        }
    }

    /// Waits for the outbox writes, then, while connected, a little for the server to acknowledge
    /// what waits (what it does not is kept and sent next time); then closes the connection.
    public func finish(timeoutNanoseconds: Int64) -> Bool {
        let start = DispatchTime.now().uptimeNanoseconds
        let written = queue.asyncAndWait(timeoutNanoseconds: timeoutNanoseconds)
        let deliveryDeadline = Int64(start) + max(0, min(timeoutNanoseconds, Self.finalDeliveryNanoseconds))
        _ = linkOrDeliveryChanged.wait(timeoutNanoseconds: deliveryDeadline - Int64(DispatchTime.now().uptimeNanoseconds)) {
            shared.withLock { $0.link != .online || $0.outbox.batches.isEmpty }
        }
        shared.withLock { $0.isClosing = true }
        connection.withLock { $0?.cancel() }
        // In line after what the connection handed over (an acknowledgement being written), so
        // that the board kept is never older than the outbox kept; waited for within what is left
        // of the time given (a stuck disk must not hold the game's exit).
        let left = max(Self.lastBoardSaveNanoseconds, Int64(start) + timeoutNanoseconds - Int64(DispatchTime.now().uptimeNanoseconds))
        _ = queue.asyncAndWait(timeoutNanoseconds: left) { [self] in try? folder.saveBoard(shared.withLock { $0.mirror }) }
        return written
    }

    /// How long quitting waits for the server to acknowledge the last taps.
    static let finalDeliveryNanoseconds: Int64 = 3_000_000_000
    /// The least time quitting gives the board's last save.
    static let lastBoardSaveNanoseconds: Int64 = 500_000_000

    // MARK: For the connection task

    /// Says the connection's status to the game when it changed.
    func report(_ state: inout Shared) {
        let waiting = state.outbox.waitingTaps
        let status: ConnectionStatus = switch state.link {
        case .online: .online
        case .connecting: .connecting(waitingTaps: waiting)
        case .offline: .offline(waitingTaps: waiting)
        case let .wrongAddress(failure): .wrongAddress(failure, waitingTaps: waiting)
        case .unsupportedProtocol: .unsupportedProtocol(waitingTaps: waiting)
        case .cannotSaveOutbox: .cannotSaveOutbox(waitingTaps: waiting)
        case .otherBattle: .otherBattle(waitingTaps: waiting)
        case let .refused(refusal): .refused(refusal, waitingTaps: waiting)
        }
        if status != state.reported {
            state.reported = status
            state.events.append(.connectionChanged(status))
        }
    }

    func setLink(_ link: Link) {
        shared.withLock { state in
            state.link = link
            report(&state)
        }
        wake()
        linkOrDeliveryChanged.changed()
    }

    /// A welcome of this folder's battle: drops what the server has, renumbers what follows
    /// (`BattleRules.welcome`), takes its board; returns the number after which to send the
    /// outbox, or nil when nothing may be sent: a renumbered outbox is sent only once it is on
    /// disk, since a renumbering sent, applied and then lost in a crash would be renumbered again
    /// at the next start and counted twice.
    func welcomed(_ welcome: Welcome) -> UInt64? {
        queue.sync {
            var outbox = shared.withLock { $0.outbox }
            let before = outbox
            let renumbered = outbox.serverApplied(upTo: welcome.lastSeq)
            if outbox != before {
                do {
                    try folder.outbox.save(outbox)
                } catch where renumbered {
                    setLink(.cannotSaveOutbox)
                    return nil
                } catch {
                    // Only applied batches were dropped: the copy on disk still has them, and the
                    // next welcome drops them again.
                }
            }
            let board = shared.withLock { state in
                state.outbox = outbox
                state.mirror.take(welcome)
                state.changed = true
                state.link = .online
                report(&state)
                return state.mirror
            }
            wake()
            linkOrDeliveryChanged.changed()
            try? folder.saveBoard(board)
            return welcome.lastSeq
        }
    }

    func acknowledged(_ ack: Acknowledgement) {
        queue.async { [self] in
            var outbox = shared.withLock { $0.outbox }
            let batch = outbox.acknowledge(ack.seq)
            let switched = shared.withLock { state in
                let school = state.mirror.player?.schoolID
                state.outbox = outbox
                state.mirror.acknowledged(ack, batch: batch)
                state.changed = true
                if ack.banned == true { state.events.append(.tapsRefusedByOperator(ack.refused)) }
                else if ack.refused > 0 { state.events.append(.tapsRefusedByServer(ack.refused)) }
                report(&state)
                return school != ack.player.schoolID ? state.mirror : nil
            }
            wake()
            linkOrDeliveryChanged.changed()
            // The player's school is kept at once (a game started after a kill starts on it), and
            // before the outbox lets go of the batch that chose it: a game stopped between the two
            // writes still knows its school. The rest of the board is kept when the game ends.
            if let switched { try? folder.saveBoard(switched) }
            // Kept in memory even if the write fails: the server has the batch, and sending it
            // again after a restart is answered, not counted.
            try? folder.outbox.save(outbox)
        }
    }

    /// A view of the player's school or of the page watched: kept, and handed to the game.
    func viewed(_ message: ServerMessage) {
        queue.async { [self] in
            shared.withLock { state in
                let view: BoardView?
                switch message {
                case let .schoolView(school):
                    state.mirror.take(school)
                    view = SchoolView(school, in: state.catalog).map(BoardView.school)
                case let .page(page):
                    state.mirror.take(page)
                    view = PageView(page, in: state.catalog).map(BoardView.page)
                default:
                    return
                }
                if let view { state.events.append(.viewed(view, catalogGeneration: state.generation)) }
                state.changed = true
                // A new total of my school: the next sync (which brings it with my waiting taps
                // added) is due now.
                if case .schoolView = message { state.events.append(.battleChanged) }
            }
            wake()
        }
    }

    /// A `map` message of the grid of `catalog` (as the connection's last naming one said): handed
    /// to the game only when it is of the catalog the game has (a server that moved to another
    /// catalog numbers its cells otherwise until the game has that one too).
    func mapReported(_ report: MapReport, catalog: String?) {
        queue.async { [self] in
            shared.withLock { state in
                guard let catalog, let known = state.catalogETag, Self.entityTag(catalog) == Self.entityTag(known) else { return }
                state.events.append(.mapReported(report, catalogGeneration: state.generation))
            }
            wake()
        }
    }

    /// The round or my place in it: the game takes it as it comes.
    func told(_ event: GameEvent) {
        queue.async { [self] in
            shared.withLock { $0.events.append(event) }
            wake()
        }
    }

    /// A new catalog from the server: kept, then the game moves to it before its next answer.
    func catalogDownloaded(bytes: [UInt8], etag: String?) {
        queue.async { [self] in
            guard let catalog = try? folder.saveCatalog(bytes: bytes, etag: etag) else { return }
            shared.withLock { state in
                state.catalog = catalog
                state.catalogETag = etag
                state.generation += 1
                let saved = state.mirror.savedState(adding: state.outbox, player: player)
                state.events.append(.catalogReplaced(CatalogReplacement(generation: state.generation, catalog: catalog, saved: saved)))
                // The game forgets views by position in the old catalog: the last ones, in the new.
                state.events += state.mirror.views(in: catalog).map { .viewed($0, catalogGeneration: state.generation) }
                state.mapAskAgain = state.showsMap
                state.changed = true
            }
            wake()
        }
    }
}
