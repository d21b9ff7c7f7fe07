import Benchmark
import BenchmarkSupport
import TouchSchoolCore

/// Time per query over the full official list: ours beside the original app's algorithm (a
/// case-sensitive substring `contains` on names) in the same run, one query per sample so that
/// p50 and p99 are per keystroke.
let benchmarks: @Sendable () -> Void = {
    let catalog = OfficialData.catalog()
    let search = SchoolSearch(catalog: catalog)
    // The path every command takes since issue 8: the index read in place from the snapshot.
    let stamp = CatalogSnapshotStamp(device: 0, inode: 0, size: 0, modifiedSeconds: 0, modifiedNanoseconds: 0)
    let snapshotSearch = SchoolSearch(catalog: Catalog(snapshot: try! CatalogSnapshot(copying: CatalogSnapshot.encode(catalog, stamp: stamp))))
    let names = catalog.schools.map(\.name)
    let queries = realisticQueries
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 20_000
    )

    let ours = Cycle()
    Benchmark("search: ours, one query", configuration: configuration) { _ in
        blackHole(search.search(SearchQuery(text: queries[ours.next(queries.count)], limit: 20)))
    }

    let overSnapshot = Cycle()
    Benchmark("search: ours over the snapshot, one query", configuration: configuration) { _ in
        blackHole(snapshotSearch.search(SearchQuery(text: queries[overSnapshot.next(queries.count)], limit: 20)))
    }

    let original = Cycle()
    Benchmark("search: original contains, one query", configuration: configuration) { _ in
        let query = queries[original.next(queries.count)]
        blackHole(names.indices.filter { names[$0].contains(query) }.prefix(20))
    }

    // A query that finds nothing, then the closest-name fallback a typo costs (the picker runs
    // both): typos of the kinds people make, a vowel, a 받침, a consonant, a syllable too many.
    let typos = ["휘뮨고", "휘문고등하교", "서울고등학꾜", "민족사간고", "경기과핫고", "대원외구", "한국디지털미디아고", "부산해운대초등하교"]
    let fallback = Cycle()
    Benchmark("search: nothing found, then the closest names, one typo", configuration: configuration) { _ in
        let query = SearchQuery(text: typos[fallback.next(typos.count)], limit: 20)
        blackHole(search.search(query).isEmpty ? search.closestNames(SearchQuery(text: query.text, limit: 5)) : [])
    }

    Benchmark("search: build the index (12,011 schools)",
              configuration: .init(metrics: [.wallClock, .peakMemoryResident], timeUnits: .milliseconds, maxIterations: 50)) { _ in
        blackHole(SchoolSearch(catalog: catalog))
    }
}
