/// What a player typed, with the optional filters.
public struct SearchQuery: Sendable, Equatable {
    public var text: String
    public var level: SchoolLevel?
    /// Canonical province name (`서울특별시`), see `Province.canonical`.
    public var province: String?
    public var limit: Int

    public init(text: String, level: SchoolLevel? = nil, province: String? = nil, limit: Int = 20) {
        self.text = text
        self.level = level
        self.province = province
        self.limit = limit
    }
}

public struct SearchHit: Sendable, Equatable {
    /// Position of the school in the catalog.
    public var position: Int
    /// Higher is better; only the order matters.
    public var score: Int

    public init(position: Int, score: Int) {
        self.position = position
        self.score = score
    }
}

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

    public init(catalog: Catalog) { index = SearchIndex(catalog) }

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
        guard limit > 0 else { return [] }
        let levelFilter = query.level
        let provinceFilter: Int8?
        if let province = query.province {
            guard let index = Province.all.firstIndex(of: Province.canonical(province) ?? province) else { return [] }
            provinceFilter = Int8(index)
        } else {
            provinceFilter = nil
        }
        func passesFilters(_ position: Int) -> Bool {
            if let levelFilter, index.entries[position].level != levelFilter { return false }
            if let provinceFilter, index.entries[position].province != provinceFilter { return false }
            return true
        }

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
}

/// The per-school data, built once: names and locations as units in one contiguous buffer each,
/// read through plain pointers in the per-keystroke pass. Immutable after `init`, hence Sendable.
private final class SearchIndex: @unchecked Sendable {
    let count: Int
    let nameUnits: UnsafeMutableBufferPointer<UInt32>
    /// The 초성 of each name unit (the unit itself when it is not a syllable).
    let nameInitials: UnsafeMutableBufferPointer<UInt32>
    /// What the per-keystroke pass reads of every school, side by side.
    let entries: UnsafeMutableBufferPointer<SearchEntry>
    /// District then address, normalized: school `i`'s is `locationUnits[locationStarts[i] ..<
    /// locationStarts[i + 1]]`, its district the part before `districtEnds[i]`.
    let locationUnits: UnsafeMutableBufferPointer<UInt32>
    let locationStarts: UnsafeMutableBufferPointer<Int32>
    let districtEnds: UnsafeMutableBufferPointer<Int32>
    /// The same for the location text (without 초성, which location does not match), on 128 bits
    /// because addresses hold many more units than names: school `i`'s at `2i` and `2i + 1`.
    let locationSignatures: UnsafeMutableBufferPointer<UInt64>

    init(_ catalog: Catalog) {
        count = catalog.count
        var nameUnits: [UInt32] = [], locationUnits: [UInt32] = []
        nameUnits.reserveCapacity(count * 12)
        locationUnits.reserveCapacity(count * 32)
        var entries: [SearchEntry] = [], locationStarts: [Int32] = [0], districtEnds: [Int32] = []
        entries.reserveCapacity(count)
        locationStarts.reserveCapacity(count + 1)
        var locationSignatures: [UInt64] = []
        locationSignatures.reserveCapacity(2 * count)
        districtEnds.reserveCapacity(count)
        // Provinces by their bytes: hashing or comparing Korean `String`s normalizes them first.
        let provinceBytes = Province.all.map { Array($0.utf8) }
        // Schools come grouped by province (a decoded catalog shares one string per run), so that
        // the previous school's answer is usually the answer.
        var previousProvince = (name: "", index: Int8(-1))
        func provinceIndex(_ province: String) -> Int8 {
            if province == previousProvince.name { return previousProvince.index }
            let index = provinceBytes.firstIndex { $0.elementsEqual(province.utf8) }.map { Int8($0) } ?? -1
            previousProvince = (province, index)
            return index
        }

        func signature(_ units: ArraySlice<UInt32>) -> UInt64 {
            var bits: UInt64 = 0
            for unit in units {
                bits |= SearchText.bit(unit) | SearchText.bit(Hangul.initialConsonant(of: unit)) | SearchText.bit(Hangul.withoutTail(unit))
            }
            return bits
        }
        func locationSignature(_ units: ArraySlice<UInt32>) -> LocationBits {
            var bits = LocationBits()
            for unit in units { bits.insert(unit); bits.insert(Hangul.withoutTail(unit)) }
            return bits
        }
        for school in catalog.schools {
            let nameStart = nameUnits.count
            SearchText.appendUnits(of: school.name, to: &nameUnits)
            let name = nameUnits[nameStart...]
            // The address usually repeats the district; it comes first in case it does not.
            let locationStart = locationUnits.count
            SearchText.appendUnits(of: school.district, to: &locationUnits)
            districtEnds.append(Int32(locationUnits.count))
            SearchText.appendUnits(of: school.address, to: &locationUnits)
            let bits = locationSignature(locationUnits[locationStart...])
            locationSignatures.append(bits.low)
            locationSignatures.append(bits.high)
            locationStarts.append(Int32(locationUnits.count))
            entries.append(SearchEntry(
                nameSignature: signature(name),
                districtSignature: signature(locationUnits[locationStart..<Int(districtEnds.last!)]),
                nameStart: Int32(nameStart),
                nameLength: UInt16(clamping: name.count), province: provinceIndex(school.province), level: school.level,
                firstUnit: name.first ?? 0, firstInitial: Hangul.initialConsonant(of: name.first ?? 0)
            ))
        }
        func buffer<Element>(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
            let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: array.count)
            _ = buffer.initialize(from: array)
            return buffer
        }
        self.nameUnits = buffer(nameUnits)
        self.nameInitials = buffer(nameUnits.map(Hangul.initialConsonant(of:)))
        self.entries = buffer(entries)
        self.locationUnits = buffer(locationUnits)
        self.locationStarts = buffer(locationStarts)
        self.districtEnds = buffer(districtEnds)
        self.locationSignatures = buffer(locationSignatures)
    }

    deinit {
        nameUnits.deallocate()
        nameInitials.deallocate()
        entries.deallocate()
        locationUnits.deallocate()
        locationStarts.deallocate()
        districtEnds.deallocate()
        locationSignatures.deallocate()
    }

    // MARK: Scoring

    /// The score packs, most significant first: tier (1 bit), category (3), span (8), gaps (6),
    /// inexact units (6), name length (8), each stored so that larger is better. -1: no match,
    /// or no better than `toBeat`.
    func score(_ position: Int, _ reading: QueryReading, _ words: UnsafeBufferPointer<QueryWord>,
               _ units: UnsafeBufferPointer<QueryUnit>, toBeat: Int) -> Int {
        let whole = words[reading.whole]
        let entry = entries[position]
        let nameSignature = entry.nameSignature
        let wholeMayMatch = whole.bits & ~nameSignature == 0
        guard wholeMayMatch || reading.splitCount > 1 else { return -1 }
        if toBeat >= 0 {
            // The best this school could score, known without matching: when it cannot beat the
            // results so far, stop here. Most schools stop here for a short, common query.
            let length = Int(entry.nameLength), wholeLength = Int(whole.end - whole.start)
            let first = units[Int(whole.start)]
            let firstUnitMatches = wholeLength <= length && (first.byInitial ? entry.firstInitial : entry.firstUnit) &- first.value <= first.range
            let bestCategory = firstUnitMatches ? (wholeLength == length ? 4 : 3) : 2
            guard pack(tier: 1, NameMatch(category: bestCategory, span: wholeLength, gaps: 0, inexact: 0), position) > toBeat else { return -1 }
        }
        if wholeMayMatch, let match = matchName(whole, position, units) {
            return pack(tier: 1, match, position)
        }
        guard reading.splitCount > 1 else { return -1 }

        // Word by word: each word matches the name, else the province (a province word) or the
        // location text.
        var combined = NameMatch(category: 0, span: 0, gaps: 0, inexact: 0)
        var matchedName = false
        for word in words[(reading.whole + 1)...].prefix(reading.splitCount) {
            if word.bits & ~nameSignature == 0, let match = matchName(word, position, units) {
                combined.category = matchedName ? min(combined.category, match.category) : match.category
                combined.span += match.span
                combined.gaps += match.gaps
                combined.inexact += match.inexact
                matchedName = true
            } else if word.province >= 0 {
                // `서울` names a province: it matches the province, or a district so named
                // (`광주` is also 경기도 광주시), not any address that happens to contain it.
                guard word.province == entry.province || (
                    word.bits & ~entry.districtSignature == 0 && matchesLocation(word, position, units, districtOnly: true)
                ) else { return -1 }
            } else if LocationBits(low: locationSignatures[2 * position], high: locationSignatures[2 * position + 1]).contains(word.locationBits),
                      matchesLocation(word, position, units, districtOnly: false) {
                continue
            } else {
                return -1
            }
        }
        if !matchedName { combined.span = 255 }
        return pack(tier: 0, combined, position)
    }

    private func pack(tier: Int, _ match: NameMatch, _ position: Int) -> Int {
        let length = Int(entries[position].nameLength)
        var score = tier
        score = score << 3 | match.category
        score = score << 8 | (255 - min(match.span, 255))
        score = score << 6 | (63 - min(match.gaps, 63))
        score = score << 6 | (63 - min(match.inexact, 63))
        score = score << 8 | (255 - min(length, 255))
        return score
    }

    private struct NameMatch {
        /// 4 exact name, 3 prefix, 2 contiguous substring, 1 in-order subsequence (0: no name match).
        var category: Int
        var span: Int
        var gaps: Int
        /// Units matched only by 초성 or as an unfinished syllable.
        var inexact: Int
    }

    @inline(__always) func matches(_ unit: QueryUnit, _ index: Int) -> Bool {
        (unit.byInitial ? nameInitials[index] : nameUnits[index]) &- unit.value <= unit.range
    }

    private func matchName(_ word: QueryWord, _ position: Int, _ units: UnsafeBufferPointer<QueryUnit>) -> NameMatch? {
        let start = Int(entries[position].nameStart), end = start + Int(entries[position].nameLength)
        let query = UnsafeBufferPointer(rebasing: units[Int(word.start)..<Int(word.end)])
        let length = end - start, queryLength = query.count
        guard queryLength <= length else { return nil }
        // Contiguous, earliest first: a prefix beats a later substring.
        var offset = start
        while offset + queryLength <= end {
            var k = 0
            while k < queryLength, matches(query[k], offset + k) { k += 1 }
            if k == queryLength {
                var inexact = 0
                for k in 0..<queryLength where nameUnits[offset + k] != query[k].value { inexact += 1 }
                let category = offset > start ? 2 : (queryLength == length && inexact == 0 ? 4 : 3)
                return NameMatch(category: category, span: queryLength, gaps: 0, inexact: inexact)
            }
            offset += 1
        }
        // In order with gaps: from each place the first unit matches, take units as early as they
        // come (which ends soonest); keep the tightest span.
        var bestMatch: NameMatch?
        var first = start
        while first + queryLength <= end {
            defer { first += 1 }
            guard matches(query[0], first) else { continue }
            var index = first + 1, k = 1, gaps = 0, previous = first
            var inexact = nameUnits[first] != query[0].value ? 1 : 0
            while k < queryLength, index < end {
                if matches(query[k], index) {
                    if index != previous + 1 { gaps += 1 }
                    if nameUnits[index] != query[k].value { inexact += 1 }
                    previous = index
                    k += 1
                }
                index += 1
            }
            guard k == queryLength else { break }  // later starts cannot finish either
            let span = previous - first + 1
            if let current = bestMatch, (current.span, current.gaps) <= (span, gaps) { continue }
            bestMatch = NameMatch(category: 1, span: span, gaps: gaps, inexact: inexact)
        }
        return bestMatch
    }

    /// A word found as is in the district or address (or the district only).
    private func matchesLocation(_ word: QueryWord, _ position: Int, _ units: UnsafeBufferPointer<QueryUnit>, districtOnly: Bool) -> Bool {
        let start = Int(locationStarts[position])
        let end = Int(districtOnly ? districtEnds[position] : locationStarts[position + 1])
        let query = UnsafeBufferPointer(rebasing: units[Int(word.start)..<Int(word.end)])
        var offset = start
        while offset + query.count <= end {
            var k = 0
            while k < query.count, locationUnits[offset + k] &- query[k].value <= query[k].range { k += 1 }
            if k == query.count { return true }
            offset += 1
        }
        return false
    }
}

/// One school's data for the per-keystroke pass, 32 bytes: filters, the signatures that reject
/// most schools, and what bounds the score before any matching.
private struct SearchEntry {
    /// Bits of the units the name holds (with each syllable's 초성 and its form without 받침): a
    /// query needing a bit the school lacks is rejected without reading the name.
    var nameSignature: UInt64
    /// The same for the district, which a province word (`광주`) may also name.
    var districtSignature: UInt64
    /// The name is `nameUnits[nameStart ..< nameStart + nameLength]`.
    var nameStart: Int32
    var nameLength: UInt16
    /// Index into `Province.all`, or -1.
    var province: Int8
    var level: SchoolLevel
    var firstUnit: UInt32
    var firstInitial: UInt32
}

// MARK: - Query preparation

/// One unit of a query and how it may match: `value ... value + range`, compared with the name's
/// 초성 when `byInitial`.
private struct QueryUnit {
    var value: UInt32
    var range: UInt32
    var byInitial: Bool
}

/// A word of the query: its units are `PreparedQuery.units[start..<end]`.
private struct QueryWord {
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
private struct QueryReading {
    var whole: Int
    var splitCount: Int
}

/// The readings of a query, flattened so that the per-school pass reads them through pointers.
private struct PreparedQuery {
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

enum SearchText {
    /// The scalars of `normalize`: letters and digits only, lower case, Hangul composed.
    static func units<Text: StringProtocol>(of text: Text) -> [UInt32] {
        var units: [UInt32] = []
        appendUnits(of: text, to: &units)
        return units
    }

    static func appendUnits<Text: StringProtocol>(of text: Text, to units: inout [UInt32]) {
        let start = units.count
        var hasConjoiningJamo = false
        // Decoding the UTF-8 by hand keeps building the index over 12,000 schools to a few ms.
        let decoded: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var index = 0
            while index < bytes.count {
                let lead = UInt32(bytes[index])
                let value: UInt32
                switch lead {
                case ..<0x80:
                    value = lead
                    index += 1
                case ..<0xE0:
                    value = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                    index += 2
                case ..<0xF0:
                    value = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                    index += 3
                default:
                    value = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                        | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                    index += 4
                }
                appendUnits(of: value, to: &units, hasConjoiningJamo: &hasConjoiningJamo)
            }
        }
        if decoded == nil {
            for scalar in text.unicodeScalars { appendUnits(of: scalar.value, to: &units, hasConjoiningJamo: &hasConjoiningJamo) }
        }
        if hasConjoiningJamo {
            units.replaceSubrange(start..., with: Hangul.composeConjoining(Array(units[start...])))
        }
    }

    @inline(__always)
    private static func appendUnits(of scalar: UInt32, to units: inout [UInt32], hasConjoiningJamo: inout Bool) {
        var value = scalar
        if value < 0x80 {
            // The common cases first, without a property lookup.
            switch value {
            case 0x41...0x5A: units.append(value + 0x20)
            case 0x61...0x7A, 0x30...0x39: units.append(value)
            default: break
            }
            return
        }
        if value &- 0xAC00 < 11172 { units.append(value); return }  // a Hangul syllable
        if value &- 0xFF01 < 0x5E { value -= 0xFEE0 }  // full-width ASCII, as some input methods type it
        if value &- 0x1100 < 0x100 { hasConjoiningJamo = true }
        guard let folded = Unicode.Scalar(value) else { return }
        for lower in folded.properties.lowercaseMapping.unicodeScalars where isLetterOrDigit(lower) {
            units.append(lower.value)
        }
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }

    /// The signature bit of a unit, for names.
    @inline(__always) static func bit(_ unit: UInt32) -> UInt64 {
        1 << (UInt64(unit &* 0x9E37_79B1) >> 26 & 63)
    }
}

/// A 128-bit signature, for location texts.
private struct LocationBits {
    var low: UInt64 = 0
    var high: UInt64 = 0

    mutating func insert(_ unit: UInt32) {
        let bit = (unit &* 0x9E37_79B1) >> 25
        if bit < 64 { low |= 1 << UInt64(bit) } else { high |= 1 << UInt64(bit - 64) }
    }

    func contains(_ other: LocationBits) -> Bool { other.low & ~low == 0 && other.high & ~high == 0 }
}

/// The `capacity` best (score, position) pairs seen, better meaning a higher score, then an
/// earlier position. A min-heap on one packed key: no full sort of every match.
private struct TopKeys {
    private var heap: [UInt64] = []
    private let capacity: Int
    private static let positionBits: UInt64 = 32

    init(capacity: Int) {
        self.capacity = capacity
        heap.reserveCapacity(min(capacity, 1024))
    }

    private static func key(score: Int, position: Int) -> UInt64 {
        UInt64(score) << positionBits | (UInt64(UInt32.max) - UInt64(position))
    }

    /// A score that cannot enter the list unless it is higher than this (the list is full).
    var scoreToBeat: Int { heap.count < capacity ? -1 : Int(heap[0] >> Self.positionBits) }

    mutating func offer(score: Int, position: Int) {
        let key = Self.key(score: score, position: position)
        if heap.count < capacity {
            heap.append(key)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[parent] > heap[child] else { break }
                heap.swapAt(parent, child)
                child = parent
            }
        } else if key > heap[0] {
            heap[0] = key
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, heap[left] < heap[smallest] { smallest = left }
                if right < heap.count, heap[right] < heap[smallest] { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }

    func sortedDescending() -> [(score: Int, position: Int)] {
        heap.sorted(by: >).map { key in
            (Int(key >> Self.positionBits), Int(UInt64(UInt32.max) - (key & 0xFFFF_FFFF)))
        }
    }
}

// MARK: - Provinces and levels

public enum Province {
    /// Each of the 17 시도: its name in the official list, its short name, its English name, and
    /// the other names it goes by (former names, romanizations), compared after `SchoolSearch.normalize`.
    private static let names: [(official: String, short: String, english: String, others: [String])] = [
        ("서울특별시", "서울", "Seoul", ["서울시"]),
        ("부산광역시", "부산", "Busan", ["부산시", "pusan"]),
        ("대구광역시", "대구", "Daegu", ["대구시", "taegu"]),
        ("인천광역시", "인천", "Incheon", ["인천시", "inchon"]),
        ("광주광역시", "광주", "Gwangju", ["광주시", "kwangju"]),
        ("대전광역시", "대전", "Daejeon", ["대전시", "taejon"]),
        ("울산광역시", "울산", "Ulsan", ["울산시"]),
        ("세종특별자치시", "세종", "Sejong", ["세종시"]),
        ("경기도", "경기", "Gyeonggi", ["gyeonggido", "kyonggi"]),
        ("강원특별자치도", "강원", "Gangwon", ["강원도", "gangwondo", "kangwon"]),
        ("충청북도", "충북", "North Chungcheong", ["chungbuk", "chungcheongbukdo"]),
        ("충청남도", "충남", "South Chungcheong", ["chungnam", "chungcheongnamdo"]),
        ("전북특별자치도", "전북", "North Jeolla", ["전라북도", "jeonbuk", "jeollabukdo"]),
        ("전라남도", "전남", "South Jeolla", ["jeonnam", "jeollanamdo"]),
        ("경상북도", "경북", "North Gyeongsang", ["gyeongbuk", "gyeongsangbukdo"]),
        ("경상남도", "경남", "South Gyeongsang", ["gyeongnam", "gyeongsangnamdo"]),
        ("제주특별자치도", "제주", "Jeju", ["제주도", "jejudo", "cheju"]),
    ]

    /// The 17 시도 as the official list names them.
    public static let all: [String] = names.map(\.official)

    /// `서울`, `부산`, … `제주`: how people name them, in `all`'s order.
    public static let shortNames: [String] = names.map(\.short)

    private static let indexByName: [String: Int] = {
        var indices: [String: Int] = [:]
        for (index, province) in names.enumerated() {
            for name in [province.official, province.short, province.english] + province.others {
                indices[SchoolSearch.normalize(name)] = index
            }
        }
        return indices
    }()

    private static func index(of text: String) -> Int? {
        let key = SchoolSearch.normalize(text)
        if let index = indexByName[key] { return index }
        if key.hasSuffix("교육청") { return indexByName[String(key.dropLast(3))] }
        return nil
    }

    /// `서울`, `서울시`, `서울특별시`, `seoul` → `서울특별시`; nil when it names no province.
    /// The office of education's name (`서울특별시교육청`) names its province too.
    public static func canonical(_ text: String) -> String? {
        index(of: text).map { names[$0].official }
    }

    /// `서울특별시` (or any other name of it, such as the former `강원도`) → `Seoul`.
    public static func englishName(of province: String) -> String? {
        index(of: province).map { names[$0].english }
    }
}

extension SchoolLevel {
    private static let inputNames: [(SchoolLevel, [String])] = [
        (.elementary, ["초", "초등", "초등학교", "elementary", "e", "elem", "primary"]),
        (.middle, ["중", "중등", "중학교", "middle", "m", "mid"]),
        (.high, ["고", "고등", "고등학교", "high", "h"]),
    ]

    /// `고`, `고등`, `고등학교`, `high`, `h` → `.high`; likewise for the others.
    public init?(userInput: String) {
        let key = SchoolSearch.normalize(userInput)
        guard let level = Self.inputNames.first(where: { $0.1.contains(key) })?.0 else { return nil }
        self = level
    }
}
