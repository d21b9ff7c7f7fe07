import Synchronization
import TouchSchoolCore

public struct StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// The state file `state.json` in the data directory: the one source of truth of a local battle,
/// shared safely by every game and command running on it.
///
/// Every change happens under an exclusive lock on `state.lock`: read, add this game's deltas (or
/// apply a whole-state change such as a reset or an import's id mapping), replace atomically.
/// Reading never writes and never takes the lock: saves replace the file whole, so a reader sees
/// one version or the next. Nothing here drops a school or player it does not know.
public final class StateStore: Sendable {
    public let directory: String
    public var path: String { "\(directory)/state.json" }
    public var lockPath: String { "\(directory)/state.lock" }
    private let fileSystem: FileSystem
    private let clock: StoreClock

    /// How long a command waits for another process's lock before it gives up and says so. A
    /// save holds it for a few milliseconds; far longer means a stuck process. (A game's saving
    /// thread waits in line instead: nothing waits on it, and it must not starve.)
    public static let defaultLockTimeoutNanoseconds: Int64 = 1_000_000_000
    /// A state file is a few hundred kilobytes for the whole country; this bounds what a wrong or
    /// hostile file can make a process read.
    static let maximumFileSize = 64 << 20

    /// What this store last saw of the file, shared by whichever threads use the store.
    private let memory = Mutex(Memory())

    private struct Memory {
        /// `.some(nil)`: the file was missing at the last read.
        var lastStamp: FileStamp??
        /// The version of the file already backed up before a repair whose save then failed:
        /// the next try repairs it again without a second copy.
        var backedUpStamp: FileStamp?
        /// A file set aside or backed up by a change that then failed: the next try finds no file
        /// to set aside, or one already backed up, so the change that succeeds tells these.
        var untold: [StateProblem] = []
        var removedTemporaries = false
    }

    public init(directory: String, fileSystem: FileSystem = .live, clock: StoreClock = .live) {
        self.directory = directory
        self.fileSystem = fileSystem
        self.clock = clock
    }

    // MARK: - Reading

    /// The saved state as it is, without writing or locking anything. What needs repair is
    /// repaired in the returned state only and reported as `.notRepaired`; the file stays as it is
    /// until a save, which repairs it and keeps the original.
    public func read() throws(StoreError) -> (state: SavedState, problems: [StateProblem]) {
        let stampBefore = fileSystem.stamp(path)
        guard let bytes = try readBytes() else {
            remember(stamp: nil)
            return (SavedState(), [])
        }
        remember(stamp: stampBefore)
        switch StateFile.decode(bytes) {
        case let .unusable(_, reason):
            return (SavedState(), [.notRepaired(details: [reason])])
        case let .state(state, details, _):
            return (state, details.isEmpty ? [] : [.notRepaired(details: details)])
        }
    }

    /// Whether the file is no longer the version this store last read or wrote: one `stat`, no
    /// parsing, so an idle game can ask every half second and reload only when another saved.
    public func fileChangedSinceLastRead() -> Bool {
        let last = memory.withLock { $0.lastStamp }
        guard let last else { return true }
        return last != fileSystem.stamp(path)
    }

    // MARK: - Changing

    /// What a save returns: the state now saved, everyone's taps included, and what had to be
    /// repaired on the way.
    public struct Saved: Sendable {
        public var state: SavedState
        public var problems: [StateProblem]
    }

    /// Under the lock: reads the file, adds `pending`, writes it atomically. On failure nothing is
    /// lost: the caller keeps `pending`.
    ///
    /// Ids that are aliases in `aliases` (a starter school matched to its official entry) are
    /// saved under the id they point to (`followAliases`); every other id is saved as given.
    public func sync(_ pending: PendingChanges, aliases: [String: String] = [:],
                     lockTimeoutNanoseconds: Int64? = defaultLockTimeoutNanoseconds) throws(StoreError) -> Saved {
        try change(lockTimeoutNanoseconds: lockTimeoutNanoseconds) { state in
            let added = Self.apply(pending, to: &state)
            let moved = Self.followAliases(aliases, in: &state)
            return added || moved
        }
    }

    /// Under the lock, for the whole read-change-write: `body` changes the state and says whether
    /// it changed anything. A file that needs repair is repaired (and kept) whether or not it did.
    public func change(lockTimeoutNanoseconds: Int64? = defaultLockTimeoutNanoseconds,
                       _ body: (inout SavedState) throws(StoreError) -> Bool) throws(StoreError) -> Saved {
        try withLock(timeoutNanoseconds: lockTimeoutNanoseconds) { () throws(StoreError) -> Saved in
            removeInterruptedWritesOnce()
            var current = try readRepairing()
            do throws(StoreError) {
                let changed = try body(&current.state)
                if current.needsWrite || changed { try write(current.state, scoreOrder: current.scoreOrder) }
            } catch {
                // What was kept on disk is there whatever the failure: say so once a save succeeds.
                memory.withLock { $0.untold += current.problems }
                throw error
            }
            remember(stamp: fileSystem.stamp(path))
            let untold = memory.withLock { memory in
                defer { memory.untold = [] }
                return memory.untold
            }
            return Saved(state: current.state, problems: untold + current.problems)
        }
    }

    /// Starts all scores over; the file as it was is kept, and its new name returned.
    /// Players keep their school and best speed; their taps start over with the scores. A server's
    /// devices keep their last batch numbers.
    /// Returns nil when there was no file to reset.
    public func reset() throws(StoreError) -> String? {
        try withLock(timeoutNanoseconds: 10 * Self.defaultLockTimeoutNanoseconds) { () throws(StoreError) -> String? in
            guard let bytes = try readBytes() else {
                remember(stamp: nil)
                return nil
            }
            let kept = try fileOperation("keep a copy of") { () throws(FileError) in
                try fileSystem.keepCopy(of: path, bytes: bytes, suffix: "reset-\(clock.timestamp())")
            }
            var fresh = SavedState()
            if case let .state(state, _, _) = StateFile.decode(bytes) {
                for (name, player) in state.players {
                    fresh.players[name] = PlayerRecord(schoolID: player.schoolID, bestTapsPerSecond: player.bestTapsPerSecond)
                }
                // A server's devices keep their numbering: a batch applied before the reset must
                // not count again after it. The board moves on, so that clients take the new one.
                fresh.devices = state.devices
                fresh.boardVersion = state.devices.isEmpty && state.boardVersion == 0 ? 0 : state.boardVersion.addingSaturating(1)
            }
            try write(fresh)
            remember(stamp: fileSystem.stamp(path))
            return kept
        }
    }

    // MARK: - Rules of a change

    /// Adds `pending` to `state`; returns whether anything changed.
    static func apply(_ pending: PendingChanges, to state: inout SavedState) -> Bool {
        var changed = false
        for (id, delta) in pending.scoreDeltas where delta > 0 {
            state.scores[id] = (state.scores[id] ?? 0).addingSaturating(delta)
            changed = true
        }
        let before = state.players[pending.player]
        guard !pending.isEmpty || pending.bestTapsPerSecond > (before?.bestTapsPerSecond ?? 0) else { return changed }
        let record = BattleRules.player(before ?? PlayerRecord(), adding: pending.playerTaps,
                                        switchedTo: pending.switchedToSchool, best: pending.bestTapsPerSecond)
        state.players[pending.player] = record
        return changed || record != before
    }

    /// Moves scores and players' schools kept under a former id to the id it now points to: the
    /// one place where starter ids become official ids, always under the lock (by every save, with
    /// the saver's catalog, and by the import, with the new one).
    public static func followAliases(_ aliases: [String: String], in state: inout SavedState) -> Bool {
        var changed = false
        for (formerID, target) in aliases {
            if let count = state.scores.removeValue(forKey: formerID) {
                state.scores[target] = (state.scores[target] ?? 0).addingSaturating(count)
                changed = true
            }
        }
        for (name, record) in state.players {
            if let school = record.schoolID, let target = aliases[school] {
                state.players[name]?.schoolID = target
                changed = true
            }
        }
        return changed
    }

    // MARK: - Reading and repairing, under the lock

    private struct Current {
        var state = SavedState()
        var problems: [StateProblem] = []
        /// The file on disk is not `state` (values were repaired) and must be rewritten.
        var needsWrite = false
        /// The file's score ids, ascending, for the write to reuse instead of sorting them again.
        var scoreOrder: [String]?
    }

    /// Reads the file; sets aside one that cannot be used, and repairs abnormal values after
    /// keeping a copy, once per version of the file.
    private func readRepairing() throws(StoreError) -> Current {
        guard let bytes = try readBytes() else { return Current() }
        switch StateFile.decode(bytes) {
        case let .unusable(kind, reason):
            let kept = try fileOperation("set aside") { () throws(FileError) in
                try fileSystem.setAside(path, suffix: "\(kind)-\(clock.timestamp())")
            }
            return Current(problems: [.setAside(keptAs: kept, reason: reason)], needsWrite: true)
        case let .state(state, details, scoreOrder):
            guard !details.isEmpty else { return Current(state: state, scoreOrder: scoreOrder) }
            let stamp = fileSystem.stamp(path)
            if stamp != nil, memory.withLock({ $0.backedUpStamp }) == stamp {
                return Current(state: state, needsWrite: true, scoreOrder: scoreOrder)
            }
            let backup = try fileOperation("keep a copy of") { () throws(FileError) in
                try fileSystem.keepCopy(of: path, bytes: bytes, suffix: "backup-\(clock.timestamp())")
            }
            memory.withLock { $0.backedUpStamp = stamp }
            return Current(state: state, problems: [.valuesReset(backup: backup, details: details)], needsWrite: true,
                           scoreOrder: scoreOrder)
        }
    }

    /// The file's bytes, or nil when there is no file.
    private func readBytes() throws(StoreError) -> [UInt8]? {
        do {
            return try fileSystem.read(path, Self.maximumFileSize)
        } catch {
            if error.isMissing { return nil }
            throw StoreError(message: "Cannot read the saved scores: \(error)")
        }
    }

    private func write(_ state: SavedState, scoreOrder: [String]? = nil) throws(StoreError) {
        let bytes = StateFile.encode(state, scoreOrder: scoreOrder)
        try fileOperation("save") { () throws(FileError) in try fileSystem.replaceAtomically(path, with: bytes) }
    }

    // MARK: - Locking and file plumbing

    /// `timeoutNanoseconds` nil: waits in line as long as it takes (see `FileSystem.lock`).
    private func withLock<Result>(timeoutNanoseconds: Int64?, _ body: () throws(StoreError) -> Result) throws(StoreError) -> Result {
        let held: HeldLock?
        do {
            held = try fileSystem.lock(lockPath, clock: clock, timeoutNanoseconds: timeoutNanoseconds)
        } catch {
            throw StoreError(message: "Cannot save the scores in \(directory): \(error)")
        }
        guard let held else {
            let seconds = Double(timeoutNanoseconds ?? 0) / 1e9
            throw StoreError(message: "Another process has held the scores' lock for over \(seconds) s (\(lockPath)); will try again")
        }
        defer { held.release() }
        return try body()
    }

    /// Temporary files of saves interrupted by a kill. Under the lock any is stale: only the lock
    /// holder writes. Once per store: later ones would be this process's own.
    private func removeInterruptedWritesOnce() {
        let first = memory.withLock { memory in
            defer { memory.removedTemporaries = true }
            return !memory.removedTemporaries
        }
        if first { fileSystem.removeTemporaries(of: path) }
    }

    private func remember(stamp: FileStamp?) {
        memory.withLock { $0.lastStamp = .some(stamp) }
    }

    private func fileOperation<Result>(_ what: String, _ operation: () throws(FileError) -> Result) throws(StoreError) -> Result {
        do {
            return try operation()
        } catch {
            throw StoreError(message: "Cannot \(what) the scores: \(error)")
        }
    }
}
