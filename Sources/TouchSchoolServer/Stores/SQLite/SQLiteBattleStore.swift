import Dispatch
import Synchronization
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolStore

/// The battle of one server in its data directory's `battle.sqlite` (`BattleDatabase`), the
/// catalog from the directory (`DataDirectoryCatalog`), the identity in `battle.id`.
///
/// A commit window is one SQLite transaction (`CommitTransaction`): the rows of the devices in
/// it read, the plan's changed devices and tallies appended to `device_changes` (one row per
/// device; compacted into the device tables a slice per commit once it holds
/// `BattleDatabase.compactionRows` rows), the
/// totals' increments written with the board's version: nothing else. It returns once the
/// transaction is durable (WAL, `synchronous=FULL`).
/// The database is used on one serial queue, off the cooperative threads: a commit waits for
/// its fsync there.
final class SQLiteBattleStore: BattleStore {
    let directory: String
    let catalogs: DataDirectoryCatalog
    let identity: String
    /// What the first start moved in from `state.json`, for the log.
    let moved: BattleDatabase.Move?
    private let database: Mutex<BattleDatabase>
    private let queue = DispatchQueue(label: "touchschool.sqlite")
    /// Totals this store changed outside a commit (scores under starter ids moved to their
    /// official ids when an import is taken up), told at the next commit or `changes(since:)`,
    /// whichever comes first.
    private let untold = Mutex<StoredBoard?>(nil)
    /// The season's length as stored (nil: not read yet; only this store sets it) and the last
    /// season whose hall this store knows taken: a poll (`takeHallOfFame`) reads nothing between.
    private let seasons = Mutex<(length: SeasonLength?, hallTaken: Season?)>((nil, nil))

    var name: String { "the battle database \(BattleDatabase.path(inDataDirectory: directory))" }

    /// Opens the directory's database, made at the first start with `state.json` moved in.
    /// `compactionRows`: how many rows `device_changes` may hold before a commit compacts it
    /// (nil: `BattleDatabase`'s own; the tests compact every few rows).
    init(dataDirectory: String, starterCatalogPath: String?, compactionRows: Int? = nil) throws(StoreError) {
        directory = dataDirectory
        catalogs = DataDirectoryCatalog(directory: dataDirectory, starterCatalogPath: starterCatalogPath)
        // The database first: an identity is only ever beside a database that was made.
        let battle = try BattleIdentityFile.load(path: BattleIdentityFile.path(inDataDirectory: dataDirectory))
        let (database, moved) = try BattleDatabase.openForServer(dataDirectory: dataDirectory, battle: battle)
        if let compactionRows { database.compactionRows = compactionRows }
        if let battle { identity = battle } else { identity = try BattleIdentityFile.loadOrCreate(dataDirectory: dataDirectory) }
        self.database = Mutex(database)
        self.moved = moved
    }

    /// Runs `body` on the store's queue with the database.
    private func run<T: Sendable>(_ body: @escaping @Sendable (BattleDatabase) throws(StoreError) -> T) async throws(BattleStoreError) -> T {
        let outcome: Result<T, StoreError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: self.database.withLock { database in
                    do throws(StoreError) { return .success(try body(database)) } catch { return .failure(error) }
                })
            }
        }
        switch outcome {
        case let .success(value): return value
        case let .failure(error): throw BattleStoreError(message: error.message)
        }
    }

    func battleID() async -> String { identity }

    func board() async throws(BattleStoreError) -> StoredBoard {
        try await run { database throws(StoreError) in
            let board = try database.board()
            return StoredBoard(version: board.version, scores: board.scores)
        }
    }

    func device(_ device: String) async throws(BattleStoreError) -> (DeviceRecord, PlayerRecord)? {
        try await run { database throws(StoreError) in try database.device(device) }
    }

    func commit(_ batches: [ReceivedBatch], histories: TapJudges, catalog: Catalog,
                nowMs: Int64) async throws(BattleStoreError) -> CommittedWindow {
        var window = try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in
                var rows = CommitTransaction.Rows()
                for device in CommitTransaction.devices(of: batches) {
                    if let (activity, isBanned) = try write.activity(device: device) {
                        rows.activities[device] = activity
                        if isBanned { rows.banned.insert(device) }
                    }
                    guard let (record, player) = try write.device(device) else { continue }
                    rows.devices[device] = record
                    rows.players[device] = player
                }
                var limit = CommitTransaction.roundsFirstRead
                while true {
                    if let open = CommitTransaction.roundsTakingBatches(newestFirst: try write.rounds(limit: limit), limit: limit, atMs: nowMs) {
                        rows.rounds = open
                        break
                    }
                    limit *= 4
                }
                rows.seasonLength = try write.seasonLength()
                let plan = CommitTransaction.plan(batches, rows: rows, histories: histories, catalog: catalog, nowMs: nowMs)
                var changes: [String: ChangedDevice] = [:]
                for row in plan.devices {
                    changes[row.device, default: ChangedDevice()].record = row.record
                    changes[row.device]?.player = row.player
                }
                for tally in plan.activities {
                    changes[tally.device, default: ChangedDevice()].publicID = tally.publicID
                    changes[tally.device]?.activity = tally.activity
                    changes[tally.device]?.added = tally.addedBySchool
                }
                // A window of repeats writes nothing, a compaction neither.
                if !changes.isEmpty { try write.compactIfDue(appending: changes.count) }
                for (device, change) in changes.sorted(by: { $0.key < $1.key }) { try write.appendChange(device: device, change) }
                for count in plan.rounds {
                    try write.addToRound(count.round, RoundPlayerCount(device: count.device, publicID: count.publicID, player: count.player,
                                                                        school: count.school, bySchool: count.bySchool,
                                                                        reachedMs: count.reachedMs))
                }
                for season in plan.seasons { try write.addToSeason(season.season, device: season.device, bySchool: season.bySchool) }
                for (season, increments) in plan.seasonIncrements.sorted(by: { $0.key.number < $1.key.number }) {
                    try write.addToSeasonScores(season, increments)
                }
                if let due = SeasonFame.due(rows.seasonLength, atMs: nowMs) { try write.takeHallOfFame(due, catalog: catalog) }
                let board = try write.newBoard(changing: plan.increments.filter { $0.value > 0 }.keys)
                let seasonTotals = try plan.season.map { season throws(SQLiteError) in
                    try write.seasonTotals(season, schools: plan.seasonSchools)
                } ?? [:]
                return plan.committed(board: board.map { StoredBoard(version: $0.version, scores: $0.scores) }, seasonTotals: seasonTotals)
            }
        }
        // Totals moved outside the window are told with it; where both have a school, the later wins.
        if let moved = takeUntold(after: 0) {
            let movedIsLater = moved.version > window.board.version
            window.board.scores.merge(moved.scores) { own, other in movedIsLater ? other : own }
            window.board.version = max(window.board.version, moved.version)
        }
        return window
    }

    /// One server owns the database: nothing changes the board behind its back but this
    /// store's own move of scores under starter ids (`newCatalog`).
    func changes(since version: UInt64) async -> StoredBoard? { takeUntold(after: version) }

    private func takeUntold(after version: UInt64) -> StoredBoard? {
        untold.withLock { untold in
            defer { untold = nil }
            return untold.flatMap { $0.version > version ? $0 : nil }
        }
    }

    // MARK: - The operator's

    func startRound(title: String?, seconds: Int, nowMs: Int64) async throws(BattleStoreError) -> Round? {
        guard let asked = Round.starting(id: 0, title: title, seconds: seconds, nowMs: nowMs) else { return nil }
        return try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) -> Round in
                // The next round stops the one still running: one round counts at a time.
                if let current = try write.currentRound(), current.endsAtMs > nowMs {
                    try write.setRoundWindow(current.stopped(atMs: nowMs))
                }
                return try write.startRound(title: asked.title, startsAtMs: asked.startsAtMs, endsAtMs: asked.endsAtMs)
            }
        }
    }

    func stopRound(nowMs: Int64) async throws(BattleStoreError) -> Round? {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) -> Round? in
                guard let current = try write.currentRound() else { return nil }
                let stopped = current.stopped(atMs: nowMs)
                if stopped != current { try write.setRoundWindow(stopped) }
                return stopped
            }
        }
    }

    func rounds(limit: Int) async throws(BattleStoreError) -> [Round] {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in try write.rounds(limit: limit) }
        }
    }

    func round(_ id: Int64) async throws(BattleStoreError) -> (Round, [RoundPlayerCount])? {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in try write.round(id) }
        }
    }

    func seasonLength() async throws(BattleStoreError) -> SeasonLength {
        let length = try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in try write.seasonLength() }
        }
        seasons.withLock { $0.length = length }
        return length
    }

    func setSeasonLength(_ length: SeasonLength) async throws(BattleStoreError) {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in try write.setSeasonLength(length) }
        }
        seasons.withLock { $0.length = length }
    }

    func takeHallOfFame(catalog: Catalog, nowMs: Int64) async throws(BattleStoreError) -> SeasonLength {
        let known = seasons.withLock { $0 }
        let length = if let length = known.length { length } else { try await seasonLength() }
        guard let due = SeasonFame.due(length, atMs: nowMs), due != known.hallTaken else { return length }
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in try write.takeHallOfFame(due, catalog: catalog) }
        }
        seasons.withLock { $0.hallTaken = due }
        return length
    }

    func seasonTotals(_ season: Season, schools: [String]) async throws(BattleStoreError) -> [String: UInt64] {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in try write.seasonTotals(season, schools: schools) }
        }
    }

    func seasons(limit: Int) async throws(BattleStoreError) -> [ListedSeason] {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in
                try write.seasons(limit: limit).map { season throws(SQLiteError) in
                    ListedSeason(season: season, fame: try write.hallOfFame(season, nationalOnly: true))
                }
            }
        }
    }

    func season(_ season: Season) async throws(BattleStoreError) -> SeasonStanding {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in
                SeasonStanding(season: season, totals: try write.seasonTotals(season), fame: try write.hallOfFame(season))
            }
        }
    }

    func seasonPlayers(_ season: Season) async throws(BattleStoreError) -> [String: [String: UInt64]] {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in try write.seasonPlayers(season) }
        }
    }

    func devices(top: Int, nowMs: Int64) async throws(BattleStoreError) -> [ListedDevice] {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in try write.listDevices(hour: DeviceActivity.hour(ofMs: nowMs), top: top) }
        }
    }

    func ban(device publicID: String, removeTaps: Bool) async throws(BattleStoreError) -> BanOutcome? {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) -> BanOutcome? in
                guard let device = try write.device(publicID: publicID) else { return nil }
                try write.setBanned(device: device, true)
                guard removeTaps else { return BanOutcome(removed: [:], board: nil) }
                try write.removeSeasonTaps(device: device)
                let (removed, board) = try write.removeTaps(device: device)
                return BanOutcome(removed: removed, board: board.map { StoredBoard(version: $0.version, scores: $0.scores) })
            }
        }
    }

    func unban(device publicID: String) async throws(BattleStoreError) -> Bool {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) -> Bool in
                guard let device = try write.device(publicID: publicID) else { return false }
                try write.setBanned(device: device, false)
                return true
            }
        }
    }

    func isBanned(address: String) async throws(BattleStoreError) -> Bool {
        try await run { database throws(StoreError) in try database.isAddressBanned(address) }
    }

    func deviceCount() async throws(BattleStoreError) -> Int {
        try await run { database throws(StoreError) in try database.deviceCount() }
    }

    func setBanned(address: String, _ banned: Bool) async throws(BattleStoreError) {
        try await run { database throws(StoreError) in
            try database.write { write throws(SQLiteError) in try write.setAddressBanned(address, banned) }
        }
    }

    /// The directory's catalog when it changed; scores kept under the starter ids it renames
    /// move to their official ids at once (a local import into the directory does not touch
    /// the database).
    func newCatalog(current: CatalogResource?) async throws(BattleStoreError) -> CatalogResource? {
        guard let resource = try await catalogs.newCatalog(current: current) else { return nil }
        let aliases = resource.catalog.aliases
        if !aliases.isEmpty {
            let moved = try await run { database throws(StoreError) in
                try database.write { write throws(SQLiteError) in try write.followAliases(aliases) }
            }
            if let moved {
                untold.withLock { $0 = StoredBoard(version: moved.version, scores: moved.scores) }
            }
        }
        return resource
    }
}
