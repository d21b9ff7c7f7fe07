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
/// State, each part a value of its own with its rules:
/// - the connections (`HallConnections`): players (bound to a device by their welcome) and board
///   streams, each one's hello, page, page budget and round told in one `Connection`;
/// - the commit window (`CommitWindow`): the batches waiting, the one commit under way, when the
///   last started, when a failed one may be tried again;
/// - the board: every school's total as last saved with the version it was read at, ranked for
///   the views; when the views go out (`ViewSchedule`: the slices, what each has to send, the
///   ticks); the round and what of it is still to be told (`RoundNews`); the map's grid, its
///   cells' glow and what of it is still to be told (`MapNews`);
/// - the devices the store holds (for `maximumDevices`), the store's health
///   (`lastSaveError`), the catalog served, the devices' judges (`histories`);
/// - the alarms asked for, and whether the battle is closing, stopped taking batches, finished.
///
/// Events: the server starts; a connection or board stream opens or closes; a hello; a batch; a
/// screen shows the map or no longer;
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
/// coming (`ViewSchedule.nextTick`); on shutdown what arrived is saved (three tries) and
/// acknowledged before every connection is told "going away" and closed.
struct BattleHall: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// How long the commit window gathers batches before saving them together.
    static let commitWindow: Duration = .milliseconds(50)
    /// A save is started early when this many batches are waiting.
    static let commitBatchLimit = 2_000
    /// The least time between two broadcasts of the views: four a second, the bare stack's
    /// cadence. A tap reaches the other players within the commit window, the save and at most
    /// this (under load 225 ms: the ticks follow the commits, `ViewSchedule.nextTick`). Every view changes
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
        /// Protocol 2: the page of a league the connection's screen shows (nil: none), and the
        /// numbers its view and page rank by.
        case watch(ConnectionID, BoardViewKey?, period: RankingPeriod = .season)
        /// Whether the connection's screen shows the map (`MapNews`).
        case showMap(ConnectionID, Bool)
        /// A board stream of one page (`GET /v1/board?from=…`) the shell opened with this id.
        case streamPage(ConnectionID, BoardViewKey, period: RankingPeriod = .season)
        case batch(ReceivedBatch)
        /// The answer to `.readDevice`.
        case deviceRead(ConnectionID, device: String, Result<(DeviceRecord, PlayerRecord)?, BattleStoreError>)
        /// The answer to `.commit`.
        case committed(Result<CommittedWindow, BattleStoreError>)
        /// The latest round as the store holds it (nil: none was ever started).
        case roundRead(Result<RoundReading?, BattleStoreError>)
        /// A round was started or stopped through this server: read it now.
        case roundChanged
        /// The answer to `.poll`: the devices counted (when asked and read), the changes, and the
        /// season running when it read them.
        case polled(devices: Int?, Result<StoredBoard?, BattleStoreError>, season: SeasonBoard.Reading = .unchanged)
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
        case commit, broadcast, poll, catalog, round, map
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
        /// Counts the devices (when asked), reads the changes after `since` and the season running,
        /// all of its totals when it is not `season` (the hall's); answered by `.polled`.
        case poll(since: UInt64, countDevices: Bool, season: Season?)
        case readCatalog(current: CatalogResource)
        /// Read the latest round, and its standings unless it is `settled` (final, held, and
        /// past `PlacedRound.readsStandings`).
        case readRound(settled: Round?)
        /// The round as last read, for `GET /v1/rounds/ID` (`RoundAnswers`): readers take it
        /// without a turn of the hall.
        case publishRound(PlacedRound?, version: UInt64)
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

    // MARK: - State

    let battleID: String
    /// No new device is welcomed once the store holds this many (`ServerConfiguration`).
    let maximumDevices: Int
    /// The catalog served; replaced by `.catalogRead`.
    private(set) var catalog: CatalogResource
    private(set) var histories: TapJudges

    private(set) var connections = HallConnections()
    private(set) var commits = CommitWindow()
    /// Every school's total as last saved (here or by another server on the same store).
    private(set) var scores: [String: UInt64]
    /// The board version each total was read at: an older reading never overwrites a newer one
    /// (a poll and a commit of this server may finish in either order).
    private(set) var scoreVersions: [String: UInt64] = [:]
    private(set) var boardVersion: UInt64
    /// Every change up to this version has been read from the store.
    private(set) var polledVersion: UInt64
    /// The board ranked for protocol 2's views.
    private(set) var ranking: BoardRanking
    /// The season running and its totals: the views of the season rank by them (`ranking.season`).
    private(set) var season: SeasonBoard
    /// The views' slices and ticks (`broadcastSlices`; the tests of one view at a time use 1).
    private(set) var schedule: ViewSchedule
    var pageBudget = PageBudget.standard
    /// Whether the store keeps rounds: the hall reads the latest every `roundPollInterval`.
    let readsRounds: Bool
    private(set) var round = RoundNews()
    /// The map's grid and glow, and what of it is still to be told.
    private(set) var map = MapNews()

    /// Devices the store holds: read at start, grown by each save's new devices, read again
    /// every `deviceCountInterval` (other servers on the same store add theirs).
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
    private(set) var finished = false

    init(battleID: String, catalog: CatalogResource, board: StoredBoard, histories: TapJudges,
         devicesStored: Int = 0, maximumDevices: Int = .max, readsRounds: Bool = false,
         slices: Int = BattleHall.broadcastSlices, now: Instant) {
        self.battleID = battleID
        schedule = ViewSchedule(slices: slices, now: now)
        self.readsRounds = readsRounds
        self.catalog = catalog
        self.histories = histories
        self.devicesStored = devicesStored
        self.maximumDevices = maximumDevices
        scores = board.scores
        season = SeasonBoard(board.season, version: board.version)
        ranking = BoardRanking(catalog: catalog.catalog, scores: board.scores, season: season.season == nil ? nil : season.scores,
                               slices: schedule.count)
        boardVersion = board.version
        polledVersion = board.version
        devicesCountedAt = now
    }

    // MARK: - Reads

    /// The board as saved, for `GET /v1/scores`: the season's totals while one runs, unless all
    /// time is asked for; with the season they are (nil: all time).
    func board(_ period: RankingPeriod) -> (Board, Season?) {
        if period == .season, let running = season.season {
            return (Board(version: boardVersion, scores: season.scores.filter { $0.value > 0 }), running)
        }
        return (Board(version: boardVersion, scores: scores.filter { $0.value > 0 }), nil)
    }

    /// A view as its watchers are sent it, computed now, with the season its numbers are of (nil:
    /// all time); nil for a school the catalog lacks.
    func view(_ key: BoardViewKey, period: RankingPeriod = .season) -> (String, Season?)? {
        if case let .school(position) = key, position >= ranking.catalog.count { return nil }
        let watched = ranking.watched(key, period)
        return (ranking.messageNow(watched, version: boardVersion), watched.period == .season ? season.season : nil)
    }

    /// The key of a school's view by its id, in the catalog served now.
    func viewKey(ofSchool id: String) -> BoardViewKey? { ranking.key(ofSchool: id) }

    // MARK: - Update

    /// One event: its handler changes the state; then, whatever the event, a commit due starts (or
    /// a shutdown saves and finishes) and the next tick of the views is decided. Only a batch
    /// leaves the tick as it was: it can only make the tick later (a commit comes), and the alarm
    /// asked for looks again when it fires; so a tap costs no pass over the views' slices.
    mutating func update(_ event: Event, now: Instant) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case .start:
            wake(.poll, at: now + Self.pollInterval, &effects)
            wake(.catalog, at: now + Self.catalogCheckInterval, &effects)
            if readsRounds { readRound(&effects) }
        case let .connect(id):
            guard !closing else { effects.append(.finish(id)); break }
            connections.add(id, Connection(kind: .player))
        case let .disconnect(id):
            remove(id, &effects)
        case let .streamPage(id, key, period):
            guard !closing else { effects.append(.finish(id)); break }
            connections.add(id, Connection(kind: .pageStream, page: key, period: period))
            // The stream says first which numbers its pages carry.
            tellSeason(id, &effects)
            schedule.pageDue(id, slice: ranking.slice(of: key))
            if round.placed != nil { round.announce() }
        case let .hello(id, device):
            guard !closing, connections[id] != nil else { effects.append(.answerHello(id, .refused(Self.goingAway))); break }
            connections.setHello(id, .waiting(device: device))
            if !commits.holds(device: device) { read(id, device: device, &effects) }
        case let .deviceRead(id, device, result):
            deviceRead(id, device: device, result, now: now, &effects)
        case let .watch(id, key, period):
            guard let connection = connections[id], connection.watchesViews else { break }
            // A player's screen shows a page, the map or neither, never both: the map takes the
            // page's budget. A watch says the screen shows no map.
            if connection.showsMap, !connection.streamsPage { connections.setShowsMap(id, false) }
            if connection.period != period {
                connections.setPeriod(id, period)
                // Its view and page by the other numbers, at their slices' next ticks.
                if let school = connection.school { schoolViewDue(id, school: school) }
                if let page = key ?? connection.page { schedule.pageDue(id, slice: ranking.slice(of: page)) }
            }
            guard connection.page != key else { break }
            connections.setPage(id, key)
            schedule.releasePages(of: id)
            if let key { schedule.pageDue(id, slice: ranking.slice(of: key)) }
        case let .showMap(id, shows):
            showMap(id, shows, now: now, &effects)
        case let .batch(batch):
            // A connection being closed (a batch out of order, replaced by a newer connection of
            // its device) has no device any more: what it still sends is not applied.
            if !stopped, connections[batch.connection]?.device == batch.device { commits.add(batch, now: now) }
            proceed(now: now, &effects)
            return effects
        case let .committed(result):
            committed(result, now: now, &effects)
        case let .roundRead(result):
            round.read(result, now: now)
            effects.append(.publishRound(round.placed, version: round.version))
            if !closing { wake(.round, at: now + Self.roundPollInterval, &effects) }
        case .roundChanged:
            if readsRounds { readRound(&effects) }
        case let .polled(devices, result, reading):
            polled(devices: devices, result, season: reading, now: now, &effects)
        case let .boardHint(version):
            // Unless this server's own commit brought the board there already.
            if let version, version <= boardVersion { break }
            poll(now: now, &effects)
        case let .catalogRead(result):
            catalogRead(result, &effects)
        case let .banned(outcome):
            if let board = outcome.board { take(board, now: now, &effects) }
        case let .alarm(alarm):
            // A replaced alarm that fired anyway is not the one asked for: the other comes.
            guard let at = alarms[alarm], at <= now else { break }
            alarms[alarm] = nil
            switch alarm {
            case .commit, .broadcast:
                // What comes next whatever the event does it (`proceed`, `broadcastWhenDue`).
                break
            case .poll:
                guard !closing else { break }
                wake(.poll, at: now + Self.pollInterval, &effects)
                poll(now: now, &effects)
            case .round:
                guard !closing else { break }
                readRound(&effects)
            case .map:
                sendMap(now: now, &effects)
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
            for id in connections.helloing.sorted() { answer(id, .refused(Self.goingAway), &effects) }
        }
        // The next commit starts before the views are computed and sent: its batches have
        // waited their window already, and under load the views of thousands of players would
        // hold it back by as long as they take.
        proceed(now: now, &effects)
        broadcastWhenDue(now: now, &effects)
        return effects
    }

    // MARK: - Connections and hellos

    private mutating func remove(_ id: ConnectionID, _ effects: inout [Effect]) {
        if connections[id]?.hello != nil { answer(id, .refused(Self.goingAway), &effects) }
        guard connections.remove(id) != nil else { return }
        schedule.forget(id)
        effects.append(.finish(id))
    }

    private mutating func answer(_ id: ConnectionID, _ outcome: HelloOutcome, _ effects: inout [Effect]) {
        connections.setHello(id, nil)
        effects.append(.answerHello(id, outcome))
    }

    private mutating func read(_ id: ConnectionID, device: String, _ effects: inout [Effect]) {
        connections.setHello(id, .reading(device: device))
        effects.append(.readDevice(id, device: device, after: .zero))
    }

    /// After a commit (saved or not), the hellos whose device has no batch waiting or being saved
    /// any more read its row. (Only a commit's end frees a device: a batch only adds to the wait.)
    private mutating func readHellosNoLongerWaiting(_ effects: inout [Effect]) {
        guard !closing, !connections.helloing.isEmpty else { return }
        let waitingDevices = Set(commits.pending.map(\.device))
        for id in connections.helloing.sorted() {
            guard case let .waiting(device) = connections[id]?.hello, !waitingDevices.contains(device) else { continue }
            read(id, device: device, &effects)
        }
    }

    /// The device as the store has it (another server may have applied its batches): while the
    /// store cannot be read, the hello waits and the connection stays.
    private mutating func deviceRead(_ id: ConnectionID, device: String, _ result: Result<(DeviceRecord, PlayerRecord)?, BattleStoreError>,
                                     now: Instant, _ effects: inout [Effect]) {
        guard let connection = connections[id], connection.hello == .reading(device: device) else { return }
        guard !closing else { return answer(id, .refused(Self.goingAway), &effects) }
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
        if let other = connections.connectionOfDevice[device], other != id {
            effects.append(.send(.close(code: CloseCode.normal, reason: "this device connected again"), to: other))
        }
        let player = CommitRules.playerState(known?.1)
        // The view follows the welcome at its slice's next tick.
        connections.bind(id, device: device, school: player.schoolID)
        if let school = player.schoolID { schoolViewDue(id, school: school) }
        let welcome = MessageCoding.encode(.welcome(Welcome(battle: battleID, lastSeq: known?.0.lastSeq ?? 0, player: player,
                                                            catalog: catalog.etag)))
        // The round follows the welcome in the same answer: a message sent through the queue now
        // would reach the queue before the welcome does.
        var then: [String] = []
        // Which numbers its views carry, before the first.
        if let running = season.season {
            then.append(SeasonBoard.message(running))
            connections.toldSeason(id, running)
        }
        if let told = round.welcome(device, now: now) {
            then.append(told.message)
            connections.toldRound(id, told.round, place: told.place, at: now)
        }
        answer(id, .welcome(welcome, then: then), &effects)
    }

    // MARK: - Commits

    /// What comes next whatever the event: a commit due starts (or an alarm is asked for its
    /// time); a shutdown saves and acknowledges what arrived (later batches wait for the next
    /// server), then finishes.
    private mutating func proceed(now: Instant, _ effects: inout [Effect]) {
        guard !finished, !commits.isCommitting else { return }
        if closing { stopped = true }
        guard let due = commits.due(now: now, final: closing) else {
            if closing { finish(now: now, &effects) }
            return
        }
        if due > now { return wake(.commit, at: due, &effects) }
        let batches = commits.start(now: now, final: closing)
        effects.append(.commit(batches, histories: histories.judging(batches), catalog: catalog.catalog))
    }

    private mutating func committed(_ result: Result<CommittedWindow, BattleStoreError>, now: Instant, _ effects: inout [Effect]) {
        switch result {
        case let .failure(error):
            guard commits.failed(now: now) else { return }
            noteSaveFailure(error, &effects)
        case let .success(window):
            guard let batches = commits.saved() else { return }
            let result = window.rules
            effects.append(.measure(.committed))
            noteSaveWorks(&effects)
            for note in window.notes { effects.append(.log(.warning, "The saved scores were repaired", metadata: ["problem": "\(note)"])) }
            take(window.board, now: now, &effects)
            histories.update(with: window.histories)
            devicesStored += result.newDevices
            var acknowledged = 0
            for (received, outcome) in zip(batches, result.outcomes) {
                let id = received.connection
                switch outcome {
                case let .acknowledged(ack):
                    acknowledged += 1
                    if ack.accepted == 0 && ack.refused == 0 && received.batch.totalTaps > 0 { effects.append(.measure(.duplicateBatch)) }
                    effects.append(.send(.text(MessageCoding.encodeAck(ack)), to: id))
                    // A player who switched school watches the new school's view from now.
                    if let connection = connections[id], connection.watchesViews, connection.school != ack.player.schoolID {
                        connections.setSchool(id, ack.player.schoolID)
                        if let school = ack.player.schoolID { schoolViewDue(id, school: school) }
                    }
                case let .outOfOrder(expected):
                    guard connections[id] != nil else { continue }
                    effects.append(.measure(.protocolError))
                    let message = "batch \(received.batch.seq) out of order: expected \(expected)"
                    effects.append(.send(.text(MessageCoding.encode(.error(ProtocolError(code: CloseCode.policyViolation, message: message)))),
                                         to: id))
                    effects.append(.send(.close(code: CloseCode.policyViolation, reason: "batch out of order"), to: id))
                    connections.unbind(id)
                    // What the connection sent after the gap and is waiting for the next save is
                    // not applied either: the connection was told it is closed.
                    commits.drop(connection: id)
                }
            }
            effects.append(.measure(.batches(acknowledged)))
            effects.append(.measure(.taps(accepted: result.accepted, refused: result.refused)))
        }
        readHellosNoLongerWaiting(&effects)
    }

    /// The end of a shutdown: the last changes, then every connection told and closed.
    private mutating func finish(now: Instant, _ effects: inout [Effect]) {
        for slice in 0..<schedule.count where schedule.readyAt(slice, connections) != nil { sendSlice(slice, now: now, &effects) }
        if round.due { round.send(now: now, to: &connections, &effects) }
        for (id, connection) in connections.byID.sorted(by: { $0.key < $1.key }) {
            if !connection.streamsPage { effects.append(.send(.text(MessageCoding.encode(.error(Self.goingAway))), to: id)) }
            effects.append(.send(.close(code: CloseCode.goingAway, reason: "going away"), to: id))
        }
        for id in connections.helloing.sorted() { answer(id, .refused(Self.goingAway), &effects) }
        finished = true
        effects.append(.stop)
    }

    // MARK: - The board

    /// New totals saved here or by another server, read at `changes.version`: the board and the
    /// next broadcast take them. A total read at an older version than the one held is skipped.
    private mutating func take(_ changes: StoredBoard, now: Instant, _ effects: inout [Effect]) {
        var changed: [String] = []
        var wentDown = false
        for (id, total) in changes.scores where (scoreVersions[id] ?? 0) <= changes.version {
            scoreVersions[id] = changes.version
            guard scores[id] != total else { continue }
            if total < scores[id] ?? 0 { wentDown = true }
            if map.awake, total > scores[id] ?? 0, let position = ranking.catalog.position(ofID: id) {
                map.tapped(position: position, total - (scores[id] ?? 0))
            }
            scores[id] = total
            changed.append(id)
        }
        if !changed.isEmpty { schedule.totalsChanged(now: now) }
        // Taps taken off (a ban's removal, a reset, on this server or another) show on every page
        // at the next interval, whatever its budget (the operator's promise: within a second).
        // Rare: taps only ever add otherwise.
        if wentDown {
            for (id, connection) in connections.byID { if let page = connection.page { schedule.pageDue(id, slice: ranking.slice(of: page)) } }
        }
        ranking.take(changed: changed, scores: scores)
        if let totals = changes.season { takeSeason(totals, version: changes.version, now: now, &effects) }
        if changes.version > boardVersion { boardVersion = changes.version }
    }

    /// The season's totals read at `version`: the season's views take them, or the season turned.
    private mutating func takeSeason(_ totals: SeasonTotals, version: UInt64, now: Instant, _ effects: inout [Effect]) {
        switch season.take(totals, version: version) {
        case let .changed(ids):
            guard !ids.isEmpty else { return }
            ranking.takeSeason(changed: ids, scores: season.scores)
            schedule.totalsChanged(now: now)
        case .turned:
            seasonTurned(now: now, &effects)
        }
    }

    /// Another season runs (or none does any more): every connection is told, and the views of the
    /// season, computed anew, go out at their slices' next ticks (a new week starts every school at
    /// 0); a page of the season is due then whatever its budget, so that the screen shows the new
    /// season's rows with its name, not a page budget later. All time's are as they were.
    private mutating func seasonTurned(now: Instant, _ effects: inout [Effect]) {
        ranking.startSeason(season.season == nil ? nil : season.scores)
        // With a season begun or ended, a connection's period names other views.
        connections.rankingChanged()
        schedule.totalsChanged(now: now)
        effects.append(.log(.info, season.season.map { "A new season counts: \($0.id)" } ?? "No season counts any more"))
        for (id, connection) in connections.byID where connection.watchesViews {
            tellSeason(id, &effects)
            if connection.period == .season, let page = connection.page { schedule.pageDue(id, slice: ranking.slice(of: page)) }
        }
    }

    /// Tells the connection the season its views are of, unless it was told that one (a connection
    /// never told a season is not told that none runs: the battle never had one for it).
    private mutating func tellSeason(_ id: ConnectionID, _ effects: inout [Effect]) {
        guard let connection = connections[id], connection.seasonTold != .some(season.season),
              season.season != nil || connection.seasonTold != nil else { return }
        connections.toldSeason(id, season.season)
        effects.append(.send(.text(connection.streamsPage ? SeasonBoard.event(season.season) : SeasonBoard.message(season.season)),
                             to: id))
    }

    private mutating func polled(devices: Int?, _ result: Result<StoredBoard?, BattleStoreError>, season reading: SeasonBoard.Reading,
                                 now: Instant, _ effects: inout [Effect]) {
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
            if !commits.commitComing { noteSaveWorks(&effects) }
            switch reading {
            case .unchanged:
                break
            case .none:
                if season.end() { seasonTurned(now: now, &effects) }
            case let .turned(totals):
                // Read after the changes: as new as they are.
                takeSeason(totals, version: max(polledVersion, changes?.version ?? 0), now: now, &effects)
            }
            guard let changes else { return }
            effects.append(.measure(.boardPoll))
            polledVersion = max(polledVersion, changes.version)
            take(changes, now: now, &effects)
        }
    }

    private mutating func catalogRead(_ result: Result<CatalogResource?, BattleStoreError>, _ effects: inout [Effect]) {
        readingCatalog = false
        switch result {
        case let .success(resource?):
            effects.append(.log(.info, "Serving a new catalog",
                                metadata: ["source": resource.path, "schools": "\(resource.catalog.count)", "etag": resource.etag]))
            catalog = resource
            // Positions change with the catalog: every view is computed and sent again.
            ranking = BoardRanking(catalog: resource.catalog, scores: scores, season: season.season == nil ? nil : season.scores,
                                   slices: schedule.count)
            connections.rankingChanged()
            // A school's slice changes with its position.
            schedule.forgetSchoolViewsDue()
            map.forget()
            if !connections.mapWatchers.isEmpty {
                map.prepare(resource.catalog, etag: resource.etag)
                map.wake()
            }
            for id in connections.mapWatchers { connections.mapToldNothing(id) }
            for (id, connection) in connections.byID where connection.watchesViews {
                if let school = connection.school { schoolViewDue(id, school: school) }
                if let page = connection.page { schedule.pageDue(id, slice: ranking.slice(of: page)) }
            }
        case .success(nil):
            break
        case let .failure(error):
            effects.append(.log(.warning, "Cannot read the new catalog; keeping the one served", metadata: ["error": "\(error)"]))
        }
    }

    /// Asks the store for other servers' saves (one poll at a time), counting its devices again
    /// every `deviceCountInterval`.
    private mutating func poll(now: Instant, _ effects: inout [Effect]) {
        guard !closing, !polling else { return }
        polling = true
        effects.append(.poll(since: polledVersion, countDevices: now - devicesCountedAt >= Self.deviceCountInterval, season: season.season))
    }

    // MARK: - The views

    /// Sends the next slice (or the round's news) now when it is ready and the last tick is a
    /// tick old, else asks to be woken when it will be.
    private mutating func broadcastWhenDue(now: Instant, _ effects: inout [Effect]) {
        guard !finished, let due = nextTick() else { return }
        if due > now { return wake(.broadcast, at: due, &effects) }
        broadcast(now: now, &effects)
    }

    private func nextTick() -> Instant? {
        schedule.nextTick(roundAt: round.readyAt(lastTick: schedule.lastBroadcast), commitComing: commits.commitComing, connections)
    }

    /// One tick: the slice ready the longest, and the round's news when ready; then the next
    /// tick asked for.
    private mutating func broadcast(now: Instant, _ effects: inout [Effect]) {
        schedule.clearUnwatched(connections.watchers(in: ranking))
        let slice = schedule.sliceReady(now: now, connections)
        let roundReady = round.ready(now: now)
        if slice != nil || roundReady {
            if let slice { sendSlice(slice, now: now, &effects) }
            if roundReady { round.send(now: now, to: &connections, &effects) }
            schedule.ticked(now: now)
        }
        if let next = nextTick() { wake(.broadcast, at: max(next, now), &effects) }
    }

    /// Protocol 2, one slice: every view of the slice watched is computed once (when a total
    /// changed since the slice was last sent); each connection is sent those of its views there
    /// that changed or are due, the same bytes to every watcher of one view; a page changed within
    /// its watcher's byte budget waits for it (`PageBudget`), a page newly asked for does not.
    private mutating func sendSlice(_ slice: Int, now: Instant, _ effects: inout [Effect]) {
        let list = connections.watchers(in: ranking)
        let (scoresChanged, viewsDue, pagesAsked) = schedule.send(slice, now: now)
        if scoresChanged { effects.append(.measure(.broadcast)) }
        let watched = list.watched[slice]
        guard !watched.isEmpty else { return }
        // With no total changed, only the views due are new; the others are as last computed.
        let changed: Set<WatchedView> = scoresChanged || !watched.allSatisfy(ranking.computed)
            ? ranking.refresh(slice: slice, watching: watched, version: boardVersion) : []
        for watch in list.slices[slice] {
            guard watch.isPage else {
                if changed.contains(watch.view) || viewsDue.contains(watch.id), let text = ranking.message(watch.view) {
                    effects.append(.send(.text(text), to: watch.id))
                }
                continue
            }
            let asked = pagesAsked.contains(watch.id)
            let held = schedule.slices[slice].pagesHeld.contains(watch.id)
            guard asked || changed.contains(watch.view) || held, let text = ranking.message(watch.view) else { continue }
            if !asked, let next = connections[watch.id]?.nextPageAt, next > now {
                schedule.hold(watch.id, slice: slice)
                continue
            }
            schedule.release(watch.id, slice: slice)
            let sent = watch.streamsPage ? BoardStream.event("page", json: text) : text
            // A stream showing the map leaves the map its part of its budget.
            let budget = watch.streamsPage
                ? pageBudget.streamBytesPerSecond - (connections[watch.id]?.showsMap == true ? MapNews.streamBytesPerSecond : 0)
                : pageBudget.playerBytesPerSecond
            // The next no sooner than this one's bytes over the budget (less the interval's
            // jitter: the tick that finds it due runs at an interval's multiple).
            connections.setNextPageAt(watch.id, now + .milliseconds(sent.utf8.count * 1_000 / budget) - Self.broadcastInterval / 2)
            effects.append(.send(.text(sent), to: watch.id))
        }
    }

    /// The connection's school's view is due (at its slice's next tick).
    private mutating func schoolViewDue(_ id: ConnectionID, school: String) {
        schedule.schoolViewDue(id, slice: ranking.key(ofSchool: school).map { ranking.slice(of: $0) } ?? 0)
    }

    // MARK: - The map

    /// `GET /v1/map`'s answer: the grid of the catalog served, made now if no screen made it.
    mutating func mapGrid() -> String {
        map.prepare(catalog.catalog, etag: catalog.etag)
        return map.json()!
    }

    /// A screen shows the map from now (its ticks begin), or no longer. A player's page stops:
    /// the map takes its place.
    private mutating func showMap(_ id: ConnectionID, _ shows: Bool, now: Instant, _ effects: inout [Effect]) {
        guard let connection = connections[id], connection.watchesViews, connection.showsMap != shows else { return }
        connections.setShowsMap(id, shows)
        guard shows else { return }
        map.prepare(catalog.catalog, etag: catalog.etag)
        map.wake()
        if !connection.streamsPage, connection.page != nil {
            connections.setPage(id, nil)
            schedule.releasePages(of: id)
        }
        if alarms[.map] == nil { wake(.map, at: now + MapNews.interval, &effects) }
    }

    /// A tick of the map: the window moves on, and every screen showing it is sent the changes
    /// for everyone and its own sweep and marks; the next tick while a screen shows it, or until
    /// the map sleeps without one (`MapNews.unwatchedTick`).
    private mutating func sendMap(now: Instant, _ effects: inout [Effect]) {
        guard !closing, map.awake, let grid = map.grid else { return }
        map.advance()
        if connections.mapWatchers.isEmpty {
            if !map.unwatchedTick() { wake(.map, at: now + MapNews.interval, &effects) }
            return
        }
        let changes = map.takeChanges()
        // The leaders marked are those of the numbers the screen ranks by.
        var leaders: [WatchedView: [Int]] = [:]
        for id in connections.mapWatchers.sorted() {
            guard let connection = connections[id] else { continue }
            var league = League.national
            if connection.streamsPage, case let .page(watched, _)? = connection.page { league = watched }
            let top = ranking.watched(.page(league, places: 0..<3), connection.period)
            let marks = leaders[top] ?? {
                let cells = ranking.board(top.period).entries(in: league, places: 0..<3).filter { $0.count > 0 }
                    .compactMap { grid.cell(of: $0.position) }
                leaders[top] = cells
                return cells
            }()
            let mine = connection.school.flatMap { ranking.catalog.position(ofID: $0) }.flatMap { grid.cell(of: $0) }
            let told = connection.mapCatalogTold == map.catalog
            let (text, sweep) = map.message(changes: changes, sweep: told ? connection.mapSweep : 0, told: told, marks: marks, mine: mine)
            effects.append(.send(.text(connection.streamsPage ? BoardStream.event("map", json: text) : text), to: id))
            connections.toldMap(id, sweep: sweep, catalog: map.catalog)
        }
        wake(.map, at: now + MapNews.interval, &effects)
    }

    // MARK: - The round

    /// Reads the latest round (one read at a time); the next read follows `roundPollInterval`
    /// after this one's answer.
    private mutating func readRound(_ effects: inout [Effect]) {
        guard !closing else { return }
        let (settled, begun) = round.beginRead()
        if begun { effects.append(.readRound(settled: settled)) }
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
