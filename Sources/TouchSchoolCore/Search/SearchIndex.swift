/// The per-school data, built once: names and locations as units in one contiguous buffer each,
/// read through plain pointers in the per-keystroke pass. The buffers are either allocated here
/// (`init(_: Catalog)`) or lie in a mapped catalog snapshot (`init(snapshot:)`), kept alive by
/// `owner`. Immutable after `init`, hence Sendable.
final class SearchIndex: @unchecked Sendable {
    let count: Int
    let nameUnits: UnsafeBufferPointer<UInt32>
    /// The 초성 of each name unit (the unit itself when it is not a syllable).
    let nameInitials: UnsafeBufferPointer<UInt32>
    /// What the per-keystroke pass reads of every school, side by side.
    let entries: UnsafeBufferPointer<SearchEntry>
    /// District then address, normalized: school `i`'s is `locationUnits[locationStarts[i] ..<
    /// locationStarts[i + 1]]`, its district the part before `districtEnds[i]`.
    let locationUnits: UnsafeBufferPointer<UInt32>
    let locationStarts: UnsafeBufferPointer<Int32>
    let districtEnds: UnsafeBufferPointer<Int32>
    /// The same for the location text (without 초성, which location does not match), on 128 bits
    /// because addresses hold many more units than names: school `i`'s at `2i` and `2i + 1`.
    let locationSignatures: UnsafeBufferPointer<UInt64>
    /// What keeps the buffers alive: the allocation or the mapped snapshot.
    private let owner: AnyObject

    init(_ catalog: Catalog) {
        let arrays = SearchArrays(catalog.schools)
        let allocation = Allocation()
        func buffer<Element>(_ array: [Element]) -> UnsafeBufferPointer<Element> {
            let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: array.count)
            _ = buffer.initialize(from: array)
            if let base = buffer.baseAddress { allocation.buffers.append(UnsafeMutableRawPointer(base)) }
            return UnsafeBufferPointer(buffer)
        }
        count = catalog.count
        nameUnits = buffer(arrays.nameUnits)
        nameInitials = buffer(arrays.nameInitials)
        entries = buffer(arrays.entries)
        locationUnits = buffer(arrays.locationUnits)
        locationStarts = buffer(arrays.locationStarts)
        districtEnds = buffer(arrays.districtEnds)
        locationSignatures = buffer(arrays.locationSignatures)
        owner = allocation
    }

    /// The arrays as the snapshot holds them, checked when it was opened.
    init(snapshot: CatalogSnapshot) {
        count = snapshot.count
        nameUnits = snapshot.array(.nameUnits)
        nameInitials = snapshot.array(.nameInitials)
        entries = snapshot.array(.searchEntries)
        locationUnits = snapshot.array(.locationUnits)
        locationStarts = snapshot.array(.locationStarts)
        districtEnds = snapshot.array(.districtEnds)
        locationSignatures = snapshot.array(.locationSignatures)
        owner = snapshot.storage
    }

    private final class Allocation {
        var buffers: [UnsafeMutableRawPointer] = []
        deinit { for buffer in buffers { buffer.deallocate() } }
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
/// most schools, and what bounds the score before any matching. Stored as is in the catalog
/// snapshot, so its layout is part of that format (checked by `CatalogSnapshot` and a test):
/// offsets 0, 8, 16, 20, 22, 23, 24, 28, no padding.
struct SearchEntry {
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
    /// `CatalogSnapshotLayout.levelCode` of the school's level.
    var level: UInt8
    var firstUnit: UInt32
    var firstInitial: UInt32
}

/// The search index's arrays, worked out from the schools' text: what `SearchIndex` allocates,
/// and what a catalog snapshot stores.
struct SearchArrays {
    var nameUnits: [UInt32] = []
    var nameInitials: [UInt32] = []
    var entries: [SearchEntry] = []
    var locationUnits: [UInt32] = []
    var locationStarts: [Int32] = [0]
    var districtEnds: [Int32] = []
    var locationSignatures: [UInt64] = []

    init(_ schools: [School]) {
        let count = schools.count
        nameUnits.reserveCapacity(count * 12)
        locationUnits.reserveCapacity(count * 32)
        entries.reserveCapacity(count)
        locationStarts.reserveCapacity(count + 1)
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
        for school in schools {
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
                nameLength: UInt16(clamping: name.count), province: provinceIndex(school.province),
                level: CatalogSnapshotLayout.levelCode(school.level),
                firstUnit: name.first ?? 0, firstInitial: Hangul.initialConsonant(of: name.first ?? 0)
            ))
        }
        nameInitials = nameUnits.map(Hangul.initialConsonant(of:))
    }
}
