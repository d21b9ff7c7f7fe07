import Benchmark
import BenchmarkSupport
import TouchSchoolCore
import TouchSchoolStore

#if canImport(Glibc)
import Glibc
#endif

/// A game on the full official list with a school chosen, and a clock that advances like a human
/// mashing 26 keys at 20 taps a second, so that every tap is counted (the guard never refuses).
final class MashingGame: @unchecked Sendable {
    var state: GameState
    var nanoseconds: Int64 = 0
    let keys = Array("qwertyuiopasdfghjklzxcvbnm")
    var keyIndex = 0

    init(catalog: Catalog) {
        state = GameState(catalog: catalog, saved: SavedState(), player: "bench", language: .korean,
                          now: Instant(nanoseconds: 0), columns: 200, rows: 60, seed: 1,
                          startingSchool: catalog.count / 2)
    }

    func tap() {
        nanoseconds += 50_000_000
        keyIndex = keyIndex == keys.count - 1 ? 0 : keyIndex + 1
        blackHole(update(&state, .key(.character(keys[keyIndex])), now: Instant(nanoseconds: nanoseconds)))
    }
}

/// A data directory of its own for one save benchmark, with a state file where every school has
/// a score; removed when the benchmark ends.
final class SaveFixture: @unchecked Sendable {
    let directory: String
    let store: StateStore
    /// The state file's bytes, for the baseline to write.
    private(set) var bytes: [UInt8] = []

    init(root: String, name: String) {
        directory = "\(root)/touchschool-bench-\(getpid())-\(name)"
        store = StateStore(directory: directory)
    }

    func setUp(catalog: Catalog) {
        try? FileIO.createDirectory(directory)
        var everyone = PendingChanges(player: "bench")
        for school in catalog.schools { everyone.scoreDeltas[school.id] = 1 }
        _ = try? store.sync(everyone, aliases: catalog.aliases)
        bytes = (try? FileIO.read(store.path)) ?? []
    }

    func tearDown() {
        for entry in FileIO.list(directory) { unlink("\(directory)/\(entry)") }
        rmdir(directory)
    }
}

final class Tally: @unchecked Sendable {
    var scores: [String: UInt64] = [:]
}

let benchmarks: @Sendable () -> Void = {
    let catalog = OfficialData.catalog()
    let perTap = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds,
        scalingFactor: .kilo, maxDuration: .seconds(5)
    )

    // The whole tap: guard, counter, ring, leaderboard (four leagues), pending changes.
    let game = MashingGame(catalog: catalog)
    Benchmark("tap: update with 12,011 schools", configuration: perTap) { benchmark in
        for _ in benchmark.scaledIterations { game.tap() }
    }

    // Baseline: the least any tap can cost, one dictionary increment keyed by school id.
    let naive = Tally()
    let id = catalog[catalog.count / 2].id
    Benchmark("tap baseline: dictionary increment", configuration: perTap) { benchmark in
        for _ in benchmark.scaledIterations { naive.scores[id, default: 0] += 1 }
        blackHole(naive.scores)
    }

    // Saving: one tap's sync on a state file where every school has a score (12,011 ids). The
    // baseline is the file system's share alone: the same bytes written the same atomic way.
    // Twice: on the disk (/tmp), where fsync waits for a disk shared with other work, and in
    // tmpfs (/dev/shm), where fsync returns at once, so that what the save itself costs shows
    // through the disk's noise.
    let saving = Benchmark.Configuration(metrics: [.wallClock], timeUnits: .microseconds, maxDuration: .seconds(10), maxIterations: 500)
    for (label, root) in [("save", "/tmp"), ("save in tmpfs", "/dev/shm")] {
        let syncing = SaveFixture(root: root, name: "sync")
        let oneTap = PendingChanges(player: "bench", scoreDeltas: [catalog[0].id: 1], playerTaps: 1)
        Benchmark("\(label): sync 12,011 scores (lock, read, merge, write, fsync, rename)", configuration: saving, closure: { _ in
            blackHole(try? syncing.store.sync(oneTap, aliases: catalog.aliases, lockTimeoutNanoseconds: StateStore.defaultLockTimeoutNanoseconds).state)
        }, setup: { syncing.setUp(catalog: catalog) }, teardown: { syncing.tearDown() })
        let writing = SaveFixture(root: root, name: "write")
        Benchmark("\(label) baseline: write the same bytes atomically", configuration: saving, closure: { _ in
            try? FileSystem.live.replaceAtomically("\(writing.directory)/copy.json", with: writing.bytes)
        }, setup: { writing.setUp(catalog: catalog) }, teardown: { writing.tearDown() })
    }

    // Memory: ten million taps cost no more than a thousand (the original app's freeze).
    let memory = Benchmark.Configuration(metrics: [.peakMemoryResident, .mallocCountTotal], timeUnits: .milliseconds,
                                         maxDuration: .seconds(60), maxIterations: 1)
    Benchmark("memory: 1,000 taps", configuration: memory) { _ in
        let game = MashingGame(catalog: catalog)
        for _ in 0..<1_000 { game.tap() }
        blackHole(game)
    }
    Benchmark("memory: 10,000,000 taps", configuration: memory) { _ in
        let game = MashingGame(catalog: catalog)
        for _ in 0..<10_000_000 { game.tap() }
        blackHole(game)
    }

    judgeBenchmarks()
    boardViewBenchmarks(catalog: catalog)
}
