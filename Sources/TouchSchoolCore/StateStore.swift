#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

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

    /// The login name: `$USER`, else the user database's name for this user.
    public static func defaultName(environment: [String: String]) -> String {
        if let user = environment["USER"], !user.isEmpty { return user }
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name, name.pointee != 0 { return String(cString: name) }
        return "uid\(getuid())"
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

    /// Every school's total by catalog position, as `Leaderboard(catalog:counts:)` takes them.
    /// Aliases add to the school they point to; ids the catalog does not know are left out.
    public func counts(in catalog: Catalog) -> [UInt64] {
        var counts = [UInt64](repeating: 0, count: catalog.count)
        for (id, count) in scores {
            guard let position = catalog.position(ofID: id) else { continue }
            let (sum, overflow) = counts[position].addingReportingOverflow(count)
            counts[position] = overflow ? .max : sum
        }
        return counts
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

/// What one `stat` says about a version of the state file. Every save replaces the file by rename,
/// which gives it a new inode; inodes are reused, so size and modification time are compared too.
public struct StateFileStamp: Equatable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int
}

/// The JSON state file in the data directory, shared safely by every game running on it.
///
/// File format (version 1), written with sorted ids so that the output is stable:
/// `{"format": "touchschool-state", "version": 1, "scores": {"<school id>": <count>, …},
///   "players": {"<name>": {"school": "<id>" | null, "taps": n, "bestTapsPerSecond": n}}}`
///
/// Every change happens under an exclusive `flock` on `state.lock`, beside the file: read, add this
/// game's deltas, replace atomically. The lock is on its own file because `state.json` is replaced
/// by rename, and a lock on it would guard the old inode.
public final class StateStore: Sendable {
    public let directory: String
    public var path: String { "\(directory)/state.json" }
    public var lockPath: String { "\(directory)/state.lock" }

    /// What this store last saw of the file, shared by whichever threads use the store.
    private let memory = Mutex(Memory())

    private struct Memory {
        /// `.some(nil)`: the file was missing at the last read.
        var lastStamp: StateFileStamp??
        var unreportedProblems: [StateProblem] = []
    }

    public init(directory: String) { self.directory = directory }

    /// Reads the file (creating nothing), repairing what it must and reporting it.
    public func load(catalog: Catalog) throws(StoreError) -> (state: SavedState, problems: [StateProblem]) {
        guard FileIO.exists(path) else {
            remember(stamp: nil)
            return (SavedState(), [])
        }
        return try withLock(required: false) { (locked) throws(StoreError) in
            if locked { removeInterruptedWrites() }
            let current = try readRepairing(catalog: catalog)
            if current.needsWrite { try write(current.state) }
            remember(stamp: currentStamp())
            return (current.state, current.problems)
        }
    }

    /// Under the lock: reads the file, adds `pending`, writes it atomically, and returns what is now saved,
    /// including every other game's taps. On failure nothing is lost: the caller keeps `pending`.
    ///
    /// Ids must come from `catalog`; aliases are saved under the id they point to, and ids that the
    /// catalog does not know are ignored. Problems met with the file are kept for
    /// `takeUnreportedProblems()`.
    public func sync(_ pending: PendingChanges, catalog: Catalog) throws(StoreError) -> SavedState {
        try withLock(required: true) { _ throws(StoreError) in
            var current = try readRepairing(catalog: catalog)
            let before = current.state
            Self.apply(pending, to: &current.state, catalog: catalog)
            if current.needsWrite || current.state != before { try write(current.state) }
            remember(stamp: currentStamp(), problems: current.problems)
            return current.state
        }
    }

    /// Starts all scores over; the file as it was is kept, and its new name returned.
    ///
    /// Players keep their school and best speed; their taps start over with the scores.
    /// Returns nil when there was no file to reset.
    public func reset() throws(StoreError) -> String? {
        try withLock(required: true) { _ throws(StoreError) -> String? in
            guard let bytes = try readBytes() else {
                remember(stamp: nil)
                return nil
            }
            let kept = try fileOperation("keep a copy of") { () throws(FileError) in
                try FileIO.copyAside(path, suffix: "reset-\(Self.timestamp())")
            }
            var fresh = SavedState()
            if case let .document(document) = Self.decode(bytes) {
                for (name, player) in Self.validate(document, catalog: nil).state.players {
                    fresh.players[name] = PlayerRecord(schoolID: player.schoolID, bestTapsPerSecond: player.bestTapsPerSecond)
                }
            }
            try write(fresh)
            remember(stamp: currentStamp())
            return kept
        }
    }

    /// Whether the file is no longer the version this store last read or wrote: one `stat`, no
    /// parsing, so an idle game can ask every second and reload only when another game saved.
    public func fileChangedSinceLastRead() -> Bool {
        let last = memory.withLock { $0.lastStamp }
        guard let last else { return true }
        return last != currentStamp()
    }

    /// Problems met by `sync` (a file set aside or repaired while the game ran) not yet returned.
    public func takeUnreportedProblems() -> [StateProblem] {
        memory.withLock { memory in
            defer { memory.unreportedProblems = [] }
            return memory.unreportedProblems
        }
    }

    // MARK: - Reading and repairing

    private struct Current {
        var state = SavedState()
        var problems: [StateProblem] = []
        /// The file on disk is not `state` (values were repaired) and must be rewritten.
        var needsWrite = false
    }

    /// Reads the file; sets aside one that cannot be used, and repairs abnormal values after
    /// keeping a copy. Called under the lock.
    private func readRepairing(catalog: Catalog) throws(StoreError) -> Current {
        guard let bytes = try readBytes() else { return Current() }
        switch Self.decode(bytes) {
        case let .unusable(kind, reason):
            let kept = try fileOperation("set aside") { () throws(FileError) in
                try FileIO.setAside(path, suffix: "\(kind)-\(Self.timestamp())")
            }
            return Current(problems: [.setAside(keptAs: kept, reason: reason)])
        case let .document(document):
            let validated = Self.validate(document, catalog: catalog)
            guard !validated.details.isEmpty else { return Current(state: validated.state) }
            let backup = try fileOperation("keep a copy of") { () throws(FileError) in
                try FileIO.copyAside(path, suffix: "backup-\(Self.timestamp())")
            }
            return Current(state: validated.state, problems: [.valuesReset(backup: backup, details: validated.details)],
                           needsWrite: true)
        }
    }

    /// The file's bytes, or nil when there is no file.
    private func readBytes() throws(StoreError) -> [UInt8]? {
        do {
            return try FileIO.read(path)
        } catch {
            if error.isMissing { return nil }
            throw StoreError(message: "Cannot read the saved scores: \(error)")
        }
    }

    private enum Decoded {
        case document(JSONValue)
        /// `kind` names the set-aside copy (`state.json.<kind>-<time>`).
        case unusable(kind: String, reason: String)
    }

    /// Checks that the bytes are a state file this version can read.
    private static func decode(_ bytes: [UInt8]) -> Decoded {
        if bytes.isEmpty { return .unusable(kind: "corrupt", reason: "the file is empty (truncated)") }
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes: bytes)
        } catch {
            let what = error.message.contains("end of file") ? "truncated" : "corrupt"
            return .unusable(kind: "corrupt", reason: "the file is \(what): not valid JSON at \(error)")
        }
        guard case .object = document else {
            return .unusable(kind: "foreign", reason: "not a TouchSchool state file: it is \(describe(document)), not an object")
        }
        guard let format = document["format"] else {
            return .unusable(kind: "foreign", reason: "not a TouchSchool state file: it has no \"format\"")
        }
        guard format == .string(formatName) else {
            return .unusable(kind: "foreign", reason: "not a TouchSchool state file: its format is \(describe(format))")
        }
        guard case let .number(versionText)? = document["version"], versionText.allSatisfy(\.isASCIIDigit) else {
            return .unusable(kind: "corrupt", reason: "the file is corrupt: its \"version\" is \(describe(document["version"]))")
        }
        guard let version = UInt64(versionText), version <= formatVersion else {
            return .unusable(kind: "newer", reason: "written by a newer TouchSchool (state version \(versionText); "
                                 + "this version reads up to \(formatVersion))")
        }
        guard version == formatVersion else {
            return .unusable(kind: "corrupt", reason: "the file is corrupt: unknown state version \(versionText)")
        }
        for member in ["scores", "players"] {
            guard case .object? = document[member] else {
                return .unusable(kind: "corrupt", reason: "the file is corrupt: \"\(member)\" is \(describe(document[member])), not an object")
            }
        }
        return .document(document)
    }

    /// The state a well-formed document holds, with every abnormal value reset and described.
    /// With a catalog, scores for unknown schools are dropped and aliases canonicalised; without
    /// one (at a reset), school ids are taken as written.
    private static func validate(_ document: JSONValue, catalog: Catalog?) -> (state: SavedState, details: [String]) {
        var state = SavedState()
        var details: [String] = []

        /// The id scores are kept under, nil for a school the catalog does not know.
        func canonicalID(_ id: String) -> String? {
            guard let catalog else { return id }
            return catalog.position(ofID: id).map { catalog[$0].id }
        }

        var seenScores = Set<String>()
        for (id, value) in document["scores"]?.objectValue ?? [] {
            guard seenScores.insert(id).inserted else {
                details.append("score of \(id) appeared twice: the repeat (\(describe(value))) was dropped")
                continue
            }
            guard let count = value.uint64Value else {
                details.append("score of \(id) was \(describe(value)) (\(abnormality(of: value))): reset to 0")
                continue
            }
            guard let canonical = canonicalID(id) else {
                details.append("score \(count) of unknown school \(id): removed")
                continue
            }
            if count > 0 { state.scores[canonical] = saturatingSum(state.scores[canonical] ?? 0, count) }
        }

        var seenPlayers = Set<String>()
        for (name, value) in document["players"]?.objectValue ?? [] {
            guard seenPlayers.insert(name).inserted else {
                details.append("player \(name) appeared twice: the repeat was dropped")
                continue
            }
            guard case .object = value else {
                details.append("player \(name) was \(describe(value)), not a record: removed")
                continue
            }
            var record = PlayerRecord()
            switch value["school"] {
            case nil, .null?:
                break
            case let .string(id)?:
                if let canonical = canonicalID(id) {
                    record.schoolID = canonical
                } else {
                    details.append("player \(name)'s school \(id) is unknown: cleared, with their taps")
                }
            case let other?:
                details.append("player \(name)'s school was \(describe(other)), not an id: cleared, with their taps")
            }
            if record.schoolID != nil {
                if let taps = value["taps"]?.uint64Value {
                    record.taps = taps
                } else {
                    details.append("player \(name)'s taps were \(describe(value["taps"])) (\(abnormality(of: value["taps"]))): reset to 0")
                }
            }
            if let best = value["bestTapsPerSecond"]?.uint64Value, best <= UInt64(Int.max) {
                record.bestTapsPerSecond = Int(best)
            } else {
                let best = value["bestTapsPerSecond"]
                details.append("player \(name)'s best taps per second was \(describe(best)) (\(abnormality(of: best))): reset to 0")
            }
            state.players[name] = record
        }
        return (state, details)
    }

    private static func apply(_ pending: PendingChanges, to state: inout SavedState, catalog: Catalog) {
        func canonicalID(_ id: String) -> String? { catalog.position(ofID: id).map { catalog[$0].id } }

        for (id, delta) in pending.scoreDeltas where delta > 0 {
            guard let canonical = canonicalID(id) else { continue }
            state.scores[canonical] = saturatingSum(state.scores[canonical] ?? 0, delta)
        }
        let playerChanges = !pending.isEmpty || pending.bestTapsPerSecond > 0
        guard playerChanges else { return }
        var record = state.players[pending.player] ?? PlayerRecord()
        if let school = pending.switchedToSchool {
            record.schoolID = canonicalID(school)
            record.taps = record.schoolID == nil ? 0 : pending.playerTaps
        } else if record.schoolID != nil {
            record.taps = saturatingSum(record.taps, pending.playerTaps)
        }
        record.bestTapsPerSecond = max(record.bestTapsPerSecond, pending.bestTapsPerSecond)
        state.players[pending.player] = record
    }

    // MARK: - Writing

    static let formatName = "touchschool-state"
    static let formatVersion: UInt64 = 1

    /// The file's bytes: one school per line, ids sorted, zero scores left out (missing means 0).
    static func encode(_ state: SavedState) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128 + state.scores.count * 28 + state.players.count * 96)
        writer.raw("{\n  \"format\": \"touchschool-state\",\n  \"version\": 1,\n  \"scores\": {")
        var first = true
        for (id, count) in state.scores.sorted(by: { $0.key < $1.key }) where count > 0 {
            writer.raw(first ? "\n    " : ",\n    ")
            first = false
            writer.string(id)
            writer.raw(": ")
            writer.number(count)
        }
        writer.raw(first ? "},\n  \"players\": {" : "\n  },\n  \"players\": {")
        first = true
        for (name, player) in state.players.sorted(by: { $0.key < $1.key }) {
            writer.raw(first ? "\n    " : ",\n    ")
            first = false
            writer.string(name)
            writer.raw(": {\"school\": ")
            if let school = player.schoolID { writer.string(school) } else { writer.raw("null") }
            writer.raw(", \"taps\": ")
            writer.number(player.taps)
            writer.raw(", \"bestTapsPerSecond\": ")
            writer.number(player.bestTapsPerSecond)
            writer.raw("}")
        }
        writer.raw(first ? "}\n}\n" : "\n  }\n}\n")
        return writer.bytes
    }

    private func write(_ state: SavedState) throws(StoreError) {
        let bytes = Self.encode(state)
        try fileOperation("save the scores to") { () throws(FileError) in try FileIO.replaceAtomically(path, with: bytes) }
    }

    // MARK: - Locking and file plumbing

    /// Runs `body` holding the exclusive lock. When the lock file cannot be opened and the lock is
    /// not `required` (reading a read-only directory), runs it unlocked: readers are safe anyway,
    /// since every save replaces the file whole.
    /// `body` is told whether it holds the lock.
    private func withLock<Result>(required: Bool, _ body: (Bool) throws(StoreError) -> Result) throws(StoreError) -> Result {
        var descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0 { descriptor = open(lockPath, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            if !required { return try body(false) }
            throw StoreError(message: "Cannot save the scores in \(directory): cannot open the lock file \(lockPath): \(Self.systemMessage(errno))")
        }
        defer { close(descriptor) }  // Closing releases the lock, also when the process dies.
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw StoreError(message: "Cannot lock \(lockPath): \(Self.systemMessage(errno))")
            }
        }
        return try body(true)
    }

    /// Removes temporary files of saves interrupted by a kill. Under the lock, any is stale: only
    /// the lock holder writes.
    private func removeInterruptedWrites() {
        guard let listing = opendir(directory) else { return }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name.hasPrefix("state.json"), name.contains(".tmp-") { unlink("\(directory)/\(name)") }
        }
    }

    private func currentStamp() -> StateFileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return StateFileStamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                              modifiedSeconds: Int(info.st_mtim.tv_sec), modifiedNanoseconds: Int(info.st_mtim.tv_nsec))
    }

    private func remember(stamp: StateFileStamp?, problems: [StateProblem] = []) {
        memory.withLock { memory in
            memory.lastStamp = .some(stamp)
            memory.unreportedProblems += problems
        }
    }

    private func fileOperation<Result>(_ what: String, _ operation: () throws(FileError) -> Result) throws(StoreError) -> Result {
        do {
            return try operation()
        } catch {
            throw StoreError(message: "Cannot \(what) \(path): \(error)")
        }
    }

    // MARK: - Words for problems

    private static func describe(_ value: JSONValue?) -> String {
        switch value {
        case nil: "missing"
        case .null?: "null"
        case let .bool(flag)?: flag ? "true" : "false"
        case let .number(text)?: text
        case let .string(text)?: "the text \"\(text)\""
        case .array?: "an array"
        case .object?: "an object"
        }
    }

    /// Why a value is not a count (a non-negative 64-bit integer).
    private static func abnormality(of value: JSONValue?) -> String {
        guard case let .number(text)? = value else { return "not a number" }
        if text.hasPrefix("-") { return "negative" }
        if !text.allSatisfy(\.isASCIIDigit) { return "not a whole number" }
        return "beyond 64 bits"
    }

    private static func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    private static func systemMessage(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// UTC, `20260320T101530Z`: names kept files so that they sort by time.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// Where the game keeps its files.
public enum DataDirectory {
    /// `--data-dir`, else `$TOUCHSCHOOL_HOME`, else `$XDG_DATA_HOME/touchschool`, else
    /// `~/.local/share/touchschool`.
    ///
    /// Empty values count as unset. A relative `$XDG_DATA_HOME` is ignored, as the XDG base
    /// directory specification asks. Without `$HOME`, the home directory comes from the user database.
    public static func resolve(explicit: String?, environment: [String: String]) -> String {
        func value(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        if let explicit = value(explicit) { return explicit }
        if let home = value(environment["TOUCHSCHOOL_HOME"]) { return home }
        if let dataHome = value(environment["XDG_DATA_HOME"]), dataHome.hasPrefix("/") { return "\(dataHome)/touchschool" }
        let home = value(environment["HOME"]) ?? userDatabaseHome() ?? "."
        return "\(home)/.local/share/touchschool"
    }

    /// Creates the directory (and its parents) on first use.
    public static func prepare(_ directory: String) throws(StoreError) {
        do {
            try FileIO.createDirectory(directory)
        } catch {
            throw StoreError(message: "Cannot create the data directory \(directory): \(error)")
        }
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError(message: "Cannot use \(directory) as the data directory: it is not a directory")
        }
    }

    private static func userDatabaseHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }
}
