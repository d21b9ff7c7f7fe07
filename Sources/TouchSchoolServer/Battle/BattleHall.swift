import Logging
import TouchSchoolCore
import TouchSchoolProtocol

/// The server's live battle as a value: who is connected, what waits to be saved and what is
/// being saved, the board as last saved and what changed since the last broadcast, and the
/// battle's life (running, closing, finished). `update(_:now:)` takes one event and returns the
/// effects to run; it never touches a socket, a store or a clock (the time is passed in). The
/// `BattleHallRuntime` actor holds one, runs its effects (store calls, sends, timers) and feeds their
/// results back as events, as the terminal game's loop runs `update(&GameState, …)`.
///
/// Named a hall, not a battle: "battle" already names the battle's identity (`battleID`) and
/// the client's view of it (`NetworkBattle`, `LocalBattle`); the hall is where the server holds
/// the one battle it hosts, with the connections gathered in it.
///
/// State:
/// - connections (`peers`): players (bound to a device by their welcome) and board streams;
///   the hellos not yet answered, waiting for their device's commit or reading its row;
/// - the commit window: `pending` batches since `pendingSince`, the batches `inFlight` in the
///   one commit under way, when the last commit started, when a failed one may be tried again;
/// - the board: every school's total as last saved with the version it was read at, the
///   schools changed since the last broadcast and when that was, the versions polled;
/// - the devices the store holds (for `maximumDevices`), the store's health
///   (`lastSaveError`), the catalog served, the devices' judges (`histories`);
/// - the alarms asked for, and whether the battle is closing, stopped taking batches, finished.
///
/// Events: the server starts; a connection or board stream opens or closes; a hello; a batch;
/// the results of the effects (a device's row read, a commit saved or failed, a poll, a catalog
/// read); a hint that the board changed elsewhere; an operator's ban that changed totals; an
/// alarm the hall asked for; the shutdown.
///
/// Effects: send a message to a connection, end it; answer a hello; read a device's row; commit
/// batches; poll the store; read the catalog; wake me at an instant; log; count a metric; stop.
///
/// The rules it keeps (each pinned by `BattleHallTests`): batches are saved together, at most
/// one commit at a time, a window after the oldest batch arrived and after the last commit
/// started, at once when `commitBatchLimit` wait; an ack goes out only when its commit is
/// saved; a hello waits until no batch of its device waits or is being saved; each view goes
/// out at most once a `broadcastInterval`, the views in `slices` sent one slice a tick, ticks at
/// least `broadcastInterval / slices` apart, a tick whose news is stale waiting for the commit
/// coming (`nextTick()`); on shutdown what arrived is saved (three tries) and
/// acknowledged before every connection is told "going away" and closed.
struct BattleHall: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// How long the commit window gathers batches before saving them together.
    static let commitWindow: Duration = .milliseconds(50)
    /// A save is started early when this many batches are waiting.
    static let commitBatchLimit = 2_000
    /// The least time between two broadcasts of the views: four a second, the bare stack's
    /// cadence. A tap reaches the other players within the commit window, the save and at most
    /// this (under load 225 ms: the ticks follow the commits, `nextTick()`). Every view changes
    /// every interval in a national battle (each carries the leaders, who never stop), so this
    /// is what each player receives: at 180 ms (5.5 views a second) the server's CPU was
    /// 1.43–1.68× the bare stack's at 1,000–2,000 players, at 250 ms 1.34–1.43× (same rounds),
    /// with 26 % fewer bytes per player and the tap seen by others p99 within the runs' noise
    /// (BENCHMARKS.md, "Four views a second").
    static let broadcastInterval: Duration = .milliseconds(250)
    /// The views are sent in this many slices (`BoardRanking.slice(of:)`), one slice a tick, each
    /// slice every `broadcastInterval`: at 4,000 players, every view at once was 4,000 messages
    /// written in one burst four times a second, and an ack or a tap that came during a burst
    /// waited behind it. The same bare stack broadcasting to a fifth of its players every 50 ms
    /// instead of to all every 250 ms: ack p99 22 ms instead of 99–104, a tap seen by others p99
    /// 252–263 ms instead of 310 (BENCHMARKS.md, "Views in slices").
    static let broadcastSlices = 5
    /// What a connection's page may take of the wire, in bytes a second: a page changed is sent
    /// no sooner than its size over this after the last one (and at most every interval). A
    /// player is sent its view (~1.2 KiB/s, four a second) and its acks (~0.1 KiB each, at most
    /// four a second) besides: ~0.4 KiB/s is what keeps it under 2 KiB/s. A page stream (the
    /// projector) has no view: it may take 1.5 KiB/s. In a national event every row of a page of
    /// the top changes every interval: 100 rows (~2.1 KB, the page's ranking list) went four times
    /// a second, 9.6 KiB/s; now every ~5 s. A screenful of 20 rows every ~1 s; a projector's 11
    /// rows, and a player's one place to overtake, every interval as before (BENCHMARKS.md, "What
    /// a page of the ranking costs a screen").
    struct PageBudget: Sendable {
        var playerBytesPerSecond: Int
        var streamBytesPerSecond: Int
        static let standard = PageBudget(playerBytesPerSecond: 400, streamBytesPerSecond: 1_536)
    }
    /// How often the catalog is looked at for an import made while the server runs.
    static let catalogCheckInterval: Duration = .seconds(2)
    /// How often the store's devices are counted again.
    static let deviceCountInterval: Duration = .seconds(60)
    /// How long to wait before trying a failed save (or read) again.
    static let retryDelay: Duration = .seconds(1)
    /// How long to wait before trying the final save of a shutdown again, and how many tries.
    static let finalRetryDelay: Duration = .milliseconds(200)
    static let finalTries = 3
    /// How often the board is asked for other servers' changes (a notification asks at once).
    static let pollInterval: Duration = .milliseconds(200)
    /// How often the latest round is read: a round started through another server of the
    /// database shows within this, well inside its countdown; its standings move this often.
    static let roundPollInterval: Duration = .milliseconds(250)

    static let goingAway = ProtocolError(code: CloseCode.goingAway, message: "the server is shutting down; connect again later")

    enum Event: Sendable {
        /// The server runs: the periodic alarms begin.
        case start
        /// A player's connection the shell opened with this id.
        case connect(ConnectionID)
        case disconnect(ConnectionID)
        /// A hello of the protocol this server speaks (the shell refuses any other).
        case hello(ConnectionID, device: String)
        /// Protocol 2: the page of a league the connection's screen shows (nil: none).
        case watch(ConnectionID, BoardViewKey?)
        /// A board stream of one page (`GET /v1/board?from=…`) the shell opened with this id.
        case streamPage(ConnectionID, BoardViewKey)
        case batch(ReceivedBatch)
        /// The answer to `.readDevice`.
        case deviceRead(ConnectionID, device: String, Result<(DeviceRecord, PlayerRecord)?, BattleStoreError>)
        /// The answer to `.commit`.
        case committed(Result<CommittedWindow, BattleStoreError>)
        /// The latest round as the store holds it (nil: none was ever started).
        case roundRead(Result<RoundReading?, BattleStoreError>)
        /// A round was started or stopped through this server: read it now.
        case roundChanged
        /// The answer to `.poll`: the devices counted (when asked and read) and the changes.
        case polled(devices: Int?, Result<StoredBoard?, BattleStoreError>)
        /// Another server says the board reached this version (a PostgreSQL notification).
        case boardHint(version: UInt64?)
        /// The answer to `.readCatalog`: the new catalog, nil when unchanged.
        case catalogRead(Result<CatalogResource?, BattleStoreError>)
        /// The operator banned a device; the totals its removed taps changed.
        case banned(BanOutcome)
        case alarm(Alarm)
        /// A graceful shutdown (`saying`: log it) or a cancellation.
        case shutdown(saying: Bool)
    }

    enum Alarm: Hashable, Sendable {
        case commit, broadcast, poll, catalog, round
    }

    enum Effect: Sendable {
        case send(Outgoing, to: ConnectionID)
        /// Ends the connection's send queue after what was sent before it (its writer stops).
        case finish(ConnectionID)
        case answerHello(ConnectionID, HelloOutcome)
        /// Reads the device's row after `delay`, answered by `.deviceRead`.
        case readDevice(ConnectionID, device: String, after: Duration)
        /// Saves the batches in one durable write, answered by `.committed`.
        case commit([ReceivedBatch], histories: TapJudges, catalog: Catalog)
        /// Counts the devices (when asked), reads the changes after `since`; answered by `.polled`.
        case poll(since: UInt64, countDevices: Bool)
        case readCatalog(current: CatalogResource)
        /// Read the latest round, and its standings unless it is `settled` (final, held, and
        /// past `RoundBoard.readsStandings`).
        case readRound(settled: Round?)
        /// Sends `.alarm(alarm)` at `at`, replacing the same alarm asked for before.
        case wake(Alarm, at: Instant)
        case log(Logger.Level, String, metadata: [String: String] = [:])
        case measure(Measure)
        /// The battle is over: every connection was told and closed.
        case stop
    }

    enum Measure: Equatable, Sendable {
        case commitFailed, committed, duplicateBatch, protocolError, broadcast, boardPoll, connectionRefused
        case storeAvailable(Bool)
        case batches(Int)
        case taps(accepted: UInt64, refused: UInt64)
    }

    struct Peer: Sendable, Equatable {
        /// The device a welcome bound it to (nil before its hello, or once it is being closed).
        var device: String?
        /// Protocol 2: the player's school (its id, as saved), whose view it receives.
        var school: String?
        /// Protocol 2: the page of a league it watches.
        var page: BoardViewKey?
        /// A board stream of one page: its `page` events, without a device.
        var streamsPage = false
        /// The round its last `round` message told (a player), and the place it last told with
        /// when; the round board's version its last `round` event showed (a page stream).
        var roundTold: Round?
        var placeTold: RoundStanding?
        var placeToldAt: Instant?
        var roundEventTold: UInt64 = 0

        var watchesViews: Bool { device != nil || streamsPage }
    }

    enum HelloPhase: Equatable, Sendable {
        /// Waits for the device's batches waiting or being saved.
        case waiting(device: String)
        case reading(device: String)
    }

    // MARK: - State

    let battleID: String
    /// No new device is welcomed once the store holds this many (`ServerConfiguration`).
    let maximumDevices: Int
    /// The catalog served; replaced by `.catalogRead`.
    private(set) var catalog: CatalogResource
    private(set) var histories: TapJudges

    private(set) var peers: [ConnectionID: Peer] = [:] { didSet { watchList = nil } }
    /// The connections watching views, in the order they are sent, and the views they watch:
    /// made from `peers` at the first interval after any change to it (and after a new catalog),
    /// so that in an interval with no connection changed the views go out without a pass over
    /// every connection's state.
    private var watchList: WatchList?
    /// Whether the list of watchers is made (for the tests: it is made again only after a change).
    var hasWatchList: Bool { watchList != nil }
    private(set) var connectionOfDevice: [String: ConnectionID] = [:]
    private(set) var hellos: [ConnectionID: HelloPhase] = [:]

    private(set) var pending: [ReceivedBatch] = []
    /// When the oldest waiting batch arrived: the commit window runs from then.
    private(set) var pendingSince: Instant?
    /// The batches of the commit under way (nil: none), and their `pendingSince`.
    private(set) var committing: (batches: [ReceivedBatch], since: Instant?, final: Bool)?
    /// Devices with batches in the commit under way.
    private(set) var inFlight: Set<String> = []
    /// When the last commit started: the next starts a window later at the soonest.
    private(set) var lastCommitStarted: Instant?
    /// After a failed commit, the next is tried no sooner than this.
    private(set) var retryAt: Instant?

    /// Every school's total as last saved (here or by another server on the same store).
    private(set) var scores: [String: UInt64]
    /// The board version each total was read at: an older reading never overwrites a newer one
    /// (a poll and a commit of this server may finish in either order).
    private(set) var scoreVersions: [String: UInt64] = [:]
    private(set) var boardVersion: UInt64
    /// Every change up to this version has been read from the store.
    private(set) var polledVersion: UInt64
    /// The slices the views are sent in (`broadcastSlices`; the tests of one view at a time use 1).
    let slices: Int
    /// By slice: a total changed since the slice was last sent (its views are computed again),
    /// and when that was.
    private(set) var slicesChanged: [Bool]
    private(set) var sliceSentAt: [Instant]
    /// When the last tick sent a slice or the round's news.
    private(set) var lastBroadcast: Instant
    /// When a total last changed (a commit landed, a poll read another server's).
    private(set) var lastChange: Instant?
    /// The board ranked for protocol 2's views.
    private(set) var ranking: BoardRanking
    /// By the slice of the view: connections whose school's view, or page, has not been sent
    /// since they were welcomed, switched school or asked for another page: sent at the slice's
    /// next tick, changed or not.
    private var schoolViewsDue: [Set<ConnectionID>]
    private var pagesDue: [Set<ConnectionID>]
    /// When each watcher of a page may be sent its next (`PageBudget`), and those whose
    /// page changed before then (by the page's slice): sent when that time has come, changed
    /// again or not.
    private var nextPageAt: [ConnectionID: Instant] = [:]
    private var pagesHeld: [Set<ConnectionID>]
    var pageBudget = PageBudget.standard

    /// Devices the store holds: read at start, grown by each save's new devices, read again
    /// every `deviceCountInterval` (other servers on the same store add theirs).
    /// Whether the store keeps rounds: the hall reads the latest every `roundPollInterval`.
    let readsRounds: Bool
    /// The latest round as last read, its standings placed; a version per change.
    private(set) var roundBoard: RoundBoard?
    private(set) var roundBoardVersion: UInt64 = 0
    private var readingRound = false
    /// Some player or stream has round news not yet sent, held back until this instant (nil:
    /// at the next tick).
    private var roundDue = false
    private var roundHeldUntil: Instant?
    /// The server's clock at an instant of the hall's: a round's times are the server's clock.
    private var wallClock: (instant: Instant, ms: Int64)?
    private(set) var devicesStored: Int
    private(set) var devicesCountedAt: Instant
    private(set) var polling = false
    private(set) var readingCatalog = false

    private(set) var lastSaveError: String?
    private(set) var alarms: [Alarm: Instant] = [:]
    /// A shutdown began: no new connection, no new hello.
    private(set) var closing = false
    /// The final save began: no batch is taken any more (it was never acknowledged; its client
    /// sends it again to the next server).
    private(set) var stopped = false
    private var finalFailures = 0
    private(set) var finished = false

    init(battleID: String, catalog: CatalogResource, board: StoredBoard, histories: TapJudges,
         devicesStored: Int = 0, maximumDevices: Int = .max, readsRounds: Bool = false,
         slices: Int = BattleHall.broadcastSlices, now: Instant) {
        self.battleID = battleID
        self.slices = max(1, slices)
        slicesChanged = Array(repeating: false, count: self.slices)
        sliceSentAt = Array(repeating: now, count: self.slices)
        schoolViewsDue = Array(repeating: [], count: self.slices)
        pagesDue = Array(repeating: [], count: self.slices)
        pagesHeld = Array(repeating: [], count: self.slices)
        self.readsRounds = readsRounds
        self.catalog = catalog
        self.histories = histories
        self.devicesStored = devicesStored
        self.maximumDevices = maximumDevices
        scores = board.scores
        ranking = BoardRanking(catalog: catalog.catalog, scores: board.scores, slices: self.slices)
        boardVersion = board.version
        polledVersion = board.version
        lastBroadcast = now
        devicesCountedAt = now
    }

    /// The board as saved, for `GET /v1/scores`.
    var board: Board { Board(version: boardVersion, scores: scores.filter { $0.value > 0 }) }

    // MARK: - Update

    mutating func update(_ event: Event, now: Instant) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case .start:
            wake(.poll, at: now + Self.pollInterval, &effects)
            wake(.catalog, at: now + Self.catalogCheckInterval, &effects)
            if readsRounds { readRound(&effects) }
        case let .connect(id):
            guard !closing else { effects.append(.finish(id)); break }
            peers[id] = Peer()
        case let .disconnect(id):
            disconnect(id, &effects)
        case let .streamPage(id, key):
            guard !closing else { effects.append(.finish(id)); break }
            peers[id] = Peer(page: key, streamsPage: true)
            pagesDue[ranking.slice(of: key)].insert(id)
            if roundBoard != nil { newRoundNews() }
            broadcastWhenDue(now: now, &effects)
        case let .hello(id, device):
            guard !closing, peers[id] != nil else { effects.append(.answerHello(id, .refused(Self.goingAway))); break }
            hellos[id] = .waiting(device: device)
            if !inFlight.contains(device), !pending.contains(where: { $0.device == device }) { read(id, device: device, &effects) }
        case let .deviceRead(id, device, result):
            deviceRead(id, device: device, result, now: now, &effects)
            broadcastWhenDue(now: now, &effects)
        case let .watch(id, key):
            guard let peer = peers[id], peer.watchesViews, peer.page != key else { break }
            peers[id]?.page = key
            for slice in 0..<slices { pagesHeld[slice].remove(id) }
            if let key {
                pagesDue[ranking.slice(of: key)].insert(id)
                broadcastWhenDue(now: now, &effects)
            }
        case let .batch(batch):
            // A connection being closed (a batch out of order, replaced by a newer connection of
            // its device) has no device any more: what it still sends is not applied.
            guard !stopped, peers[batch.connection]?.device == batch.device else { break }
            if pending.isEmpty { pendingSince = now }
            pending.append(batch)
        case let .committed(result):
            committed(result, now: now, &effects)
            // The next commit starts before the views are computed and sent: its batches have
            // waited their window already, and under load the views of thousands of players
            // would hold it back by as long as they take.
            proceed(now: now, &effects)
            broadcastWhenDue(now: now, &effects)
        case let .roundRead(result):
            roundRead(result, now: now, &effects)
        case .roundChanged:
            if readsRounds { readRound(&effects) }
        case let .polled(devices, result):
            polling = false
            if let devices {
                devicesStored = devices
                devicesCountedAt = now
            }
            switch result {
            case let .failure(error):
                noteSaveFailure(error, &effects)
            case let .success(changes):
                // The store answers again: with nothing waiting to be saved, saving works too.
                if pending.isEmpty && committing == nil { noteSaveWorks(&effects) }
                guard let changes else { break }
                effects.append(.measure(.boardPoll))
                polledVersion = max(polledVersion, changes.version)
                take(changes, now: now)
                broadcastWhenDue(now: now, &effects)
            }
        case let .boardHint(version):
            // Unless this server's own commit brought the board there already.
            if let version, version <= boardVersion { break }
            poll(now: now, &effects)
        case let .catalogRead(result):
            readingCatalog = false
            switch result {
            case let .success(resource?):
                effects.append(.log(.info, "Serving a new catalog",
                                    metadata: ["source": resource.path, "schools": "\(resource.catalog.count)", "etag": resource.etag]))
                catalog = resource
                // Positions change with the catalog: every view is computed and sent again.
                ranking = BoardRanking(catalog: resource.catalog, scores: scores, slices: slices)
                watchList = nil
                // A school's slice changes with its position.
                schoolViewsDue = Array(repeating: [], count: slices)
                for (id, peer) in peers where peer.watchesViews {
                    if let school = peer.school { schoolViewDue(id, school: school) }
                    if let page = peer.page { pagesDue[ranking.slice(of: page)].insert(id) }
                }
                broadcastWhenDue(now: now, &effects)
            case .success(nil):
                break
            case let .failure(error):
                effects.append(.log(.warning, "Cannot read the new catalog; keeping the one served", metadata: ["error": "\(error)"]))
            }
        case let .banned(outcome):
            if let board = outcome.board {
                take(board, now: now)
                broadcastWhenDue(now: now, &effects)
            }
        case let .alarm(alarm):
            // A replaced alarm that fired anyway is not the one asked for: the other comes.
            guard let at = alarms[alarm], at <= now else { break }
            alarms[alarm] = nil
            switch alarm {
            case .commit:
                break
            case .broadcast:
                if !finished { broadcast(now: now, &effects) }
            case .poll:
                guard !closing else { break }
                wake(.poll, at: now + Self.pollInterval, &effects)
                poll(now: now, &effects)
            case .round:
                guard !closing else { break }
                readRound(&effects)
            case .catalog:
                guard !closing else { break }
                wake(.catalog, at: now + Self.catalogCheckInterval, &effects)
                if !readingCatalog {
                    readingCatalog = true
                    effects.append(.readCatalog(current: catalog))
                }
            }
        case let .shutdown(saying):
            guard !closing else { break }
            if saying { effects.append(.log(.info, "Shutting down: saving what arrived, then closing every connection")) }
            closing = true
            for id in hellos.keys.sorted() { answer(id, .refused(Self.goingAway), &effects) }
        }
        proceed(now: now, &effects)
        return effects
    }

    // MARK: - Connections and hellos

    private mutating func disconnect(_ id: ConnectionID, _ effects: inout [Effect]) {
        if hellos[id] != nil { answer(id, .refused(Self.goingAway), &effects) }
        guard let peer = peers.removeValue(forKey: id) else { return }
        for slice in 0..<slices {
            schoolViewsDue[slice].remove(id)
            pagesDue[slice].remove(id)
            pagesHeld[slice].remove(id)
        }
        nextPageAt[id] = nil
        if let device = peer.device, connectionOfDevice[device] == id { connectionOfDevice[device] = nil }
        effects.append(.finish(id))
    }

    private mutating func answer(_ id: ConnectionID, _ outcome: HelloOutcome, _ effects: inout [Effect]) {
        hellos[id] = nil
        effects.append(.answerHello(id, outcome))
    }

    private mutating func read(_ id: ConnectionID, device: String, _ effects: inout [Effect]) {
        hellos[id] = .reading(device: device)
        effects.append(.readDevice(id, device: device, after: .zero))
    }

    /// After a commit (saved or not), the hellos whose device has no batch waiting or being saved
    /// any more read its row. (Only a commit's end frees a device: a batch only adds to the wait.)
    private mutating func readHellosNoLongerWaiting(_ effects: inout [Effect]) {
        guard !closing, hellos.values.contains(where: { if case .waiting = $0 { true } else { false } }) else { return }
        let waitingDevices = Set(pending.map(\.device))
        for (id, phase) in hellos.sorted(by: { $0.key < $1.key }) {
            guard case let .waiting(device) = phase, !waitingDevices.contains(device) else { continue }
            read(id, device: device, &effects)
        }
    }

    /// The device as the store has it (another server may have applied its batches): while the
    /// store cannot be read, the hello waits and the connection stays.
    private mutating func deviceRead(_ id: ConnectionID, device: String, _ result: Result<(DeviceRecord, PlayerRecord)?, BattleStoreError>,
                                     now: Instant, _ effects: inout [Effect]) {
        guard hellos[id] == .reading(device: device) else { return }
        guard !closing, peers[id] != nil else { return answer(id, .refused(Self.goingAway), &effects) }
        let known: (DeviceRecord, PlayerRecord)?
        switch result {
        case let .failure(error):
            noteSaveFailure(error, &effects)
            effects.append(.readDevice(id, device: device, after: Self.retryDelay))
            return
        case let .success(read):
            known = read
        }
        // A full store keeps saving for the devices it holds; a new one waits for room. (Hellos
        // of new devices at the same moment may each pass before their first save counts.)
        if known == nil, devicesStored >= maximumDevices {
            effects.append(.measure(.connectionRefused))
            return answer(id, .refused(ProtocolError(code: CloseCode.battleFull,
                                                     message: "this battle takes no new players now: it holds its limit of \(maximumDevices) devices")),
                          &effects)
        }
        // Another connection of the same device is closed: the newest wins.
        if let other = connectionOfDevice[device], other != id {
            effects.append(.send(.close(code: CloseCode.normal, reason: "this device connected again"), to: other))
            if peers[other] != nil { peers[other]?.device = nil }
        }
        connectionOfDevice[device] = id
        peers[id]?.device = device
        let player = CommitRules.playerState(known?.1)
        // The view follows the welcome at its slice's next tick.
        peers[id]?.school = player.schoolID
        if let school = player.schoolID { schoolViewDue(id, school: school) }
        let welcome = MessageCoding.encode(.welcome(Welcome(battle: battleID, lastSeq: known?.0.lastSeq ?? 0, player: player,
                                                            catalog: catalog.etag)))
        // The round follows the welcome in the same answer: a message sent through the queue now
        // would reach the queue before the welcome does.
        var round: [String] = []
        if let board = roundBoard, let nowMs = wallMs(now), board.isShown(atMs: nowMs) {
            round = [MessageCoding.encode(.round(board.message(for: device, nowMs: nowMs)))]
            peers[id]?.roundTold = board.round
            peers[id]?.placeTold = board.place(of: device)
            peers[id]?.placeToldAt = now
        }
        answer(id, .welcome(welcome, then: round), &effects)
    }

    // MARK: - Commits

    /// What comes next whatever the event: a commit due starts (or an alarm is asked for its
    /// time); a shutdown saves and finishes.
    private mutating func proceed(now: Instant, _ effects: inout [Effect]) {
        guard !finished, committing == nil else { return }
        if closing {
            // Save and acknowledge what arrived; later batches wait for the next server.
            stopped = true
            if !pending.isEmpty && finalFailures < Self.finalTries {
                if let retryAt, retryAt > now { return wake(.commit, at: retryAt, &effects) }
                return startCommit(now: now, final: true, &effects)
            }
            return finish(now: now, &effects)
        }
        guard !pending.isEmpty else { return }
        // The window runs from the oldest waiting batch's arrival, not from the end of the last
        // save: batches that arrived during a save (an fsync can take tens of milliseconds on a
        // busy disk) have waited their window already and are saved at once. Nor does a save
        // start sooner than a window after the previous one started: fast saves (a PostgreSQL
        // transaction takes a few milliseconds) would otherwise follow each other with a batch
        // or two each, and commits would grow with the players instead of staying at most
        // 1 / window a second.
        var due = retryAt ?? now
        if pending.count < Self.commitBatchLimit {
            if let pendingSince { due = max(due, pendingSince + Self.commitWindow) }
            if let lastCommitStarted { due = max(due, lastCommitStarted + Self.commitWindow) }
        }
        if due > now { return wake(.commit, at: due, &effects) }
        startCommit(now: now, final: false, &effects)
    }

    private mutating func startCommit(now: Instant, final: Bool, _ effects: inout [Effect]) {
        committing = (pending, pendingSince, final)
        inFlight = Set(pending.map(\.device))
        lastCommitStarted = now
        retryAt = nil
        effects.append(.commit(pending, histories: histories.judging(pending), catalog: catalog.catalog))
        pending = []
        pendingSince = nil
    }

    private mutating func committed(_ result: Result<CommittedWindow, BattleStoreError>, now: Instant, _ effects: inout [Effect]) {
        guard let (batches, since, final) = committing else { return }
        committing = nil
        inFlight = []
        defer { readHellosNoLongerWaiting(&effects) }
        switch result {
        case let .failure(error):
            // Nothing is acknowledged: the batches wait (their players stay connected) and are
            // saved when the store works again.
            pending = batches + pending
            pendingSince = since ?? now
            noteSaveFailure(error, &effects)
            if final { finalFailures += 1 }
            retryAt = now + (final ? Self.finalRetryDelay : Self.retryDelay)
        case let .success(window):
            let result = window.rules
            effects.append(.measure(.committed))
            noteSaveWorks(&effects)
            for note in window.notes { effects.append(.log(.warning, "The saved scores were repaired", metadata: ["problem": "\(note)"])) }
            take(window.board, now: now)
            histories.update(with: window.histories)
            devicesStored += result.newDevices
            var acknowledged = 0
            for (received, outcome) in zip(batches, result.outcomes) {
                switch outcome {
                case let .acknowledged(ack):
                    acknowledged += 1
                    if ack.accepted == 0 && ack.refused == 0 && received.batch.totalTaps > 0 { effects.append(.measure(.duplicateBatch)) }
                    effects.append(.send(.text(MessageCoding.encodeAck(ack)), to: received.connection))
                    // A player who switched school watches the new school's view from now.
                    if let peer = peers[received.connection], peer.watchesViews, peer.school != ack.player.schoolID {
                        peers[received.connection]?.school = ack.player.schoolID
                        if let school = ack.player.schoolID { schoolViewDue(received.connection, school: school) }
                    }
                case let .outOfOrder(expected):
                    guard peers[received.connection] != nil else { continue }
                    effects.append(.measure(.protocolError))
                    let message = "batch \(received.batch.seq) out of order: expected \(expected)"
                    effects.append(.send(.text(MessageCoding.encode(.error(ProtocolError(code: CloseCode.policyViolation, message: message)))),
                                         to: received.connection))
                    effects.append(.send(.close(code: CloseCode.policyViolation, reason: "batch out of order"), to: received.connection))
                    peers[received.connection]?.device = nil
                    // What the connection sent after the gap and is waiting for the next save is
                    // not applied either: the connection was told it is closed.
                    pending.removeAll { $0.connection == received.connection }
                    if pending.isEmpty { pendingSince = nil }
                }
            }
            effects.append(.measure(.batches(acknowledged)))
            effects.append(.measure(.taps(accepted: result.accepted, refused: result.refused)))
        }
    }

    /// The end of a shutdown: the last changes, then every connection told and closed.
    private mutating func finish(now: Instant, _ effects: inout [Effect]) {
        for slice in 0..<slices where readyAt(slice) != nil { sendSlice(slice, now: now, &effects) }
        if roundDue { sendRound(now: now, &effects) }
        for (id, peer) in peers.sorted(by: { $0.key < $1.key }) {
            if !peer.streamsPage { effects.append(.send(.text(MessageCoding.encode(.error(Self.goingAway))), to: id)) }
            effects.append(.send(.close(code: CloseCode.goingAway, reason: "going away"), to: id))
        }
        for id in hellos.keys.sorted() { answer(id, .refused(Self.goingAway), &effects) }
        finished = true
        effects.append(.stop)
    }

    // MARK: - The board

    /// New totals saved here or by another server, read at `changes.version`: the board and the
    /// next broadcast take them. A total read at an older version than the one held is skipped.
    private mutating func take(_ changes: StoredBoard, now: Instant) {
        var changed: [String] = []
        var wentDown = false
        for (id, total) in changes.scores where (scoreVersions[id] ?? 0) <= changes.version {
            scoreVersions[id] = changes.version
            guard scores[id] != total else { continue }
            if total < scores[id] ?? 0 { wentDown = true }
            scores[id] = total
            changed.append(id)
        }
        if !changed.isEmpty {
            slicesChanged = Array(repeating: true, count: slices)
            lastChange = now
        }
        // Taps taken off (a ban's removal, a reset, on this server or another) show on every page
        // at the next interval, whatever its budget (the operator's promise: within a second).
        // Rare: taps only ever add otherwise.
        if wentDown {
            for (id, peer) in peers { if let page = peer.page { pagesDue[ranking.slice(of: page)].insert(id) } }
        }
        ranking.take(changed: changed, scores: scores)
        if changes.version > boardVersion { boardVersion = changes.version }
    }

    /// Sends the next slice (or the round's news) now when it is ready and the last tick is a
    /// tick old, else asks to be woken when it will be.
    private mutating func broadcastWhenDue(now: Instant, _ effects: inout [Effect]) {
        guard !finished, let due = nextTick() else { return }
        if due <= now { broadcast(now: now, &effects) } else { wake(.broadcast, at: due, &effects) }
    }

    /// The time between two ticks: a slice each.
    private var tickInterval: Duration { Self.broadcastInterval / slices }

    /// When a slice has views to send: a total changed or a view is due, its last send an
    /// interval old; only pages held by their budget, when the soonest may go. Nil: nothing.
    private func readyAt(_ slice: Int) -> Instant? {
        let next = sliceSentAt[slice] + Self.broadcastInterval
        if slicesChanged[slice] || !schoolViewsDue[slice].isEmpty || !pagesDue[slice].isEmpty { return next }
        return pagesHeld[slice].compactMap { nextPageAt[$0] }.min().map { max(next, $0) }
    }

    /// The next tick: the soonest a slice or the round's news is ready, a tick after the last at
    /// the soonest; nil when nothing waits. When the last change is over half a tick older than
    /// that and a commit is coming, the tick waits for it to land (at most a commit window).
    ///
    /// Under load a commit lands every window, the ticks come every tick, and nothing else keeps
    /// them in step. A tick just before a landing sends its slice nothing new: that slice shows
    /// the commit's taps only an interval later, 250 ms after the landing. Ticks that follow the
    /// landings, half a tick late at most, show every slice a commit's taps within that half tick
    /// and the four ticks after: 225 ms (`BattleHallSlicesTests`).
    private func nextTick() -> Instant? {
        var soonest = roundDue ? roundHeldUntil ?? lastBroadcast : nil
        for slice in 0..<slices { if let ready = readyAt(slice) { soonest = min(soonest ?? ready, ready) } }
        guard let soonest else { return nil }
        let due = max(soonest, lastBroadcast + tickInterval)
        let commitComing = committing != nil || !pending.isEmpty
        let stale = lastChange.map { due - $0 > tickInterval / 2 } ?? true
        return commitComing && stale ? due + Self.commitWindow : due
    }

    /// One tick: the slice ready the longest, and the round's news when ready; then the next
    /// tick asked for.
    private mutating func broadcast(now: Instant, _ effects: inout [Effect]) {
        if let next = nextTick(), next > now { return wake(.broadcast, at: next, &effects) }
        // A slice nobody watches has nothing to send: it takes no tick.
        let list = watchList ?? WatchList(peers, ranking: ranking)
        watchList = list
        for slice in 0..<slices where list.watched[slice].isEmpty {
            slicesChanged[slice] = false
            schoolViewsDue[slice] = []
            pagesDue[slice] = []
            pagesHeld[slice] = []
        }
        var chosen: (slice: Int, ready: Instant)?
        for slice in 0..<slices {
            guard let ready = readyAt(slice), ready <= now, chosen.map({ ready < $0.ready }) ?? true else { continue }
            chosen = (slice, ready)
        }
        let roundReady = roundDue && (roundHeldUntil ?? now) <= now
        if chosen != nil || roundReady {
            if let slice = chosen?.slice { sendSlice(slice, now: now, &effects) }
            if roundReady { sendRound(now: now, &effects) }
            lastBroadcast = now
        }
        if let next = nextTick() { wake(.broadcast, at: max(next, now), &effects) }
    }

    /// Protocol 2, one slice: every view of the slice watched is computed once (when a total
    /// changed since the slice was last sent); each connection is sent those of its views there
    /// that changed or are due, the same bytes to every watcher of one view; a page changed within
    /// its watcher's byte budget waits for it (`PageBudget`), a page newly asked for does not.
    private mutating func sendSlice(_ slice: Int, now: Instant, _ effects: inout [Effect]) {
        let list = watchList ?? WatchList(peers, ranking: ranking)
        watchList = list
        let scoresChanged = slicesChanged[slice]
        let (viewsDue, pagesAsked) = (schoolViewsDue[slice], pagesDue[slice])
        slicesChanged[slice] = false
        schoolViewsDue[slice] = []
        pagesDue[slice] = []
        sliceSentAt[slice] = now
        if scoresChanged { effects.append(.measure(.broadcast)) }
        let watched = list.watched[slice]
        guard !watched.isEmpty else { return }
        // With no total changed, only the views due are new; the others are as last computed.
        let changed: Set<BoardViewKey> = scoresChanged || !watched.allSatisfy(ranking.computed)
            ? ranking.refresh(slice: slice, watching: watched, version: boardVersion) : []
        for watch in list.slices[slice] {
            guard watch.isPage else {
                if changed.contains(watch.key) || viewsDue.contains(watch.id), let text = ranking.message(watch.key) {
                    effects.append(.send(.text(text), to: watch.id))
                }
                continue
            }
            let asked = pagesAsked.contains(watch.id)
            guard asked || changed.contains(watch.key) || pagesHeld[slice].contains(watch.id), let text = ranking.message(watch.key) else { continue }
            if !asked, let next = nextPageAt[watch.id], next > now {
                pagesHeld[slice].insert(watch.id)
                continue
            }
            pagesHeld[slice].remove(watch.id)
            let sent = watch.streamsPage ? BoardStream.event("page", json: text) : text
            let budget = watch.streamsPage ? pageBudget.streamBytesPerSecond : pageBudget.playerBytesPerSecond
            // The next no sooner than this one's bytes over the budget (less the interval's
            // jitter: the tick that finds it due runs at an interval's multiple).
            nextPageAt[watch.id] = now + .milliseconds(sent.utf8.count * 1_000 / budget) - Self.broadcastInterval / 2
            effects.append(.send(.text(sent), to: watch.id))
        }
    }

    /// The connection's school's view is due (at its slice's next tick).
    private mutating func schoolViewDue(_ id: ConnectionID, school: String) {
        schoolViewsDue[ranking.key(ofSchool: school).map { ranking.slice(of: $0) } ?? 0].insert(id)
    }

    /// The round changed: its news goes at the next tick.
    private mutating func newRoundNews() {
        roundDue = true
        roundHeldUntil = nil
    }

    /// The connections watching views (`Peer.watchesViews`) by the slice of each view they watch,
    /// in the order they are sent (by connection, a school's view before a page), with the keys
    /// watched in each slice, in the ranking of the catalog served.
    private struct WatchList {
        struct Watch {
            let id: ConnectionID
            let key: BoardViewKey
            /// A page (`Peer.page`), not the connection's school's view.
            let isPage: Bool
            let streamsPage: Bool
        }

        var slices: [[Watch]]
        var watched: [Set<BoardViewKey>]

        init(_ peers: [ConnectionID: Peer], ranking: BoardRanking) {
            slices = Array(repeating: [], count: ranking.slices)
            watched = Array(repeating: [], count: ranking.slices)
            for (id, peer) in peers.sorted(by: { $0.key < $1.key }) where peer.watchesViews {
                if let school = peer.school.flatMap({ ranking.key(ofSchool: $0) }) { add(Watch(id: id, key: school, isPage: false, streamsPage: peer.streamsPage), ranking) }
                if let page = peer.page { add(Watch(id: id, key: page, isPage: true, streamsPage: peer.streamsPage), ranking) }
            }
        }

        private mutating func add(_ watch: Watch, _ ranking: BoardRanking) {
            let slice = ranking.slice(of: watch.key)
            slices[slice].append(watch)
            watched[slice].insert(watch.key)
        }
    }

    // MARK: - The round

    /// Reads the latest round (one read at a time); the next read follows `roundPollInterval`
    /// after this one's answer.
    private mutating func readRound(_ effects: inout [Effect]) {
        guard !readingRound, !closing else { return }
        readingRound = true
        let settled = roundBoard.flatMap { board in
            board.final && wallMs(nil).map { !RoundBoard.readsStandings(board.round, atMs: $0) } == true ? board.round : nil
        }
        effects.append(.readRound(settled: settled))
    }

    private mutating func roundRead(_ result: Result<RoundReading?, BattleStoreError>, now: Instant, _ effects: inout [Effect]) {
        readingRound = false
        if !closing { wake(.round, at: now + Self.roundPollInterval, &effects) }
        // A store that cannot be read now is the commits' news (they fail too); the round waits.
        guard case let .success(reading) = result else { return }
        guard let reading else {
            roundBoard = nil
            return
        }
        wallClock = (now, reading.atMs)
        let board: RoundBoard
        if let counts = reading.counts {
            board = RoundBoard(round: reading.round, counts: counts, readAtMs: reading.atMs)
        } else if let held = roundBoard, held.round == reading.round {
            board = held
        } else {
            return
        }
        if roundBoard.map({ !$0.sameStandings(board) }) ?? true {
            roundBoard = board
            roundBoardVersion += 1
            newRoundNews()
        }
        broadcastWhenDue(now: now, &effects)
    }

    /// The server's clock at `now`, from the last round read (nil before the first).
    private func wallMs(_ now: Instant?) -> Int64? {
        guard let wallClock else { return nil }
        guard let now else { return wallClock.ms }
        let elapsed = (now - wallClock.instant).components
        return wallClock.ms + elapsed.seconds * 1_000 + elapsed.attoseconds / 1_000_000_000_000_000
    }

    /// To each player its round news: the round when it is new to them (with their place), then
    /// their place when it changed, at most every `RoundMessage.placeIntervalMs` (at once when
    /// final); to each page stream the round's event when it changed. A place held back is sent
    /// when its interval is over.
    private mutating func sendRound(now: Instant, _ effects: inout [Effect]) {
        roundDue = false
        roundHeldUntil = nil
        guard let board = roundBoard, let nowMs = wallMs(now), board.isShown(atMs: nowMs) else { return }
        var event: String?
        var heldBack: Instant?
        let version = roundBoardVersion
        for id in peers.keys.sorted() {
            let peer = peers[id]!
            if peer.streamsPage {
                guard peer.roundEventTold != version else { continue }
                if event == nil { event = board.liveEvent(nowMs: nowMs) }
                effects.append(.send(.text(event!), to: id))
                peers[id]?.roundEventTold = version
                continue
            }
            guard let device = peer.device else { continue }
            if peer.roundTold != board.round {
                effects.append(.send(.text(MessageCoding.encode(.round(board.message(for: device, nowMs: nowMs)))), to: id))
                peers[id]?.roundTold = board.round
                peers[id]?.placeTold = board.place(of: device)
                peers[id]?.placeToldAt = now
                continue
            }
            let place = board.place(of: device)
            guard place != peer.placeTold else { continue }
            let due = (peer.placeToldAt ?? now) + .milliseconds(RoundMessage.placeIntervalMs)
            guard place.final || due <= now else {
                heldBack = min(heldBack ?? due, due)
                continue
            }
            effects.append(.send(.text(MessageCoding.encodeRoundPlace(place)), to: id))
            peers[id]?.placeTold = place
            peers[id]?.placeToldAt = now
        }
        if let heldBack {
            roundDue = true
            roundHeldUntil = max(heldBack, now + Self.broadcastInterval)
        }
    }

    /// Asks the store for other servers' saves (one poll at a time), counting its devices again
    /// every `deviceCountInterval`.
    private mutating func poll(now: Instant, _ effects: inout [Effect]) {
        guard !closing, !polling else { return }
        polling = true
        effects.append(.poll(since: polledVersion, countDevices: now - devicesCountedAt >= Self.deviceCountInterval))
    }

    // MARK: - Alarms and the store's health

    private mutating func wake(_ alarm: Alarm, at instant: Instant, _ effects: inout [Effect]) {
        guard alarms[alarm] != instant else { return }
        alarms[alarm] = instant
        effects.append(.wake(alarm, at: instant))
    }

    private mutating func noteSaveFailure(_ error: BattleStoreError, _ effects: inout [Effect]) {
        effects.append(.measure(.commitFailed))
        effects.append(.measure(.storeAvailable(false)))
        if lastSaveError == nil { effects.append(.log(.error, "Cannot save the scores; will try again", metadata: ["error": "\(error)"])) }
        lastSaveError = error.message
    }

    private mutating func noteSaveWorks(_ effects: inout [Effect]) {
        if lastSaveError != nil { effects.append(.log(.notice, "Saving works again")) }
        lastSaveError = nil
        effects.append(.measure(.storeAvailable(true)))
    }
}
