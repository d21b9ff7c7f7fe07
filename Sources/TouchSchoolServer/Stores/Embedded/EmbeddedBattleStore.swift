import Dispatch
import Foundation
import Synchronization
import TouchSchoolCore
import TouchSchoolStore

/// The battle in the data directory, for one server: `state.json` through `StateStore` (its
/// lock, one fsync per commit window), the catalog from the directory's imported `catalog.json`
/// or the starter catalog. Local games on the same directory save into the same file.
final class EmbeddedBattleStore: BattleStore {
    let store: StateStore
    let starterCatalogPath: String?
    /// `battle.id` of the data directory, made at the first start.
    let identity: String
    /// The state as last read or saved: the devices' records for a hello, the board at start.
    private let saved: Mutex<SavedState>
    /// A catalog file that could not be read, not to be tried again until it changes.
    private let unreadableCatalog = Mutex<String?>(nil)
    private let queue = DispatchQueue(label: "touchschool.save")

    var name: String { "the data directory \(store.directory)" }

    /// Reads the saved state; `warn` hears of a file that needs repair (the first save repairs it).
    init(store: StateStore, starterCatalogPath: String?, warn: (String) -> Void) throws(StoreError) {
        self.store = store
        self.starterCatalogPath = starterCatalogPath
        identity = try BattleIdentityFile.loadOrCreate(dataDirectory: store.directory)
        let (state, problems) = try store.read()
        for case let .notRepaired(details) in problems {
            warn("The saved scores need repair; the first save repairs them and keeps a copy: \(details)")
        }
        saved = Mutex(state)
    }

    func battleID() async -> String { identity }

    func board() async -> StoredBoard {
        saved.withLock { StoredBoard(version: $0.boardVersion, scores: $0.scores.filter { $0.value > 0 }) }
    }

    func device(_ device: String) async -> (DeviceRecord, PlayerRecord)? {
        saved.withLock { state in state.devices[device].map { ($0, state.players[device] ?? PlayerRecord()) } }
    }

    func commit(_ batches: [ReceivedBatch], histories: [String: DeviceTapHistory], catalog: Catalog,
                nowMs: Int64) async throws(BattleStoreError) -> CommittedWindow {
        let store = self.store
        let aliases = catalog.aliases
        let outcome: Result<CommittedWindow, StoreError> = await withCheckedContinuation { continuation in
            queue.async {
                var histories = histories
                var rules: CommitRules.Result?
                do throws(StoreError) {
                    // Waits in line for the lock: a local game on the same directory holds it briefly.
                    let result = try store.change(lockTimeoutNanoseconds: 10 * StateStore.defaultLockTimeoutNanoseconds) { state in
                        var result = CommitRules.apply(batches, to: &state, histories: &histories, catalog: catalog, nowMs: nowMs)
                        // Scores kept under a starter id move to the official id, as every
                        // local save does (after an import into the server's directory).
                        let moved = aliases.filter { state.scores[$0.key] != nil }
                        let followed = StateStore.followAliases(aliases, in: &state)
                        if !moved.isEmpty {
                            result.changedSchools.formUnion(moved.keys)
                            result.changedSchools.formUnion(moved.values)
                            state.boardVersion = state.boardVersion.addingSaturating(1)
                        }
                        rules = result
                        return followed || result.outcomes.contains { if case .acknowledged = $0 { true } else { false } }
                    }
                    let rulesResult = rules!
                    // Every total that differs from the last state this server read: its own
                    // window's, and what local games on the same directory saved meanwhile.
                    let previous = self.saved.withLock { $0.scores }
                    var changed: [String: UInt64] = [:]
                    for (id, total) in result.state.scores where previous[id] != total { changed[id] = total }
                    for id in previous.keys where result.state.scores[id] == nil { changed[id] = 0 }
                    continuation.resume(returning: .success(CommittedWindow(
                        rules: rulesResult, histories: histories,
                        board: StoredBoard(version: result.state.boardVersion, scores: changed),
                        notes: result.problems.map { "\($0)" })))
                    self.saved.withLock { $0 = result.state }
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        switch outcome {
        case let .success(window): return window
        case let .failure(error): throw BattleStoreError(message: error.message)
        }
    }

    /// One server owns the board: nothing changes it behind the server's back (a local game on
    /// the same directory is seen at the next save).
    func changes(since version: UInt64) async -> StoredBoard? { nil }

    /// The imported `catalog.json` of the data directory, else the starter catalog.
    static func catalogPath(dataDirectory: String, starter: String?) -> String? {
        let imported = CatalogFile.importedCatalogPath(inDataDirectory: dataDirectory)
        return FileIO.exists(imported) ? imported : starter
    }

    /// Takes up an import made while the server runs: the file's path or stamp changed.
    func newCatalog(current: CatalogResource?) async throws(BattleStoreError) -> CatalogResource? {
        guard let path = Self.catalogPath(dataDirectory: store.directory, starter: starterCatalogPath) else {
            if current == nil { throw BattleStoreError(message: "the starter catalog is missing from the installation") }
            return nil
        }
        let stamp = CatalogResource.stamp(of: path)
        let key = "\(path) \(stamp ?? "")"
        guard path != current?.path || stamp != current?.stamp, current == nil || key != unreadableCatalog.withLock({ $0 }) else { return nil }
        let loaded: Result<CatalogResource, CatalogFileError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(CatalogFileError) { continuation.resume(returning: .success(try CatalogResource(path: path))) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        switch loaded {
        case let .success(resource): return resource
        case let .failure(error):
            unreadableCatalog.withLock { $0 = key }
            throw BattleStoreError(message: "cannot read the school catalog: \(error)")
        }
    }
}
