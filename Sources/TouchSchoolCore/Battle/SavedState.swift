/// One player's own numbers. Several players may share one data directory (a lab machine); each
/// is known by a name, by default the login name.
public struct PlayerRecord: Equatable, Sendable {
    public var schoolID: String?
    /// Taps since choosing `schoolID`.
    public var taps: UInt64
    public var bestTapsPerSecond: Int

    public init(schoolID: String? = nil, taps: UInt64 = 0, bestTapsPerSecond: Int = 0) {
        self.schoolID = schoolID
        self.taps = taps
        self.bestTapsPerSecond = bestTapsPerSecond
    }
}

/// A networked installation as `touchschool serve` knows it, by its device key: the last batch
/// number applied (batches are applied once each, in order) and the player's display name. Saved
/// with the scores in the same write, so a batch is counted exactly once across crashes.
public struct DeviceRecord: Equatable, Sendable {
    public var lastSeq: UInt64
    public var player: String
    /// The end of the device's last judged batch, in the client's milliseconds since 1970 (0:
    /// none yet). Kept with the scores so that a restarted server judges a device's waiting taps
    /// from where it left off instead of refusing what was played offline meanwhile.
    public var lastEndMs: Int64

    public init(lastSeq: UInt64 = 0, player: String = "", lastEndMs: Int64 = 0) {
        self.lastSeq = lastSeq
        self.player = player
        self.lastEndMs = lastEndMs
    }
}

/// Everything that survives a restart: the battle as the shared store holds it.
///
/// Ids are kept as the store holds them, whether or not a given catalog knows them: a game with
/// an older catalog must never drop another game's school.
public struct SavedState: Equatable, Sendable {
    /// Every school's total, by school id. Missing means 0.
    public var scores: [String: UInt64]
    public var players: [String: PlayerRecord]
    /// Devices of a server's players, by device key (empty for local play). Every reader and
    /// writer keeps them.
    public var devices: [String: DeviceRecord]
    /// Grows with every save of a server that changed a total (0 for local play).
    public var boardVersion: UInt64

    public init(scores: [String: UInt64] = [:], players: [String: PlayerRecord] = [:],
                devices: [String: DeviceRecord] = [:], boardVersion: UInt64 = 0) {
        self.scores = scores
        self.players = players
        self.devices = devices
        self.boardVersion = boardVersion
    }

    /// Every school's total by catalog position, as `Leaderboard(catalog:counts:)` takes them.
    /// Aliases add to the school they point to; ids the catalog does not know are left out of the
    /// counts (and kept in the state).
    public func counts(in catalog: Catalog) -> [UInt64] {
        var counts = [UInt64](repeating: 0, count: catalog.count)
        for (id, count) in scores {
            guard let position = catalog.position(ofID: id) else { continue }
            counts[position] = counts[position].addingSaturating(count)
        }
        return counts
    }
}

/// What one game adds to the shared state at a sync: its own new taps, never whole totals, so
/// that two games on one store never overwrite each other's taps.
public struct PendingChanges: Equatable, Sendable {
    public var player: String
    /// New taps per school id since the last successful sync.
    public var scoreDeltas: [String: UInt64]
    /// New taps by this player since the last successful sync.
    public var playerTaps: UInt64
    public var bestTapsPerSecond: Int
    /// Set when the player switched school: their record restarts at `playerTaps` for this school.
    public var switchedToSchool: String?
    /// When the first of these taps was made (by `MonotonicClock`), when the game knows: a
    /// server's round counts a batch's taps by when they were made (docs/protocol.md, "Rounds"),
    /// so a batch must not claim the idle time before its first tap. Not part of what the
    /// changes are: `==` leaves it out.
    public var firstTapAt: Instant?

    public init(player: String, scoreDeltas: [String: UInt64] = [:], playerTaps: UInt64 = 0,
                bestTapsPerSecond: Int = 0, switchedToSchool: String? = nil, firstTapAt: Instant? = nil) {
        self.player = player
        self.scoreDeltas = scoreDeltas
        self.playerTaps = playerTaps
        self.bestTapsPerSecond = bestTapsPerSecond
        self.switchedToSchool = switchedToSchool
        self.firstTapAt = firstTapAt
    }

    public static func == (left: PendingChanges, right: PendingChanges) -> Bool {
        left.player == right.player && left.scoreDeltas == right.scoreDeltas && left.playerTaps == right.playerTaps
            && left.bestTapsPerSecond == right.bestTapsPerSecond && left.switchedToSchool == right.switchedToSchool
    }

    public var isEmpty: Bool { scoreDeltas.isEmpty && playerTaps == 0 && switchedToSchool == nil }

    /// These changes and `later` as one, as if never split.
    public func merged(with later: PendingChanges) -> PendingChanges {
        var result = self
        for (id, taps) in later.scoreDeltas { result.scoreDeltas[id] = (result.scoreDeltas[id] ?? 0).addingSaturating(taps) }
        if let school = later.switchedToSchool {
            result.switchedToSchool = school
            result.playerTaps = later.playerTaps
        } else {
            result.playerTaps = result.playerTaps.addingSaturating(later.playerTaps)
        }
        result.bestTapsPerSecond = max(result.bestTapsPerSecond, later.bestTapsPerSecond)
        result.firstTapAt = [firstTapAt, later.firstTapAt].compactMap { $0 }.min()
        return result
    }
}

/// Something wrong with the saved state that the player must be told about.
public enum StateProblem: Equatable, Sendable {
    /// The file could not be used (corrupt, truncated, newer version, not ours) and was kept as `keptAs`.
    case setAside(keptAs: String, reason: String)
    /// Abnormal values were reset one by one; the file as it was is kept as `backup`.
    case valuesReset(backup: String, details: [String])
    /// Found by a reader, which never writes: the values are read as repaired (0 for a bad
    /// value, nothing for an unusable file) and the file is left as it is until a save repairs
    /// it (or forever, in a directory where nothing can be saved).
    case notRepaired(details: [String])
}

extension UInt64 {
    /// Scores never wrap: a count at the top stays there. The one saturating add of the project.
    public func addingSaturating(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
