import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolStore

/// The hand-written starter catalog against the official lists in `../shared/data`, read by the
/// importer's own code: every starter school must be a real school under its official name, so
/// that an import finds it and carries its score over.
@Suite(.onOwnThreads, .enabled(if: SharedData.isAvailable, "../shared/data not found: skipped"))
struct StarterCatalogOfficialTests {
    struct Key: Hashable {
        var name: String
        var province: String
        var level: SchoolLevel

        init(_ school: School) { (name, province, level) = (school.name, school.province, school.level) }
    }

    let starter: Catalog
    let edition2026: OfficialSchoolList
    let edition2025: OfficialSchoolList

    init() throws {
        starter = try CatalogFile.load(path: try #require(StarterCatalogFile.path))
        edition2026 = try OfficialSchoolList.load(path: SharedData.path(SharedData.edition2026UTF8))
        edition2025 = try OfficialSchoolList.load(path: SharedData.path(SharedData.edition2025CP949))
    }

    @Test func everyStarterSchoolHasItsOfficialNameProvinceLevelDistrictAndOwnership() {
        #expect(edition2026.encoding == .utf8 && edition2025.encoding == .cp949)
        let official2026 = Dictionary(grouping: edition2026.schools, by: Key.init)
        let official2025 = Dictionary(grouping: edition2025.schools, by: Key.init)
        var failures: [String] = []
        for school in starter.schools {
            let entry = "\(school.id) \(school.name) (\(school.province) \(school.district), \(school.level.koreanName))"
            guard let official = official2026[Key(school)] ?? official2025[Key(school)] else {
                failures.append("\(entry): no school of this name, province and level in either edition")
                continue
            }
            let sameDistrict = official.filter { $0.district == school.district }
            if sameDistrict.isEmpty {
                failures.append("\(entry): the official list has it in \(official.map(\.district).joined(separator: ", "))")
            } else if let ownership = school.ownership, !sameDistrict.contains(where: { $0.ownership == ownership }) {
                failures.append("\(entry): \(ownership.rawValue), the official list says \(sameDistrict.compactMap(\.ownership?.rawValue).joined(separator: ", "))")
            }
        }
        #expect(failures.count == 0, "\(failures.count) of \(starter.count) starter schools:\n\(failures.joined(separator: "\n"))")
    }

    /// An import of the 2026 list finds each starter school (StarterMatcher), so no score is left
    /// behind on a starter id.
    @Test func importingThe2026ListMatchesEveryStarterSchool() {
        let (_, report) = CatalogImport.merge(current: starter, official: edition2026, hasScore: { _ in false })
        #expect(report.matchedStarter.count == starter.count,
                "matched \(report.matchedStarter.count) of \(starter.count); not found:\n\(report.droppedStarter.map { "\($0.id) \($0.name) (\($0.province) \($0.district))" }.joined(separator: "\n"))")
    }
}
