extension CatalogSnapshot {
    /// The snapshot of `catalog`, made from the `catalog.json` with this stamp: the bytes to write
    /// to a file (docs/catalog-snapshot.md). The same catalog and stamp always give the same bytes.
    public static func encode(_ catalog: Catalog, stamp: CatalogSnapshotStamp) -> [UInt8] {
        let schools = catalog.schools
        var strings = StringTable()
        var sections = [[UInt8]](repeating: [], count: Section.allCases.count)

        var meta = SnapshotBytes()
        switch catalog.source {
        case .starter:
            meta.append(UInt32(0)); meta.append(UInt32(0)); meta.append(strings.reference(nil))
        case let .official(edition):
            meta.append(UInt32(1)); meta.append(UInt32(0)); meta.append(strings.reference(edition))
        }
        sections[Section.meta.rawValue] = meta.bytes

        var records = SnapshotBytes()
        for school in schools {
            for text in [school.id, school.name, school.province, school.district, school.address] {
                records.append(strings.reference(text))
            }
            records.append(strings.reference(school.lotAddress))
            records.append(strings.reference(school.founded))
            records.append((school.latitude ?? 0).bitPattern)
            records.append((school.longitude ?? 0).bitPattern)
            var flags: UInt8 = 0
            if school.isBranch { flags |= Layout.branchFlag }
            if school.isListed { flags |= Layout.listedFlag }
            if school.latitude != nil { flags |= Layout.hasLatitudeFlag }
            if school.longitude != nil { flags |= Layout.hasLongitudeFlag }
            records.bytes += [Layout.levelCode(school.level), Layout.ownershipCode(school.ownership), flags, 0, 0, 0, 0, 0]
        }
        sections[Section.schools.rawValue] = records.bytes

        var aliases = SnapshotBytes()
        // By the former id's bytes, for `aliasTarget(of:)`'s binary search.
        for (former, target) in catalog.aliases.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            aliases.append(strings.reference(former))
            aliases.append(strings.reference(target))
        }
        sections[Section.aliases.rawValue] = aliases.bytes

        // Twice as many slots as schools (a power of two): short probes, and always an empty slot.
        var slotCount = 1
        while slotCount < 2 * schools.count { slotCount <<= 1 }
        var table = [Int32](repeating: -1, count: slotCount)
        for (position, school) in schools.enumerated() {
            var slot = Int(truncatingIfNeeded: Layout.hash(school.id.utf8)) & (slotCount - 1)
            while table[slot] >= 0 { slot = (slot + 1) & (slotCount - 1) }
            table[slot] = Int32(position)
        }
        sections[Section.idTable.rawValue] = SnapshotBytes(table).bytes

        let keys = catalog.rankingKeys
        sections[Section.tieOrder.rawValue] = SnapshotBytes(keys.tieOrder).bytes
        var provinceNames = SnapshotBytes()
        for name in keys.provinceNames { provinceNames.append(strings.reference(name)) }
        sections[Section.provinceNames.rawValue] = provinceNames.bytes
        sections[Section.provinceOfSchool.rawValue] = SnapshotBytes(keys.provinceOfSchool).bytes

        let search = SearchArrays(schools)
        sections[Section.nameUnits.rawValue] = SnapshotBytes(search.nameUnits).bytes
        sections[Section.nameInitials.rawValue] = SnapshotBytes(search.nameInitials).bytes
        var entries = SnapshotBytes()
        for entry in search.entries {
            entries.append(entry.nameSignature)
            entries.append(entry.districtSignature)
            entries.append(entry.nameStart)
            entries.append(entry.nameLength)
            entries.append(entry.province)
            entries.append(entry.level)
            entries.append(entry.firstUnit)
            entries.append(entry.firstInitial)
        }
        sections[Section.searchEntries.rawValue] = entries.bytes
        sections[Section.locationUnits.rawValue] = SnapshotBytes(search.locationUnits).bytes
        sections[Section.locationStarts.rawValue] = SnapshotBytes(search.locationStarts).bytes
        sections[Section.districtEnds.rawValue] = SnapshotBytes(search.districtEnds).bytes
        sections[Section.locationSignatures.rawValue] = SnapshotBytes(search.locationSignatures).bytes
        sections[Section.strings.rawValue] = strings.bytes

        // The header, then each section at the next multiple of 8.
        var file = SnapshotBytes()
        file.bytes += Layout.magic
        file.append(Layout.version)
        file.append(Layout.byteOrderMark)
        file.append(UInt64(0))  // length, filled in below
        file.append(UInt64(0))  // checksum, likewise
        for word in stamp.words { file.append(word) }
        file.append(UInt32(schools.count))
        file.append(UInt32(sections.count))
        var offset = Layout.headerSize
        for section in sections {
            file.append(UInt64(offset))
            file.append(UInt64(section.count))
            offset += (section.count + 7) / 8 * 8
        }
        for section in sections {
            file.bytes += section
            file.bytes += [UInt8](repeating: 0, count: (8 - section.count % 8) % 8)
        }
        var bytes = file.bytes
        withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { bytes.replaceSubrange(Layout.lengthOffset..<Layout.lengthOffset + 8, with: $0) }
        var checksum = CatalogSnapshotChecksum()
        bytes.withUnsafeBytes { checksum.add(UnsafeRawBufferPointer(rebasing: $0[Layout.headerSize...])) }
        withUnsafeBytes(of: checksum.value.littleEndian) { bytes.replaceSubrange(Layout.checksumOffset..<Layout.checksumOffset + 8, with: $0) }
        return bytes
    }
}

/// Little-endian bytes, as the snapshot stores numbers.
private struct SnapshotBytes {
    var bytes: [UInt8] = []

    init() {}

    init<Element: FixedWidthInteger>(_ values: [Element]) {
        bytes.reserveCapacity(values.count * MemoryLayout<Element>.size)
        for value in values { append(value) }
    }

    mutating func append<Element: FixedWidthInteger>(_ value: Element) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func append(_ reference: (offset: UInt32, length: UInt32)) {
        append(reference.offset)
        append(reference.length)
    }
}

/// The snapshot's text, each distinct string once (provinces and districts repeat thousands of times).
private struct StringTable {
    var bytes: [UInt8] = []
    /// By bytes, not by `String` equality, which would take two spellings of one text (composed
    /// and decomposed Hangul) as one and give back the other.
    private var references: [[UInt8]: (offset: UInt32, length: UInt32)] = [:]

    mutating func reference(_ text: String?) -> (offset: UInt32, length: UInt32) {
        guard let text else { return (0, CatalogSnapshotLayout.absent) }
        let utf8 = Array(text.utf8)
        if let known = references[utf8] { return known }
        let reference = (UInt32(bytes.count), UInt32(utf8.count))
        bytes += utf8
        references[utf8] = reference
        return reference
    }
}
