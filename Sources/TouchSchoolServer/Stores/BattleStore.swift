import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolStore

/// Where a server keeps its battle: the data directory's SQLite database (`SQLiteBattleStore`,
/// one server) or PostgreSQL (`PostgresBattleStore`, any number of servers sharing one board);
/// in the tests, `InMemoryBattleStore`. Each of its users sees only the part it needs: play
/// (`PlayStore`: the battle's commits, welcomes and polls, the play socket's address bans), the
/// catalog reload (`CatalogStore`), the operator's admin API (`OperatorStore`) and the rounds
/// (`RoundStore`).
typealias BattleStore = PlayStore & CatalogStore & OperatorStore & RoundStore & SeasonStore

/// What the live battle needs of its store.
///
/// A commit applies `CommitRules` to the batches of one commit window in one durable write (one
/// transaction, `CommitTransaction`) together with the devices' last batch numbers and their
/// tallies (`DeviceActivity`, the taps each device had accepted per school), and returns only
/// once it is durable: the battle acknowledges nothing before. A device banned by the operator is
/// refused inside that transaction, so that a ban made through any server holds on every server.
/// The battle itself keeps the board in memory and asks the store for what other servers changed
/// (`changes(since:)`).
protocol PlayStore: Sendable {
    /// What the logs and `/healthz` call this store.
    var name: String { get }

    /// The battle's identity, made by the first server on this store and kept with it: the same
    /// across restarts, restores of a backup, and every server sharing the store.
    func battleID() async throws(BattleStoreError) -> String

    /// The board as saved when the server starts.
    func board() async throws(BattleStoreError) -> StoredBoard

    /// A device's record and its player, or nil for a device never seen.
    func device(_ device: String) async throws(BattleStoreError) -> (DeviceRecord, PlayerRecord)?

    /// How many devices the store holds (a count of rows: read at start and now and then, not
    /// per hello).
    func deviceCount() async throws(BattleStoreError) -> Int

    /// Applies `batches` (in arrival order) by `CommitRules` and saves them durably in one write.
    /// `histories` are the devices' judges and the addresses' budgets as this server knows them; the updated ones come back.
    func commit(_ batches: [ReceivedBatch], histories: TapJudges, catalog: Catalog,
                nowMs: Int64) async throws(BattleStoreError) -> CommittedWindow

    /// The totals other writers changed after board version `version` (nil: nothing new).
    /// SQLite's has no other writer; PostgreSQL's is polled.
    func changes(since version: UInt64) async throws(BattleStoreError) -> StoredBoard?

    /// Whether the operator banned this address (or network): its connections are refused.
    func isBanned(address: String) async throws(BattleStoreError) -> Bool
}

/// What the catalog reload needs: an import taken up while the server runs.
protocol CatalogStore: Sendable {
    /// The catalog to play with when it differs from `current` (an import was made), else nil.
    func newCatalog(current: CatalogResource?) async throws(BattleStoreError) -> CatalogResource?
}

/// What the operator's admin API (`Admin/`) needs.
protocol OperatorStore: Sendable {
    /// At most `top` devices by taps accepted in the clock hour of `nowMs`, then in all.
    func devices(top: Int, nowMs: Int64) async throws(BattleStoreError) -> [ListedDevice]

    /// Bans the device with this public id (nil: none is known); with `removeTaps`, the taps it
    /// had accepted and still counted for come off the schools' totals in the same transaction.
    func ban(device publicID: String, removeTaps: Bool) async throws(BattleStoreError) -> BanOutcome?

    /// Lifts a device's ban; false when no device has this public id. Taps removed stay removed.
    func unban(device publicID: String) async throws(BattleStoreError) -> Bool

    func setBanned(address: String, _ banned: Bool) async throws(BattleStoreError)
}

/// The operator's rounds (`Round`), kept in the store so that every server sharing it counts the
/// same rounds: each commit reads the rounds still taking batches in its own transaction (`CommitTransaction.Rows`).
/// Every store keeps them (SQLite's, PostgreSQL's, the tests' in-memory one); the routes reach them through
/// the battle (`BattleHallRuntime.startRound`, `Admin/BattleAdministration.swift`), which tells the hall.
protocol RoundStore: Sendable {
    /// Starts a round of `seconds` (its window opening after `Round.countdownMs`), stopping the
    /// one still running (so that no round closes after a later one: the commits' read of the rounds
    /// taking batches relies on it); nil when `seconds` is outside `Round.seconds`. `title` as `Round.title` cleaned it.
    func startRound(title: String?, seconds: Int, nowMs: Int64) async throws(BattleStoreError) -> Round?

    /// Stops the current round at `nowMs` (nil: none was ever started).
    func stopRound(nowMs: Int64) async throws(BattleStoreError) -> Round?

    /// The rounds, newest first, at most `limit`.
    func rounds(limit: Int) async throws(BattleStoreError) -> [Round]

    /// A round and what it counted per device (nil: no round has this id).
    func round(_ id: Int64) async throws(BattleStoreError) -> (Round, [RoundPlayerCount])?
}

/// The seasons (`Season`, issue 50), kept in the store so that every server sharing it counts the
/// same: the length is read by each commit in its own transaction (`CommitTransaction.Rows`), so a
/// length set through one server cuts on every server from its next commit on, at the boundaries
/// `Season` computes from the stored length (Korea's calendar, whatever a machine's zone). Each
/// commit adds its batches' `Season.cut` to the seasons' totals in the same transaction as all time,
/// and the first commit or poll after a season's end and grace (`SeasonFame.due`) takes its hall of fame,
/// once for every server (taps of the season arriving later count in its totals, not in its hall).
protocol SeasonStore: Sendable {
    /// The season's length as stored (none when never set).
    func seasonLength() async throws(BattleStoreError) -> SeasonLength

    func setSeasonLength(_ length: SeasonLength) async throws(BattleStoreError)

    /// The seasons that counted taps, newest first, at most `limit`, each with its national hall.
    func seasons(limit: Int) async throws(BattleStoreError) -> [ListedSeason]

    /// The poll's part (`BattleHallRuntime`, every poll): reads the length and takes the hall of the
    /// season due at `nowMs` (`SeasonFame.due`) when no commit took it yet, so that a season ended
    /// with no taps after it has its hall too. Once a store knows a season's hall taken, it only
    /// reads the length until the next season ends. Returns the length read, from which the poll
    /// tells the season running (`Season.at`).
    func takeHallOfFame(catalog: Catalog, nowMs: Int64) async throws(BattleStoreError) -> SeasonLength

    /// A season's totals of `schools` (0 for those without taps in it): what a poll found changed.
    func seasonTotals(_ season: Season, schools: [String]) async throws(BattleStoreError) -> [String: UInt64]

    /// A season's school totals and its whole hall.
    func season(_ season: Season) async throws(BattleStoreError) -> SeasonStanding

    /// What each device counted in a season, per school (a row per device: not for a route).
    func seasonPlayers(_ season: Season) async throws(BattleStoreError) -> [String: [String: UInt64]]
}

/// A season's totals by school and its hall of fame in `SeasonFame.order` (empty until taken).
struct SeasonStanding: Sendable, Equatable {
    var season: Season
    var totals: [String: UInt64]
    var fame: [SeasonFame.Entry] = []
}

/// A season in the list, with its national league's hall (the leagues' halls are its standing's).
struct ListedSeason: Sendable, Equatable {
    var season: Season
    var fame: [SeasonFame.Entry]
}

/// What a ban did: the taps taken off each school, and the new totals (nil: none taken).
struct BanOutcome: Sendable, Equatable {
    var removed: [String: UInt64]
    var board: StoredBoard?
}

/// Totals by school id at a board version: the whole board, or the schools that changed.
struct StoredBoard: Sendable, Equatable {
    var version: UInt64
    var scores: [String: UInt64]
    /// The season running when it was read, with its totals of the same schools (nil: the battle
    /// has no season): what the views of the season show (`BattleHall`).
    var season: SeasonTotals?

    init(version: UInt64, scores: [String: UInt64], season: SeasonTotals? = nil) {
        self.version = version
        self.scores = scores
        self.season = season
    }
}

/// A season's totals of some schools, read with a board version: those a commit changed, those a
/// poll found changed, or every school's (the season's first read, at a server's start or at the
/// season's turn: a school left out has 0).
struct SeasonTotals: Sendable, Equatable {
    var season: Season
    var totals: [String: UInt64]
}

/// What one commit window did once durable.
struct CommittedWindow: Sendable {
    var rules: CommitRules.Result
    var histories: TapJudges
    /// The new totals of the schools that changed, at `board.version`.
    var board: StoredBoard
    /// Problems the store repaired while saving, for the log.
    var notes: [String] = []
}

struct BattleStoreError: Error, CustomStringConvertible, Sendable {
    var message: String
    var description: String { message }
}
