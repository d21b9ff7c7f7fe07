import Dispatch
import Synchronization
import TouchSchoolCore
import TouchSchoolStore

/// The battle of the games that share one data directory: saves to the state file on a thread
/// of its own, so that a slow disk or another process holding the lock never stops input or
/// frames; notices an import (a new `catalog.json`) and prepares the new catalog there too.
public final class LocalBattle: BattleConnection {
    private let store: StateStore
    private let fileSystem: FileSystem
    private let catalogPath: String
    private let player: String
    /// One save at a time, in order.
    private let queue = DispatchQueue(label: "touchschool.local-battle")
    /// The answers saved and not yet taken by the game.
    private let answers = Mutex<[GameEvent]>([])
    private let wake = Mutex<(@Sendable () -> Void)?>(nil)
    /// What the saving thread knows; only that thread touches it (the lock makes that checkable).
    private let saver: Mutex<Saver>

    private struct Saver {
        var catalog: Catalog {
            // A snapshot's catalog makes its aliases into a dictionary when asked: once per catalog.
            didSet { aliases = catalog.aliases }
        }
        /// `catalog.aliases`, which every save follows.
        var aliases: [String: String]
        var generation = 0
        /// The `catalog.json` the catalog came from; nil for the starter catalog.
        var catalogStamp: FileStamp?
    }

    /// - Parameters:
    ///   - catalog: the catalog the game started with (generation 0).
    ///   - catalogStamp: the stamp of `catalog.json` taken before `catalog` was read from it
    ///     (nil when the game started with the starter catalog), so an import in between is seen.
    public init(store: StateStore, player: String, catalog: Catalog, catalogStamp: FileStamp?,
                fileSystem: FileSystem = .live) {
        self.store = store
        self.fileSystem = fileSystem
        self.player = player
        self.catalogPath = CatalogFile.importedCatalogPath(inDataDirectory: store.directory)
        self.saver = Mutex(Saver(catalog: catalog, aliases: catalog.aliases, catalogStamp: catalogStamp))
    }

    public func submit(_ changes: PendingChanges) {
        queue.async { [self] in
            let events = saver.withLock { saver in save(changes, saver: &saver) }
            answers.withLock { $0 += events }
            wake.withLock { $0 }?()
        }
    }

    public func whenEventsArrive(_ wake: @escaping @Sendable () -> Void) {
        self.wake.withLock { $0 = wake }
    }

    /// Never asked (`GameState.isOnServer` is false): a local game ranks from the whole board it holds.
    public func watch(_ page: PageWatch?) {}

    /// Never asked either: a local game's map glows with the taps of the whole board it holds.
    public func showMap(_ shows: Bool) {}

    /// Never asked either: a local battle has no seasons.
    public func rankBy(_ period: RankingPeriod) {}

    public func takeEvents() -> [GameEvent] {
        answers.withLock { events in
            defer { events.removeAll(keepingCapacity: true) }
            return events
        }
    }

    public func finish(timeoutNanoseconds: Int64) -> Bool {
        queue.asyncAndWait(timeoutNanoseconds: timeoutNanoseconds)
    }

    /// On the saving thread: takes up a new catalog, saves, and says what happened.
    private func save(_ changes: PendingChanges, saver: inout Saver) -> [GameEvent] {
        var events: [GameEvent] = []
        // The new catalog before the save: the save then follows its aliases, so that taps the
        // game still counts under a starter id go to the official id the import moved them to,
        // instead of bringing the starter id back into the file.
        let imported = takeUpNewCatalog(saver: &saver)
        var saved: StateStore.Saved?
        var failed = false
        // Nothing of ours to add and nobody else saved: a `stat` instead of reading the file.
        if !changes.isEmpty || store.fileChangedSinceLastRead() {
            do {
                // Waits in line for the lock: this thread is the only one that waits.
                saved = try store.sync(changes, aliases: saver.aliases, lockTimeoutNanoseconds: nil)
            } catch {
                events.append(.syncFailed(changes, reason: error.message))
                failed = true
            }
        }
        if imported {
            let state = saved?.state ?? (try? store.read().state) ?? SavedState()
            events.append(.catalogReplaced(CatalogReplacement(generation: saver.generation, catalog: saver.catalog, saved: state)))
        }
        if !failed {
            events.append(.synced(saved.map { SyncedBoard($0.state, catalog: saver.catalog, generation: saver.generation, player: player) }))
        }
        if let problems = saved?.problems, !problems.isEmpty { events.append(.stateProblems(problems)) }
        return events
    }

    /// Whether `catalog.json` changed since last seen and was read into `saver` as the next
    /// generation. A catalog that cannot be read (a hand edit gone wrong) leaves the game on the
    /// one it has.
    private func takeUpNewCatalog(saver: inout Saver) -> Bool {
        guard let stamp = fileSystem.stamp(catalogPath), stamp != saver.catalogStamp else { return false }
        saver.catalogStamp = stamp
        guard let catalog = try? CatalogFile.load(path: catalogPath, snapshotPath: CatalogSnapshotFile.path(forCatalog: catalogPath)).catalog else { return false }
        saver.catalog = catalog
        saver.generation += 1
        return true
    }
}
