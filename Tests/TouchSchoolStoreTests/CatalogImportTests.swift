import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolStore

@Suite(.onOwnThreads) struct CatalogImportTests {
    static func school(
        _ id: String, _ name: String, level: SchoolLevel = .middle, province: String = "서울특별시",
        district: String = "서초구", isListed: Bool = true
    ) -> School {
        School(id: id, name: name, level: level, province: province, district: district,
               address: "\(province) \(district) 어딘가로 1", isListed: isListed)
    }

    static func official(_ schools: [School], edition: String = "2026-03-20") -> OfficialSchoolList {
        OfficialSchoolList(schools: schools, edition: edition, encoding: .utf8)
    }

    @Test func starterIDs() {
        #expect(CatalogImport.isStarterID("S0001"))
        #expect(!CatalogImport.isStarterID("B000012052"))
        #expect(!CatalogImport.isStarterID("S"))
        #expect(!CatalogImport.isStarterID("SX01"))
    }

    @Test func sameIDIsTheSameSchool() {
        let current = Catalog(schools: [
            Self.school("B1", "일신여자중학교"),
            Self.school("B2", "가중학교"),
            Self.school("B3", "나중학교"),
            Self.school("B4", "다중학교", isListed: false),
            Self.school("B5", "라중학교", isListed: false),
        ], source: .official(edition: "2025-03-25"))
        var moved = Self.school("B3", "나중학교")
        moved.address = "서울특별시 서초구 새주소로 2"
        let (catalog, report) = CatalogImport.merge(
            current: current,
            official: Self.official([Self.school("B1", "잠실여자중학교"), moved, Self.school("B4", "다중학교"), Self.school("B6", "마중학교")]),
            hasScore: { _ in false }
        )
        #expect(catalog.source == .official(edition: "2026-03-20"))
        #expect(catalog.schools.map(\.id) == ["B1", "B2", "B3", "B4", "B5", "B6"])
        #expect(catalog.schools.map(\.isListed) == [true, false, true, true, false, true])
        #expect(catalog[0].name == "잠실여자중학교")
        #expect(catalog[2].address == "서울특별시 서초구 새주소로 2")
        #expect(report.renamed == [.init(id: "B1", oldName: "일신여자중학교", newName: "잠실여자중학교")])
        #expect(report.noLongerListed.map(\.id) == ["B2"])
        #expect(report.updated.map(\.id) == ["B3"])
        #expect(report.relisted.map(\.id) == ["B4"])
        #expect(report.unchangedCount == 1)  // B5, still unlisted
        #expect(report.added.map(\.id) == ["B6"])
        #expect(report.edition == "2026-03-20")
    }

    @Test func starterSchoolsBecomeAliasesOfTheirOfficialEntries() {
        let current = Catalog(schools: [
            Self.school("S0001", "서울 고등학교", level: .high),                 // spaces differ
            Self.school("S0002", "금성초등학교", level: .elementary, district: "마포구"), // two in 서울, district decides
            Self.school("S0003", "신촌초등학교", level: .elementary),             // two, neither in 서초구: no guess
            Self.school("S0004", "사라진중학교"),                                 // not in the list, has a score
            Self.school("S0005", "없는중학교"),                                   // not in the list, no score
            Self.school("S0006", "서울고등학교", level: .middle),                  // wrong level: no match
        ], aliases: ["S0100": "S0004"], source: .starter)
        let official = Self.official([
            Self.school("B1", "서울고등학교", level: .high),
            Self.school("B2", "금성초등학교", level: .elementary, district: "마포구"),
            Self.school("B3", "금성초등학교", level: .elementary, district: "강남구"),
            Self.school("B4", "신촌초등학교", level: .elementary, district: "마포구"),
            Self.school("B5", "신촌초등학교", level: .elementary, district: "서대문구"),
            Self.school("B6", "금성초등학교", level: .elementary, province: "부산광역시", district: "마포구"),
        ])
        let (catalog, report) = CatalogImport.merge(current: current, official: official, hasScore: { $0 == "S0004" })

        #expect(catalog.aliases == ["S0001": "B1", "S0002": "B2", "S0100": "S0004"])
        #expect(catalog.position(ofID: "S0001").map { catalog[$0].id } == "B1")
        #expect(catalog.position(ofID: "S0002").map { catalog[$0].id } == "B2")
        #expect(report.matchedStarter == [
            .init(starterID: "S0001", officialID: "B1", name: "서울고등학교"),
            .init(starterID: "S0002", officialID: "B2", name: "금성초등학교"),
        ])
        #expect(report.added.map(\.id) == ["B3", "B4", "B5", "B6"])
        #expect(report.keptUnlistedStarter.map(\.id) == ["S0004"])
        #expect(report.droppedStarter.map(\.id) == ["S0003", "S0005", "S0006"])
        #expect(catalog.schools.map(\.id) == ["B1", "B2", "B3", "B4", "B5", "B6", "S0004"])
        #expect(catalog.position(ofID: "S0004").map { catalog[$0].isListed } == false)
        #expect(catalog.position(ofID: "S0100").map { catalog[$0].id } == "S0004")
    }

    @Test func starterNamesWithoutTheCityPrefixFindTheirOfficialEntries() {
        let current = Catalog(schools: [
            Self.school("S0001", "대치초등학교", level: .elementary, district: "강남구"),
            Self.school("S0002", "동도초등학교", level: .elementary, province: "대구광역시", district: "수성구"),
            Self.school("S0003", "고등학교", level: .high),                        // only the level is left: no match
        ], source: .starter)
        let official = Self.official([
            Self.school("B1", "서울대치초등학교", level: .elementary, district: "강남구"),
            Self.school("B2", "대구동도초등학교", level: .elementary, province: "대구광역시", district: "수성구"),
            Self.school("B3", "서울고등학교", level: .high),
        ])
        let (catalog, _) = CatalogImport.merge(current: current, official: official, hasScore: { _ in false })
        #expect(catalog.aliases == ["S0001": "B1", "S0002": "B2"])
    }

    @Test func aScoreUnderAFormerIDKeepsAStarterSchool() {
        let current = Catalog(schools: [Self.school("S0004", "사라진중학교")], aliases: ["S0100": "S0004"], source: .starter)
        let (catalog, report) = CatalogImport.merge(current: current, official: Self.official([Self.school("B1", "가중학교")]),
                                                    hasScore: { $0 == "S0100" })
        #expect(report.keptUnlistedStarter.map(\.id) == ["S0004"])
        #expect(catalog.aliases == ["S0100": "S0004"])
    }

    @Test func aKeptStarterSchoolFoundLaterPassesItsAliasesOn() {
        // The first import kept S0004 (it had a score); the next edition lists it.
        let current = Catalog(
            schools: [Self.school("B1", "가중학교"), Self.school("S0004", "사라진중학교", isListed: false)],
            aliases: ["S0100": "S0004", "S0001": "B1"], source: .official(edition: "2025-03-25")
        )
        let (catalog, report) = CatalogImport.merge(
            current: current, official: Self.official([Self.school("B1", "가중학교"), Self.school("B9", "사라진 중학교")]),
            hasScore: { _ in true }
        )
        #expect(catalog.aliases == ["S0001": "B1", "S0004": "B9", "S0100": "B9"])
        #expect(catalog.schools.map(\.id) == ["B1", "B9"])
        #expect(report.matchedStarter.map(\.officialID) == ["B9"])
        #expect(report.added.isEmpty)
        #expect(report.unchangedCount == 1)
    }

    @Test func importingTheSameEditionAgainChangesNothing() {
        let list = Self.official([Self.school("B1", "가중학교"), Self.school("B2", "나중학교")])
        let (first, _) = CatalogImport.merge(current: Catalog(schools: [], source: .starter), official: list, hasScore: { _ in false })
        let (second, report) = CatalogImport.merge(current: first, official: list, hasScore: { _ in false })
        #expect(second.schools == first.schools)
        #expect(report.unchangedCount == 2)
        #expect(report.added.isEmpty && report.renamed.isEmpty && report.updated.isEmpty && report.noLongerListed.isEmpty)
    }

    /// A list cut short would mark most schools as no longer listed: refused, saying how many of
    /// how many; a real new edition's few closures, a starter catalog replaced, are not.
    @Test func aListThatLeavesOutMostSchoolsIsRefused() throws {
        let current = Catalog(schools: (1...10).map { Self.school("B\($0)", "\($0)중학교") }
                              + [Self.school("B11", "폐교중학교", isListed: false)], source: .official(edition: "2026-03-20"))
        let cut = Self.official((1...4).map { Self.school("B\($0)", "\($0)중학교") })
        #expect(throws: ImportRefusal.dropsMostSchools(removed: 6, listed: 10)) { try CatalogImport.check(current: current, official: cut) }
        // Half is a big edition's change, not yet a cut file; the schools no longer listed already do not count.
        try CatalogImport.check(current: current, official: Self.official((1...5).map { Self.school("B\($0)", "\($0)중학교") }))
        let starter = Catalog(schools: (1...10).map { Self.school("S000\($0)", "\($0)중학교") }, source: .starter)
        try CatalogImport.check(current: starter, official: Self.official([Self.school("B1", "가중학교")]))
        #expect(throws: ImportRefusal.olderEdition(list: "2025-03-25", imported: "2026-03-20")) {
            try CatalogImport.check(current: current, official: Self.official(cut.schools, edition: "2025-03-25"))
        }
    }

    @Test(.enabled(if: SharedData.isAvailable, "../shared/data not found: skipped"))
    func importing2025Then2026() throws {
        let edition2025 = try OfficialSchoolList.load(path: SharedData.path(SharedData.edition2025CP949))
        let edition2026 = try OfficialSchoolList.load(path: SharedData.path(SharedData.edition2026CP949))
        let (first, firstReport) = CatalogImport.merge(current: Catalog(schools: [], source: .starter), official: edition2025, hasScore: { _ in false })
        #expect(firstReport.added.count == 11_985)
        #expect(first.count == 11_985)

        let (second, report) = CatalogImport.merge(current: first, official: edition2026, hasScore: { _ in false })
        #expect(report.added.count == 78)
        #expect(report.noLongerListed.count == 52)
        #expect(report.renamed.count == 17)
        #expect(report.renamed.contains(.init(id: report.renamed.first { $0.oldName == "일신여자중학교" }?.id ?? "",
                                              oldName: "일신여자중학교", newName: "잠실여자중학교")))
        let inBoth = report.renamed.count + report.relisted.count + report.updated.count + report.unchangedCount
        #expect(inBoth == 11_933)
        #expect(Set(first.schools.map(\.id)).intersection(edition2026.schools.map(\.id)).count == 11_933)
        #expect(second.count == 12_011 + 52)
        #expect(second.schools.filter { !$0.isListed }.count == 52)
        #expect(second.source == .official(edition: "2026-03-20"))
        try CatalogImport.check(current: first, official: edition2026)
        // Every 2025 id still finds its school.
        #expect(first.schools.allSatisfy { second.position(ofID: $0.id) != nil })
    }
}
