import Synchronization
import TouchSchoolCore
import TouchSchoolStore
@testable import TouchSchoolServer

/// A store that keeps the battle in memory, for tests of what uses a store (the battle, its
/// routes) and as the third store of the store suite: `CommitRules` applied to a `SavedState`,
/// all or nothing, with failures and delays to inject.
///
/// The battle lives in a `Storage` shared by every store made on it, as a file or a database
/// outlives the server that wrote it: a new store on the same storage is a restart.
final class InMemoryBattleStore: BattleStore {
    /// The saved battle, and what the next operations do.
    final class Storage: Sendable {
        let identity = BattleIdentityFile.randomID()
        fileprivate let state = Mutex(SavedState())
        fileprivate let behaviour = Mutex(Behaviour())
        /// Commits begun, and finished (saved or failed), for tests that wait for one.
        fileprivate let commitsBegun = Mutex(0)
        fileprivate let commitsTried = Mutex(0)

        init() {}

        var saved: SavedState { state.withLock { $0 } }
        var commitsStarted: Int { commitsBegun.withLock { $0 } }
        var commitsAttempted: Int { commitsTried.withLock { $0 } }

        /// Commits (and reads) fail with `message` until set back to nil.
        func failCommits(_ message: String?) { behaviour.withLock { $0.commitFailure = message } }
        /// Each commit takes this long before it is saved.
        func delayCommits(_ delay: Duration) { behaviour.withLock { $0.commitDelay = delay } }
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

    func commit(_ batches: [ReceivedBatch], histories: [String: DeviceTapHistory], catalog: Catalog,
                nowMs: Int64) async throws(BattleStoreError) -> CommittedWindow {
        let behaviour = storage.behaviour.withLock { $0 }
        storage.commitsBegun.withLock { $0 += 1 }
        defer { storage.commitsTried.withLock { $0 += 1 } }
        if behaviour.commitDelay > .zero { try? await Task.sleep(for: behaviour.commitDelay) }
        if let failure = behaviour.commitFailure { throw BattleStoreError(message: failure) }
        return storage.state.withLock { saved in
            var state = saved
            var histories = histories
            let before = state.scores
            let rules = CommitRules.apply(batches, to: &state, histories: &histories, catalog: catalog, nowMs: nowMs)
            saved = state
            let changed = state.scores.filter { before[$0.key] != $0.value }
            return CommittedWindow(rules: rules, histories: histories, board: StoredBoard(version: state.boardVersion, scores: changed))
        }
    }

    /// Nothing else writes the storage.
    func changes(since version: UInt64) async -> StoredBoard? { nil }

    func newCatalog(current: CatalogResource?) async -> CatalogResource? { current == nil ? catalog : nil }
}
