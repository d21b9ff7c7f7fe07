/// Korean-aware school search over one catalog; built once, queried at every keystroke.
///
/// Matching works on *units*: the scalars of `normalize(_:)` (case, spaces and punctuation gone,
/// NFD Hangul composed). A query unit matches a name unit exactly, or — for a lone consonant — any
/// syllable with that 초성, or — for the query's last syllable, still being typed — any syllable
/// that begins with it (`고` → `공`). A query whose last syllable holds a 받침 is also tried with
/// that 받침 moved on as a 초성 (`서울곧` ≈ `서울고ㄷ`), because an input method shows it there
/// until the next vowel comes. A query with Latin letters is also tried as 2-beolsik keys
/// (`tjdnfrh` → `서울고`); each school keeps its best score over these readings.
///
/// A query of several words matches a school when all of it (spaces removed) matches the name, or
/// else when each word matches the name, the district or the address; a word naming a province
/// (`부산`, `충북`, `seoul`) matches that province or a district of that name (`광주`), not any
/// address that happens to contain it.
///
/// Ranking, best first (lexicographic): the whole query (spaces removed) matching the name before
/// words matched one by one against name and location; then exact name > name prefix > contiguous
/// substring > syllables in order; then the smaller matched span; fewer gaps; fewer units matched
/// only by 초성 or as an unfinished syllable; the shorter name; and finally catalog order.
///
/// An empty query finds nothing, unless a filter is given: then it lists the filtered schools in
/// catalog order, so that `--level high --region 서울` alone browses.
public struct SchoolSearch: Sendable {
    private let index: SearchIndex
    /// The schools whose name another school has too, for the lists that must tell them apart.
    public let sameNames: SameNames

    /// Over a catalog read from a snapshot, the index is the snapshot's: nothing is built but
    /// `sameNames`, from its arrays.
    public init(catalog: Catalog) {
        index = catalog.snapshot.map(SearchIndex.init(snapshot:)) ?? SearchIndex(catalog)
        sameNames = SameNames(index)
    }

    /// The text as search compares it: lower case, without spaces, punctuation or symbols, with
    /// Hangul composed into syllables and lone jamo as compatibility jamo. Normalizing twice
    /// changes nothing.
    public static func normalize(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.append(contentsOf: SearchText.units(of: text).compactMap(Unicode.Scalar.init))
        return result
    }

    /// Results in rank order, best first, at most `query.limit`.
    public func search(_ query: SearchQuery) -> [SearchHit] {
        let limit = max(0, query.limit)
        guard limit > 0, let filters = Filters(query) else { return [] }
        let levelFilter = filters.level, provinceFilter = filters.province
        func passesFilters(_ position: Int) -> Bool { filters.pass(index.entries[position]) }

        let prepared = PreparedQuery(query.text)
        if prepared.readings.isEmpty {
            guard levelFilter != nil || provinceFilter != nil else { return [] }
            var hits: [SearchHit] = []
            for position in 0..<index.count where passesFilters(position) {
                hits.append(SearchHit(position: position, score: 0))
                if hits.count == limit { break }
            }
            return hits
        }

        var best = TopKeys(capacity: limit)
        prepared.units.withUnsafeBufferPointer { units in
            prepared.words.withUnsafeBufferPointer { words in
                prepared.readings.withUnsafeBufferPointer { readings in
                    for position in 0..<index.count where passesFilters(position) {
                        var score = -1
                        for reading in readings {
                            score = max(score, index.score(position, reading, words, units, toBeat: max(score, best.scoreToBeat)))
                        }
                        if score >= 0 { best.offer(score: score, position: position) }
                    }
                }
            }
        }
        return best.sortedDescending().map { SearchHit(position: $0.position, score: $0.score) }
    }

    /// For a query `search` finds nothing for: the schools (within the filters) whose names start
    /// closest to it, jamo by jamo (`휘뮨고`, `휘문고등하교` → 휘문고등학교), best first, at most
    /// `query.limit`; none when nothing is close enough (`ClosestNames`). Latin letters are read as
    /// 2-beolsik keys, as the search reads them.
    public func closestNames(_ query: SearchQuery) -> [SearchHit] {
        guard let filters = Filters(query) else { return [] }
        let text = query.text.unicodeScalars.contains(where: { $0.isASCII && $0.properties.isAlphabetic })
            ? Hangul.fromTwoBeolsikKeys(query.text) : query.text
        return index.closestNames(to: SearchText.units(of: text), limit: max(0, query.limit)) { filters.pass(index.entries[$0]) }
    }

    /// A query's level and province filters, as the index stores them; nil for a province that
    /// is none, which no school is in.
    private struct Filters {
        var level: UInt8?
        var province: Int8?

        init?(_ query: SearchQuery) {
            level = query.level.map(CatalogSnapshotLayout.levelCode)
            if let name = query.province {
                guard let index = Province.all.firstIndex(of: Province.canonical(name) ?? name) else { return nil }
                province = Int8(index)
            }
        }

        func pass(_ entry: SearchEntry) -> Bool {
            if let level, entry.level != level { return false }
            if let province, entry.province != province { return false }
            return true
        }
    }
}
