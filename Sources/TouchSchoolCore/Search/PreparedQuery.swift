// MARK: - Query preparation

/// One unit of a query and how it may match: `value ... value + range`, compared with the name's
/// 초성 when `byInitial`.
struct QueryUnit {
    var value: UInt32
    var range: UInt32
    var byInitial: Bool
}

/// A word of the query: its units are `PreparedQuery.units[start..<end]`.
struct QueryWord {
    var start: Int32
    var end: Int32
    /// Bits a name must hold for the word to match it, and likewise a location text.
    var bits: UInt64
    var locationBits: LocationBits
    /// The province the word names (`부산`, `busan`), as an index into `Province.all`, or -1.
    var province: Int8
}

/// One way to read the query: `words[whole]` is all of it (spaces removed), followed by its
/// `splitCount` words when there are several.
struct QueryReading {
    var whole: Int
    var splitCount: Int
}

/// The readings of a query, flattened so that the per-school pass reads them through pointers.
struct PreparedQuery {
    var units: [QueryUnit] = []
    var words: [QueryWord] = []
    var readings: [QueryReading] = []

    init(_ text: String) {
        var texts = [text]
        if text.unicodeScalars.contains(where: { $0.isASCII && $0.properties.isAlphabetic }) {
            texts.append(Hangul.fromTwoBeolsikKeys(text))
        }
        for text in texts {
            var split = text.split(whereSeparator: \.isWhitespace).map { (String($0), SearchText.units(of: $0)) }
            split.removeAll { $0.1.isEmpty }
            guard !split.isEmpty else { continue }
            addReading(split)
            // The last syllable's 받침 may really be the next syllable's 초성, still waiting for its vowel.
            let lastWord = split[split.count - 1].1
            if let syllable = Hangul.decompose(lastWord[lastWord.count - 1]), syllable.tail != 0 {
                let tail = Hangul.tails[syllable.tail]
                var open = syllable
                var lead = tail
                if let (kept, second) = Hangul.consonantParts(tail) {
                    open.tail = Hangul.tailIndex(kept)!
                    lead = second
                } else {
                    open.tail = 0
                }
                split[split.count - 1].1 = lastWord.dropLast() + [Hangul.compose(open), lead]
                addReading(split)
            }
        }
    }

    private mutating func addReading(_ split: [(text: String, units: [UInt32])]) {
        readings.append(QueryReading(whole: words.count, splitCount: split.count > 1 ? split.count : 0))
        addWord(split.flatMap(\.units), text: split.map(\.text).joined(), isBeingTyped: true)
        guard split.count > 1 else { return }
        for (index, word) in split.enumerated() {
            addWord(word.units, text: word.text, isBeingTyped: index == split.count - 1)
        }
    }

    /// `isBeingTyped`: the word ends the query, so its last syllable may be unfinished.
    private mutating func addWord(_ raw: [UInt32], text: String, isBeingTyped: Bool) {
        let start = units.count
        for unit in raw {
            if let (first, second) = Hangul.consonantParts(unit) {
                // An input method shows ㄱ then ㅅ typed alone as ㄳ: they are two 초성.
                units.append(QueryUnit(value: first, range: 0, byInitial: true))
                units.append(QueryUnit(value: second, range: 0, byInitial: true))
            } else {
                units.append(QueryUnit(value: unit, range: 0, byInitial: Hangul.isLeadConsonant(unit)))
            }
        }
        if isBeingTyped, let last = units.last, Hangul.decompose(last.value)?.tail == 0 {
            units[units.count - 1].range = Hangul.tailCount - 1
        }
        var bits: UInt64 = 0
        var locationBits = LocationBits()
        for unit in units[start...] {
            bits |= SearchText.bit(unit.value)
            locationBits.insert(unit.value)
        }
        let province = Province.canonical(text).flatMap { Province.all.firstIndex(of: $0) }.map { Int8($0) } ?? -1
        words.append(QueryWord(start: Int32(start), end: Int32(units.count), bits: bits, locationBits: locationBits, province: province))
    }
}
