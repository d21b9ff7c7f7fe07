import Synchronization
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolStore
@testable import TouchSchoolServer

/// A store that keeps the battle in memory, for tests of what uses a store (the battle, its
/// routes) and as the third store of the store suite: the commit's `CommitTransaction` on a
/// `SavedState` in memory, all or nothing, with failures and delays to inject.
///
/// The battle lives in a `Storage` shared by every store made on it, as a file or a database
/// outlives the server that wrote it: a new store on the same storage is a restart.
final class InMemoryBattleStore: BattleStore {
    /// The saved battle, and what the next operations do.
    final class Storage: Sendable {
        let identity = BattleIdentityFile.randomID()
        fileprivate let state = Mutex(SavedState())
        /// The operator's side, changed only while `state` is held (so with the scores).
        fileprivate let tallies = Mutex(Tallies())
        fileprivate let behaviour = Mutex(Behaviour())
        /// Commits begun, and finished (saved or failed), for tests that wait for one.
        fileprivate let commitsBegun = Mutex(0)
        fileprivate let commitsTried = Mutex(0)
        /// Reads of each round's standings (`round(_:)`), for tests that count them.
        fileprivate let roundReads = Mutex<[Int64: Int]>([:])

        init() {}

        var saved: SavedState { state.withLock { $0 } }
        var commitsStarted: Int { commitsBegun.withLock { $0 } }
        var commitsAttempted: Int { commitsTried.withLock { $0 } }
        func standingsReads(ofRound id: Int64) -> Int { roundReads.withLock { $0[id] ?? 0 } }

        /// Commits (and reads) fail with `message` until set back to nil.
        func failCommits(_ message: String?) { behaviour.withLock { $0.commitFailure = message } }
        /// Each commit takes this long before it is saved.
        func delayCommits(_ delay: Duration) { behaviour.withLock { $0.commitDelay = delay } }
    }

    fileprivate struct Tallies {
        var activities: [String: DeviceActivity] = [:]
        /// Per device and school: taps accepted, and taps removed by a ban.
        var schoolTaps: [String: [String: (taps: UInt64, removed: UInt64)]] = [:]
        var banned: Set<String> = []
        var bannedAddresses: Set<String> = []
        /// The rounds, oldest first: the last is the current one.
        var rounds: [Round] = []
        /// Per round and device: what the round counted (the writes added up).
        var roundCounts: [Int64: [String: CommitTransaction.RoundWrite]] = [:]
        var seasonLength = SeasonLength.none
        /// Per season: the schools' totals, and what each device counted per school.
        var seasonTotals: [Season: [String: UInt64]] = [:]
        var seasonPlayers: [Season: [String: [String: UInt64]]] = [:]
        var fame: [Season: [SeasonFame.Entry]] = [:]

        func device(publicID: String) -> String? { activities.keys.first { DevicePublicID.of($0) == publicID } }
    }

    fileprivate struct Behaviour {
        var commitFailure: String?
        var commitDelay: Duration = .zero
    }

    let storage: Storage
    let catalog: CatalogResource

    var name: String { "memory" }

    init(storage: Storage = Storage(), catalog: CatalogResource) {
        self.storage = storage
        self.catalog = catalog
    }

    func battleID() async -> String { storage.identity }

    func board() async -> StoredBoard {
        storage.state.withLock { StoredBoard(version: $0.boardVersion, scores: $0.scores.filter { $0.value > 0 }) }
    }

    func device(_ device: String) async -> (DeviceRecord, PlayerRecord)? {
        storage.state.withLock { state in state.devices[device].map { ($0, state.players[device] ?? PlayerRecord()) } }
    }

    func deviceCount() async -> Int { storage.state.withLock { $0.devices.count } }

    func commit(_ batches: [ReceivedBatch], histories: TapJudges, catalog: Catalog,
                nowMs: Int64) async throws(BattleStoreError) -> CommittedWindow {
        let behaviour = storage.behaviour.withLock { $0 }
        storage.commitsBegun.withLock { $0 += 1 }
        defer { storage.commitsTried.withLock { $0 += 1 } }
        if behaviour.commitDelay > .zero { try? await Task.sleep(for: behaviour.commitDelay) }
        if let failure = behaviour.commitFailure { throw BattleStoreError(message: failure) }
        return storage.state.withLock { saved in
            storage.tallies.withLock { tallies -> CommittedWindow in
                var rows = CommitTransaction.Rows()
                for device in CommitTransaction.devices(of: batches) {
                    if let record = saved.devices[device] {
                        rows.devices[device] = record
                        rows.players[device] = saved.players[device] ?? PlayerRecord()
                    }
                    rows.activities[device] = tallies.activities[device]
                    if tallies.banned.contains(device) { rows.banned.insert(device) }
                }
                // All the rounds read at once: the rule finds the open ones among them as the stores' reads do.
                let all = tallies.rounds.count + 1
                rows.rounds = CommitTransaction.roundsTakingBatches(newestFirst: tallies.rounds.reversed(), limit: all, atMs: nowMs) ?? []
                rows.seasonLength = tallies.seasonLength
                let plan = CommitTransaction.plan(batches, rows: rows, histories: histories, catalog: catalog, nowMs: nowMs)
                for write in plan.seasons {
                    tallies.seasonPlayers[write.season, default: [:]][write.device, default: [:]].merge(write.bySchool) { $0.addingSaturating($1) }
                }
                for (season, increments) in plan.seasonIncrements {
                    tallies.seasonTotals[season, default: [:]].merge(increments) { $0.addingSaturating($1) }
                }
                if let due = SeasonFame.due(tallies.seasonLength, atMs: nowMs), tallies.fame[due] == nil {
                    tallies.fame[due] = SeasonFame.of(totals: tallies.seasonTotals[due] ?? [:], catalog: catalog)
                }
                for row in plan.devices {
                    saved.devices[row.device] = row.record
                    saved.players[row.device] = row.player
                }
                for tally in plan.activities {
                    tallies.activities[tally.device] = tally.activity
                    for (school, taps) in tally.addedBySchool {
                        tallies.schoolTaps[tally.device, default: [:]][school, default: (0, 0)].taps += taps
                    }
                }
                for write in plan.rounds {
                    var kept = write
                    if let earlier = tallies.roundCounts[write.round]?[write.device] {
                        kept.bySchool.merge(earlier.bySchool) { $0.addingSaturating($1) }
                        kept.reachedMs = max(earlier.reachedMs, write.reachedMs)
                    }
                    tallies.roundCounts[write.round, default: [:]][write.device] = kept
                }
                let added = plan.increments.filter { $0.value > 0 }
                var seasonTotals: [String: UInt64] = [:]
                if let season = plan.season {
                    for school in plan.seasonSchools { seasonTotals[school] = tallies.seasonTotals[season]?[school] ?? 0 }
                }
                guard !added.isEmpty else { return plan.committed(board: nil, seasonTotals: seasonTotals) }
                saved.boardVersion += 1
                var board = StoredBoard(version: saved.boardVersion, scores: [:])
                for (school, taps) in added {
                    saved.scores[school] = (saved.scores[school] ?? 0).addingSaturating(taps)
                    board.scores[school] = saved.scores[school]
                }
                return plan.committed(board: board, seasonTotals: seasonTotals)
            }
        }
    }

    /// Nothing else writes the storage.
    func changes(since version: UInt64) async -> StoredBoard? { nil }

    func newCatalog(current: CatalogResource?) async -> CatalogResource? { current == nil ? catalog : nil }

    func devices(top: Int, nowMs: Int64) async -> [ListedDevice] {
        let hour = DeviceActivity.hour(ofMs: nowMs)
        return storage.state.withLock { state in
            storage.tallies.withLock { tallies in
                tallies.activities.map { device, activity in
                    ListedDevice(publicID: DevicePublicID.of(device), player: state.devices[device]?.player ?? "",
                                 school: state.players[device]?.schoolID, activity: activity, banned: tallies.banned.contains(device))
                }
                .sorted { ($0.activity.inHour(hour).accepted, $0.activity.accepted, $1.publicID) > ($1.activity.inHour(hour).accepted, $1.activity.accepted, $0.publicID) }
                .prefix(top).map { $0 }
            }
        }
    }

    func ban(device publicID: String, removeTaps: Bool) async -> BanOutcome? {
        storage.state.withLock { state in
            storage.tallies.withLock { tallies -> BanOutcome? in
                guard let device = tallies.device(publicID: publicID) else { return nil }
                tallies.banned.insert(device)
                guard removeTaps else { return BanOutcome(removed: [:], board: nil) }
                for id in tallies.roundCounts.keys { tallies.roundCounts[id]?[device] = nil }
                for season in tallies.seasonPlayers.keys {
                    for (school, taps) in tallies.seasonPlayers[season]?.removeValue(forKey: device) ?? [:] {
                        let total = tallies.seasonTotals[season]?[school] ?? 0
                        tallies.seasonTotals[season]?[school] = total - min(taps, total)
                    }
                }
                var removed: [String: UInt64] = [:]
                for (school, counts) in tallies.schoolTaps[device] ?? [:] where counts.taps > counts.removed {
                    removed[school] = counts.taps - counts.removed
                    tallies.schoolTaps[device]?[school] = (counts.taps, counts.taps)
                }
                guard !removed.isEmpty else { return BanOutcome(removed: [:], board: nil) }
                state.boardVersion += 1
                var board = StoredBoard(version: state.boardVersion, scores: [:])
                for (school, taps) in removed {
                    let total = (state.scores[school] ?? 0) - min(taps, state.scores[school] ?? 0)
                    state.scores[school] = total
                    board.scores[school] = total
                    if var player = state.players[device], player.schoolID == school {
                        player.taps -= min(taps, player.taps)
                        state.players[device] = player
                    }
                }
                return BanOutcome(removed: removed, board: board)
            }
        }
    }

    func unban(device publicID: String) async -> Bool {
        storage.tallies.withLock { tallies in
            guard let device = tallies.device(publicID: publicID) else { return false }
            tallies.banned.remove(device)
            return true
        }
    }

    func isBanned(address: String) async -> Bool { storage.tallies.withLock { $0.bannedAddresses.contains(address) } }

    func setBanned(address: String, _ banned: Bool) async {
        storage.tallies.withLock { tallies in
            if banned { tallies.bannedAddresses.insert(address) } else { tallies.bannedAddresses.remove(address) }
        }
    }

    func startRound(title: String?, seconds: Int, nowMs: Int64) async -> Round? {
        storage.tallies.withLock { tallies -> Round? in
            guard let round = Round.starting(id: (tallies.rounds.last?.id ?? 0) + 1, title: title, seconds: seconds, nowMs: nowMs) else {
                return nil
            }
            if let last = tallies.rounds.indices.last { tallies.rounds[last] = tallies.rounds[last].stopped(atMs: nowMs) }
            tallies.rounds.append(round)
            return round
        }
    }

    func stopRound(nowMs: Int64) async -> Round? {
        storage.tallies.withLock { tallies -> Round? in
            guard let last = tallies.rounds.indices.last else { return nil }
            tallies.rounds[last] = tallies.rounds[last].stopped(atMs: nowMs)
            return tallies.rounds[last]
        }
    }

    func seasonLength() async -> SeasonLength { storage.tallies.withLock { $0.seasonLength } }

    func setSeasonLength(_ length: SeasonLength) async { storage.tallies.withLock { $0.seasonLength = length } }

    func takeHallOfFame(catalog: Catalog, nowMs: Int64) async -> SeasonLength {
        storage.tallies.withLock { tallies in
            if let due = SeasonFame.due(tallies.seasonLength, atMs: nowMs), tallies.fame[due] == nil {
                tallies.fame[due] = SeasonFame.of(totals: tallies.seasonTotals[due] ?? [:], catalog: catalog)
            }
            return tallies.seasonLength
        }
    }

    func seasonTotals(_ season: Season, schools: [String]) async -> [String: UInt64] {
        storage.tallies.withLock { tallies in
            Dictionary(uniqueKeysWithValues: schools.map { ($0, tallies.seasonTotals[season]?[$0] ?? 0) })
        }
    }

    func seasons(limit: Int) async -> [ListedSeason] {
        storage.tallies.withLock { tallies in
            tallies.seasonTotals.keys.sorted { ($0.startsAtMs, $0.endsAtMs) > ($1.startsAtMs, $1.endsAtMs) }.prefix(limit).map { season in
                ListedSeason(season: season, fame: (tallies.fame[season] ?? []).filter { $0.league == .national })
            }
        }
    }

    func season(_ season: Season) async -> SeasonStanding {
        storage.tallies.withLock { tallies in
            SeasonStanding(season: season, totals: (tallies.seasonTotals[season] ?? [:]).filter { $0.value > 0 },
                           fame: tallies.fame[season] ?? [])
        }
    }

    func seasonPlayers(_ season: Season) async -> [String: [String: UInt64]] {
        storage.tallies.withLock { $0.seasonPlayers[season] ?? [:] }
    }

    func rounds(limit: Int) async -> [Round] { storage.tallies.withLock { Array($0.rounds.reversed().prefix(limit)) } }

    func round(_ id: Int64) async -> (Round, [RoundPlayerCount])? {
        storage.roundReads.withLock { $0[id, default: 0] += 1 }
        return storage.tallies.withLock { tallies -> (Round, [RoundPlayerCount])? in
            guard let round = tallies.rounds.first(where: { $0.id == id }) else { return nil }
            let counts = (tallies.roundCounts[id] ?? [:]).values.sorted { $0.device < $1.device }.map {
                RoundPlayerCount(device: $0.device, publicID: $0.publicID, player: $0.player, school: $0.school, bySchool: $0.bySchool,
                                 reachedMs: $0.reachedMs)
            }
            return (round, counts)
        }
    }
}
