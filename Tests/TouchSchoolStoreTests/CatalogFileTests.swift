import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolStore

@Suite(.onOwnThreads) struct CatalogFileTests {
    static let sampleSchools = [
        School(
            id: "B000012052", name: "서울고등학교", level: .high, province: "서울특별시", district: "서초구",
            address: "서울특별시 서초구 효령로 197", lotAddress: "서울특별시 서초구 서초동 1-1", ownership: .public,
            latitude: 37.4826, longitude: 127.0137, founded: "1946-04-25"
        ),
        School(
            id: "B000000002", name: "NLCS \"JeJu\"\\", level: .middle, province: "제주특별자치도", district: "서귀포시",
            address: "제주특별자치도 서귀포시 대정읍", ownership: .private, isBranch: true, isListed: false
        ),
        School(id: "S0003", name: "세종초등학교", level: .elementary, province: "세종특별자치시", district: "", address: ""),
    ]

    static func text(_ catalog: Catalog) -> String { String(decoding: CatalogFile.encode(catalog), as: UTF8.self) }

    static func decodeError(_ json: String) -> String? {
        do {
            _ = try CatalogFile.decode(bytes: Array(json.utf8))
            return nil
        } catch {
            return error.description
        }
    }

    static func document(schools: String = "[]", extra: String = "") -> String {
        "{\"format\": \"touchschool-catalog\", \"version\": 1, \"source\": \"starter\", \"schools\": \(schools)\(extra)}"
    }

    static let validSchool = "{\"id\": \"S1\", \"name\": \"가\", \"level\": \"high\", \"province\": \"서울특별시\", \"district\": \"\", \"address\": \"\"}"

    @Test func roundTripKeepsEveryField() throws {
        let catalog = Catalog(schools: Self.sampleSchools, aliases: ["S0001": "B000012052"], source: .official(edition: "2026-03-20"))
        let decoded = try CatalogFile.decode(bytes: CatalogFile.encode(catalog))
        #expect(decoded.schools == catalog.schools)
        #expect(decoded.aliases == catalog.aliases)
        #expect(decoded.source == .official(edition: "2026-03-20"))
        #expect(decoded.position(ofID: "S0001") == 0)
    }

    @Test func encodingIsStableWithOneSchoolPerLine() throws {
        let catalog = Catalog(schools: Self.sampleSchools, aliases: ["S9": "S0003", "S0001": "B000012052"], source: .starter)
        let text = Self.text(catalog)
        #expect(CatalogFile.encode(catalog) == CatalogFile.encode(try CatalogFile.decode(bytes: Array(text.utf8))))
        let lines = text.split(separator: "\n")
        #expect(lines.filter { $0.contains("\"id\": ") }.count == Self.sampleSchools.count)
        // Defaults are left out, aliases are sorted.
        #expect(!text.contains("\"branch\": false") && !text.contains("\"listed\": true"))
        #expect(text.range(of: "\"S0001\": ")!.lowerBound < text.range(of: "\"S9\": ")!.lowerBound)
        #expect(!text.contains("edition"))
    }

    @Test func writtenStarterFormatMatchesTheDocumentedHeader() throws {
        let text = Self.text(Catalog(schools: [], source: .starter))
        let value = try JSONValue.parse(text)
        #expect(value["format"]?.stringValue == "touchschool-catalog")
        #expect(value["version"] == .number("1"))
        #expect(value["source"]?.stringValue == "starter")
        #expect(value["schools"]?.arrayValue?.isEmpty == true)
    }

    @Test func shippedStarterCatalogLoads() throws {
        let path = try #require(StarterCatalogFile.path)
        let catalog = try CatalogFile.load(path: path)
        #expect(catalog.source == .starter)
        #expect(catalog.schools.allSatisfy { $0.isListed })
    }

    @Test func refusesOtherFormatsAndNewerVersions() {
        #expect(Self.decodeError("{\"format\": \"other\", \"version\": 1, \"source\": \"starter\", \"schools\": []}")?.contains("not a TouchSchool catalog") == true)
        let newer = Self.decodeError("{\"format\": \"touchschool-catalog\", \"version\": 2, \"source\": \"starter\", \"schools\": []}")
        #expect(newer?.contains("version 2 is newer") == true)
        #expect(Self.decodeError("[1, 2]")?.contains("must be an object") == true)
        #expect(Self.decodeError("{\"format\": \"touchschool-catalog\"")?.contains("line 1") == true)
        #expect(Self.decodeError("{\"format\": \"touchschool-catalog\", \"version\": 1, \"source\": \"official\", \"schools\": []}")?
            .contains("edition is required") == true)
        #expect(Self.decodeError(Self.document(extra: ", \"colour\": 1"))?.contains("\"colour\" is not a field") == true)
    }

    @Test func namesTheSchoolAndFieldThatIsWrong() {
        let badLevel = Self.document(schools: "[\n\(Self.validSchool),\n{\"id\": \"S2\", \"name\": \"나\", \"level\": \"college\", \"province\": \"서울특별시\", \"district\": \"\", \"address\": \"\"}\n]")
        let message = Self.decodeError(badLevel)
        #expect(message?.contains("line 3") == true)
        #expect(message?.contains("schools[1] (S2): level must be elementary, middle or high, not \"college\"") == true)

        let missingName = Self.document(schools: "[{\"id\": \"S1\", \"level\": \"high\", \"province\": \"서울특별시\", \"district\": \"\", \"address\": \"\"}]")
        #expect(Self.decodeError(missingName)?.contains("schools[0] (S1): name is missing") == true)
        let wrongType = Self.document(schools: "[{\"id\": \"S1\", \"name\": 5}]")
        #expect(Self.decodeError(wrongType)?.contains("schools[0].name must be a string") == true)
        let misspelt = Self.document(schools: "[{\"id\": \"S1\", \"distrct\": \"\"}]")
        #expect(Self.decodeError(misspelt)?.contains("\"distrct\" is not a field of a school") == true)
        let farNorth = Self.document(schools: "[{\"id\": \"S1\", \"lat\": 91}]")
        #expect(Self.decodeError(farNorth)?.contains("schools[0].lat must be a number between -90 and 90") == true)
        let twice = Self.document(schools: "[\(Self.validSchool), \(Self.validSchool)]")
        #expect(Self.decodeError(twice)?.contains("schools[1]: id \"S1\" appears twice") == true)
        let badOwnership = Self.document(schools: "[{\"id\": \"S1\", \"name\": \"가\", \"level\": \"high\", \"province\": \"서울특별시\", \"district\": \"\", \"address\": \"\", \"ownership\": \"state\"}]")
        #expect(Self.decodeError(badOwnership)?.contains("ownership must be national, public or private") == true)
    }

    @Test func memberNamesWithEscapesAreStillRecognised() throws {
        let escaped = Self.document(schools: "[{\"\\u0069d\": \"S1\", \"name\": \"\\uac00\", \"level\": \"high\", \"province\": \"서울특별시\", \"district\": \"\", \"address\": \"\"}]")
        let catalog = try CatalogFile.decode(bytes: Array(escaped.utf8))
        #expect(catalog.schools.map(\.id) == ["S1"])
        #expect(catalog.schools.map(\.name) == ["가"])
    }

    @Test func coordinatesDecodeToTheNearestDoubleWhateverTheirDigits() throws {
        // Up to 15 digits take the short path; more digits and exponents go through the standard library.
        // More digits than an Int64 holds (20 and up) must not overflow on the way to the standard library.
        let texts = ["37.4826", "-33.86881", "0.1", "90", "-0.0", "77.0137123456789", "37.48261234567891234", "1.5e1", "12E-1", "89.999999999999999",
                     "0.0000000000000000000000001", "-0.00000000000000000000000000000000000000012345", "37.482612345678912345678901234567890"]
        let schools = texts.enumerated().map { offset, text in
            "{\"id\": \"S\(offset)\", \"name\": \"가\", \"level\": \"high\", \"province\": \"서울특별시\", \"district\": \"\", \"address\": \"\", \"lat\": \(text)}"
        }
        let catalog = try CatalogFile.decode(bytes: Array(Self.document(schools: "[\(schools.joined(separator: ",\n"))]").utf8))
        for (school, text) in zip(catalog.schools, texts) {
            let expected = try #require(Double(text))
            #expect(school.latitude?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test func coordinatesWithTooManyDigitsOutOfRangeAreRefusedWithTheRange() {
        for text in ["1234567890123456789012345", "-1234567890123456789012345.5", "99999999999999999999", "90.00000000000001234567"] {
            let school = "{\"id\": \"S1\", \"name\": \"가\", \"level\": \"high\", \"province\": \"서울특별시\", \"district\": \"\", \"address\": \"\", \"lat\": \(text)}"
            #expect(Self.decodeError(Self.document(schools: "[\(school)]"))?.contains("schools[0].lat must be a number between -90 and 90") == true, "\(text)")
        }
    }

    @Test func provincesAndDistrictsRepeatedFromTheSchoolBeforeAreKeptApart() throws {
        let rows = [("서울특별시", "서초구"), ("서울특별시", "서초구"), ("서울특별시", "강남구"), ("부산광역시", "강남구"), ("부산광역시", ""), ("세종특별자치시", "")]
        let schools = rows.enumerated().map { offset, row in
            "{\"id\": \"S\(offset)\", \"name\": \"가\", \"level\": \"high\", \"province\": \"\(row.0)\", \"district\": \"\(row.1)\", \"address\": \"\(row.1)\"}"
        }
        let catalog = try CatalogFile.decode(bytes: Array(Self.document(schools: "[\(schools.joined(separator: ",\n"))]").utf8))
        #expect(catalog.schools.map(\.province) == rows.map(\.0))
        #expect(catalog.schools.map(\.district) == rows.map(\.1))
        #expect(catalog.schools.map(\.address) == rows.map(\.1))
    }

    @Test func invalidUTF8IsRefusedInEveryKindOfString() throws {
        let valid = Array(Self.document(schools: "[\(Self.validSchool)]").utf8)
        // A lone continuation byte in place of the first byte of a value (province, repeated; name; id).
        for value in ["서울특별시", "가", "S1"] {
            let target = Array("\"\(value)\"".utf8)
            let start = try #require((0...(valid.count - target.count)).first { Array(valid[$0..<($0 + target.count)]) == target })
            var broken = valid
            broken[start + 1] = 0x80
            let error = #expect(throws: CatalogFileError.self, "\(value)") { try CatalogFile.decode(bytes: broken) }
            #expect(error?.message.contains("invalid UTF-8") == true, "\(value)")
        }
    }

    @Test func aliasesMustPointToASchool() {
        let dangling = Self.document(schools: "[\(Self.validSchool)]", extra: ", \"aliases\": {\"S0\": \"S404\"}")
        #expect(Self.decodeError(dangling)?.contains("aliases.S0 points to \"S404\"") == true)
        let shadowing = Self.document(schools: "[\(Self.validSchool)]", extra: ", \"aliases\": {\"S1\": \"S1\"}")
        #expect(Self.decodeError(shadowing)?.contains("aliases.S1 is the id of a school") == true)
        #expect(Self.decodeError(Self.document(schools: "[\(Self.validSchool)]", extra: ", \"aliases\": {\"S0\": \"S1\"}")) == nil)
    }

    @Test func loadsTheImportedCatalogWhenPresentElseTheStarter() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let starterPath = "\(directory.path)/starter.json"
        try FileSystem.live.replaceAtomically(starterPath, with: CatalogFile.encode(Catalog(schools: [Self.sampleSchools[2]], source: .starter)))

        let dataDirectory = "\(directory.path)/data"
        #expect(CatalogFile.importedCatalogPath(inDataDirectory: dataDirectory) == "\(dataDirectory)/catalog.json")
        #expect(try CatalogFile.loadCurrent(dataDirectory: dataDirectory, starterPath: starterPath).source == .starter)
        #expect(throws: CatalogFileError.self) { try CatalogFile.loadCurrent(dataDirectory: dataDirectory, starterPath: nil) }

        try FileIO.createDirectory(dataDirectory)
        let imported = Catalog(schools: Array(Self.sampleSchools.prefix(2)), source: .official(edition: "2026-03-20"))
        try FileSystem.live.replaceAtomically(CatalogFile.importedCatalogPath(inDataDirectory: dataDirectory), with: CatalogFile.encode(imported))
        let current = try CatalogFile.loadCurrent(dataDirectory: dataDirectory, starterPath: starterPath)
        #expect(current.source == .official(edition: "2026-03-20"))
        #expect(current.schools == imported.schools)
    }

    @Test func aBrokenImportedCatalogIsReportedWithItsPath() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = CatalogFile.importedCatalogPath(inDataDirectory: directory.path)
        try FileSystem.live.replaceAtomically(path, with: Array("{\"format\": \"touchschool-catalog\", \"version\": 1,".utf8))
        let error = #expect(throws: CatalogFileError.self) { try CatalogFile.loadCurrent(dataDirectory: directory.path, starterPath: nil) }
        #expect(error?.description.hasPrefix(path) == true)
    }

    @Test(.enabled(if: SharedData.isAvailable, "../shared/data not found: skipped"))
    func theWholeOfficialListRoundTrips() throws {
        let list = try OfficialSchoolList.load(path: SharedData.path(SharedData.edition2026CP949))
        let catalog = Catalog(schools: list.schools, source: .official(edition: list.edition))
        let bytes = CatalogFile.encode(catalog)
        let decoded = try CatalogFile.decode(bytes: bytes)
        #expect(decoded.count == 12_011)
        #expect(decoded.schools == catalog.schools)
        #expect(CatalogFile.encode(decoded) == bytes)
    }
}

@Suite(.onOwnThreads) struct FileReadTests {
    @Test func readsFilesOfEverySizeWhole() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Empty, smaller than a page, and larger than any first guess at the size.
        for size in [0, 1, 4095, 200_000] {
            let path = "\(directory.path)/file-\(size)"
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
            try FileSystem.live.replaceAtomically(path, with: bytes)
            #expect(try FileIO.read(path) == bytes, "\(size) bytes")
        }
        #expect(throws: FileError.self) { try FileIO.read("\(directory.path)/missing") }
    }
}
