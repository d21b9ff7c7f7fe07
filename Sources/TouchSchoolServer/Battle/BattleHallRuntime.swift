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
/// stream), or a play socket's outbox, written by the socket's event loop.
package enum SendQueue: Sendable {
    case stream(AsyncStream<Outgoing>.Continuation)
    case socket(SocketOutbox)
}

/// The one battle of a server, as a service: a thin shell around `BattleHall`, the battle's
/// state and rules as a value. The shell turns calls (a connection, a hello, a batch, a
/// shutdown) into the hall's events and runs the effects it returns: messages into the
/// connections' send queues, the store's calls (`Stores/`), timers, logs and metrics; each store
/// call's result and each timer come back as an event. What the shell keeps is only what the
/// hall cannot hold as a value: the send queues, the callers waiting for their hello's answer, the
/// timers' tasks, the batches arrived and not yet taken (`submit`). The hall runs on a thread of
/// its own, its store calls on another (`thread`, `storeThread`). The operator's calls
/// (`Admin/BattleAdministration.swift`) go to the store and tell the hall what changed.
package actor BattleHallRuntime: Service {
    /// The store as play sees it; the catalog reload and the operator see theirs.
    let store: any PlayStore
    let catalogStore: any CatalogStore
    let operatorStore: any OperatorStore
    /// The store's rounds.
    let roundStore: any RoundStore
    /// The standings `GET /v1/rounds/ID` answers with, the hall's latest board's published after
    /// each read of the round: readers take them without a turn of the hall.
    nonisolated let roundAnswers = RoundAnswers()
    /// The server's clock, in milliseconds since 1970: commits judge by it, rounds are timed by it,
    /// `pong` tells it.
    nonisolated let wallClockMs: @Sendable () -> Int64
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
    /// The outboxes this turn of the hall queued messages in, to hand to their event loops at its end.
    private var outboxesToDrain: [SocketOutbox] = []
    private var nextConnection: ConnectionID = 1
    private var helloAnswers: [ConnectionID: CheckedContinuation<HelloOutcome, Never>] = [:]
    private var alarms: [BattleHall.Alarm: Task<Void, Never>] = [:]
    private var stopWaiter: CheckedContinuation<Void, Never>?
    /// Batches submitted and not yet taken into the hall (`submit`).
    private nonisolated let arrivals = Mutex<[ReceivedBatch]>([])

    init(store: any BattleStore, battleID: String, catalog: CatalogResource, board: StoredBoard, metrics: ServerMetrics,
         limits: AddressLimitPolicy = .standard, devicesStored: Int = 0, maximumDevices: Int = .max, logger: Logger,
         wallClockMs: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) {
        self.store = store
        catalogStore = store
        operatorStore = store
        roundStore = store
        self.wallClockMs = wallClockMs
        self.battleID = battleID
        self.metrics = metrics
        self.logger = logger
        hall = BattleHall(battleID: battleID, catalog: catalog, board: board, histories: TapJudges(addresses: limits),
                          devicesStored: devicesStored, maximumDevices: maximumDevices, readsRounds: true, now: .now)
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
        let deadline = ContinuousClock.now + Self.closingGrace
        while !sendQueues.isEmpty, ContinuousClock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// `saying`: logs that the server shuts down; not for a cancellation, which is a start refused
    /// (its error follows, and nothing arrived to save) or a second signal after the first said it.
    func beginClosing(saying: Bool) { handle(.shutdown(saying: saying)) }

    // MARK: - Calls

    /// A new connection, or nil when the server is shutting down.
    package func connect(sendQueue: SendQueue) -> ConnectionID? {
        guard !hall.closing else { return nil }
        let id = nextConnection
        nextConnection += 1
        sendQueues[id] = sendQueue
        handle(.connect(id))
        return id
    }

    /// A new board stream of one page of a league, or nil when the server is shutting down: the
    /// page at the next interval, then whenever it changes.
    func streamPage(_ key: BoardViewKey, sendQueue: AsyncStream<Outgoing>.Continuation) -> ConnectionID? {
        guard !hall.closing else { return nil }
        let id = nextConnection
        nextConnection += 1
        sendQueues[id] = .stream(sendQueue)
        handle(.streamPage(id, key))
        return id
    }

    package func disconnect(_ id: ConnectionID) { handle(.disconnect(id)) }

    /// A round was started or stopped through this server: every screen hears of it now rather
    /// than at the next read.
    func roundChanged() { handle(.roundChanged) }

    /// The welcome for a device that said hello: its last applied batch number and its player,
    /// once none of its batches waits to be saved (the number is the truth). Another connection of the same device is closed: the newest wins.
    package func hello(_ id: ConnectionID, device: String) async -> HelloOutcome {
        await withCheckedContinuation { answer in
            helloAnswers.removeValue(forKey: id)?.resume(returning: .refused(Self.goingAway))
            helloAnswers[id] = answer
            handle(.hello(id, device: device))
        }
    }

    /// Protocol 2: the page of a league the connection watches from now (nil: none).
    package func watch(_ id: ConnectionID, _ key: BoardViewKey?) { handle(.watch(id, key)) }

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

    /// The board as saved, for `GET /v1/scores`.
    func board() -> Board { hall.board }

    /// A view as its watchers are sent it, computed now; nil for a school the catalog lacks.
    func view(_ key: BoardViewKey) -> String? {
        if case let .school(position) = key, position >= hall.ranking.catalog.count { return nil }
        return hall.ranking.messageNow(key, version: hall.boardVersion)
    }

    /// The key of a school's view by its id, in the catalog served now.
    func viewKey(ofSchool id: String) -> BoardViewKey? { hall.ranking.key(ofSchool: id) }

    func playerRecord(device: String) async throws(BattleStoreError) -> (PlayerState, DeviceRecord)? {
        guard let (record, player) = try await store.device(device) else { return nil }
        return (CommitRules.playerState(player), record)
    }

    // MARK: - The hall's events and effects

    func handle(_ event: BattleHall.Event) {
        for effect in hall.update(event, now: .now) { run(effect) }
        if case .roundRead = event { roundAnswers.publish(hall.roundBoard, version: hall.roundBoardVersion) }
        drainOutboxes()
    }

    /// Hands each event loop the outboxes of its sockets that this turn queued messages in: one
    /// turn of the loop writes them all (a broadcast's thousands of views take one hop per loop).
    private func drainOutboxes() {
        guard !outboxesToDrain.isEmpty else { return }
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, outboxes: [SocketOutbox])] = [:]
        for outbox in outboxesToDrain {
            let loop = outbox.eventLoop
            byLoop[ObjectIdentifier(loop), default: (loop, [])].outboxes.append(outbox)
        }
        outboxesToDrain.removeAll(keepingCapacity: true)
        for (loop, outboxes) in byLoop.values {
            loop.execute { for outbox in outboxes { outbox.drain() } }
        }
    }

    private func run(_ effect: BattleHall.Effect) {
        switch effect {
        case let .send(message, id):
            switch sendQueues[id] {
            case nil:
                return
            case let .socket(outbox):
                // A socket too slow to keep up ends itself (`SocketOutbox.bufferLimit`).
                if outbox.enqueue(message) { outboxesToDrain.append(outbox) }
            case let .stream(sendQueue):
                if case .enqueued = sendQueue.yield(message) { return }
                // Too slow to keep up: the connection is dropped; the client reconnects and resends.
                logger.notice("Dropping a connection too slow to read its messages")
                handle(.disconnect(id))
            }
        case let .finish(id):
            switch sendQueues.removeValue(forKey: id) {
            case nil: return
            case let .socket(outbox): if outbox.finish() { outboxesToDrain.append(outbox) }
            case let .stream(sendQueue): sendQueue.finish()
            }
        case let .answerHello(id, outcome):
            helloAnswers.removeValue(forKey: id)?.resume(returning: outcome)
        case let .readDevice(id, device, delay):
            let store = store
            onStoreThread { runtime in
                if delay > .zero { try? await Task.sleep(for: delay) }
                let result: Result<(DeviceRecord, PlayerRecord)?, BattleStoreError>
                do throws(BattleStoreError) { result = .success(try await store.device(device)) } catch { result = .failure(error) }
                await runtime.handle(.deviceRead(id, device: device, result))
            }
        case let .readRound(settled):
            let (rounds, clock) = (roundStore, wallClockMs)
            onStoreThread { runtime in
                let result: Result<RoundReading?, BattleStoreError>
                do throws(BattleStoreError) {
                    if let round = try await rounds.rounds(limit: 1).first {
                        let counts = round == settled ? nil : try await rounds.round(round.id)?.1
                        result = .success(RoundReading(round: round, counts: counts, atMs: clock()))
                    } else {
                        result = .success(nil)
                    }
                } catch {
                    result = .failure(error)
                }
                await runtime.handle(.roundRead(result))
            }
        case let .commit(batches, histories, catalog):
            let (store, metrics, clock) = (store, metrics, wallClockMs)
            onStoreThread { runtime in
                let started = ContinuousClock.now
                let result: Result<CommittedWindow, BattleStoreError>
                do throws(BattleStoreError) {
                    result = .success(try await store.commit(batches, histories: histories, catalog: catalog,
                                                             nowMs: clock()))
                    let took = ContinuousClock.now - started
                    metrics.commitLatency.record(took)
                    metrics.activity.saved(took: took)
                } catch {
                    result = .failure(error)
                }
                await runtime.handle(.committed(result))
            }
        case let .poll(since, countDevices):
            let store = store
            onStoreThread { runtime in
                var devices: Int?
                let result: Result<StoredBoard?, BattleStoreError>
                do throws(BattleStoreError) {
                    if countDevices { devices = try await store.deviceCount() }
                    result = .success(try await store.changes(since: since))
                } catch {
                    result = .failure(error)
                }
                await runtime.handle(.polled(devices: devices, result))
            }
        case let .readCatalog(current):
            let store = catalogStore
            onStoreThread { runtime in
                let result: Result<CatalogResource?, BattleStoreError>
                do throws(BattleStoreError) { result = .success(try await store.newCatalog(current: current)) } catch { result = .failure(error) }
                await runtime.handle(.catalogRead(result))
            }
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

    /// Runs `call` (a store call, then its answer handed to the hall) as a task that starts at
    /// once on `storeThread`, beside the hall's turn rather than after it.
    private func onStoreThread(_ call: @escaping @Sendable (BattleHallRuntime) async -> Void) {
        let runtime = self
        Task(executorPreference: Self.storeThread) { @Sendable in await call(runtime) }
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
