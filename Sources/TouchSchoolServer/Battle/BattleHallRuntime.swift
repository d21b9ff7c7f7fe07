import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import TouchSchoolCore
import TouchSchoolProtocol

package typealias ConnectionID = UInt64

package enum HelloOutcome: Sendable, Equatable {
    /// The welcome, then what is sent right after it (the round, when one is shown).
    case welcome(String, then: [String])
    case refused(ProtocolError)
}

/// What a connection's writer sends, in order.
package enum Outgoing: Sendable, Equatable {
    case text(String)
    /// Sends a close frame with this code and reason; nothing after it.
    case close(code: UInt16, reason: String)
}

/// Where a connection's messages go: a queue its own task writes from (an SSH session, a board
/// stream), or a play socket's write buffer, written by the socket's event loop.
package enum SendQueue: Sendable {
    case stream(AsyncStream<Outgoing>.Continuation)
    case socket(SocketWriteBuffer)
}

/// The one battle of a server, as a service: a thin shell around `BattleHall`, the battle's
/// state and rules as a value. The shell turns calls (a connection, a hello, a batch, a round
/// started, a ban, a shutdown) into the hall's events and runs the effects it returns: messages
/// into the connections' send queues, the store's calls (`Stores/`), timers, logs and metrics;
/// each store call's result and each timer come back as an event. What the shell keeps is only
/// what the hall cannot hold as a value: the send queues, the callers waiting for their hello's
/// answer, the timers' tasks, the batches arrived and not yet taken (`submit`). Time is the
/// `clock` passed in. The hall runs on a thread of its own, its store calls on another
/// (`thread`, `storeThread`). The operator's calls (`Admin/BattleAdministration.swift`, the
/// rounds') go to the store and tell the hall what changed.
package actor BattleHallRuntime: Service {
    /// The store: play's saves and reads, the catalog, the operator's and the rounds'. Reached
    /// through the hall's effects and the calls of this shell only.
    let store: any BattleStore
    /// The standings `GET /v1/rounds/ID` answers with, the hall's latest board's published after
    /// each read of the round: readers take them without a turn of the hall.
    nonisolated let roundAnswers = RoundAnswers()
    /// The server's clock: every "now" of the battle, its routes and its connections.
    nonisolated let clock: BattleClock
    /// The battle's identity (`PlayStore.battleID()`), told in every welcome.
    nonisolated let battleID: String
    let metrics: ServerMetrics
    let logger: Logger

    /// A connection whose writer has this many messages waiting is too slow to keep.
    package static let sendQueueLimit = 1_024
    package static let goingAway = BattleHall.goingAway

    private(set) var hall: BattleHall

    /// The thread the halls run on: their own rather than Swift's shared pool, where under load
    /// each event (a batch, a commit's end, an alarm) waited behind thousands of connections'
    /// tasks for its turn.
    static let thread = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// Where the hall's calls into the store run (a commit, a device's row, a poll, the round, the
    /// catalog) and where the store's answers resume, on their way back to the hall: a thread of
    /// their own too. On the shared pool, under load, each commit waited behind the connections'
    /// jobs to start and again to return, and commits came further apart than the window.
    static let storeThread = EventLoopTaskExecutor(MultiThreadedEventLoopGroup(numberOfThreads: 1).next())
    private nonisolated let eventLoop: any EventLoop = BattleHallRuntime.thread.next()
    package nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }
    private var sendQueues: [ConnectionID: SendQueue] = [:]
    /// The write buffers this turn of the hall queued messages in, to hand to their event loops at its end.
    private var buffersToDrain: [SocketWriteBuffer] = []
    private var nextConnection: ConnectionID = 1
    private var helloAnswers: [ConnectionID: CheckedContinuation<HelloOutcome, Never>] = [:]
    private var alarms: [BattleHall.Alarm: Task<Void, Never>] = [:]
    private var stopWaiter: CheckedContinuation<Void, Never>?
    /// Events an effect gave rise to while the hall's last were run (a stream too slow, dropped):
    /// handled next, in order, in the same turn, never from inside another's effects.
    private var followUps: [BattleHall.Event] = []
    /// Batches submitted and not yet taken into the hall (`submit`).
    private nonisolated let arrivals = Mutex<[ReceivedBatch]>([])

    init(store: any BattleStore, battleID: String, catalog: CatalogResource, board: StoredBoard, metrics: ServerMetrics,
         limits: AddressLimitPolicy = .standard, devicesStored: Int = 0, maximumDevices: Int = .max, logger: Logger,
         clock: BattleClock = .system) {
        self.store = store
        self.clock = clock
        self.battleID = battleID
        self.metrics = metrics
        self.logger = logger
        hall = BattleHall(battleID: battleID, catalog: catalog, board: board, histories: TapJudges(addresses: limits),
                          devicesStored: devicesStored, maximumDevices: maximumDevices, readsRounds: true, now: clock.now())
    }

    /// The catalog served; replaced when an import is taken up while the server runs.
    package var catalog: CatalogResource { hall.catalog }
    /// Why the store cannot save now (nil: it saves), for `/healthz`.
    var lastSaveError: String? { hall.lastSaveError }

    // MARK: - Service

    /// Runs until a graceful shutdown or a cancellation (the service group cancels when another
    /// service fails, e.g. the HTTP server cannot bind its port, or at a second SIGTERM): either
    /// closes the battle, which saves what arrived, closes every connection and stops.
    package func run() async throws {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                handle(.start)
                await untilStopped()
            } onGracefulShutdown: {
                Task { await self.beginClosing(saying: true) }
            }
        } onCancel: {
            Task { await self.beginClosing(saying: false) }
        }
    }

    /// How long the end of a shutdown waits for the connections told "going away" to go: their
    /// writers send the close frames before the HTTP server, shut down next, drops the sockets.
    static let closingGrace: Duration = .seconds(1)

    private func untilStopped() async {
        if !hall.finished { await withCheckedContinuation { stopWaiter = $0 } }
        let deadline = clock.now() + Self.closingGrace
        while !sendQueues.isEmpty, clock.now() < deadline, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// `saying`: logs that the server shuts down; not for a cancellation, which is a start refused
    /// (its error follows, and nothing arrived to save) or a second signal after the first said it.
    func beginClosing(saying: Bool) { handle(.shutdown(saying: saying)) }

    // MARK: - Calls

    /// A new connection, or nil when the server is shutting down.
    package func connect(sendQueue: SendQueue) -> ConnectionID? {
        open(sendQueue) { .connect($0) }
    }

    /// A new board stream of one page of a league, or nil when the server is shutting down: the
    /// page at the next interval, then whenever it changes.
    func streamPage(_ key: BoardViewKey, period: RankingPeriod, sendQueue: AsyncStream<Outgoing>.Continuation) -> ConnectionID? {
        open(.stream(sendQueue)) { .streamPage($0, key, period: period) }
    }

    /// A connection the hall takes, or ends at once in its answer (`.finish`: it is shutting down).
    private func open(_ sendQueue: SendQueue, _ event: (ConnectionID) -> BattleHall.Event) -> ConnectionID? {
        let id = nextConnection
        nextConnection += 1
        sendQueues[id] = sendQueue
        take(event(id))
        let taken = sendQueues[id] != nil
        // Ended by what followed (its first page could not be queued), it was taken all the same.
        endTurn()
        return taken ? id : nil
    }

    package func disconnect(_ id: ConnectionID) { handle(.disconnect(id)) }

    /// The welcome for a device that said hello: its last applied batch number and its player,
    /// once none of its batches waits to be saved (the number is the truth). Another connection of the same device is closed: the newest wins.
    package func hello(_ id: ConnectionID, device: String) async -> HelloOutcome {
        await withCheckedContinuation { answer in
            helloAnswers.removeValue(forKey: id)?.resume(returning: .refused(Self.goingAway))
            helloAnswers[id] = answer
            handle(.hello(id, device: device))
        }
    }

    /// Protocol 2: the page of a league the connection watches from now (nil: none), and the
    /// numbers its view and page rank by.
    package func watch(_ id: ConnectionID, _ key: BoardViewKey?, period: RankingPeriod = .season) {
        handle(.watch(id, key, period: period))
    }

    /// Whether the connection's screen shows the map from now (`MapNews`).
    package func showMap(_ id: ConnectionID, _ shows: Bool) { handle(.showMap(id, shows)) }

    /// Queues a batch for the next save. Ignored once the final save of a shutdown has begun:
    /// it was never acknowledged, and the client sends it again.
    ///
    /// The batch goes into `arrivals`, not through a call on the actor: every player's ten
    /// batches a second each cost two hops between threads that way (onto the hall's, then back
    /// to the reader's), the hall's thread woken per batch. The first batch into an empty
    /// `arrivals` asks the hall's event loop to take them all in one turn; as any call on the
    /// actor made after this one is queued behind that turn, the hall sees the batch before
    /// anything the caller does next. A reader that finds `arrivalLimit` waiting waits for the
    /// hall's turn itself, so that the queue stays bounded when the hall falls behind.
    package nonisolated func submit(_ batch: ReceivedBatch) async {
        let (first, full) = arrivals.withLock { arrivals in
            arrivals.append(batch)
            return (arrivals.count == 1, arrivals.count >= Self.arrivalLimit)
        }
        if first { eventLoop.execute { self.assumeIsolated { $0.takeArrivals() } } }
        if full { await takeArrivals() }
    }

    /// Batches waiting for the hall's next turn at most: beyond, their readers wait for it.
    static let arrivalLimit = 4_096

    private func takeArrivals() {
        let batches = arrivals.withLock { arrivals in
            defer { arrivals.removeAll(keepingCapacity: true) }
            return arrivals
        }
        for batch in batches { handle(.batch(batch)) }
    }

    /// A hint that the board reached `version` (a PostgreSQL notification): poll now, unless
    /// this server's own commit brought it there already.
    func boardChanged(to version: UInt64?) { handle(.boardHint(version: version)) }

    /// The board as saved, for `GET /v1/scores`, with the season its totals are of (nil: all time).
    func board(_ period: RankingPeriod) -> (Board, Season?) { hall.board(period) }

    /// The map's grid of the catalog served, for `GET /v1/map` (made once per catalog).
    func mapGrid() -> String { hall.mapGrid() }

    /// A view as its watchers are sent it, computed now, with the season its numbers are of (nil:
    /// all time); nil for a school the catalog lacks.
    func view(_ key: BoardViewKey, period: RankingPeriod) -> (String, Season?)? { hall.view(key, period: period) }

    /// The key of a school's view by its id, in the catalog served now.
    func viewKey(ofSchool id: String) -> BoardViewKey? { hall.viewKey(ofSchool: id) }

    /// The device's player and row as the store has them, for `GET /v1/me`.
    func playerRecord(device: String) async throws(BattleStoreError) -> (PlayerState, DeviceRecord)? {
        guard let (record, player) = try await store.device(device) else { return nil }
        return (CommitRules.playerState(player), record)
    }

    /// Whether the operator banned this address (or network, `ClientAddress.bannedNetwork`).
    func isBanned(address: String) async throws(BattleStoreError) -> Bool { try await store.isBanned(address: address) }

    // MARK: - The hall's events and effects

    /// One event, then the events its effects gave rise to, each taken by the hall in turn.
    func handle(_ event: BattleHall.Event) {
        take(event)
        endTurn()
    }

    /// The hall's answer to one event, run.
    private func take(_ event: BattleHall.Event) {
        for effect in hall.update(event, now: clock.now()) { run(effect) }
    }

    /// The events that followed, then what was queued for the sockets handed to their loops.
    private func endTurn() {
        while !followUps.isEmpty { take(followUps.removeFirst()) }
        drainWriteBuffers()
    }

    /// Hands each event loop the write buffers of its sockets that this turn queued messages in: one
    /// turn of the loop writes them all (a broadcast's thousands of views take one hop per loop).
    private func drainWriteBuffers() {
        guard !buffersToDrain.isEmpty else { return }
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, buffers: [SocketWriteBuffer])] = [:]
        for buffer in buffersToDrain {
            let loop = buffer.eventLoop
            byLoop[ObjectIdentifier(loop), default: (loop, [])].buffers.append(buffer)
        }
        buffersToDrain.removeAll(keepingCapacity: true)
        for (loop, buffers) in byLoop.values {
            loop.execute { for buffer in buffers { buffer.drain() } }
        }
    }

    private func run(_ effect: BattleHall.Effect) {
        switch effect {
        case let .send(message, id):
            switch sendQueues[id] {
            case nil:
                return
            case let .socket(buffer):
                // A socket too slow to keep up ends itself (`SocketWriteBuffer.bufferLimit`).
                if buffer.enqueue(message) { buffersToDrain.append(buffer) }
            case let .stream(sendQueue):
                if case .enqueued = sendQueue.yield(message) { return }
                // Too slow to keep up: the connection is dropped; the client reconnects and resends.
                logger.notice("Dropping a connection too slow to read its messages")
                followUps.append(.disconnect(id))
            }
        case let .finish(id):
            switch sendQueues.removeValue(forKey: id) {
            case nil: return
            case let .socket(buffer): if buffer.finish() { buffersToDrain.append(buffer) }
            case let .stream(sendQueue): sendQueue.finish()
            }
        case let .answerHello(id, outcome):
            helloAnswers.removeValue(forKey: id)?.resume(returning: outcome)
        case let .readDevice(id, device, delay):
            let store = store
            ask({ () async throws(BattleStoreError) in
                if delay > .zero { try? await Task.sleep(for: delay) }
                return try await store.device(device)
            }, answer: { .deviceRead(id, device: device, $0) })
        case let .readRound(settled):
            let (store, wallMs) = (store, clock.wallMs)
            ask({ () async throws(BattleStoreError) in
                guard let round = try await store.rounds(limit: 1).first else { return nil }
                let counts = round == settled ? nil : try await store.round(round.id)?.1
                return RoundReading(round: round, counts: counts, atMs: wallMs())
            }, answer: { .roundRead($0) })
        case let .publishRound(board, version):
            roundAnswers.publish(board, version: version)
        case let .commit(batches, histories, catalog):
            let (store, metrics, clock) = (store, metrics, clock)
            ask({ () async throws(BattleStoreError) in
                let started = clock.now()
                let window = try await store.commit(batches, histories: histories, catalog: catalog, nowMs: clock.wallMs())
                let took = clock.now() - started
                metrics.commitLatency.record(took)
                metrics.activity.saved(took: took)
                return window
            }, answer: { .committed($0) })
        case let .poll(since, countDevices, held):
            let (store, catalog, wallMs) = (store, hall.catalog.catalog, clock.wallMs)
            // A count read before a failed read of the changes is read again at the next poll.
            ask({ () async throws(BattleStoreError) in
                let nowMs = wallMs()
                let running = Season.at(try await store.takeHallOfFame(catalog: catalog, nowMs: nowMs), ms: nowMs)
                let devices = countDevices ? try await store.deviceCount() : nil
                var changes = try await store.changes(since: since)
                let reading: SeasonBoard.Reading
                if running == held {
                    reading = .unchanged
                    // The season's totals of the schools changed, read after them: as new as they are.
                    if let running, let changed = changes?.scores.keys, !changed.isEmpty {
                        changes?.season = SeasonTotals(season: running, totals: try await store.seasonTotals(running, schools: Array(changed)))
                    }
                } else if let running {
                    reading = .turned(SeasonTotals(season: running, totals: try await store.season(running).totals))
                } else {
                    reading = .none
                }
                return (devices, changes, reading)
            }, answer: { result in
                .polled(devices: try? result.get().0, result.map(\.1), season: (try? result.get().2) ?? .unchanged)
            })
        case let .readCatalog(current):
            let store = store
            ask({ () async throws(BattleStoreError) in try await store.newCatalog(current: current) }, answer: { .catalogRead($0) })
        case let .wake(alarm, instant):
            alarms[alarm]?.cancel()
            alarms[alarm] = Task {
                try? await Task.sleep(until: instant, clock: .continuous)
                guard !Task.isCancelled else { return }
                self.handle(.alarm(alarm))
            }
        case let .log(level, message, metadata):
            logger.log(level: level, "\(message)", metadata: metadata.mapValues { .string($0) })
        case let .measure(measure):
            record(measure)
        case .stop:
            for alarm in alarms.values { alarm.cancel() }
            alarms = [:]
            stopWaiter?.resume()
            stopWaiter = nil
        }
    }

    /// Runs a store call as a task that starts at once on `storeThread`, beside the hall's turn
    /// rather than after it; its result goes back to the hall as the event `answer` makes of it.
    private func ask<Value: Sendable>(_ call: @escaping @Sendable () async throws(BattleStoreError) -> Value,
                                      answer: @escaping @Sendable (Result<Value, BattleStoreError>) -> BattleHall.Event) {
        let runtime = self
        Task(executorPreference: Self.storeThread) { @Sendable in
            let result: Result<Value, BattleStoreError>
            do throws(BattleStoreError) { result = .success(try await call()) } catch { result = .failure(error) }
            await runtime.handle(answer(result))
        }
    }

    private func record(_ measure: BattleHall.Measure) {
        switch measure {
        case .commitFailed: metrics.commitFailures.increment()
        case .committed: metrics.commits.increment()
        case .duplicateBatch: metrics.duplicateBatches.increment()
        case .protocolError: metrics.protocolErrors.increment()
        case .broadcast: metrics.broadcasts.increment()
        case .boardPoll: metrics.boardPolls.increment()
        case .connectionRefused: metrics.connectionsRefused.increment()
        case let .storeAvailable(available): metrics.storeAvailable.set(Double(available ? 1 : 0))
        case let .batches(count): metrics.batches.increment(by: Int64(count))
        case let .taps(accepted, refused):
            metrics.tapsAccepted.increment(by: Int64(clamping: accepted))
            metrics.activity.counted(accepted)
            metrics.tapsRefused.increment(by: Int64(clamping: refused))
        }
    }
}
