import TouchSchoolCore
import TouchSchoolProtocol

/// A batch received from a connection, waiting for the next save.
struct ReceivedBatch: Sendable {
    var connection: ConnectionID
    var device: String
    /// The cleaned display name from the connection's hello.
    var player: String
    var batch: TapBatch
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
    /// minutes of the guard's rate. A known device is judged from its last judged time, which
    /// is kept with the scores, so a restart or an outage of any length loses none of its taps.
    static let newDeviceBacklogMs: Int64 = 120_000

    struct Result: Sendable {
        var outcomes: [BatchOutcome]
        /// Schools whose totals changed.
        var changedSchools: Set<String>
        var accepted: UInt64 = 0
        var refused: UInt64 = 0
    }

    /// Applies `batches` to `state` in order; `histories` is the devices' judges (updated).
    /// Returns whether anything changed; a batch out of order stops the later batches of its
    /// connection (they are reported out of order too and counted nowhere).
    static func apply(_ batches: [ReceivedBatch], to state: inout SavedState, histories: inout [String: DeviceTapHistory],
                      catalog: Catalog, nowMs: Int64) -> Result {
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
            // A history older than the saved record is from before another server (sharing the
            // store) judged this device: the record's time is the truth.
            var history = histories[device].flatMap { $0.lastEndMs >= record.lastEndMs ? $0 : nil }
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
            let verdict = history.judge(taps: claimed, startMs: batch.startMs, endMs: batch.endMs, nowMs: nowMs)
            histories[device] = history
            // The accepted taps are taken from the schools in id order.
            var remaining = verdict.accepted
            var acceptedBySchool: [String: UInt64] = [:]
            for (id, taps) in known where remaining > 0 {
                let take = min(taps, remaining)
                remaining -= take
                acceptedBySchool[id, default: 0] += take
                state.scores[id] = (state.scores[id] ?? 0).addingSaturating(take)
                result.changedSchools.insert(id)
            }
            // The player's own record, as a local save applies it, with only accepted taps.
            let before = state.players[device] ?? PlayerRecord()
            let switchedTo = batch.switchedTo.flatMap { catalog.position(ofID: $0) }.map { catalog[$0].id }
            let school = switchedTo ?? before.schoolID
            let playerAccepted = school.map { min(batch.playerTaps, acceptedBySchool[$0] ?? 0) } ?? 0
            let player = BattleRules.player(before, adding: playerAccepted, switchedTo: switchedTo,
                                            best: min(max(0, batch.best), maximumBestTapsPerSecond))
            state.players[device] = player
            record.lastSeq = batch.seq
            record.lastEndMs = history.lastEndMs
            record.player = received.player
            state.devices[device] = record
            let refused = verdict.refused.addingSaturating(unknownTaps)
            result.accepted = result.accepted.addingSaturating(verdict.accepted)
            result.refused = result.refused.addingSaturating(refused)
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
        PlayerState(school: record?.schoolID, taps: record?.taps ?? 0, best: record?.bestTapsPerSecond ?? 0)
    }
}
