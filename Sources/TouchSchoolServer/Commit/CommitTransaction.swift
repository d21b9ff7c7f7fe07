import TouchSchoolBattleDatabase
import TouchSchoolCore

/// One commit window's transaction, written once for every store: read the window's rows →
/// apply `CommitRules` → the devices that changed → their tallies → the totals' increments.
///
/// The seam between this and a store is two values: the store reads, inside one of its
/// transactions, the `Rows` of the window's devices; `plan` answers the `Writes`; the store
/// writes them in the same transaction, in their order (devices, tallies, then the totals, the
/// hot rows, last) and makes it durable; `Plan.committed(board:)` is then what the battle is
/// told. What differs per store is only how rows are read and written. (Values rather than a
/// protocol of reads and writes called from here: SQLite's transaction runs synchronously on its
/// queue and PostgreSQL's asynchronously, so one driver could not call both.)
enum CommitTransaction {
    /// What the transaction read: the window's devices as saved (their records and players), their
    /// tallies, and which of them the operator banned. Devices without a row are new.
    struct Rows: Sendable {
        var devices: [String: DeviceRecord] = [:]
        var players: [String: PlayerRecord] = [:]
        var activities: [String: DeviceActivity] = [:]
        var banned: Set<String> = []
        /// The rounds still taking batches when the transaction read them (`roundsTakingBatches`),
        /// oldest first: the current one, and one the next start closed while its grace lasts.
        /// Read in the same transaction as the devices, so that a round started or stopped through
        /// any server sharing the store counts from that server's next commit on.
        var rounds: [Round] = []
        /// The season's length as saved, read in the same transaction: a length set through any
        /// server sharing the store cuts from that server's next commit on.
        var seasonLength: SeasonLength = .none
    }

    /// How many of the newest rounds a commit reads first (`roundsTakingBatches`): the current one,
    /// the one it closed and a few the operator started and stopped in their countdowns.
    static let roundsFirstRead = 4

    /// The rounds taking batches at `nowMs` (`Round.takesBatches`), oldest first, from `newestFirst`,
    /// the store's newest `limit` rounds; nil when every one of them still takes batches and there
    /// may be more: then the store reads more (`limit` × 4). The rounds taking batches are the
    /// newest ones: a start stops the round still running, so no round closes after a later one
    /// (`RoundStore.startRound`), and the first closed one read, newest first, ends the read.
    static func roundsTakingBatches(newestFirst: [Round], limit: Int, atMs nowMs: Int64) -> [Round]? {
        let open = newestFirst.prefix { $0.takesBatches(atMs: nowMs) }
        guard open.count < limit else { return nil }
        return open.reversed()
    }

    /// What the window adds to a device's count in the round: its player as named now, the
    /// school it played for, the taps per school, and when it reached them.
    struct RoundWrite: Sendable, Equatable {
        var round: Int64
        var device: String
        var publicID: String
        var player: String
        var school: String?
        var bySchool: [String: UInt64]
        var reachedMs: Int64

        var counted: UInt64 { bySchool.values.reduce(0) { $0.addingSaturating($1) } }
    }

    /// What the window adds to a device's taps per school in one season.
    struct SeasonWrite: Sendable, Equatable {
        var season: Season
        var device: String
        var bySchool: [String: UInt64]
    }

    /// A device's row as the window leaves it.
    struct DeviceWrite: Sendable, Equatable {
        var device: String
        var record: DeviceRecord
        var player: PlayerRecord
    }

    /// A device's tally after the window, and the taps the window added to it per school.
    struct ActivityWrite: Sendable, Equatable {
        var device: String
        var publicID: String
        var activity: DeviceActivity
        var addedBySchool: [String: UInt64]
    }

    /// What the transaction writes, each in device (or school) key order.
    struct Plan: Sendable {
        /// The devices whose record or player changed.
        var devices: [DeviceWrite]
        var activities: [ActivityWrite]
        /// What the window adds to each school's total (the totals read start at 0).
        var increments: [String: UInt64]
        /// What the rounds counted, by round (oldest first), then in device key order.
        var rounds: [RoundWrite] = []
        /// What the seasons counted, by season (oldest first), then in device key order.
        var seasons: [SeasonWrite] = []
        /// What the window adds to each season's school totals: the writes added up.
        var seasonIncrements: [Season: [String: UInt64]] {
            var totals: [Season: [String: UInt64]] = [:]
            for write in seasons {
                totals[write.season, default: [:]].merge(write.bySchool) { $0.addingSaturating($1) }
            }
            return totals
        }
        var rules: CommitRules.Result
        var histories: TapJudges
        /// The season running at the commit's time by the length read (nil: none): the views' season.
        var season: Season?

        /// The schools whose totals in the running season the window changed: the store reads their
        /// new totals back in the same transaction, for the views of the season.
        var seasonSchools: [String] { season.map { (seasonIncrements[$0] ?? [:]).keys.sorted() } ?? [] }

        /// The window once durable, the totals having answered `board` (nil: nothing added) and the
        /// running season's `seasonTotals` (of `seasonSchools`).
        func committed(board: StoredBoard?, seasonTotals: [String: UInt64] = [:]) -> CommittedWindow {
            var board = board ?? StoredBoard(version: 0, scores: [:])
            if let season { board.season = SeasonTotals(season: season, totals: seasonTotals) }
            return CommittedWindow(rules: rules, histories: histories, board: board)
        }
    }

    /// The window's devices in key order: the order rows are locked in.
    static func devices(of batches: [ReceivedBatch]) -> [String] { Set(batches.map(\.device)).sorted() }

    /// The devices whose rows the window may change: one of their batches is numbered beyond the
    /// last applied (`saved`). The others only repeat: their rows answer them, nothing is written.
    static func devicesToWrite(_ batches: [ReceivedBatch], saved: [String: DeviceRecord]) -> [String] {
        let highest = Dictionary(batches.map { ($0.device, $0.batch.seq) }, uniquingKeysWith: max)
        return devices(of: batches).filter { highest[$0, default: 0] > saved[$0]?.lastSeq ?? 0 }
    }

    /// Applies `batches` (in arrival order) to the rows read, by `CommitRules`.
    static func plan(_ batches: [ReceivedBatch], rows: Rows, histories: TapJudges, catalog: Catalog, nowMs: Int64) -> Plan {
        // No totals are read: the rules add to 0, so the scores end as this window's increments.
        var state = SavedState(players: rows.players, devices: rows.devices)
        var histories = histories
        let rules = CommitRules.apply(batches, to: &state, histories: &histories, catalog: catalog, nowMs: nowMs, banned: rows.banned,
                                        rounds: rows.rounds, season: rows.seasonLength)
        let devices = state.devices.keys.sorted().compactMap { device -> DeviceWrite? in
            guard let record = state.devices[device],
                  record != rows.devices[device] || state.players[device] != rows.players[device] else { return nil }
            return DeviceWrite(device: device, record: record, player: state.players[device] ?? PlayerRecord())
        }
        let hour = DeviceActivity.hour(ofMs: nowMs)
        let activities = rules.devices.keys.sorted().map { device in
            let window = rules.devices[device] ?? CommitRules.DeviceWindow()
            return ActivityWrite(device: device, publicID: DevicePublicID.of(device),
                                 activity: (rows.activities[device] ?? DeviceActivity())
                                     .adding(accepted: window.accepted, refused: window.refused, addresses: window.addresses,
                                             client: window.client?.rawValue, hour: hour),
                                 addedBySchool: window.acceptedBySchool)
        }
        let rounds = rows.rounds.flatMap { round in
            (rules.rounds[round.id] ?? [:]).sorted { $0.key < $1.key }.compactMap { device, window -> RoundWrite? in
                guard window.counted > 0 else { return nil }
                return RoundWrite(round: round.id, device: device, publicID: DevicePublicID.of(device),
                                  player: state.devices[device]?.player ?? "", school: state.players[device]?.schoolID,
                                  bySchool: window.bySchool, reachedMs: window.reachedMs)
            }
        }
        let seasons = rules.seasons.keys.sorted { $0.number < $1.number }.flatMap { season in
            (rules.seasons[season] ?? [:]).sorted { $0.key < $1.key }.map { device, bySchool in
                SeasonWrite(season: season, device: device, bySchool: bySchool)
            }
        }
        return Plan(devices: devices, activities: activities, increments: state.scores, rounds: rounds, seasons: seasons, rules: rules,
                    histories: histories, season: Season.at(rows.seasonLength, ms: nowMs))
    }
}
