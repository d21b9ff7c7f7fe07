import TouchSchoolCore
import TouchSchoolProtocol

/// A batch received from a connection, waiting for the next save.
package struct ReceivedBatch: Sendable {
    var connection: ConnectionID
    var device: String
    /// The cleaned display name from the connection's hello.
    var player: String
    var batch: TapBatch
    /// The address the connection is counted under (`ClientAddress`), kept with the device's tally.
    var address: String = "unknown"
    /// The network of that address (`ClientAddress.network`): its devices share one tap budget.
    var network: String = "unknown"
    /// What the device plays with, as its hello said (nil: it did not say).
    var client: ClientKind?

    package init(connection: ConnectionID, device: String, player: String, batch: TapBatch, address: String = "unknown",
                 network: String = "unknown", client: ClientKind? = nil) {
        self.connection = connection
        self.device = device
        self.player = player
        self.batch = batch
        self.address = address
        self.network = network
        self.client = client
    }
}

/// What a save did with one received batch.
enum BatchOutcome: Sendable, Equatable {
    /// Applied now (`accepted` counted), or a duplicate acknowledged again (0 and 0).
    case acknowledged(Acknowledgement)
    /// A number beyond the next one: the connection breaks the protocol and is closed.
    case outOfOrder(expected: UInt64)
}

/// The rules of one save, pure: the received batches in arrival order are applied to the state
/// read under the lock, each (device, number) once, judged by the device's history.
enum CommitRules {
    /// How far before the server first saw a device its taps may be judged as made: a player
    /// who starts a game while the server is down delivers up to two minutes of offline play,
    /// while a new device key (1,000 an hour per address at most) buys no more than two
    /// minutes of the guard's rate, out of its address's tap budget. A known device is judged from its last judged time, which
    /// is kept with the scores, so a restart or an outage of any length loses none of its taps.
    static let newDeviceBacklogMs: Int64 = 120_000

    struct Result: Sendable {
        var outcomes: [BatchOutcome]
        /// Schools whose totals changed.
        var changedSchools: Set<String>
        var accepted: UInt64 = 0
        var refused: UInt64 = 0
        /// Devices whose first batch this save applied: the battle's count of devices grows by
        /// these (`ServerConfiguration.maximumDevices`).
        var newDevices = 0
        /// What each device's batches did, for the tally the stores keep beside the scores.
        var devices: [String: DeviceWindow] = [:]
        /// What each round counted for each device in this save, by round id (only the rounds and
        /// devices it counted for).
        var rounds: [Int64: [String: RoundWindow]] = [:]
        /// What each season counted for each device in this save, per school (`Season.cut` of each
        /// batch's accepted taps over its judged time): empty while the season's length is none.
        var seasons: [Season: [String: [String: UInt64]]] = [:]
    }

    /// One device's taps counted by the round in one save, per school (taken from the accepted
    /// taps, in school id order, as the totals' are), and when the last of them was reached.
    struct RoundWindow: Sendable, Equatable {
        var bySchool: [String: UInt64] = [:]
        var reachedMs: Int64 = 0

        var counted: UInt64 { bySchool.values.reduce(0) { $0.addingSaturating($1) } }
    }

    /// One device's batches in one save: the taps accepted for each school (exactly what the
    /// totals got from it), the taps refused, and the addresses they came from, in order.
    struct DeviceWindow: Sendable, Equatable {
        var acceptedBySchool: [String: UInt64] = [:]
        var refused: UInt64 = 0
        var addresses: [String] = []
        /// What the device played with in the window, when its hello said.
        var client: ClientKind?

        var accepted: UInt64 { acceptedBySchool.values.reduce(0) { $0.addingSaturating($1) } }

        mutating func note(_ received: ReceivedBatch) {
            let address = received.address
            if addresses.last != address { addresses.removeAll { $0 == address }; addresses.append(address) }
            client = received.client ?? client
        }
    }

    /// Applies `batches` to `state` in order; `histories` is the devices' judges and the
    /// addresses' budgets (updated).
    /// Returns whether anything changed; a batch out of order stops the later batches of its
    /// connection (they are reported out of order too and counted nowhere). The next batch of a
    /// device in `banned` is acknowledged with every tap refused: numbered as applied (its
    /// client moves on), judged by nothing, counted nowhere but in the device's refused taps.
    /// `rounds`, the rounds still taking batches as the store holds them in the same transaction
    /// (`CommitTransaction.roundsTakingBatches`), each count the accepted taps whose judged time
    /// lies in their window (`Round.counted`), the save's time standing for when they were
    /// received: a batch applied once is counted once in each. A round closed by the next start
    /// keeps its grace: a batch made in it and still in flight at that start counts there.
    /// `season`, the season's length as the store holds it in the same transaction: the accepted
    /// taps are cut between the seasons they were made in (`Season.cut`, over the same judged time
    /// as the rounds'), each in exactly one, a batch applied once counted once.
    static func apply(_ batches: [ReceivedBatch], to state: inout SavedState, histories: inout TapJudges,
                      catalog: Catalog, nowMs: Int64, banned: Set<String> = [], rounds: [Round] = [],
                      season: SeasonLength = .none) -> Result {
        var result = Result(outcomes: [], changedSchools: [])
        var broken: Set<ConnectionID> = []
        for received in batches {
            let device = received.device
            var record = state.devices[device] ?? DeviceRecord()
            let batch = received.batch
            if broken.contains(received.connection) {
                result.outcomes.append(.outOfOrder(expected: record.lastSeq &+ 1))
                continue
            }
            if batch.seq <= record.lastSeq {
                result.outcomes.append(.acknowledged(Acknowledgement(seq: batch.seq, accepted: 0, refused: 0,
                                                                     player: playerState(state.players[device]))))
                continue
            }
            guard batch.seq == record.lastSeq + 1 else {
                broken.insert(received.connection)
                result.outcomes.append(.outOfOrder(expected: record.lastSeq + 1))
                continue
            }
            if banned.contains(device) {
                record.lastSeq = batch.seq
                state.devices[device] = record
                let refused = batch.totalTaps
                result.refused = result.refused.addingSaturating(refused)
                var tally = result.devices[device] ?? DeviceWindow()
                tally.refused = tally.refused.addingSaturating(refused)
                tally.note(received)
                result.devices[device] = tally
                result.outcomes.append(.acknowledged(Acknowledgement(seq: batch.seq, accepted: 0, refused: refused,
                                                                     player: playerState(state.players[device]), banned: true)))
                continue
            }
            // A history older than the saved record is from before another server (sharing the
            // store) judged this device: the record's time is the truth.
            var history = histories.devices[device].flatMap { $0.lastEndMs >= record.lastEndMs ? $0 : nil }
                ?? DeviceTapHistory(firstSeenMs: record.lastEndMs > 0 ? record.lastEndMs : nowMs - newDeviceBacklogMs)
            // Taps for schools this server does not know count nowhere: refused without judging.
            var known: [(id: String, taps: UInt64)] = []
            var unknownTaps: UInt64 = 0
            for (id, taps) in batch.taps.sorted(by: { $0.key < $1.key }) where taps > 0 {
                if let position = catalog.position(ofID: id) {
                    known.append((catalog[position].id, taps))
                } else {
                    unknownTaps = unknownTaps.addingSaturating(taps)
                }
            }
            let claimed = known.reduce(UInt64(0)) { $0.addingSaturating($1.taps) }
            let verdict = history.judge(taps: claimed, startMs: batch.startMs, endMs: batch.endMs, nowMs: nowMs,
                                        atMost: histories.addresses.available(to: received.network, atMs: nowMs))
            histories.devices[device] = history
            histories.addresses.spend(verdict.accepted, by: received.network, atMs: nowMs)
            // The accepted taps are taken from the schools in id order, and each round's from them.
            var remaining = verdict.accepted
            var roundsRemaining = rounds.map {
                $0.counted(taps: verdict.accepted, startMs: verdict.startMs, endMs: verdict.endMs, receivedAtMs: nowMs)
            }
            var seasonsRemaining = Season.cut(taps: verdict.accepted, startMs: verdict.startMs, endMs: verdict.endMs, season)
            var acceptedBySchool: [String: UInt64] = [:]
            for (id, taps) in known where remaining > 0 {
                let take = min(taps, remaining)
                remaining -= take
                acceptedBySchool[id, default: 0] += take
                state.scores[id] = (state.scores[id] ?? 0).addingSaturating(take)
                result.changedSchools.insert(id)
                // The school's taps go to the seasons in order, as the cut made them: each in one.
                var left = take
                for index in seasonsRemaining.indices where left > 0 && seasonsRemaining[index].taps > 0 {
                    let counted = min(left, seasonsRemaining[index].taps)
                    seasonsRemaining[index].taps -= counted
                    left -= counted
                    result.seasons[seasonsRemaining[index].season, default: [:]][device, default: [:]][id, default: 0] += counted
                }
                for (index, round) in rounds.enumerated() where roundsRemaining[index] > 0 {
                    let counted = min(take, roundsRemaining[index])
                    roundsRemaining[index] -= counted
                    var window = result.rounds[round.id]?[device] ?? RoundWindow()
                    window.bySchool[id, default: 0] += counted
                    window.reachedMs = max(window.reachedMs, round.reachedMs(batchEndMs: verdict.endMs))
                    result.rounds[round.id, default: [:]][device] = window
                }
            }
            // The player's own record, as a local save applies it, with only accepted taps.
            let before = state.players[device] ?? PlayerRecord()
            let switchedTo = batch.switchedToSchool.flatMap { catalog.position(ofID: $0) }.map { catalog[$0].id }
            let school = switchedTo ?? before.schoolID
            let playerAccepted = school.map { min(batch.playerTaps, acceptedBySchool[$0] ?? 0) } ?? 0
            let player = BattleRules.player(before, adding: playerAccepted, switchedTo: switchedTo,
                                            best: min(max(0, batch.bestTapsPerSecond), maximumBestTapsPerSecond))
            state.players[device] = player
            if record.lastSeq == 0 { result.newDevices += 1 }
            record.lastSeq = batch.seq
            record.lastEndMs = history.lastEndMs
            record.player = received.player
            state.devices[device] = record
            let refused = verdict.refused.addingSaturating(unknownTaps)
            result.accepted = result.accepted.addingSaturating(verdict.accepted)
            result.refused = result.refused.addingSaturating(refused)
            var tally = result.devices[device] ?? DeviceWindow()
            tally.acceptedBySchool.merge(acceptedBySchool) { $0.addingSaturating($1) }
            tally.refused = tally.refused.addingSaturating(refused)
            tally.note(received)
            result.devices[device] = tally
            result.outcomes.append(.acknowledged(Acknowledgement(seq: batch.seq, accepted: verdict.accepted, refused: refused,
                                                                 player: playerState(player))))
        }
        if !result.changedSchools.isEmpty { state.boardVersion = state.boardVersion.addingSaturating(1) }
        return result
    }

    /// The best taps in one second a player can claim: no more than the guard lets through in a
    /// whole burst window. More is not believed (and not saved).
    static let maximumBestTapsPerSecond = TapGuardPolicy.standard.burstLimit

    static func playerState(_ record: PlayerRecord?) -> PlayerState {
        PlayerState(schoolID: record?.schoolID, taps: record?.taps ?? 0, bestTapsPerSecond: record?.bestTapsPerSecond ?? 0)
    }
}
