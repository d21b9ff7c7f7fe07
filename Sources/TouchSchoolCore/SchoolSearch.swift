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
/// Ranking, best first (lexicographic): the whole query (spaces removed) matching the name before
/// words matched one by one against name and location; then exact name > name prefix > contiguous
/// substring > syllables in order; then the smaller matched span; fewer gaps; fewer units matched
/// only by 초성 or as an unfinished syllable; the shorter name; and finally catalog order.
///
/// An empty query finds nothing, unless a filter is given: then it lists the filtered schools in
/// catalog order, so that `--level high --region 서울` alone browses.
public struct SchoolSearch: Sendable {
    // Per-school data, all built once; names and locations as units in one contiguous array each.
    private let nameUnits: [UInt32]
    /// The 초성 of each name unit (the unit itself when it is not a syllable).
    private let nameInitials: [UInt32]
    /// School `i`'s name is `nameUnits[nameStarts[i] ..< nameStarts[i + 1]]`.
    private let nameStarts: [Int32]
    private let locationUnits: [UInt32]
    private let locationStarts: [Int32]
    /// Bits of the units a name (and its 초성) holds: a query needing a bit the school lacks is
    /// rejected without looking at the text.
    private let nameSignatures: [UInt64]
    private let locationSignatures: [UInt64]
    /// Index into `Province.all`, or -1.
    private let provinceIndices: [Int8]
    private let levels: [SchoolLevel]

    public init(catalog: Catalog) {
        let count = catalog.count
        var nameUnits: [UInt32] = [], nameInitials: [UInt32] = [], locationUnits: [UInt32] = []
        nameUnits.reserveCapacity(count * 10)
        nameInitials.reserveCapacity(count * 10)
        locationUnits.reserveCapacity(count * 24)
        var nameStarts: [Int32] = [0], locationStarts: [Int32] = [0]
        nameStarts.reserveCapacity(count + 1)
        locationStarts.reserveCapacity(count + 1)
        var nameSignatures: [UInt64] = [], locationSignatures: [UInt64] = []
        nameSignatures.reserveCapacity(count)
        locationSignatures.reserveCapacity(count)
        var provinceIndices: [Int8] = [], levels: [SchoolLevel] = []
        provinceIndices.reserveCapacity(count)
        levels.reserveCapacity(count)
        var provinceIndexByName: [String: Int8] = [:]
        for (index, province) in Province.all.enumerated() { provinceIndexByName[province] = Int8(index) }

        for school in catalog.schools {
            var signature: UInt64 = 0
            for unit in SearchText.units(of: school.name) {
                let initial = Hangul.initialConsonant(of: unit)
                nameUnits.append(unit)
                nameInitials.append(initial)
                signature |= SearchText.bit(unit) | SearchText.bit(initial)
            }
            nameStarts.append(Int32(nameUnits.count))
            nameSignatures.append(signature)

            signature = 0
            // The address usually repeats province and district; they are added in case it does not.
            for unit in SearchText.units(of: "\(school.province) \(school.district) \(school.address)") {
                locationUnits.append(unit)
                signature |= SearchText.bit(unit)
            }
            locationStarts.append(Int32(locationUnits.count))
            locationSignatures.append(signature)
            provinceIndices.append(provinceIndexByName[school.province] ?? -1)
            levels.append(school.level)
        }
        self.nameUnits = nameUnits
        self.nameInitials = nameInitials
        self.nameStarts = nameStarts
        self.locationUnits = locationUnits
        self.locationStarts = locationStarts
        self.nameSignatures = nameSignatures
        self.locationSignatures = locationSignatures
        self.provinceIndices = provinceIndices
        self.levels = levels
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
        guard limit > 0 else { return [] }
        let levelFilter = query.level
        let provinceFilter: Int8?
        if let province = query.province {
            guard let index = Province.all.firstIndex(of: Province.canonical(province) ?? province) else { return [] }
            provinceFilter = Int8(index)
        } else {
            provinceFilter = nil
        }

        let readings = QueryReading.readings(of: query.text)
        if readings.isEmpty {
            guard levelFilter != nil || provinceFilter != nil else { return [] }
            var hits: [SearchHit] = []
            for position in 0..<levels.count where hits.count < limit {
                if let levelFilter, levels[position] != levelFilter { continue }
                if let provinceFilter, provinceIndices[position] != provinceFilter { continue }
                hits.append(SearchHit(position: position, score: 0))
            }
            return hits
        }

        var best = TopKeys(capacity: limit)
        for position in 0..<levels.count {
            if let levelFilter, levels[position] != levelFilter { continue }
            if let provinceFilter, provinceIndices[position] != provinceFilter { continue }
            var score = -1
            for reading in readings {
                score = max(score, self.score(position, reading))
            }
            if score >= 0 { best.offer(score: score, position: position) }
        }
        return best.sortedDescending().map { SearchHit(position: $0.position, score: $0.score) }
    }

    // MARK: Scoring

    /// The score packs, most significant first: tier (1 bit), category (3), span (8), gaps (6),
    /// inexact units (6), name length (8), each stored so that larger is better.
    private func score(_ position: Int, _ reading: QueryReading) -> Int {
        let nameSignature = nameSignatures[position]
        if reading.whole.nameBits & ~nameSignature == 0, let match = matchName(reading.whole, position) {
            return pack(tier: 1, match, position)
        }
        guard reading.words.count > 1 else { return -1 }

        // Word by word: each word matches the name, else the province or the location text.
        let locationSignature = locationSignatures[position]
        var combined = NameMatch(category: 0, span: 0, gaps: 0, inexact: 0)
        var matchedName = false
        for word in reading.words {
            if word.nameBits & ~nameSignature == 0, let match = matchName(word, position) {
                combined.category = matchedName ? min(combined.category, match.category) : match.category
                combined.span += match.span
                combined.gaps += match.gaps
                combined.inexact += match.inexact
                matchedName = true
            } else if word.province >= 0, word.province == provinceIndices[position] {
                continue
            } else if word.locationBits & ~locationSignature == 0, matchesLocation(word, position) {
                continue
            } else {
                return -1
            }
        }
        if !matchedName { combined.span = 255 }
        return pack(tier: 0, combined, position)
    }

    private func pack(tier: Int, _ match: NameMatch, _ position: Int) -> Int {
        let length = Int(nameStarts[position + 1] - nameStarts[position])
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

    private func matchName(_ word: QueryWord, _ position: Int) -> NameMatch? {
        let start = Int(nameStarts[position]), end = Int(nameStarts[position + 1])
        let units = word.units
        let length = end - start, queryLength = units.count
        guard queryLength <= length else { return nil }
        return nameUnits.withUnsafeBufferPointer { names in
            nameInitials.withUnsafeBufferPointer { initials in
                units.withUnsafeBufferPointer { query -> NameMatch? in
                    @inline(__always) func matches(_ unit: QueryUnit, _ index: Int) -> Bool {
                        (unit.byInitial ? initials[index] : names[index]) &- unit.value <= unit.range
                    }
                    @inline(__always) func isInexact(_ unit: QueryUnit, _ index: Int) -> Bool {
                        names[index] != unit.value
                    }
                    // Contiguous, earliest first: a prefix beats a later substring.
                    var offset = start
                    while offset + queryLength <= end {
                        var k = 0
                        while k < queryLength, matches(query[k], offset + k) { k += 1 }
                        if k == queryLength {
                            var inexact = 0
                            for k in 0..<queryLength where isInexact(query[k], offset + k) { inexact += 1 }
                            let category = offset > start ? 2 : (queryLength == length && inexact == 0 ? 4 : 3)
                            return NameMatch(category: category, span: queryLength, gaps: 0, inexact: inexact)
                        }
                        offset += 1
                    }
                    // In order with gaps: from each place the first unit matches, take units as early
                    // as they come (which ends soonest); keep the tightest span.
                    var bestMatch: NameMatch?
                    var first = start
                    while first + queryLength <= end {
                        defer { first += 1 }
                        guard matches(query[0], first) else { continue }
                        var index = first + 1, k = 1, gaps = 0
                        var inexact = isInexact(query[0], first) ? 1 : 0
                        var previous = first
                        while k < queryLength, index < end {
                            if matches(query[k], index) {
                                if index != previous + 1 { gaps += 1 }
                                if isInexact(query[k], index) { inexact += 1 }
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
            }
        }
    }

    /// A word found as is in the province, district or address.
    private func matchesLocation(_ word: QueryWord, _ position: Int) -> Bool {
        let start = Int(locationStarts[position]), end = Int(locationStarts[position + 1])
        let units = word.units
        guard units.count <= end - start else { return false }
        return locationUnits.withUnsafeBufferPointer { location in
            var offset = start
            while offset + units.count <= end {
                var k = 0
                while k < units.count, location[offset + k] &- units[k].value <= units[k].range { k += 1 }
                if k == units.count { return true }
                offset += 1
            }
            return false
        }
    }
}

// MARK: - Query preparation

/// One unit of a query and how it may match: `value ... value + range`, compared with the name's
/// 초성 when `byInitial`.
private struct QueryUnit {
    var value: UInt32
    var range: UInt32
    var byInitial: Bool
}

private struct QueryWord {
    var units: [QueryUnit]
    /// Bits the name must hold for the word to match it, and likewise the location text.
    var nameBits: UInt64
    var locationBits: UInt64
    /// The province the word names (`부산`, `busan`), as an index into `Province.all`, or -1.
    var province: Int8

    /// `isBeingTyped`: the word ends the query, so its last syllable may be unfinished.
    init(units raw: [UInt32], text: String, isBeingTyped: Bool) {
        var units: [QueryUnit] = []
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
        var nameBits: UInt64 = 0, locationBits: UInt64 = 0
        for unit in units {
            // An unfinished syllable may stand for one with a 받침: only its 초성 is sure to be there.
            nameBits |= SearchText.bit(unit.range > 0 ? Hangul.initialConsonant(of: unit.value) : unit.value)
            if unit.range == 0 { locationBits |= SearchText.bit(unit.value) }
        }
        self.units = units
        self.nameBits = nameBits
        self.locationBits = locationBits
        self.province = Province.canonical(text).flatMap { Province.all.firstIndex(of: $0) }.map { Int8($0) } ?? -1
    }
}

/// One way to read the query: the whole of it, and its words.
private struct QueryReading {
    var whole: QueryWord
    /// Empty when the query is one word.
    var words: [QueryWord]

    static func readings(of text: String) -> [QueryReading] {
        var texts = [text]
        if text.unicodeScalars.contains(where: { $0.isASCII && $0.properties.isAlphabetic }) {
            texts.append(Hangul.fromTwoBeolsikKeys(text))
        }
        var readings: [QueryReading] = []
        for text in texts {
            let words = text.split(whereSeparator: \.isWhitespace).map(String.init).map { ($0, SearchText.units(of: $0)) }.filter { !$0.1.isEmpty }
            guard !words.isEmpty else { continue }
            readings.append(reading(words))
            // The last syllable's 받침 may really be the next syllable's 초성, still waiting for its vowel.
            var moved = words
            let lastWord = moved[moved.count - 1].1
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
                moved[moved.count - 1].1 = lastWord.dropLast() + [Hangul.compose(open), lead]
                readings.append(reading(moved))
            }
        }
        return readings
    }

    private static func reading(_ words: [(String, [UInt32])]) -> QueryReading {
        let whole = QueryWord(units: words.flatMap(\.1), text: words.map(\.0).joined(), isBeingTyped: true)
        guard words.count > 1 else { return QueryReading(whole: whole, words: []) }
        let split = words.enumerated().map { index, word in
            QueryWord(units: word.1, text: word.0, isBeingTyped: index == words.count - 1)
        }
        return QueryReading(whole: whole, words: split)
    }
}

enum SearchText {
    /// The scalars of `normalize`: letters and digits only, lower case, Hangul composed.
    static func units(of text: String) -> [UInt32] {
        var kept: [UInt32] = []
        kept.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            var value = scalar.value
            if value < 0x80 {
                // The common case, without a property lookup.
                switch value {
                case 0x41...0x5A: kept.append(value + 0x20)
                case 0x61...0x7A, 0x30...0x39: kept.append(value)
                default: break
                }
                continue
            }
            if Hangul.isSyllable(value) { kept.append(value); continue }
            if value &- 0xFF01 < 0x5E { value -= 0xFEE0 }  // full-width ASCII as typed by some input methods
            guard let folded = Unicode.Scalar(value) else { continue }
            for lower in folded.properties.lowercaseMapping.unicodeScalars where isLetterOrDigit(lower) {
                kept.append(lower.value)
            }
        }
        return Hangul.composeConjoining(kept)
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }

    /// The signature bit of a unit.
    @inline(__always) static func bit(_ unit: UInt32) -> UInt64 {
        1 << (UInt64(unit &* 0x9E37_79B1) >> 26 & 63)
    }
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
    /// The 17 시도 as the official list names them.
    public static let all: [String] = [
        "서울특별시", "부산광역시", "대구광역시", "인천광역시", "광주광역시", "대전광역시", "울산광역시",
        "세종특별자치시", "경기도", "강원특별자치도", "충청북도", "충청남도", "전북특별자치도", "전라남도",
        "경상북도", "경상남도", "제주특별자치도",
    ]

    /// Other names of each province, in `all`'s order: short forms, former names, romanizations.
    /// Compared after `SchoolSearch.normalize`.
    private static let otherNames: [[String]] = [
        ["서울", "서울시", "seoul"],
        ["부산", "부산시", "busan", "pusan"],
        ["대구", "대구시", "daegu", "taegu"],
        ["인천", "인천시", "incheon", "inchon"],
        ["광주", "광주시", "gwangju", "kwangju"],
        ["대전", "대전시", "daejeon", "taejon"],
        ["울산", "울산시", "ulsan"],
        ["세종", "세종시", "sejong"],
        ["경기", "gyeonggi", "gyeonggido", "kyonggi"],
        ["강원", "강원도", "gangwon", "gangwondo", "kangwon"],
        ["충북", "chungbuk", "chungcheongbukdo"],
        ["충남", "chungnam", "chungcheongnamdo"],
        ["전북", "전라북도", "jeonbuk", "jeollabukdo"],
        ["전남", "jeonnam", "jeollanamdo"],
        ["경북", "gyeongbuk", "gyeongsangbukdo"],
        ["경남", "gyeongnam", "gyeongsangnamdo"],
        ["제주", "제주도", "jeju", "jejudo", "cheju"],
    ]

    private static let canonicalByName: [String: String] = {
        var names: [String: String] = [:]
        for (province, others) in zip(all, otherNames) {
            for name in [province] + others { names[SchoolSearch.normalize(name)] = province }
        }
        return names
    }()

    /// `서울`, `서울시`, `서울특별시`, `seoul` → `서울특별시`; nil when it names no province.
    /// The office of education's name (`서울특별시교육청`) names its province too.
    public static func canonical(_ text: String) -> String? {
        let key = SchoolSearch.normalize(text)
        if let province = canonicalByName[key] { return province }
        if key.hasSuffix("교육청") { return canonicalByName[String(key.dropLast(3))] }
        return nil
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
