import Benchmark
import BenchmarkSupport
import TouchSchoolCore
import TouchSchoolView

/// One frame at 200×60: the game screen with 30 live puffs and the leaderboard, and the
/// full ranking screen (from the catalog in memory, and mapped from its snapshot as the game reads
/// it); beside the baseline of merely clearing a grid of that size.
let benchmarks: @Sendable () -> Void = {
    let catalog = OfficialData.catalog()
    var state = GameState(catalog: catalog, saved: SavedState(), player: "bench", language: .korean,
                          now: Instant(nanoseconds: 0), columns: 200, rows: 60, seed: 1, startingSchool: catalog.count / 2)
    let keys = Array("qwertyuiopasdfghjklzxcvbnm")
    for i in 0..<30 {
        _ = update(&state, .key(.character(keys[i % keys.count])), now: .milliseconds(Int64(i) * 20))
    }
    let frameTime = Instant.milliseconds(600)
    precondition(state.puffs.count == 30)
    let game = state
    _ = update(&state, .key(.tab), now: frameTime)
    let ranking = state
    // The game's own path: the catalog mapped from its snapshot, each row's text read in place.
    let mapped = OfficialData.mappedCatalog()
    var mappedState = GameState(catalog: mapped, saved: SavedState(), player: "bench", language: .korean,
                                now: Instant(nanoseconds: 0), columns: 200, rows: 60, seed: 1, startingSchool: mapped.count / 2)
    _ = update(&mappedState, .key(.tab), now: frameTime)
    let mappedRanking = mappedState

    let configuration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(5))
    Benchmark("frame: game screen 200x60, 30 puffs", configuration: configuration) { _ in
        blackHole(view(game, now: frameTime))
    }
    Benchmark("frame: ranking screen 200x60", configuration: configuration) { _ in
        blackHole(view(ranking, now: frameTime))
    }
    Benchmark("frame: ranking screen 200x60, catalog mapped from its snapshot", configuration: configuration) { _ in
        blackHole(view(mappedRanking, now: frameTime))
    }
    Benchmark("frame baseline: a blank 200x60 grid", configuration: configuration) { _ in
        blackHole(CellGrid(width: 200, height: 60))
    }
}
