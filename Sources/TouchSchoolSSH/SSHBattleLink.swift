import TouchSchoolServer
import Foundation
import Synchronization
import TouchSchoolOutbox
import TouchSchoolCore
import TouchSchoolLocalBattle
import TouchSchoolProtocol
import TouchSchoolStore

/// An SSH player's game joined to the server's battle in process, as a play connection joins it
/// (`Play/PlayConnection.swift`): the same admission (bans, devices per address), a hello
/// answered with the welcome, numbered batches answered with acknowledgements, the views of the
/// player's school and of the page its ranking watches (protocol 2), with the SSH client's own address for the per-address limits and tap budgets. The
/// batches are numbered by the client's `Outbox` after the welcome's `lastSeq`
/// (`BattleRules.welcome`) and mirrored by its `BoardMirror`: the rules every client follows.
/// Kept in memory: the session lives in the server, so nothing survives it that the server
/// did not acknowledge.
final class SSHBattleLink: BattleConnection, Sendable {
    let battle: BattleHallRuntime
    let device: String
    let player: String
    let address: String
    let catalog: Catalog
    /// `catalog`'s entity tag: the hall's map messages of another catalog's grid are not the game's.
    let catalogTag: String
    private let id: ConnectionID
    /// The batches and watches on their way to the battle, in order.
    private let sending: AsyncStream<Request>
    private let requests: AsyncStream<Request>.Continuation
    private let state: Mutex<State>
    /// Signalled when the battle acknowledges a batch or lets the player go: what `finish` waits for.
    private let deliveryOrLossChanged = ChangeSignal()
    /// Wakes the game loop when the battle's news arrives (`whenEventsArrive`).
    private let wakeGame = Mutex<(@Sendable () -> Void)?>(nil)

    /// What the game hands the battle, as a play connection's messages would.
    private enum Request {
        case batch(TapBatch)
        case watch(BoardViewKey?, RankingPeriod)
        case showMap(Bool)
    }

    private struct State {
        var outbox: Outbox
        var mirror: BoardMirror
        var events: [GameEvent] = []
        /// Wall-clock end of the last span handed over: the next batch's start.
        var lastSubmitMs: Int64
        /// The board or the outbox changed since the last answer (else the answer is `nil`).
        var changed = true
        /// Why the battle let this player go (the device connected again elsewhere, the server
        /// is shutting down), once it has.
        var lost: SSHParting?
        /// The game left the battle itself (`leave`): the end of the battle's messages is not a loss.
        var left = false
        /// The catalog of the map's grid, as the hall's last `map` message naming one said.
        var mapCatalog: String?
        /// The page watched and the period it and my school's view are ranked by, as a play
        /// connection's `watch` carries both: a change of either sends them together.
        var watching: PageWatch?
        var period = RankingPeriod.season
    }

    /// How long quitting waits for the server to acknowledge the last taps.
    static let finalDeliveryNanoseconds: Int64 = 3_000_000_000

    enum Joining {
        case joined(SSHBattleLink)
        case refused(SSHParting)
    }

    /// Admits the player, says hello and waits for the welcome.
    static func join(battle: BattleHallRuntime, device: String, player: String, address: String, limits: AddressLimits,
                     metrics: ServerMetrics) async -> Joining {
        if let refusal = await PlayConnection.refusal(of: device, from: address, battle: battle, limits: limits, metrics: metrics) {
            return .refused(.error(refusal))
        }
        let (messages, sendQueue) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .bufferingOldest(BattleHallRuntime.sendQueueLimit))
        guard let id = await battle.connect(sendQueue: .stream(sendQueue)) else { return .refused(.error(BattleHallRuntime.goingAway)) }
        let welcome: Welcome
        let afterWelcome: [String]
        switch await battle.hello(id, device: device) {
        case let .welcome(text, then):
            afterWelcome = then
            guard case let .welcome(decoded)? = try? MessageCoding.decodeServer(text) else {
                await battle.disconnect(id)
                return .refused(.welcomeUnreadable)
            }
            welcome = decoded
        case let .refused(error):
            await battle.disconnect(id)
            return .refused(.error(error))
        }
        let resource = await battle.catalog
        let link = SSHBattleLink(battle: battle, id: id, device: device, player: player, address: address, catalog: resource.catalog,
                                 catalogTag: resource.etag, welcome: welcome)
        // What the welcome brought with it (the round) comes before anything the queue holds.
        for text in afterWelcome {
            if let decoded = try? MessageCoding.decodeServer(text) { link.receive(decoded) }
        }
        link.start(messages)
        return .joined(link)
    }

    private init(battle: BattleHallRuntime, id: ConnectionID, device: String, player: String, address: String, catalog: Catalog,
                 catalogTag: String, welcome: Welcome) {
        self.battle = battle
        self.id = id
        self.device = device
        self.player = player
        self.address = address
        self.catalog = catalog
        self.catalogTag = catalogTag.filter { $0 != "\"" }
        var outbox = Outbox()
        outbox.serverApplied(upTo: welcome.lastSeq)
        var mirror = BoardMirror()
        mirror.take(welcome)
        state = Mutex(State(outbox: outbox, mirror: mirror, lastSubmitMs: BatchClock.wallClockMs()))
        let (sending, requests) = AsyncStream.makeStream(of: Request.self)
        self.sending = sending
        self.requests = requests
    }

    /// The battle as the game starts with it: the welcome's player (the views follow).
    var startingState: SavedState {
        state.withLock { $0.mirror.savedState(adding: $0.outbox, player: player) }
    }

    /// Why the battle let this player go; nil while it plays.
    var lostReason: SSHParting? { state.withLock { $0.lost } }

    /// Two tasks: one hands the batches to the battle in their order, one takes what the battle
    /// sends this player.
    private func start(_ messages: AsyncStream<Outgoing>) {
        let network = ClientAddress.network(of: address)
        Task { [self, sending] in
            for await request in sending {
                switch request {
                case let .batch(batch):
                    await battle.submit(ReceivedBatch(connection: id, device: device, player: player, batch: batch,
                                                      address: address, network: network, client: .ssh))
                case let .watch(key, period):
                    await battle.watch(id, key, period: period)
                case let .showMap(shows):
                    await battle.showMap(id, shows)
                }
            }
            // Only once every batch handed over is with the battle: it takes none from a
            // connection that is gone.
            await battle.disconnect(id)
        }
        Task { [self] in
            for await message in messages {
                switch message {
                case let .text(text):
                    guard let decoded = try? MessageCoding.decodeServer(text) else { continue }
                    receive(decoded)
                case let .close(code, reason):
                    state.withLock { $0.lost = $0.lost ?? .error(ProtocolError(code: code, message: reason)) }
                    deliveryOrLossChanged.changed()
        wakeGame.withLock { $0 }?()
                }
            }
            state.withLock { if !$0.left { $0.lost = $0.lost ?? .endedByServer } }
            deliveryOrLossChanged.changed()
        wakeGame.withLock { $0 }?()
        }
    }

    fileprivate func receive(_ message: ServerMessage) {
        state.withLock { state in
            switch message {
            case let .ack(ack):
                let batch = state.outbox.acknowledge(ack.seq)
                state.mirror.acknowledged(ack, batch: batch)
                state.changed = true
                if ack.banned == true { state.events.append(.tapsRefusedByOperator(ack.refused)) }
                else if ack.refused > 0 { state.events.append(.tapsRefusedByServer(ack.refused)) }
            case let .schoolView(view):
                state.mirror.take(view)
                state.changed = true
                if let view = SchoolView(view, in: catalog) { state.events.append(.viewed(.school(view), catalogGeneration: 0)) }
                // A new total of my school: the next sync, which brings it, is due now.
                state.events.append(.battleChanged)
            case let .page(page):
                state.mirror.take(page)
                state.changed = true
                if let page = PageView(page, in: catalog) { state.events.append(.viewed(.page(page), catalogGeneration: 0)) }
            case let .error(error):
                state.lost = .error(error)
            case .round, .roundPlace:
                // The game runs in the server: its clock is the server's.
                if let event = GameEvent.round(message, clock: ServerClock(), localMs: BatchClock.wallClockMs(),
                                               toldAt: MonotonicClock.now()) {
                    state.events.append(event)
                }
            case let .map(report):
                if let named = report.catalog { state.mapCatalog = named }
                if state.mapCatalog == catalogTag { state.events.append(.mapReported(report, catalogGeneration: 0)) }
            case let .season(summary):
                state.events.append(.seasonTold(summary.flatMap(Season.init)))
            case .welcome, .pong:
                break
            }
        }
        deliveryOrLossChanged.changed()
        wakeGame.withLock { $0 }?()
    }

    // MARK: BattleConnection

    func submit(_ changes: PendingChanges) {
        state.withLock { state in
            let now = BatchClock.wallClockMs()
            let startMs = BatchClock.batchStartMs(after: state.lastSubmitMs, changes, nowMs: now)
            if let batch = state.outbox.append(changes, startMs: startMs, endMs: now) {
                requests.yield(.batch(batch))
                state.changed = true
            }
            state.lastSubmitMs = max(state.lastSubmitMs, now)
            let board = state.changed
                ? state.mirror.board(adding: state.outbox, catalog: catalog, generation: 0, player: player)
                : nil
            state.changed = false
            state.events.append(.synced(board))
        }
    }

    func whenEventsArrive(_ wake: @escaping @Sendable () -> Void) {
        wakeGame.withLock { $0 = wake }
    }

    /// Bounded as a play connection's `watch` is (`Watch.maximumCount`): a terminal may say it is
    /// any size.
    func watch(_ page: PageWatch?) {
        state.withLock { state in
            state.watching = page
            requestWatch(state)
        }
    }

    func rankBy(_ period: RankingPeriod) {
        state.withLock { state in
            state.period = period
            requestWatch(state)
        }
    }

    /// Under the state's lock, so that the watches go in the order the game asked for them.
    private func requestWatch(_ state: State) {
        let bounded = Watch(state.watching)
        requests.yield(.watch(state.watching.map { .page($0.league, places: bounded.from..<(bounded.from + bounded.count)) }, state.period))
    }

    /// In line after the watches, as a play connection's messages are.
    func showMap(_ shows: Bool) {
        requests.yield(.showMap(shows))
    }

    func takeEvents() -> [GameEvent] {
        state.withLock { state in
            defer { state.events.removeAll(keepingCapacity: true) }
            return state.events
        }
    }

    /// Waits a little for the server to acknowledge what waits, then leaves the battle. Always
    /// true: `submit` answers each change at once, and every batch it handed over reaches the
    /// battle before the link disconnects (`start`), acknowledged or not by now.
    func finish(timeoutNanoseconds: Int64) -> Bool {
        _ = deliveryOrLossChanged.wait(timeoutNanoseconds: min(timeoutNanoseconds, Self.finalDeliveryNanoseconds)) {
            state.withLock { $0.outbox.batches.isEmpty || $0.lost != nil }
        }
        leave()
        return true
    }

    /// Leaves the battle: no more batches; the connection goes once the last is handed over.
    func leave() {
        state.withLock { $0.left = true }
        requests.finish()
    }
}
