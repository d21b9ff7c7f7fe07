import Foundation
import Glibc
import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore
@testable import TouchSchoolStore

/// Real processes on one data directory: each runs `StateStoreWorker` (built beside the tests),
/// a game's saving alone in a program.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct StateStoreProcessTests {
    let catalog = storeTestCatalog()

    static let workerPath: String = {
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("StateStoreWorker").path
    }()

    /// Starts `StateStoreWorker directory player school rounds` (rounds 0: until killed).
    func spawnWorker(directory: String, player: String, school: String, rounds: Int) throws -> pid_t {
        try Subprocess.startSharingOutput(Self.workerPath, [directory, player, school, String(rounds)]).get()
    }

    /// Waits for the child; kills it after `seconds`. Returns its `wait` status.
    func wait(for pid: pid_t, seconds: Double = 120) -> Int32 {
        var status: Int32 = 0
        guard Wait.untilBlocking(timeout: seconds, every: .milliseconds(2), { waitpid(pid, &status, WNOHANG) != 0 }) else {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            Issue.record("child \(pid) did not finish within \(seconds) s")
            return status
        }
        return status
    }

    func exitCode(_ status: Int32) -> Int32? { status & 0x7F == 0 ? (status >> 8) & 0xFF : nil }
    func signal(_ status: Int32) -> Int32 { status & 0x7F }

    @Test func concurrentGamesLoseNoTaps() throws {
        let directory = StoreTestDirectory()
        let games = 4
        let syncsPerGame = 150
        let schools = ["S1", "S2", "S3"]
        let children = try (0..<games).map { game in
            try spawnWorker(directory: directory.path, player: "player\(game)", school: schools[game % 3], rounds: syncsPerGame)
        }
        for child in children { #expect(exitCode(wait(for: child)) == 0) }

        let loaded = try StateStore(directory: directory.path).read()
        #expect(loaded.problems.isEmpty)
        var expected: [String: UInt64] = ["S1": UInt64(games * syncsPerGame)]
        for game in 0..<games { expected[schools[game % 3], default: 0] += UInt64(syncsPerGame) }
        #expect(loaded.state.scores == expected)
        for game in 0..<games {
            #expect(loaded.state.players["player\(game)"] ==
                        PlayerRecord(schoolID: "S2", taps: UInt64(syncsPerGame), bestTapsPerSecond: syncsPerGame - 1))
        }
    }

    @Test func killedDuringSavesAlwaysLeavesAFileThatLoads() throws {
        let directory = StoreTestDirectory()
        let store = StateStore(directory: directory.path)
        _ = try store.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 1], playerTaps: 1, switchedToSchool: "S1"),
                           catalog: catalog)
        var generator = SystemRandomNumberGenerator()
        var lastCount: UInt64 = 1
        for _ in 0..<20 {
            // Each of the worker's saves adds one tap to S1 and one to S2 in the same write.
            let child = try spawnWorker(directory: directory.path, player: "kim", school: "S2", rounds: 0)
            // Killed while it saves, not before it started: once a save of its own is on disk (a
            // busy machine can take longer to start a process than a fixed delay), a little later.
            let saving = Wait.untilBlocking(timeout: 60, every: .milliseconds(5)) {
                ((try? StateStore(directory: directory.path).read().state.scores["S1"]) ?? 0) > lastCount
            }
            usleep(UInt32.random(in: 0...40_000, using: &generator))
            kill(child, SIGKILL)
            #expect(saving, "the worker never saved within a minute")
            #expect(signal(wait(for: child)) == SIGKILL)

            let loaded = try StateStore(directory: directory.path).read()
            #expect(loaded.problems.isEmpty, "problems after a kill: \(loaded.problems)")
            let count = try #require(loaded.state.scores["S1"])
            #expect(count >= lastCount)
            #expect(loaded.state.scores["S2", default: 0] == count - 1, "a save is whole or absent, never half")
            lastCount = count
            // The killed save's temporary file stays until the next save, which removes it.
            _ = try StateStore(directory: directory.path).sync(PendingChanges(player: "kim"))
            #expect(directory.entries() == ["state.json", "state.lock"])
        }
        #expect(lastCount > 1, "the children never saved")
    }
}

/// Files the store cannot write: errors, never crashes, and the caller's pending changes survive.
@Suite(.onOwnThreads, .serialized) struct StateStoreWriteFailureTests {
    let catalog = storeTestCatalog()

    @Test func directoryUnderARegularFileThrowsAClearError() throws {
        let root = StoreTestDirectory()
        try FileSystem.live.replaceAtomically("\(root.path)/file", with: [1])
        let store = StateStore(directory: "\(root.path)/file/touchschool")
        let pending = PendingChanges(player: "kim", scoreDeltas: ["S1": 3])
        let error = try #require(throws: StoreError.self) { try store.syncState(pending, catalog: catalog) }
        #expect(error.message.contains("\(root.path)/file/touchschool"))
        #expect(error.message.contains("Not a directory"))
        #expect(try store.read().state == SavedState())
        #expect(throws: StoreError.self) { try store.reset() }
    }

    @Test(.enabled(if: geteuid() != 0, "running as root, chmod does not stop writes: see readOnlyFileSystem"))
    func readOnlyDirectoryThrowsAndKeepsTheFile() throws {
        let directory = StoreTestDirectory()
        let store = StateStore(directory: directory.path)
        _ = try store.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 2]), catalog: catalog)
        chmod(directory.path, 0o555)
        defer { chmod(directory.path, 0o755) }
        let error = try #require(throws: StoreError.self) {
            try store.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 3]), catalog: catalog)
        }
        #expect(error.message.contains("Permission denied"))
        #expect(try store.read().state.scores == ["S1": 2])
    }

    @Test(.enabled("needs root and tmpfs mounts to make a read-only file system") { StoreTestMount.isPossible })
    func readOnlyFileSystem() throws {
        let mount = try #require(StoreTestMount(sizeKiB: 256))
        let store = StateStore(directory: mount.path)
        _ = try store.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 2]), catalog: catalog)
        try #require(mount.remountReadOnly())
        let pending = PendingChanges(player: "kim", scoreDeltas: ["S1": 3])
        let error = try #require(throws: StoreError.self) { try store.syncState(pending, catalog: catalog) }
        #expect(error.message.contains("Read-only file system"), "message: \(error.message)")
        #expect(try store.read().state.scores == ["S1": 2])
    }

    @Test(.enabled("needs root and tmpfs mounts to make a full disk") { StoreTestMount.isPossible })
    func fullDiskThrowsKeepsTheOldFileAndRetrySucceeds() throws {
        let mount = try #require(StoreTestMount(sizeKiB: 64))
        let store = StateStore(directory: mount.path)
        _ = try store.syncState(PendingChanges(player: "kim", scoreDeltas: ["S1": 5]), catalog: catalog)
        let filler = "\(mount.path)/filler"
        fillDisk(filler)

        let pending = PendingChanges(player: "kim", scoreDeltas: ["S1": 3, "S2": 1])
        let error = try #require(throws: StoreError.self) { try store.syncState(pending, catalog: catalog) }
        #expect(error.message.contains("No space left on device"), "message: \(error.message)")
        #expect(try store.read().state.scores == ["S1": 5])
        #expect(!FileIO.exists("\(store.path).tmp-\(getpid())"))

        unlink(filler)
        // The space comes back when the last descriptor of the filler closes: a program another
        // test forks at that moment holds a copy until it executes (close-on-exec).
        #expect(mount.waitForFreeSpace(kib: 16), "the filler's space came back")
        #expect(try store.syncState(pending, catalog: catalog).scores == ["S1": 8, "S2": 1])
    }

    /// Writes to `path` until the file system refuses.
    func fillDisk(_ path: String) {
        // Close-on-exec: a program another test starts meanwhile must not keep the filler open
        // (and its space taken) after this test unlinks it.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0x2A, count: 4096)
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // The last page may have taken a partial write; fill what is left byte by byte.
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) > 0 {}
    }
}

/// A small tmpfs mounted on a temporary directory, for honest full-disk and read-only tests.
/// Only root may mount.
final class StoreTestMount {
    let directory = StoreTestDirectory()
    var path: String { directory.path }

    init?(sizeKiB: Int) {
        guard geteuid() == 0, mount("tmpfs", directory.path, "tmpfs", 0, "size=\(sizeKiB)k") == 0 else { return nil }
    }

    func remountReadOnly() -> Bool {
        mount("tmpfs", path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0
    }

    /// Waits up to 5 s until `kib` KiB are free on the mount; whether they are.
    func waitForFreeSpace(kib: Int) -> Bool {
        Wait.untilBlocking(timeout: 5, every: .milliseconds(10)) {
            var stats = statvfs()
            return statvfs(path, &stats) == 0 && Int(stats.f_bavail) * Int(stats.f_frsize) >= kib << 10
        }
    }

    deinit { umount2(path, Int32(MNT_DETACH)) }

    static var isPossible: Bool { StoreTestMount(sizeKiB: 16) != nil }
}
