/// A catalog laid out for mapping (docs/catalog-snapshot.md): the schools' text in one string
/// table, the search index's arrays and the leaderboard's keys, so that a process opens the
/// catalog without decoding or building anything and makes `School` values only for the schools
/// it shows. The bytes come from elsewhere (the store maps a file) and are checked once, here,
/// before anything reads them: every section's bounds, every index into another section, and a
/// checksum. `catalog.json` stays the source of truth; a snapshot that fails a check is rebuilt
/// from it.
public struct CatalogSnapshot: Sendable {
    typealias Layout = CatalogSnapshotLayout
    typealias Section = CatalogSnapshotLayout.Section

    /// The checked bytes and what keeps them alive (the mapping, or an allocation).
    final class Storage: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
        let owner: AnyObject?
        /// Called with a range of `bytes` in the text and records (`lazyRange`) before it is read.
        let load: (@Sendable (Range<Int>) -> Void)?

        init(bytes: UnsafeRawBufferPointer, owner: AnyObject?, load: (@Sendable (Range<Int>) -> Void)?) {
            self.bytes = bytes
            self.owner = owner
            self.load = load
        }
    }

    let storage: Storage
    public let count: Int
    /// The `catalog.json` this snapshot was made from.
    public let stamp: CatalogSnapshotStamp
    private(set) var source: CatalogSource
    private let sections: [Range<Int>]

    /// Whether snapshots can be used here: their arrays are little-endian and read in place.
    public static var isSupportedOnThisMachine: Bool { 1.littleEndian == 1 }

    /// Checks `bytes` (8-byte aligned, as a mapping is) and reads them in place; `owner` keeps
    /// them alive as long as the catalog, its search or its leaderboard need them.
    /// `contentChecksum`: the checksum of the bytes after the header when the caller has worked it
    /// out without reading them from `bytes` (the store reads a mapped file's through its file
    /// descriptor, so that the pages it checks never count in the process's memory); nil: from `bytes`.
    /// `load`: when given, the bytes of `lazyRange(header:)` are not all there yet, and `load` is
    /// called with each range of them before it is read (the store fills them from the file).
    public init(bytes: UnsafeRawBufferPointer, owner: AnyObject?, contentChecksum: UInt64? = nil,
                load: (@Sendable (Range<Int>) -> Void)? = nil) throws(CatalogSnapshotError) {
        guard Self.isSupportedOnThisMachine else { throw .unsupportedMachine }
        guard bytes.count >= Layout.headerSize, let base = bytes.baseAddress else { throw .truncated(bytes.count) }
        guard bytes.prefix(Layout.magic.count).elementsEqual(Layout.magic) else { throw .foreign }
        func word32(_ offset: Int) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        func word64(_ offset: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        let version = word32(Layout.versionOffset)
        guard version == Layout.version else { throw .version(Int(version)) }
        guard word32(Layout.byteOrderOffset) == Layout.byteOrderMark else { throw .damaged("byte order mark") }
        let length = word64(Layout.lengthOffset)
        guard length == UInt64(bytes.count) else {
            throw length > UInt64(bytes.count) ? .truncated(bytes.count) : .damaged("\(bytes.count) bytes where the header says \(length)")
        }
        guard Int(bitPattern: base) % 8 == 0, bytes.count % 8 == 0 else { throw .damaged("alignment") }
        guard Int(word32(Layout.sectionCountOffset)) == Section.allCases.count else { throw .damaged("section count") }
        let checksum = contentChecksum ?? {
            var checksum = CatalogSnapshotChecksum()
            checksum.add(UnsafeRawBufferPointer(rebasing: bytes[Layout.headerSize...]))
            return checksum.value
        }()
        guard word64(Layout.checksumOffset) == checksum else { throw .damaged("checksum") }

        let count = Int(word32(Layout.schoolCountOffset))
        var sections: [Range<Int>] = []
        for section in Section.allCases {
            let entry = Layout.sectionTableOffset + 16 * section.rawValue
            let offset = word64(entry), size = word64(entry + 8)
            guard offset % 8 == 0, offset >= UInt64(Layout.headerSize), offset <= length, size <= length - offset else {
                throw .damaged("bounds of section \(section)")
            }
            sections.append(Int(offset)..<Int(offset + size))
        }
        let stampWords = (0..<5).map { word64(Layout.stampOffset + 8 * $0) }
        self.storage = Storage(bytes: bytes, owner: owner, load: load)
        self.count = count
        self.stamp = CatalogSnapshotStamp(device: stampWords[0], inode: stampWords[1], size: stampWords[2],
                                          modifiedSeconds: stampWords[3], modifiedNanoseconds: stampWords[4])
        self.sections = sections
        // A placeholder until the checks below have passed: reading text needs `self`.
        self.source = .starter

        try checkSizes()
        try checkSchools()
        try checkSearchArrays()
        let meta = sections[Section.meta.rawValue].lowerBound
        loaded(meta..<meta + 16)
        switch word32(meta) {
        case 0: source = .starter
        case 1: source = .official(edition: text(at: meta + 8) ?? "")
        default: throw .damaged("source")
        }
    }

    /// A copy of `bytes`, aligned: for snapshots that are not mapped (tests, a network copy).
    public init(copying bytes: [UInt8]) throws(CatalogSnapshotError) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 8), alignment: 8)
        bytes.withUnsafeBytes { copy.copyMemory(from: $0) }
        let owner = Allocation(copy)
        try self.init(bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[..<bytes.count]), owner: owner)
    }

    /// The bytes of the header: what `lazyRange(header:)` reads.
    public static var headerSize: Int { Layout.headerSize }

    /// Where the string table, the source and the school records lie (one range: they are the
    /// first three sections), read from the header alone: the bytes a command reads only for the
    /// schools it shows, at scattered places. nil when the header is not a snapshot's.
    public static func lazyRange(header: UnsafeRawBufferPointer) -> Range<Int>? {
        guard header.count >= Layout.headerSize, header.prefix(Layout.magic.count).elementsEqual(Layout.magic) else { return nil }
        func word64(_ offset: Int) -> UInt64 { UInt64(littleEndian: header.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        let sections = [Section.strings, .meta, .schools].map { section -> (start: UInt64, end: UInt64) in
            let entry = Layout.sectionTableOffset + 16 * section.rawValue
            let start = word64(entry)
            return (start, start &+ word64(entry + 8))
        }
        guard sections[0].start >= UInt64(Layout.headerSize), sections.allSatisfy({ $0.start <= $0.end }),
              zip(sections, sections.dropFirst()).allSatisfy({ $0.end <= $1.start }), sections[2].end <= UInt64(Int.max) else { return nil }
        return Int(sections[0].start)..<Int(sections[2].end)
    }

    private final class Allocation {
        let memory: UnsafeMutableRawBufferPointer
        init(_ memory: UnsafeMutableRawBufferPointer) { self.memory = memory }
        deinit { memory.deallocate() }
    }

    // MARK: Reading

    private var bytes: UnsafeRawBufferPointer { storage.bytes }

    private func range(_ section: Section) -> Range<Int> { sections[section.rawValue] }

    /// A section as an array of its elements, in place.
    func array<Element>(_ section: Section) -> UnsafeBufferPointer<Element> {
        let range = range(section)
        let start = (bytes.baseAddress! + range.lowerBound).assumingMemoryBound(to: Element.self)
        return UnsafeBufferPointer(start: start, count: range.count / MemoryLayout<Element>.stride)
    }

    private func word32(_ offset: Int) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    private func word64(_ offset: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }

    /// Makes the bytes in `range` readable (see `load`).
    @inline(__always) private func loaded(_ range: Range<Int>) { storage.load?(range) }

    /// The text a reference at this byte offset points to; nil when it says absent.
    private func text(at offset: Int) -> String? {
        loaded(offset..<offset + 8)
        guard word32(offset + 4) != Layout.absent else { return nil }
        return String(decoding: textBytes(at: offset), as: UTF8.self)
    }

    /// The bytes of a text reference. School records are not all checked when the snapshot is
    /// opened (that would read every one): a reference is checked here, when it is read, and
    /// one pointing outside the string table (which the checksum makes all but impossible) reads
    /// as empty rather than outside the file.
    private func textBytes(at offset: Int) -> UnsafeRawBufferPointer {
        let strings = range(.strings)
        loaded(offset..<offset + 8)
        let start = UInt64(word32(offset)), length = UInt64(word32(offset + 4))
        guard length != UInt64(Layout.absent), start + length <= UInt64(strings.count) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let lower = strings.lowerBound + Int(start)
        loaded(lower..<lower + Int(length))
        return UnsafeRawBufferPointer(rebasing: bytes[lower..<lower + Int(length)])
    }

    private func recordOffset(_ position: Int) -> Int { range(.schools).lowerBound + position * Layout.schoolRecordSize }

    func school(at position: Int) -> School {
        precondition(position >= 0 && position < count, "no school at \(position)")
        let record = recordOffset(position)
        loaded(record..<record + Layout.schoolRecordSize)
        let flags = bytes[record + Layout.flagsOffset]
        let ownership: Ownership? = switch bytes[record + Layout.ownershipOffset] {
        case 1: .national
        case 2: .public
        case 3: .private
        default: nil
        }
        return School(
            id: text(at: record) ?? "", name: text(at: record + 8) ?? "", level: Self.level(bytes[record + Layout.levelOffset]),
            province: text(at: record + 16) ?? "", district: text(at: record + 24) ?? "", address: text(at: record + 32) ?? "",
            lotAddress: text(at: record + 40), ownership: ownership, isBranch: flags & Layout.branchFlag != 0,
            latitude: flags & Layout.hasLatitudeFlag != 0 ? Double(bitPattern: word64(record + Layout.latitudeOffset)) : nil,
            longitude: flags & Layout.hasLongitudeFlag != 0 ? Double(bitPattern: word64(record + Layout.longitudeOffset)) : nil,
            founded: text(at: record + 48), isListed: flags & Layout.listedFlag != 0
        )
    }

    private static func level(_ code: UInt8) -> SchoolLevel {
        switch code {
        case 0: .elementary
        case 1: .middle
        default: .high
        }
    }

    /// The position of the school with exactly this id (aliases are the catalog's business).
    func position(ofID id: String) -> Int? {
        var id = id
        return id.withUTF8 { idBytes -> Int? in
            let table: UnsafeBufferPointer<Int32> = array(.idTable)
            guard !table.isEmpty else { return nil }
            let mask = table.count - 1
            var slot = Int(truncatingIfNeeded: Layout.hash(idBytes)) & mask
            // At most every slot once: the table was checked to have empty slots when it was
            // opened, and a lookup is bounded even so.
            for _ in 0..<table.count {
                guard table[slot] >= 0 else { return nil }
                let position = Int(table[slot])
                guard position < count else { return nil }
                if textBytes(at: recordOffset(position)).elementsEqual(UnsafeRawBufferPointer(idBytes)) { return position }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// Every alias: former id → id (for whole-catalog work; a lookup is `aliasTarget(of:)`).
    var aliases: [String: String] {
        let range = range(.aliases)
        var aliases = [String: String](minimumCapacity: range.count / 16)
        for offset in stride(from: range.lowerBound, to: range.upperBound, by: 16) {
            aliases[text(at: offset) ?? ""] = text(at: offset + 8) ?? ""
        }
        return aliases
    }

    /// The id a former id now names: a binary search of the aliases, sorted by the former id's
    /// bytes, which reads a handful of them instead of making all of them into a dictionary.
    func aliasTarget(of id: String) -> String? {
        var id = id
        return id.withUTF8 { idBytes -> String? in
            let range = range(.aliases)
            var low = 0, high = range.count / 16
            while low < high {
                let middle = (low + high) / 2
                let offset = range.lowerBound + 16 * middle
                let former = textBytes(at: offset)
                if former.elementsEqual(UnsafeRawBufferPointer(idBytes)) { return text(at: offset + 8) }
                if former.lexicographicallyPrecedes(UnsafeRawBufferPointer(idBytes)) { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    var rankingKeys: RankingKeys {
        let names = range(.provinceNames)
        return RankingKeys(
            tieOrder: Array(array(.tieOrder) as UnsafeBufferPointer<Int32>),
            // From the search entries (32 bytes a school), not the records (80): fewer pages read.
            levels: (array(.searchEntries) as UnsafeBufferPointer<SearchEntry>).map(\.level),
            provinceNames: stride(from: names.lowerBound, to: names.upperBound, by: 8).map { text(at: $0) ?? "" },
            provinceOfSchool: Array(array(.provinceOfSchool) as UnsafeBufferPointer<UInt16>)
        )
    }

    // MARK: Checks

    private func checkSizes() throws(CatalogSnapshotError) {
        func expect(_ section: Section, _ size: Int) throws(CatalogSnapshotError) {
            guard range(section).count == size else { throw .damaged("size of section \(section)") }
        }
        func multiple(_ section: Section, of size: Int) throws(CatalogSnapshotError) {
            guard range(section).count % size == 0 else { throw .damaged("size of section \(section)") }
        }
        let count = self.count
        try expect(.meta, 16)
        try expect(.schools, count * Layout.schoolRecordSize)
        try multiple(.aliases, of: 16)
        let slots = range(.idTable).count / 4
        guard range(.idTable).count % 4 == 0, slots > count, slots & (slots - 1) == 0 else {
            throw .damaged("size of the id table")
        }
        try expect(.tieOrder, 4 * count)
        try multiple(.provinceNames, of: 8)
        try expect(.provinceOfSchool, 2 * count)
        try multiple(.nameUnits, of: 4)
        try expect(.nameInitials, range(.nameUnits).count)
        try expect(.searchEntries, MemoryLayout<SearchEntry>.stride * count)
        try multiple(.locationUnits, of: 4)
        try expect(.locationStarts, 4 * (count + 1))
        try expect(.districtEnds, 4 * count)
        try expect(.locationSignatures, 16 * count)
        // The entries are read in place as `SearchEntry`: its layout must be the file's.
        guard MemoryLayout<SearchEntry>.size == 32, MemoryLayout<SearchEntry>.stride == 32,
              MemoryLayout<SearchEntry>.offset(of: \.nameStart) == 16, MemoryLayout<SearchEntry>.offset(of: \.nameLength) == 20,
              MemoryLayout<SearchEntry>.offset(of: \.province) == 22, MemoryLayout<SearchEntry>.offset(of: \.level) == 23,
              MemoryLayout<SearchEntry>.offset(of: \.firstUnit) == 24, MemoryLayout<SearchEntry>.offset(of: \.firstInitial) == 28
        else { throw .unsupportedMachine }
    }

    /// What is read of every school is checked; the school records themselves are read only for
    /// the schools shown, and checked then (`textBytes`).
    private func checkSchools() throws(CatalogSnapshotError) {
        // The tie order is a permutation of the positions.
        var seen = [Bool](repeating: false, count: count)
        for place in array(.tieOrder) as UnsafeBufferPointer<Int32> {
            guard place >= 0, Int(place) < count, !seen[Int(place)] else { throw .damaged("tie order") }
            seen[Int(place)] = true
        }
        // The id table holds every position once and nothing else (the empty slots are -1):
        // a table with no empty slot would make a lookup of an absent id probe forever, and a
        // checksum is easy to make match whatever a file holds.
        var indexed = [Bool](repeating: false, count: count)
        var occupied = 0
        for slot in array(.idTable) as UnsafeBufferPointer<Int32> where slot != -1 {
            guard slot >= 0, Int(slot) < count, !indexed[Int(slot)] else { throw .damaged("id table") }
            indexed[Int(slot)] = true
            occupied += 1
        }
        guard occupied == count else { throw .damaged("id table") }
        let provinces = range(.provinceNames).count / 8
        guard (array(.provinceOfSchool) as UnsafeBufferPointer<UInt16>).allSatisfy({ Int($0) < provinces }) else {
            throw .damaged("province of a school")
        }
    }

    private func checkSearchArrays() throws(CatalogSnapshotError) {
        let entries: UnsafeBufferPointer<SearchEntry> = array(.searchEntries)
        let nameUnitCount = range(.nameUnits).count / 4, locationUnitCount = range(.locationUnits).count / 4
        for entry in entries {
            guard entry.nameStart >= 0, Int(entry.nameStart) + Int(entry.nameLength) <= nameUnitCount,
                  entry.province >= -1, Int(entry.province) < Province.all.count, entry.level < 3
            else { throw .damaged("search entry") }
        }
        let starts: UnsafeBufferPointer<Int32> = array(.locationStarts)
        let districtEnds: UnsafeBufferPointer<Int32> = array(.districtEnds)
        guard starts[0] == 0 else { throw .damaged("location starts") }
        for position in 0..<count {
            guard starts[position] <= districtEnds[position], districtEnds[position] <= starts[position + 1],
                  Int(starts[position + 1]) <= locationUnitCount
            else { throw .damaged("location starts") }
        }
    }
}

/// Why a snapshot's bytes cannot be used.
public enum CatalogSnapshotError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Not a snapshot at all.
    case foreign
    /// A snapshot of another version of the format.
    case version(Int)
    /// Shorter than its header says (a write cut short): how many bytes there are.
    case truncated(Int)
    /// A snapshot whose contents fail a check: which.
    case damaged(String)
    /// A machine whose byte order or memory layout differs from the format's.
    case unsupportedMachine

    public var description: String {
        switch self {
        case .foreign: "not a catalog snapshot"
        case let .version(version): "a snapshot of format version \(version), this program reads version \(CatalogSnapshotLayout.version)"
        case let .truncated(count): "cut short (\(count) bytes)"
        case let .damaged(what): "damaged (\(what))"
        case .unsupportedMachine: "snapshots are not used on this machine (byte order or memory layout)"
        }
    }
}

/// The snapshot's checksum: FNV-1a 64 over the little-endian 8-byte words after the header, fed
/// in pieces whose sizes are multiples of 8.
public struct CatalogSnapshotChecksum: Sendable {
    public private(set) var value = CatalogSnapshotLayout.fnvOffsetBasis

    public init() {}

    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var hash = value
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) &* CatalogSnapshotLayout.fnvPrime
            offset += 8
        }
        value = hash
    }

    /// Where the checked bytes start.
    public static var headerSize: Int { CatalogSnapshotLayout.headerSize }
}
