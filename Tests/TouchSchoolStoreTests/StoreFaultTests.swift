import Dispatch
import Glibc
import Synchronization
import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore
import TouchSchoolLocalBattle
@testable import TouchSchoolStore

/// Faults that cannot be made for real in a test (a full disk, a lock another process never
/// releases, a disk that takes its time to flush), made by replacing one operation of the file
/// system. Everything else is the real file system in a scratch directory, so that what the test
/// checks on disk is what a player would find there.
@Suite(.onOwnThreads) struct StoreFaultTests {
    let catalog = storeTestCatalog()

    // MARK: - A full disk

    @Test func aFullDiskLosesNothingAndChangesNothing() throws {
        let directory = StoreTestDirectory()
        let disk = FaultyDisk()
        let store = StateStore(directory: directory.path, fileSystem: disk.fileSystem)
        _ = try store.sync(PendingChanges(player: "kim", scoreDeltas: ["S1": 5], playerTaps: 5, switchedToSchool: "S1"))
        let before = try FileIO.read(store.path)

        disk.full(true)
        // The game keeps its changes after a failed save and tries again with the same ones.
        let pending = PendingChanges(player: "kim", scoreDeltas: ["S1": 3, "S2": 4], playerTaps: 3)
        for _ in 0..<3 {
            let error = #expect(throws: StoreError.self) { try store.sync(pending) }
            // The cause first: it is what the player can act on.
            #expect(error?.message.hasPrefix("Cannot save the scores: No space left on device") == true, "\(String(describing: error))")
            #expect(try FileIO.read(store.path) == before, "the file on disk is the last good save")
            #expect(directory.entries() == ["state.json", "state.lock"], "the half-written temporary file is removed")
        }
        #expect(disk.failedWrites.load(ordering: .relaxed) == 3, "the fault was hit, not avoided")

        disk.full(false)
        let saved = try store.sync(pending)
        #expect(saved.problems.isEmpty)
        // Exactly once: three failed tries added nothing, the successful one added everything.
        #expect(saved.state == SavedState(scores: ["S1": 8, "S2": 4], players: ["kim": PlayerRecord(schoolID: "S1", taps: 8)]))
        #expect(try StateStore(directory: directory.path).read().state == saved.state)
        #expect(directory.entries() == ["state.json", "state.lock"])
    }

    /// A file that needs repair is backed up before it is rewritten. When the rewrite fails, the
    /// next try must not back it up again: a game retrying every few seconds on a full disk would
    /// otherwise fill it further with copies. The player is told once the repair is saved.
    @Test func repairOnAFullDiskBacksUpOnceAndTellsWhenSaved() throws {
        let directory = StoreTestDirectory()
        let text = """
            {"format": "touchschool-state", "version": 1, "scores": {"S1": -7, "S2": 2},
             "players": {"kim": {"school": "S2", "taps": 2, "bestTapsPerSecond": 4}}}
            """
        try writeStateFile(directory, text)
        let disk = FaultyDisk()
        let store = StateStore(directory: directory.path, fileSystem: disk.fileSystem)
        let pending = PendingChanges(player: "kim", scoreDeltas: ["S2": 1], playerTaps: 1)
        func backups() -> [String] { directory.entries().filter { $0.hasPrefix("state.json.backup-") } }

        // No room at all: not even the backup can be written, and nothing is left behind.
        disk.full(true)
        for _ in 0..<3 {
            let error = #expect(throws: StoreError.self) { try store.sync(pending) }
            #expect(error?.message.contains("No space left on device") == true, "\(String(describing: error))")
        }
        #expect(directory.entries() == ["state.json", "state.lock"])

        // Room for the copy but not for the state file (the disk fills between the two).
        disk.full(false)
        disk.failOnlyStateFile(true)
        for _ in 0..<3 {
            let error = #expect(throws: StoreError.self) { try store.sync(pending) }
            #expect(error?.message.contains("No space left on device") == true, "\(String(describing: error))")
        }
        #expect(backups().count == 1, "entries: \(directory.entries())")
        #expect(try FileIO.read(store.path) == Array(text.utf8))

        disk.failOnlyStateFile(false)
        let saved = try store.sync(pending)
        #expect(backups().count == 1, "entries: \(directory.entries())")
        let backup = "\(directory.path)/\(try #require(backups().first))"
        #expect(try FileIO.read(backup) == Array(text.utf8))
        #expect(saved.state == SavedState(scores: ["S2": 3], players: ["kim": PlayerRecord(schoolID: "S2", taps: 3, bestTapsPerSecond: 4)]))
        // The backup was made by a try that failed; the save that repaired the file says so.
        guard case let .valuesReset(reported, details)? = saved.problems.first, saved.problems.count == 1 else {
            Issue.record("expected the repair to be reported once, got \(saved.problems)")
            return
        }
        #expect(reported == backup)
        #expect(details.count == 1 && details.first?.contains("score of S1 was -7 (negative)") == true, "details: \(details)")
        #expect(try store.sync(pending).problems.isEmpty, "told once")
    }

    /// An unusable file is set aside (a rename, which needs no room) before a fresh one is
    /// written. When that write fails, the next try finds no file: it must still tell the player,
    /// once saved, where their old file went.
    @Test func setAsideOnAFullDiskIsToldWhenSaved() throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, "{\"format\": \"touchschool-state\", \"vers")
        let disk = FaultyDisk()
        let store = StateStore(directory: directory.path, fileSystem: disk.fileSystem)
        let pending = PendingChanges(player: "kim", scoreDeltas: ["S1": 2])
        func keptFiles() -> [String] { directory.entries().filter { $0.hasPrefix("state.json.corrupt-") } }

        disk.full(true)
        for _ in 0..<3 { #expect(throws: StoreError.self) { try store.sync(pending) } }
        #expect(keptFiles().count == 1, "entries: \(directory.entries())")

        disk.full(false)
        let saved = try store.sync(pending)
        #expect(saved.state.scores == ["S1": 2])
        let kept = "\(directory.path)/\(try #require(keptFiles().first))"
        #expect(try FileIO.read(kept) == Array("{\"format\": \"touchschool-state\", \"vers".utf8))
        guard case let .setAside(keptAs, reason)? = saved.problems.first, saved.problems.count == 1 else {
            Issue.record("expected the set-aside file to be reported once, got \(saved.problems)")
            return
        }
        #expect(keptAs == kept)
        #expect(reason.contains("truncated"), "reason: \(reason)")
        #expect(try store.sync(pending).problems.isEmpty, "told once")
    }

    // MARK: - A lock that stays held

    @Test func aCommandGivesUpOnAStuckLockAfterTheTimeout() throws {
        let directory = StoreTestDirectory()
        let time = FakeTime()
        var fileSystem = FileSystem.live
        let tries = Shared(0)
        fileSystem.tryLock = { _ in
            tries.withLock { $0 += 1 }
            return nil // another process holds it, and keeps holding it
        }
        let store = StateStore(directory: directory.path, fileSystem: fileSystem, clock: time.clock)

        let error = #expect(throws: StoreError.self) { try store.sync(PendingChanges(player: "kim", scoreDeltas: ["S1": 1])) }
        #expect(error?.message.contains("\(directory.path)/state.lock") == true, "\(String(describing: error))")
        #expect(error?.message.contains("lock") == true)
        // It waited the whole second (on the fake clock) before giving up, and not much longer.
        let waited = time.now.load(ordering: .relaxed)
        #expect(waited >= 1_000_000_000 && waited < 1_100_000_000, "waited \(waited) ns")
        #expect(tries.value > 1, "tried again while waiting")
        #expect(!FileIO.exists(store.path), "nothing written without the lock")
    }

    @Test func aGameKeepsPlayingWhileItsSaveWaitsForAStuckLock() throws {
        let directory = StoreTestDirectory()
        let entered = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        var fileSystem = FileSystem.live
        fileSystem.tryLock = { _ in nil }
        fileSystem.waitForLock = { (path) throws(FileError) in
            entered.signal()
            // Bounded only so that a broken `submit` that waits for the save fails the test
            // instead of hanging it.
            guard released.wait(timeout: .now() + .seconds(20)) == .success else {
                throw FileError(path: path, operation: "lock (the test never released it)", code: ETIMEDOUT)
            }
            return try FileSystem.live.waitForLock(path)
        }
        let store = StateStore(directory: directory.path, fileSystem: fileSystem)
        let battle = LocalBattle(store: store, player: "kim", catalog: catalog, catalogStamp: nil, fileSystem: fileSystem)

        battle.submit(PendingChanges(player: "kim", scoreDeltas: ["S1": 3, "S2": 4], playerTaps: 3, switchedToSchool: "S1"))
        // Here `submit` has returned and the lock is not released: the save is stuck inside it.
        #expect(entered.wait(timeout: .now() + .seconds(20)) == .success, "the save reached the lock")
        #expect(battle.takeEvents().isEmpty, "no answer while the save waits")
        #expect(!battle.finish(timeoutNanoseconds: 20_000_000))
        #expect(battle.takeEvents().isEmpty)

        released.signal()
        #expect(battle.finish(timeoutNanoseconds: 20_000_000_000))
        #expect(battle.takeEvents() == [
            .synced(SyncedBoard(catalogGeneration: 0, counts: [3, 4, 0], player: PlayerRecord(schoolID: "S1", taps: 3))),
        ])
        #expect(try StateStore(directory: directory.path).read().state.scores == ["S1": 3, "S2": 4])
    }

    // MARK: - A slow disk

    @Test func submitReturnsBeforeASlowFsyncAndAnswersInOrder() throws {
        let directory = StoreTestDirectory()
        let log = Shared<[String]>([])
        let writing = DispatchSemaphore(value: 0)
        let flushed = DispatchSemaphore(value: 0)
        var fileSystem = FileSystem.live
        fileSystem.writeDurably = { (path, bytes) throws(FileError) in
            writing.signal()
            // Bounded only so that a `submit` that waits for the save fails instead of hanging.
            let released = flushed.wait(timeout: .now() + .seconds(20)) == .success
            try FileSystem.live.writeDurably(path, bytes)
            log.withLock { $0.append(released ? "flushed" : "flushed before the test released it") }
        }
        let store = StateStore(directory: directory.path, fileSystem: fileSystem)
        let battle = LocalBattle(store: store, player: "kim", catalog: catalog, catalogStamp: nil, fileSystem: fileSystem)

        battle.submit(PendingChanges(player: "kim", scoreDeltas: ["S1": 2], playerTaps: 2, switchedToSchool: "S1"))
        log.withLock { $0.append("first submit returned") }
        battle.submit(PendingChanges(player: "kim", scoreDeltas: ["S1": 5, "S3": 1], playerTaps: 5))
        log.withLock { $0.append("second submit returned") }
        #expect(writing.wait(timeout: .now() + .seconds(20)) == .success, "the first save is flushing")
        #expect(battle.takeEvents().isEmpty)

        flushed.signal()
        #expect(writing.wait(timeout: .now() + .seconds(20)) == .success, "the second save is flushing")
        flushed.signal()
        #expect(battle.finish(timeoutNanoseconds: 20_000_000_000))
        #expect(log.value == ["first submit returned", "second submit returned", "flushed", "flushed"])
        #expect(battle.takeEvents() == [
            .synced(SyncedBoard(catalogGeneration: 0, counts: [2, 0, 0], player: PlayerRecord(schoolID: "S1", taps: 2))),
            .synced(SyncedBoard(catalogGeneration: 0, counts: [7, 0, 1], player: PlayerRecord(schoolID: "S1", taps: 7))),
        ])
        #expect(battle.takeEvents().isEmpty, "each answer comes once")
    }

    // MARK: - An import while a game runs

    @Test func aGameNoticesAnImportAndSavesUnderTheOfficialIDs() throws {
        let directory = StoreTestDirectory()
        let starter = Catalog(schools: catalog.schools, source: .starter)
        _ = try StateStore(directory: directory.path).sync(
            PendingChanges(player: "kim", scoreDeltas: ["S1": 10], playerTaps: 10, switchedToSchool: "S1"))
        _ = try StateStore(directory: directory.path).sync(
            PendingChanges(player: "lee", scoreDeltas: ["S3": 4], playerTaps: 4, switchedToSchool: "S3"))
        let store = StateStore(directory: directory.path)
        let battle = LocalBattle(store: store, player: "kim", catalog: starter, catalogStamp: nil)

        // The import: S1 was found in the official list as B000000001; S3 has a score and is kept.
        func school(_ id: String, _ name: String, listed: Bool = true) -> School {
            School(id: id, name: name, level: .elementary, province: "서울특별시", district: "종로구", address: "", isListed: listed)
        }
        let official = Catalog(
            schools: [school("B000000000", "신설초등학교"), school("B000000001", "학교S1"), school("S3", "학교S3", listed: false)],
            aliases: ["S1": "B000000001"], source: .official(edition: "2026-03-20"))
        try FileSystem.live.replaceAtomically("\(directory.path)/catalog.json", with: CatalogFile.encode(official))

        // The game still counts under the id it knows.
        battle.submit(PendingChanges(player: "kim", scoreDeltas: ["S1": 2], playerTaps: 2))
        #expect(battle.finish(timeoutNanoseconds: 20_000_000_000))
        let events = battle.takeEvents()
        #expect(events.count == 2, "events: \(events)")
        guard case let .catalogReplaced(replacement)? = events.first else {
            Issue.record("expected the new catalog first, got \(events)")
            return
        }
        #expect(replacement.generation == 1)
        #expect(replacement.catalog.schools.map(\.id) == ["B000000000", "B000000001", "S3"])
        #expect(replacement.leaderboard.count(of: 1) == 12, "ranked with the saved totals")
        // In the new catalog's positions, the starter school's taps at its official entry.
        #expect(events.last == .synced(SyncedBoard(catalogGeneration: 1, counts: [0, 12, 4],
                                                   player: PlayerRecord(schoolID: "B000000001", taps: 12))))

        let text = String(decoding: try FileIO.read(store.path), as: UTF8.self)
        #expect(!text.contains("\"S1\""), "saved under the official id: \(text)")
        #expect(try StateStore(directory: directory.path).read().state.scores == ["B000000001": 12, "S3": 4])
    }

    // MARK: - One game per player name

    @Test func aNameIsHeldByOneGameAtATime() throws {
        let directory = StoreTestDirectory()
        guard case let .held(first) = PlayerLock.claim(player: "kim", dataDirectory: directory.path) else {
            Issue.record("the first game gets the name")
            return
        }
        guard case .taken = PlayerLock.claim(player: "kim", dataDirectory: directory.path) else {
            Issue.record("a second game under the same name is refused")
            return
        }
        // Another name is another lock.
        guard case let .held(other) = PlayerLock.claim(player: "lee", dataDirectory: directory.path) else {
            Issue.record("another name is free")
            return
        }
        first.release()
        guard case let .held(again) = PlayerLock.claim(player: "kim", dataDirectory: directory.path) else {
            Issue.record("released, the name is free again")
            return
        }
        again.release()
        other.release()
    }

    @Test func anyNameCanBeClaimed() throws {
        let directory = StoreTestDirectory()
        // The two long names differ only after the first 100 bytes: still two locks.
        let names = ["a/b/../c", "line\nbreak", String(repeating: "한", count: 100), String(repeating: "한", count: 100) + "님",
                     ".", "kim.lock"]
        var held: [HeldLock] = []
        for name in names {
            guard case let .held(lock) = PlayerLock.claim(player: name, dataDirectory: directory.path) else {
                Issue.record("\(name.debugDescription) cannot be claimed")
                continue
            }
            held.append(lock)
            guard case .taken = PlayerLock.claim(player: name, dataDirectory: directory.path) else {
                Issue.record("\(name.debugDescription) is not held")
                continue
            }
        }
        // One plain file per name in `players`, whatever the name: nothing outside, no subdirectory.
        #expect(directory.entries() == ["players"])
        let files = FileIO.list("\(directory.path)/players")
        #expect(files.count == names.count, "files: \(files)")
        for file in files {
            #expect(file.utf8.count <= 255 && file.hasSuffix(".lock"))
            #expect(file.dropLast(5).allSatisfy { "0123456789abcdef-".contains($0) }, "\(file)")
        }
        // A short name's file is the hex of its bytes, so that the lock is found by name.
        #expect(files.contains("6b696d2e6c6f636b.lock"), "kim.lock as hex")
        for lock in held { lock.release() }
    }

    @Test func aDirectoryThatCannotBeCreatedMakesTheLockUnavailable() throws {
        let directory = StoreTestDirectory()
        try FileSystem.live.replaceAtomically("\(directory.path)/file", with: [1])
        guard case let .unavailable(error) = PlayerLock.claim(player: "kim", dataDirectory: "\(directory.path)/file") else {
            Issue.record("a data directory under a regular file cannot hold a lock")
            return
        }
        #expect(error.code == ENOTDIR)
    }

    // MARK: - Reading writes nothing

    @Test(arguments: [
        "{\"format\": \"touchschool-state\", \"version\": 1, \"scores\": {\"S1\": -1, \"S2\": 2}, \"players\": {}}",
        "{\"format\": \"touchschool-state\", \"vers",
    ])
    func readingAFileThatNeedsRepairWritesNothing(_ text: String) throws {
        let directory = StoreTestDirectory()
        try writeStateFile(directory, text)
        let path = "\(directory.path)/state.json"
        let stampBefore = try #require(FileIO.stamp(path))
        let entriesBefore = directory.entries()
        // Every operation that writes, removes or locks is recorded, then done for real, so that
        // the file's stamp and the directory would show it too.
        let writes = Shared<[String]>([])
        let live = FileSystem.live
        var fileSystem = live
        fileSystem.writeDurably = { (path, bytes) throws(FileError) in
            writes.withLock { $0.append("write \(path)") }
            try live.writeDurably(path, bytes)
        }
        fileSystem.rename = { (from, to) throws(FileError) in
            writes.withLock { $0.append("rename \(from)") }
            try live.rename(from, to)
        }
        fileSystem.remove = { path in
            writes.withLock { $0.append("remove \(path)") }
            live.remove(path)
        }
        fileSystem.createDirectory = { (path) throws(FileError) in
            writes.withLock { $0.append("mkdir \(path)") }
            try live.createDirectory(path)
        }
        fileSystem.tryLock = { (path) throws(FileError) in
            writes.withLock { $0.append("lock \(path)") }
            return try live.tryLock(path)
        }
        fileSystem.waitForLock = { (path) throws(FileError) in
            writes.withLock { $0.append("lock \(path)") }
            return try live.waitForLock(path)
        }
        let store = StateStore(directory: directory.path, fileSystem: fileSystem)

        let loaded = try store.read()
        guard case .notRepaired? = loaded.problems.first else {
            Issue.record("expected the problem to be reported as not repaired, got \(loaded.problems)")
            return
        }
        #expect(writes.value.isEmpty)
        #expect(FileIO.stamp(path) == stampBefore)
        #expect(directory.entries() == entriesBefore)
        #expect(try FileIO.read(path) == Array(text.utf8))
    }
}

// MARK: - Fakes

/// The real file system, except that writes fail with `ENOSPC` while the disk is "full": after
/// writing part of the bytes, as a real full disk does, so that the half-written file is there
/// to be cleaned up.
final class FaultyDisk: Sendable {
    private let isFull = Atomic<Bool>(false)
    /// Only the state file's own write fails: there was room for a smaller or earlier file.
    private let stateFileOnly = Atomic<Bool>(false)
    let failedWrites = Atomic<Int>(0)

    func full(_ value: Bool) { isFull.store(value, ordering: .relaxed) }
    func failOnlyStateFile(_ value: Bool) { stateFileOnly.store(value, ordering: .relaxed) }

    var fileSystem: FileSystem {
        var fileSystem = FileSystem.live
        fileSystem.writeDurably = { [self] (path, bytes) throws(FileError) in
            let isStateFile = FileIO.split(path).name.hasPrefix("state.json.tmp-")
            guard isFull.load(ordering: .relaxed) || (stateFileOnly.load(ordering: .relaxed) && isStateFile) else {
                return try FileSystem.live.writeDurably(path, bytes)
            }
            failedWrites.add(1, ordering: .relaxed)
            try FileSystem.live.writeDurably(path, Array(bytes.prefix(bytes.count / 2)))
            throw FileError(path: path, operation: "write", code: ENOSPC)
        }
        return fileSystem
    }
}

/// A value the test and the fakes' closures share.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<Result>(_ body: (inout sending Value) -> sending Result) -> sending Result { mutex.withLock(body) }
    var value: Value { mutex.withLock { $0 } }
}

/// A monotonic clock that only moves when slept on: waiting a second takes no real time.
final class FakeTime: Sendable {
    let now = Atomic<Int64>(0)

    var clock: StoreClock {
        StoreClock(
            monotonicNanoseconds: { [self] in now.load(ordering: .relaxed) },
            wallSeconds: { 1_774_000_000 },
            sleep: { [self] nanoseconds in now.add(nanoseconds, ordering: .relaxed) }
        )
    }
}
