// CONTRACT STUB — owned by the state-store work; replace the bodies, keep the signatures.

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

/// Everything that survives a restart.
public struct SavedState: Equatable, Sendable {
    /// Every school's total, by school id. Missing means 0.
    public var scores: [String: UInt64]
    public var players: [String: PlayerRecord]

    public init(scores: [String: UInt64] = [:], players: [String: PlayerRecord] = [:]) {
        self.scores = scores
        self.players = players
    }
}

/// What one process adds to the shared file at a sync: its own new taps, never whole totals,
/// so that two games on one file never overwrite each other's taps.
public struct PendingChanges: Equatable, Sendable {
    public var player: String
    /// New taps per school id since the last successful sync.
    public var scoreDeltas: [String: UInt64]
    /// New taps by this player since the last successful sync.
    public var playerTaps: UInt64
    public var bestTapsPerSecond: Int
    /// Set when the player switched school: their record restarts at `playerTaps` for this school.
    public var switchedToSchool: String?

    public init(player: String, scoreDeltas: [String: UInt64] = [:], playerTaps: UInt64 = 0,
                bestTapsPerSecond: Int = 0, switchedToSchool: String? = nil) {
        self.player = player
        self.scoreDeltas = scoreDeltas
        self.playerTaps = playerTaps
        self.bestTapsPerSecond = bestTapsPerSecond
        self.switchedToSchool = switchedToSchool
    }

    public var isEmpty: Bool { scoreDeltas.isEmpty && playerTaps == 0 && switchedToSchool == nil }
}

/// Something wrong with the state file that the player must be told about.
public enum StateProblem: Equatable, Sendable {
    /// The file could not be used (corrupt, truncated, newer version, not ours) and was kept as `keptAs`.
    case setAside(keptAs: String, reason: String)
    /// Abnormal values were reset one by one; the file as it was is kept as `backup`.
    case valuesReset(backup: String, details: [String])
}

public struct StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// The JSON state file in the data directory, shared safely by every game running on it.
public final class StateStore: @unchecked Sendable {
    public let directory: String
    public var path: String { "\(directory)/state.json" }

    public init(directory: String) { fatalError("StateStore not implemented yet") }

    /// Reads the file (creating nothing), repairing what it must and reporting it.
    public func load(catalog: Catalog) throws(StoreError) -> (state: SavedState, problems: [StateProblem]) { fatalError() }

    /// Under the lock: reads the file, adds `pending`, writes it atomically, and returns what is now saved,
    /// including every other game's taps. On failure nothing is lost: the caller keeps `pending`.
    public func sync(_ pending: PendingChanges, catalog: Catalog) throws(StoreError) -> SavedState { fatalError() }

    /// Starts all scores over; the file as it was is kept, and its new name returned.
    public func reset() throws(StoreError) -> String? { fatalError() }
}

/// Where the game keeps its files.
public enum DataDirectory {
    /// `--data-dir`, else `$TOUCHSCHOOL_HOME`, else `$XDG_DATA_HOME/touchschool`, else
    /// `~/.local/share/touchschool`.
    public static func resolve(explicit: String?, environment: [String: String]) -> String { fatalError() }
}
