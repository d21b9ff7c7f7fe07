import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolStore

/// Checks the hand-written starter catalog, `Resources/schools.json`, as it sits in the source tree.
@Suite(.onOwnThreads) struct StarterCatalogTests {
    /// One school entry, as written in the file.
    struct Entry {
        var id: String
        var name: String
        var level: String
        var province: String
        var district: String
        var address: String
        var ownership: String?
    }

    static let provinces: Set<String> = [
        "서울특별시", "부산광역시", "대구광역시", "인천광역시", "광주광역시", "대전광역시", "울산광역시",
        "세종특별자치시", "경기도", "강원특별자치도", "충청북도", "충청남도", "전북특별자치도", "전라남도",
        "경상북도", "경상남도", "제주특별자치도",
    ]
    /// The only province without 시군구.
    static let provinceWithoutDistricts = "세종특별자치시"

    let document: JSONValue
    let entries: [Entry]

    init() throws {
        // #filePath is <root>/Tests/TouchSchoolCoreTests/StarterCatalogTests.swift.
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        let path = (components + ["Resources", "schools.json"]).joined(separator: "/")
        document = try JSONValue.parse(bytes: FileIO.read(path))
        let schools = try #require(document["schools"]?.arrayValue)
        entries = try schools.map { school in
            Entry(
                id: try #require(school["id"]?.stringValue),
                name: try #require(school["name"]?.stringValue),
                level: try #require(school["level"]?.stringValue),
                province: try #require(school["province"]?.stringValue),
                district: try #require(school["district"]?.stringValue),
                address: try #require(school["address"]?.stringValue),
                ownership: school["ownership"]?.stringValue
            )
        }
    }

    @Test func headerNamesTheStarterFormat() {
        #expect(document["format"]?.stringValue == "touchschool-catalog")
        #expect(document["version"]?.uint64Value == 1)
        #expect(document["source"]?.stringValue == "starter")
        #expect(document["edition"]?.stringValue?.isEmpty == false)
    }

    @Test func holdsAtLeastThreeHundredSchools() {
        #expect(entries.count >= 300)
    }

    @Test func coversEveryProvinceWithEveryLevel() {
        #expect(Set(entries.map(\.province)) == Self.provinces)
        #expect(Set(entries.map(\.level)) == Set(SchoolLevel.allCases.map(\.rawValue)))
        for province in Self.provinces {
            let inProvince = entries.filter { $0.province == province }
            #expect(inProvince.count >= 10, "\(province) has only \(inProvince.count) schools")
            #expect(Set(inProvince.map(\.level)).count == SchoolLevel.allCases.count, "\(province) lacks a level")
        }
    }

    @Test func idsAreUniqueAndStarterShaped() {
        #expect(Set(entries.map(\.id)).count == entries.count)
        for entry in entries {
            let digits = entry.id.dropFirst()
            #expect(entry.id.first == "S" && digits.count == 4 && digits.allSatisfy(\.isASCII) && Int(digits) != nil,
                    "\(entry.id) is not an S-prefixed starter id")
        }
    }

    @Test func nameProvinceAndLevelIdentifyOneSchool() {
        var seen = Set<String>()
        for entry in entries {
            let key = "\(entry.name)|\(entry.province)|\(entry.level)"
            #expect(seen.insert(key).inserted, "duplicate \(key)")
        }
    }

    @Test func namesEndWithTheirLevel() throws {
        for entry in entries {
            let level = try #require(SchoolLevel(rawValue: entry.level), "\(entry.name): unknown level \(entry.level)")
            let levelSuffixes = SchoolLevel.allCases.map(\.koreanName)
            if let suffix = levelSuffixes.first(where: { entry.name.hasSuffix($0) }) {
                #expect(suffix == level.koreanName, "\(entry.name) is listed as \(entry.level)")
            } else {
                // Special schools (영재학교) are named plain …학교 and sit at high-school level.
                #expect(entry.name.hasSuffix("학교") && level == .high, "\(entry.name) has no school suffix")
            }
        }
    }

    @Test func districtIsEmptyOnlyInSejong() {
        for entry in entries {
            #expect(entry.district.isEmpty == (entry.province == Self.provinceWithoutDistricts),
                    "\(entry.name): district \"\(entry.district)\" in \(entry.province)")
        }
    }

    @Test func addressStartsWithProvinceAndDistrict() {
        for entry in entries {
            let region = entry.district.isEmpty ? entry.province : "\(entry.province) \(entry.district)"
            #expect(entry.address == region || entry.address.hasPrefix(region + " "), "\(entry.name): \(entry.address)")
        }
    }

    @Test func ownershipIsOmittedOrKnown() {
        let known = Set(Ownership.allCases.map(\.rawValue))
        for entry in entries {
            if let ownership = entry.ownership { #expect(known.contains(ownership), "\(entry.name): \(ownership)") }
        }
    }

    /// Schools players search for first must be there, in the right place and level.
    @Test(arguments: [
        ("서울고등학교", "서울특별시", "high"),
        ("경기고등학교", "서울특별시", "high"),
        ("휘문고등학교", "서울특별시", "high"),
        ("민족사관고등학교", "강원특별자치도", "high"),
        ("대원외국어고등학교", "서울특별시", "high"),
        ("서울과학고등학교", "서울특별시", "high"),
        ("경기과학고등학교", "경기도", "high"),
        ("한국과학영재학교", "부산광역시", "high"),
        ("상산고등학교", "전북특별자치도", "high"),
        ("현대청운고등학교", "울산광역시", "high"),
        ("포항제철고등학교", "경상북도", "high"),
        ("용인한국외국어대학교부설고등학교", "경기도", "high"),
        ("대청중학교", "서울특별시", "middle"),
        ("서울대치초등학교", "서울특별시", "elementary"),
        ("서울대학교사범대학부설초등학교", "서울특별시", "elementary"),
    ])
    func famousSchoolIsListed(name: String, province: String, level: String) {
        #expect(entries.contains { $0.name == name && $0.province == province && $0.level == level })
    }
}
