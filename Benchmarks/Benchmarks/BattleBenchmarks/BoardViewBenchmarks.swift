import Benchmark
import TouchSchoolCore

/// The server's views at one broadcast interval in a national event (issue 25): 4,000 players on
/// as many schools of the official list, each school's total moved since the last interval, every
/// watched view computed and compared with the last (`BoardViews.refresh`), beside its baseline,
/// the same views computed alone: what keeping and comparing them adds.
func boardViewBenchmarks(catalog: Catalog) {
    let watchers = 4_000
    let interval = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
                                           maxDuration: .seconds(5))
    // Spread over the list as players are, not the first few.
    let stride = max(1, catalog.count / watchers)
    let watched = Set((0..<min(watchers, catalog.count)).map { BoardViewKey.school($0 * stride) })

    Benchmark("board views baseline: 4,000 school views computed", configuration: interval) { benchmark in
        var board = Leaderboard(catalog: catalog, counts: Array(repeating: 0, count: catalog.count))
        for _ in benchmark.scaledIterations {
            for key in watched { if case let .school(school) = key { board.add(1, to: school) } }
            for key in watched { blackHole(board.view(key)) }
        }
    }

    Benchmark("board views: 4,000 school views refreshed (computed, kept, compared)", configuration: interval) { benchmark in
        var board = Leaderboard(catalog: catalog, counts: Array(repeating: 0, count: catalog.count))
        var views = BoardViews()
        _ = views.refresh(watching: watched, on: board)
        for _ in benchmark.scaledIterations {
            for key in watched { if case let .school(school) = key { board.add(1, to: school) } }
            blackHole(views.refresh(watching: watched, on: board))
        }
    }
}
