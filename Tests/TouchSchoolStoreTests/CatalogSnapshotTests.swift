import Foundation
import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore
@testable import TouchSchoolStore

/// The catalog snapshot against the catalog it was made from: the same schools, the same search
/// results and the same leaderboard; and real snapshot files that are cut short, foreign, of
/// another version, damaged or stale, each detected, reported and rebuilt from `catalog.json`.
@Suite(.onOwnThreads) struct CatalogSnapshotTests {
    static let starter: Catalog = try! CatalogFile.load(path: StarterCatalogFile.path!)
    static let stamp = CatalogSnapshotStamp(device: 1, inode: 2, size: 3, modifiedSeconds: 4, modifiedNanoseconds: 5)

    static func snapshotCatalog(of catalog: Catalog) throws -> Catalog {
        Catalog(snapshot: try CatalogSnapshot(copying: CatalogSnapshot.encode(catalog, stamp: stamp)))
    }

    /// Queries a player would type, made from the catalog's own names: prefixes, abbreviations of
    /// two syllables and a level, 초성, with a region, on 2-beolsik keys, with filters.
    static func queries(over catalog: Catalog, every step: Int) -> [SearchQuery] {
        var queries: [SearchQuery] = [
            "서", "서울", "서울고", "민사고", "대원외고", "경기과고", "ㅎㅁㄱ", "ㅅㅇㄱ", "gnlansrh", "tjdnfrh", "kis", "nlcs",
            "부산 금성초", "제주 신촌초", "서울 고등 학교", "강원 횡성", "세종", "서울곧", "경민IT고", "광주 중",
        ].map { SearchQuery(text: $0) }
        queries.append(SearchQuery(text: "", level: .high, province: "서울특별시"))
        queries.append(SearchQuery(text: "고", level: .middle, limit: 50))
        queries.append(SearchQuery(text: "초", province: "부산", limit: 200))
        for position in stride(from: 0, to: catalog.count, by: step) {
            let school = catalog[position]
            let name = Array(school.name)
            queries.append(SearchQuery(text: String(name.prefix(3))))
            queries.append(SearchQuery(text: String(name.prefix(2)) + String(name.suffix(4).prefix(1))))
            let initials = name.prefix(4).compactMap { character -> Character? in
                guard let scalar = character.unicodeScalars.first, (0xAC00..<0xAC00 + 11172).contains(scalar.value) else { return character }
                let choseong = Array("ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ")
                return choseong[Int(scalar.value - 0xAC00) / 588]
            }
            queries.append(SearchQuery(text: String(initials)))
            queries.append(SearchQuery(text: "\(school.district) \(String(name.prefix(2)))", limit: 5))
            queries.append(SearchQuery(text: String(name.prefix(2)), level: school.level, province: school.province))
        }
        return queries
    }

    /// The queries whose results differ between the two catalogs' searches, how many were
    /// compared, and how many hits the in-memory search found.
    static func searchDifferences(_ catalog: Catalog, _ snapshot: Catalog, every step: Int) -> (differences: [String], compared: Int, found: Int) {
        let memory = SchoolSearch(catalog: catalog), mapped = SchoolSearch(catalog: snapshot)
        var differences: [String] = [], compared = 0, found = 0
        for query in queries(over: catalog, every: step) {
            let expected = memory.search(query)
            if mapped.search(query) != expected { differences.append("\(query)") }
            compared += 1
            found += expected.count
        }
        return (differences, compared, found)
    }

    static func expectSameSearch(_ catalog: Catalog, _ snapshot: Catalog, every step: Int,
                                 sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (differences, compared, found) = searchDifferences(catalog, snapshot, every: step)
        #expect(differences.isEmpty, "results differ for \(differences.prefix(5))", sourceLocation: sourceLocation)
        #expect(compared > 100 && found > 1_000, "the queries must find schools: \(compared) queries, \(found) hits",
                sourceLocation: sourceLocation)
    }

    /// Where the two catalogs' leaderboards disagree, under the same counts and the same taps.
    static func leaderboardDifferences(_ catalog: Catalog, _ snapshot: Catalog) -> [String] {
        var random = RandomSource(seed: 42)
        var differences: [String] = []
        // Many ties at 0 and a few counts, as in a real game.
        let counts = (0..<catalog.count).map { _ in random.next() % 4 == 0 ? random.next() % 5 : 0 }
        var memory = Leaderboard(catalog: catalog, counts: counts), mapped = Leaderboard(catalog: snapshot, counts: counts)
        let school = catalog[catalog.count / 2]
        for league in League.leagues(of: school) + [.province("없는도"), .level(.high)] {
            if mapped.size(of: league) != memory.size(of: league) { differences.append("size of \(league)") }
            if mapped.entries(in: league, places: 0..<catalog.count) != memory.entries(in: league, places: 0..<catalog.count) {
                differences.append("rows of \(league)")
            }
        }
        for step in 0..<50 {
            let position = Int(random.next() % UInt64(catalog.count))
            memory.add(UInt64(step % 7), to: position)
            mapped.add(UInt64(step % 7), to: position)
            for league in League.leagues(of: catalog[position]) {
                if mapped.rank(of: position, in: league) != memory.rank(of: position, in: league)
                    || mapped.place(of: position, in: league) != memory.place(of: position, in: league)
                    || mapped.schoolAbove(position, in: league) != memory.schoolAbove(position, in: league) {
                    differences.append("school \(position) in \(league) after step \(step)")
                }
            }
        }
        if mapped.entries(in: .national, places: 0..<100) != memory.entries(in: .national, places: 0..<100) {
            differences.append("the national top 100 after the taps")
        }
        return differences
    }

    static func expectSameLeaderboard(_ catalog: Catalog, _ snapshot: Catalog, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let differences = leaderboardDifferences(catalog, snapshot)
        #expect(differences.isEmpty, "\(differences.prefix(5))", sourceLocation: sourceLocation)
    }

    // MARK: - The snapshot against its catalog

    @Test func theStarterCatalogsSnapshotHoldsTheSameSchoolsIdsAndAliases() throws {
        let catalog = Self.starter
        let snapshot = try Self.snapshotCatalog(of: catalog)
        #expect(snapshot.snapshot != nil)
        #expect(snapshot.count == catalog.count)
        #expect(snapshot.source == catalog.source)
        #expect(snapshot.schools == catalog.schools)
        for school in catalog.schools { #expect(snapshot.position(ofID: school.id) == catalog.position(ofID: school.id)) }
        #expect(snapshot.position(ofID: "B999999999") == nil)
        #expect(snapshot.position(ofID: "") == nil)
        // The same catalog gives the same bytes.
        #expect(CatalogSnapshot.encode(catalog, stamp: Self.stamp) == CatalogSnapshot.encode(snapshot, stamp: Self.stamp))
    }

    @Test func everyFieldAndAliasSurvivesTheSnapshot() throws {
        let schools = [
            School(id: "B1", name: "가중학교", level: .middle, province: "서울특별시", district: "", address: "서울 어딘가",
                   lotAddress: "서울 번지", ownership: .private, isBranch: true, latitude: 37.5, longitude: -0.0, founded: "1901-01-01",
                   isListed: false),
            School(id: "B2", name: "NLCS JeJu", level: .high, province: "제주특별자치도", district: "서귀포시", address: "제주 주소"),
            // The same name in two spellings (composed and decomposed Hangul): kept apart, byte for byte.
            School(id: "B3", name: "가중학교", level: .elementary, province: "서울특별시", district: "종로구", address: "a",
                   ownership: .national, latitude: 0, longitude: 127.1),
            School(id: "B4", name: "\u{1100}\u{1161}중학교", level: .elementary, province: "서울특별시", district: "종로구", address: "a",
                   ownership: .public),
        ]
        let catalog = Catalog(schools: schools, aliases: ["S0001": "B1", "S0002": "B2"], source: .official(edition: "2026-03-20"))
        let snapshot = try Self.snapshotCatalog(of: catalog)
        #expect(snapshot.schools == schools)
        #expect(snapshot.schools.map { Array($0.name.utf8) } == schools.map { Array($0.name.utf8) })
        #expect(snapshot.aliases == catalog.aliases)
        #expect(snapshot.source == .official(edition: "2026-03-20"))
        #expect(snapshot.position(ofID: "S0002") == 1)
        #expect(try Self.snapshotCatalog(of: Catalog(schools: [], source: .starter)).count == 0)
    }

    @Test func theSearchEntryLayoutIsTheFormats() {
        // docs/catalog-snapshot.md: the entries are read in place.
        #expect(MemoryLayout<SearchEntry>.size == 32 && MemoryLayout<SearchEntry>.stride == 32)
        #expect([\SearchEntry.nameSignature, \.districtSignature].map { MemoryLayout<SearchEntry>.offset(of: $0) } == [0, 8])
        #expect(MemoryLayout<SearchEntry>.offset(of: \.nameStart) == 16 && MemoryLayout<SearchEntry>.offset(of: \.nameLength) == 20)
        #expect(MemoryLayout<SearchEntry>.offset(of: \.province) == 22 && MemoryLayout<SearchEntry>.offset(of: \.level) == 23)
        #expect(MemoryLayout<SearchEntry>.offset(of: \.firstUnit) == 24 && MemoryLayout<SearchEntry>.offset(of: \.firstInitial) == 28)
    }

    @Test func searchAndLeaderboardOverTheStarterSnapshotAreTheInMemoryOnes() async throws {
        let snapshot = try Self.snapshotCatalog(of: Self.starter)
        try await Self.expectSameSearch(Self.starter, snapshot, every: 1)
        try await Self.expectSameLeaderboard(Self.starter, snapshot)
    }

    @Test(.enabled(if: SharedData.isAvailable, "../shared/data not found: skipped"))
    func searchAndLeaderboardOverTheFullListsSnapshotAreTheInMemoryOnes() async throws {
        let list = try OfficialSchoolList.load(path: SharedData.path(SharedData.edition2026UTF8))
        let catalog = CatalogImport.merge(current: Catalog(schools: [], source: .starter), official: list) { _ in false }.catalog
        let snapshot = try Self.snapshotCatalog(of: catalog)
        #expect(catalog.count == 12_011)
        #expect(snapshot.schools == catalog.schools)
        // About 400 queries: enough to cover every kind, few enough to keep the test short.
        try await Self.expectSameSearch(catalog, snapshot, every: 150)
        try await Self.expectSameLeaderboard(catalog, snapshot)
    }

    // MARK: - Real files

    /// A data directory holding an imported catalog and its snapshot, as `touchschool import` leaves it.
    struct DataDirectory {
        let directory: TemporaryDirectory
        let catalog: Catalog
        var catalogPath: String { CatalogFile.importedCatalogPath(inDataDirectory: directory.path) }
        var snapshotPath: String { CatalogSnapshotFile.path(forCatalog: catalogPath) }

        init(_ catalog: Catalog) throws {
            directory = TemporaryDirectory()
            self.catalog = catalog
            try CatalogFile.save(catalog, to: catalogPath, fileSystem: .live)
        }

        func load() throws -> (catalog: Catalog, snapshotProblem: CatalogFile.SnapshotProblem?) {
            try CatalogFile.loadCurrentReporting(dataDirectory: directory.path, starterPath: nil)
        }

        /// Loads with the problem expected, then again: the snapshot was rebuilt, and both times
        /// the catalog, its search and its leaderboard are the catalog's.
        func expectRebuilt(_ expected: CatalogSnapshotFile.Problem, from expectedCatalog: Catalog? = nil,
                           sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let expectedCatalog = expectedCatalog ?? catalog
            let (first, problem) = try load()
            #expect(problem == CatalogFile.SnapshotProblem(path: snapshotPath, problem: expected, rebuilt: true), sourceLocation: sourceLocation)
            #expect(first.snapshot == nil, "the damaged snapshot was not used", sourceLocation: sourceLocation)
            #expect(first.schools == expectedCatalog.schools, sourceLocation: sourceLocation)
            let (second, again) = try load()
            #expect(again == nil, "rebuilt: \(String(describing: again))", sourceLocation: sourceLocation)
            #expect(second.snapshot != nil, sourceLocation: sourceLocation)
            #expect(second.schools == expectedCatalog.schools, sourceLocation: sourceLocation)
            try await CatalogSnapshotTests.expectSameSearch(expectedCatalog, second, every: 7, sourceLocation: sourceLocation)
            try await CatalogSnapshotTests.expectSameLeaderboard(expectedCatalog, second, sourceLocation: sourceLocation)
        }

        func overwriteSnapshot(_ change: (inout [UInt8]) -> Void) throws {
            var bytes = try FileIO.read(snapshotPath)
            change(&bytes)
            try FileSystem.live.replaceAtomically(snapshotPath, with: bytes)
        }
    }

    @Test func anImportedCatalogIsReadThroughItsSnapshot() throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        let (catalog, problem) = try data.load()
        #expect(problem == nil)
        #expect(catalog.snapshot != nil)
        #expect(catalog.schools == Self.starter.schools)
    }

    /// Pages of the file at `path` in the page cache (mincore of a mapping that touches none).
    static func residentPages(_ path: String) throws -> (resident: Int, total: Int) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, operation: "open", code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileError(path: path, operation: "fstat", code: errno) }
        let size = Int(info.st_size), page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw FileError(path: path, operation: "mmap", code: errno)
        }
        defer { munmap(address, size) }
        var vector = [UInt8](repeating: 0, count: (size + page - 1) / page)
        guard mincore(address, size, &vector) == 0 else { throw FileError(path: path, operation: "mincore", code: errno) }
        return (vector.filter { $0 & 1 != 0 }.count, vector.count)
    }

    /// What a search maps comes from the disk in the pages it touches, not in the large folios a
    /// freshly written file sits in (BENCHMARKS.md, "Peak memory"); catalog.json, written the same
    /// way just before, shows that this file system keeps what was written in the cache.
    @Test func aWrittenSnapshotIsNotLeftInThePageCache() throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        let json = try Self.residentPages(data.catalogPath)
        #expect(json.resident > 0, "catalog.json is not in the page cache: this file system does not show the difference")
        let snapshot = try Self.residentPages(data.snapshotPath)
        #expect(snapshot.total > 10)
        #expect(snapshot.resident == 0, "\(snapshot.resident) of \(snapshot.total) pages of the new snapshot are in the page cache")
    }

    /// Pages of `range` (offsets from `base`) that this process has mapped in (/proc/self/pagemap).
    static func presentPages(base: UnsafeRawPointer, range: Range<Int>) throws -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = (Int(bitPattern: base) + range.lowerBound) / page, end = (Int(bitPattern: base) + range.upperBound + page - 1) / page
        let descriptor = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: "/proc/self/pagemap", operation: "open", code: errno) }
        defer { close(descriptor) }
        var entries = [UInt64](repeating: 0, count: end - first)
        let got = entries.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(first * 8)) }
        guard got == (end - first) * 8 else { throw FileError(path: "/proc/self/pagemap", operation: "read", code: errno) }
        return entries.filter { $0 >> 63 == 1 }.count
    }

    /// Reading one school maps its record and text, not the pages around them (which the
    /// kernel's fault-around would map in one mapping of the whole file): BENCHMARKS.md, "Peak memory".
    @Test func oneSchoolsTextIsMappedWithoutThePagesAroundIt() throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        let (catalog, _) = try data.load()
        let snapshot = try #require(catalog.snapshot)
        let header = try FileIO.read(data.snapshotPath)
        let textAndRecords = try #require(header.withUnsafeBytes { CatalogSnapshot.lazyRange(header: $0) })
        let base = try #require(snapshot.storage.bytes.baseAddress)
        let pages = textAndRecords.count / Int(sysconf(Int32(_SC_PAGESIZE)))
        // More than the 16 pages fault-around maps at once, so that the difference shows.
        #expect(pages >= 16, "the starter catalog's text and records: \(pages) pages")
        let school = catalog[catalog.count / 2]
        #expect(school == Self.starter.schools[catalog.count / 2])
        // Its record, its own text (id, name, address), its district's and its province's.
        let present = try Self.presentPages(base: base, range: textAndRecords)
        #expect(present <= 6, "\(present) of \(pages) pages of text and records are mapped after reading one school")
    }

    /// The pages are mapped as threads first read them: every thread reads every school right.
    @Test func schoolsReadFromManyThreadsAtOnceAreTheCatalogs() async throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        let (catalog, _) = try data.load()
        #expect(catalog.snapshot != nil)
        let expected = Self.starter.schools
        let wrong = try await withThrowingTaskGroup(of: Int.self) { group in
            for thread in 0..<8 {
                // Each child task on a thread of its own (the suite's `.onOwnThreads`), each in
                // another order, so that they meet on pages not yet mapped.
                group.addTask {
                    let order = (0..<catalog.count).map { ($0 * (2 * thread + 1) + thread * 37) % catalog.count }
                    return order.filter { catalog[$0] != expected[$0] }.count
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }

    @Test func aMissingSnapshotIsMadeSilently() throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        FileSystem.live.remove(data.snapshotPath)
        let (catalog, problem) = try data.load()
        #expect(problem == nil && catalog.snapshot == nil)
        #expect(FileIO.exists(data.snapshotPath))
        #expect(try data.load().catalog.snapshot != nil)
    }

    @Test func aTruncatedSnapshotIsRebuilt() async throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        try data.overwriteSnapshot { $0.removeLast($0.count / 2) }
        let length = try FileIO.read(data.snapshotPath).count
        try await data.expectRebuilt(.rejected(.truncated(length)))
        try data.overwriteSnapshot { $0.removeLast($0.count - 20) }
        try await data.expectRebuilt(.rejected(.truncated(20)))
    }

    /// Where the text and records are, read from the header alone; a header whose first sections
    /// overlap or wrap around gives none (the snapshot's own checks then refuse it).
    @Test func theTextAndRecordsRangeComesFromTheHeaderAndABadOneGivesNone() throws {
        var bytes = CatalogSnapshot.encode(Self.starter, stamp: Self.stamp)
        func word(_ offset: Int) -> UInt64 { bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) } }
        func setWord(_ offset: Int, _ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 8, with: $0) } }
        // The section table at 80: strings (0), meta (1), schools (2); offset then length.
        let stringsStart = word(80), schoolsEnd = word(80 + 32) + word(80 + 40)
        let range = bytes.withUnsafeBytes { CatalogSnapshot.lazyRange(header: $0) }
        #expect(range == Int(stringsStart)..<Int(schoolsEnd))
        #expect(stringsStart == 320 && Int(schoolsEnd) < bytes.count)
        setWord(80 + 8, UInt64.max - 100)  // the strings' length wraps around
        #expect(bytes.withUnsafeBytes { CatalogSnapshot.lazyRange(header: $0) } == nil)
        setWord(80 + 8, word(80 + 32) - stringsStart + 8)  // the strings overlap the records
        #expect(bytes.withUnsafeBytes { CatalogSnapshot.lazyRange(header: $0) } == nil)
    }

    /// Cut inside the records: the header's text and records run past the end of the file. The
    /// snapshot is refused and rebuilt, and what the header says never reaches past the mapping.
    @Test func aSnapshotCutInsideTheRecordsIsRebuilt() async throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        let whole = try FileIO.read(data.snapshotPath)
        let range = try #require(whole.withUnsafeBytes { CatalogSnapshot.lazyRange(header: $0) })
        let cut = (range.upperBound - 4096) / 8 * 8
        try data.overwriteSnapshot { $0.removeLast($0.count - cut) }
        try await data.expectRebuilt(.rejected(.truncated(cut)))

        // The pages it lays over the mapping stay inside it.
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let descriptor = open(data.snapshotPath, O_RDONLY | O_CLOEXEC)
        let size = 4 * page
        let address = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0))
        defer { munmap(address, size) }
        let pages = try #require(SnapshotTextPages(address: address, size: size, range: 320..<100 * page, descriptor: descriptor))
        defer { pages.closeFile() }
        #expect(pages.pages == 1..<4)
    }

    @Test func foreignBytesAreNotASnapshot() async throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        try data.overwriteSnapshot { $0 = try! FileIO.read(data.catalogPath) }
        try await data.expectRebuilt(.rejected(.foreign))
        try FileSystem.live.replaceAtomically(data.snapshotPath, with: [])
        try await data.expectRebuilt(.rejected(.truncated(0)))
    }

    @Test func aSnapshotOfAnotherVersionIsRebuilt() async throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        try data.overwriteSnapshot { $0[8] = 2 }
        try await data.expectRebuilt(.rejected(.version(2)))
    }

    @Test func damagedBytesFailTheChecks() async throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        // One byte in the middle of the school text: only the checksum can see it.
        try data.overwriteSnapshot { $0[$0.count / 2] ^= 0x20 }
        try await data.expectRebuilt(.rejected(.damaged("checksum")))
        // A longer file than its header says.
        try data.overwriteSnapshot { $0 += [UInt8](repeating: 0, count: 8) }
        let length = try FileIO.read(data.snapshotPath).count
        try await data.expectRebuilt(.rejected(.damaged("\(length) bytes where the header says \(length - 8)")))
    }

    /// A crafted snapshot (its checksum made to match) whose id table has no empty slot: a
    /// lookup of an id it lacks would probe forever. Refused at opening, and rebuilt.
    @Test func aFullIdTableWithAValidChecksumIsRefused() async throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        try data.overwriteSnapshot { bytes in
            let entry = CatalogSnapshotLayout.sectionTableOffset + 16 * CatalogSnapshotLayout.Section.idTable.rawValue
            func word64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
            let table = word64(entry)..<word64(entry) + word64(entry + 8)
            for slot in stride(from: table.lowerBound, to: table.upperBound, by: 4) { bytes[slot..<slot + 4] = [0, 0, 0, 0] }
            var checksum = CatalogSnapshotChecksum()
            bytes.withUnsafeBytes { checksum.add(UnsafeRawBufferPointer(rebasing: $0[CatalogSnapshotLayout.headerSize...])) }
            for index in 0..<8 { bytes[CatalogSnapshotLayout.checksumOffset + index] = UInt8(truncatingIfNeeded: checksum.value >> (8 * UInt64(index))) }
        }
        try await data.expectRebuilt(.rejected(.damaged("id table")))
    }

    @Test func aSnapshotOfAnOlderCatalogIsStale() async throws {
        let data = try DataDirectory(Self.starter)
        defer { data.directory.remove() }
        // catalog.json edited by hand (or written by a program that makes no snapshot): fewer schools.
        var edited = Self.starter.schools
        edited.removeFirst(10)
        edited[0].name = "고쳐쓴초등학교"
        let newer = Catalog(schools: edited, source: .starter)
        try FileSystem.live.replaceAtomically(data.catalogPath, with: CatalogFile.encode(newer))
        try await data.expectRebuilt(.stale, from: newer)
        #expect(SchoolSearch(catalog: try data.load().catalog).search(SearchQuery(text: "고쳐쓴")).map(\.position) == [0])
    }

    @Test func theStarterCatalogsSnapshotIsMadeInAnExistingDataDirectory() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let starterPath = try #require(StarterCatalogFile.path)
        let (first, problem) = try CatalogFile.loadCurrentReporting(dataDirectory: directory.path, starterPath: starterPath)
        #expect(problem == nil && first.snapshot == nil)
        let (second, _) = try CatalogFile.loadCurrentReporting(dataDirectory: directory.path, starterPath: starterPath)
        #expect(second.snapshot != nil)
        #expect(second.schools == Self.starter.schools)
        // No data directory yet: nothing is created.
        let absent = "\(directory.path)/not-yet"
        #expect(try CatalogFile.loadCurrentReporting(dataDirectory: absent, starterPath: starterPath).catalog.count == Self.starter.count)
        #expect(!FileIO.exists(absent))
    }
}
