/// The fallback of a search that found nothing: the names closest to what was typed, by edit
/// distance over jamo, so that `휘뮨고` (one vowel wrong) and `휘문고등하교` (one 받침 lost) both
/// suggest 휘문고등학교.
///
/// The distance is to the closest *prefix* of a name (the query against `휘문고…`, not against all
/// of `휘문고등학교`), because people type the start of a name and stop: `휘문고` is how the
/// school is called. Ties go to the shorter name, then catalog order.
///
/// It runs at a keystroke, so its cost is bounded: only names whose first syllable shares its 초성
/// or its vowel with the query's first syllable are compared (a single typo keeps one of them);
/// names too short to come within the allowed distance are skipped by their length; and each
/// comparison stops as soon as every alignment is past the allowed distance, which for most names
/// is within their first few jamo. The allowed distance grows with the query, and is capped.
enum ClosestNames {
    /// The edits allowed for a query of this many jamo: none below two syllables' worth (a short
    /// query is close to too many names to say anything), then one per six jamo, at most three.
    static func maximumDistance(jamoCount: Int) -> Int {
        jamoCount < 4 || jamoCount > longestQuery ? 0 : min(3, (jamoCount + 2) / 6)
    }

    /// Longer queries (in jamo) get no suggestion: no one types a name this long with a typo in it
    /// and expects a guess, and it bounds the comparison's row.
    static let longestQuery = 64
}

extension SearchIndex {
    /// The schools passing `passes` whose names start closest to `queryUnits` (search units, see
    /// `SearchText`), best first, at most `limit`; a hit's score is higher for a closer name.
    func closestNames(to queryUnits: [UInt32], limit: Int, passes: (Int) -> Bool) -> [SearchHit] {
        guard let firstUnit = queryUnits.first, limit > 0 else { return [] }
        var query: [UInt32] = []
        for unit in queryUnits {
            let jamo = Hangul.jamo(of: unit)
            query += [jamo.letters.0, jamo.letters.1, jamo.letters.2].prefix(jamo.count)
        }
        let allowed = ClosestNames.maximumDistance(jamoCount: query.count)
        guard allowed > 0 else { return [] }
        let first = Hangul.decompose(firstUnit)
        let firstLead = first.map { Hangul.leads[$0.lead] }, firstVowel = first?.vowel

        var best = TopKeys(capacity: limit)
        var previous = [Int](repeating: 0, count: query.count + 1)
        var row = previous
        for position in 0..<count where passes(position) {
            let entry = entries[position]
            if let firstLead {
                guard entry.firstInitial == firstLead || Hangul.decompose(entry.firstUnit)?.vowel == firstVowel else { continue }
            } else {
                guard entry.firstUnit == firstUnit || entry.firstInitial == firstUnit else { continue }
            }
            // A full list can only take a closer name than its worst.
            let toBeat = best.scoreToBeat
            let bound = toBeat < 0 ? allowed : min(allowed, allowed - (toBeat >> 8))
            // At most three jamo a unit: a name shorter than the query by more than `bound` jamo is out.
            guard Int(entry.nameLength) * 3 >= query.count - bound else { continue }
            let start = Int(entry.nameStart)
            let name = UnsafeBufferPointer(rebasing: nameUnits[start..<(start + Int(entry.nameLength))])
            guard let distance = Self.prefixDistance(query, name, bound: bound, &previous, &row) else { continue }
            best.offer(score: (allowed - distance) << 8 | (255 - min(name.count, 255)), position: position)
        }
        return best.sortedDescending().map { SearchHit(position: $0.position, score: $0.score) }
    }

    /// The edit distance (insertions, deletions, substitutions of jamo) between `query` and the
    /// closest prefix of `name`, or nil when it is more than `bound`. Levenshtein's table a row per
    /// name jamo, in the two rows given (of `query.count + 1`), so that no comparison allocates.
    private static func prefixDistance(_ query: [UInt32], _ name: UnsafeBufferPointer<UInt32>, bound: Int,
                                       _ previous: inout [Int], _ row: inout [Int]) -> Int? {
        let length = query.count
        for column in 0...length { previous[column] = column }
        var best = length, rowIndex = 0
        for unit in name {
            let jamo = Hangul.jamo(of: unit)
            for part in 0..<jamo.count {
                let letter = part == 0 ? jamo.letters.0 : part == 1 ? jamo.letters.1 : jamo.letters.2
                rowIndex += 1
                row[0] = rowIndex
                var rowMinimum = rowIndex
                for column in 1...length {
                    let substitution = previous[column - 1] + (query[column - 1] == letter ? 0 : 1)
                    let value = min(substitution, previous[column] + 1, row[column - 1] + 1)
                    row[column] = value
                    rowMinimum = min(rowMinimum, value)
                }
                best = min(best, row[length])
                // Every later row is at least this row's minimum: no prefix can come closer.
                guard rowMinimum <= bound else { return best <= bound ? best : nil }
                swap(&previous, &row)
            }
        }
        return best <= bound ? best : nil
    }
}
