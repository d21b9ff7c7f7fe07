import TouchSchoolCore
import TouchSchoolProtocol

/// The battle as the server last said it is: every school's total and this device's player. What
/// the game shows is this plus the taps still waiting in the outbox.
public struct BoardMirror: Codable, Equatable, Sendable {
    public var version: UInt64
    public var scores: [String: UInt64]
    public var player: PlayerState?

    public init(version: UInt64 = 0, scores: [String: UInt64] = [:], player: PlayerState? = nil) {
        self.version = version
        self.scores = scores
        self.player = player
    }

    /// A welcome of protocol 1 brings the whole board and the player.
    public mutating func take(_ welcome: Welcome) {
        if let board = welcome.board {
            version = board.version
            scores = board.scores
        }
        player = welcome.player
    }

    /// Changed totals (not increments) since an earlier board; an older board changes nothing.
    public mutating func apply(_ changes: BoardChanges) {
        guard changes.version >= version else { return }
        version = changes.version
        for (id, total) in changes.scores { scores[id] = total }
    }

    /// A batch is saved on the server. Its taps leave the outbox now, so they go on the board now
    /// (when all were counted), until the server's next board says the totals.
    public mutating func acknowledged(_ ack: Acknowledgement, batch: TapBatch?) {
        player = ack.player
        if let batch, ack.refused == 0 {
            for (id, taps) in batch.taps { scores[id] = scores[id, default: 0].addingSaturating(taps) }
        }
    }

    /// The board with the outbox's taps added, as the game's store would hold it, for `player`.
    public func savedState(adding outbox: Outbox, player name: String) -> SavedState {
        var scores = self.scores
        var record = player.map { PlayerRecord(schoolID: $0.schoolID, taps: $0.taps, bestTapsPerSecond: $0.bestTapsPerSecond) }
        for batch in outbox.batches {
            for (id, taps) in batch.taps { scores[id] = scores[id, default: 0].addingSaturating(taps) }
            record = BattleRules.player(record ?? PlayerRecord(), adding: batch.playerTaps, switchedTo: batch.switchedToSchool, best: batch.bestTapsPerSecond)
        }
        return SavedState(scores: scores, players: record.map { [name: $0] } ?? [:])
    }

    /// What a `.synced` answer carries: the board plus the outbox, by position in `catalog`.
    public func board(adding outbox: Outbox, catalog: Catalog, generation: Int, player name: String) -> SyncedBoard {
        SyncedBoard(savedState(adding: outbox, player: name), catalog: catalog, generation: generation, player: name)
    }
}
