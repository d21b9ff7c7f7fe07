/// The binary layout of a catalog snapshot (docs/catalog-snapshot.md), shared by the writer
/// (`CatalogSnapshot.encode`) and the reader (`CatalogSnapshot.init(bytes:owner:)`).
///
/// Everything is little-endian; every section starts at a multiple of 8 bytes from the start of
/// the file and the file's length is a multiple of 8, so that a mapped file (page-aligned) holds
/// each array at its natural alignment.
enum CatalogSnapshotLayout {
    /// `TSCATSNP`.
    static let magic: [UInt8] = Array("TSCATSNP".utf8)
    static let version: UInt32 = 1
    /// Written as a little-endian `UInt32`: read back on a machine of the other byte order it is
    /// `0x04030201`.
    static let byteOrderMark: UInt32 = 0x0102_0304

    // Header fields, by byte offset.
    static let versionOffset = 8
    static let byteOrderOffset = 12
    static let lengthOffset = 16
    static let checksumOffset = 24
    static let stampOffset = 32  // five UInt64: device, inode, size, mtime seconds, mtime nanoseconds
    static let schoolCountOffset = 72
    static let sectionCountOffset = 76
    static let sectionTableOffset = 80  // per section: offset UInt64, length UInt64

    /// The sections, in file order.
    enum Section: Int, CaseIterable {
        /// All text, UTF-8; text is referred to as (offset UInt32, length UInt32) into it.
        case strings
        /// Source kind UInt32 (0 starter, 1 official), 4 bytes of padding, the edition's text reference.
        case meta
        /// One `schoolRecordSize`-byte record per school, in catalog order.
        case schools
        /// (former id, target id) text references, 16 bytes per alias.
        case aliases
        /// Open-addressing table id → position: Int32 per slot, -1 empty; a power-of-two count of
        /// slots, FNV-1a 64 of the id's bytes, linear probing.
        case idTable
        /// Int32 per school: its place in the leaderboard's fixed tie order (name, province, id).
        case tieOrder
        /// Text reference per distinct province, in order of first appearance.
        case provinceNames
        /// UInt16 per school: its index into `provinceNames`.
        case provinceOfSchool
        // The search index's arrays (`SearchIndex`).
        case nameUnits, nameInitials, searchEntries, locationUnits, locationStarts, districtEnds, locationSignatures
    }

    static var headerSize: Int { sectionTableOffset + 16 * Section.allCases.count }

    // A school record, by byte offset: seven text references (id, name, province, district,
    // address, lot address, founded; length `absent` when nil), latitude and longitude as IEEE
    // doubles, then level, ownership (0 none, 1 national, 2 public, 3 private) and flags.
    static let schoolRecordSize = 80
    static let latitudeOffset = 56
    static let longitudeOffset = 64
    static let levelOffset = 72
    static let ownershipOffset = 73
    static let flagsOffset = 74
    static let branchFlag: UInt8 = 1
    static let listedFlag: UInt8 = 2
    static let hasLatitudeFlag: UInt8 = 4
    static let hasLongitudeFlag: UInt8 = 8
    /// The length of a text reference to a value that is absent (nil).
    static let absent = UInt32.max

    static let fnvOffsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    static let fnvPrime: UInt64 = 0x0000_0100_0000_01B3

    /// FNV-1a 64 over the id's bytes: the id table's hash.
    static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash = fnvOffsetBasis
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* fnvPrime }
        return hash
    }

    static func levelCode(_ level: SchoolLevel) -> UInt8 {
        switch level {
        case .elementary: 0
        case .middle: 1
        case .high: 2
        }
    }

    static func ownershipCode(_ ownership: Ownership?) -> UInt8 {
        switch ownership {
        case nil: 0
        case .national: 1
        case .public: 2
        case .private: 3
        }
    }
}

/// Where a snapshot's catalog came from: the stamp of the `catalog.json` it was made from (its
/// device, inode, size and modification time), so that a snapshot of another or an older
/// `catalog.json` is known to be stale.
public struct CatalogSnapshotStamp: Equatable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: UInt64
    public var modifiedSeconds: UInt64
    public var modifiedNanoseconds: UInt64

    public init(device: UInt64, inode: UInt64, size: UInt64, modifiedSeconds: UInt64, modifiedNanoseconds: UInt64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    var words: [UInt64] { [device, inode, size, modifiedSeconds, modifiedNanoseconds] }
}
