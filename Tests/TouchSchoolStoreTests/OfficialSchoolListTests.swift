import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolStore

/// Small official-style CSV files, written in the test.
enum OfficialCSV {
    static let columns = [
        "학교ID", "학교명", "학교급구분", "설립일자", "설립형태", "본교분교구분", "운영상태", "소재지지번주소", "소재지도로명주소",
        "시도교육청코드", "시도교육청명", "교육지원청코드", "교육지원청명", "생성일자", "변경일자", "위도", "경도", "데이터기준일자",
        "제공기관코드", "제공기관명",
    ]

    /// One row in `columns` order, with sensible defaults.
    static func row(
        id: String, name: String, level: String = "중학교", office: String = "서울특별시교육청",
        road: String = "서울특별시 서초구 효령로 197", lot: String = "서울특별시 서초구 서초동 1-1",
        founded: String = "1946-04-25", ownership: String = "공립", branch: String = "본교",
        latitude: String = "37.4826", longitude: String = "127.0137", edition: String = "2026-03-20"
    ) -> [String] {
        [id, name, level, founded, ownership, branch, "운영", lot, road, "7010000", office, "7011000", "교육지원청",
         "2013-11-29", "2025-10-25", latitude, longitude, edition, "B554398", "한국교육시설안전원"]
    }

    static func text(_ rows: [[String]], header: [String] = columns, lineEnd: String = "\n") -> String {
        ([header] + rows).map { $0.joined(separator: ",") }.joined(separator: lineEnd) + lineEnd
    }

    static func parse(_ text: String) throws(OfficialListError) -> OfficialSchoolList {
        try OfficialSchoolList.parse(bytes: Array(text.utf8))
    }

    static func error(_ text: String) -> OfficialListError? { error(bytes: Array(text.utf8)) }

    static func error(bytes: [UInt8]) -> OfficialListError? {
        do {
            _ = try OfficialSchoolList.parse(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    /// UTF-8 text as CP949, the portal's encoding, with the C library's iconv.
    static func cp949(_ text: String) -> [UInt8] {
        let converter = iconv_open("CP949", "UTF-8")!
        defer { iconv_close(converter) }
        var input = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: input.count * 2 + 16)
        let produced = input.withUnsafeMutableBytes { inputBuffer in
            output.withUnsafeMutableBytes { outputBuffer in
                var inputPointer = inputBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var inputLeft = inputBuffer.count
                var outputPointer = outputBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outputLeft = outputBuffer.count
                precondition(iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft) != -1)
                return outputBuffer.count - outputLeft
            }
        }
        return Array(output.prefix(produced))
    }
}

@Suite(.onOwnThreads) struct OfficialSchoolListTests {
    @Test func readsEveryFieldOfARow() throws {
        let list = try OfficialCSV.parse(OfficialCSV.text([
            OfficialCSV.row(id: "B000012052", name: "서울고등학교", level: "고등학교", ownership: "사립", branch: "분교"),
        ]))
        #expect(list.edition == "2026-03-20")
        #expect(list.encoding == .utf8)
        #expect(list.schools == [School(
            id: "B000012052", name: "서울고등학교", level: .high, province: "서울특별시", district: "서초구",
            address: "서울특별시 서초구 효령로 197", lotAddress: "서울특별시 서초구 서초동 1-1", ownership: .private,
            isBranch: true, latitude: 37.4826, longitude: 127.0137, founded: "1946-04-25"
        )])
    }

    @Test func findsColumnsByNameInAnyOrder() throws {
        let header = Array(OfficialCSV.columns.reversed()) + ["비고"]
        let row = Array(OfficialCSV.row(id: "B1", name: "가나중학교").reversed()) + ["extra"]
        let list = try OfficialCSV.parse(OfficialCSV.text([row], header: header))
        #expect(list.schools.map(\.name) == ["가나중학교"])
        #expect(list.schools.first?.level == .middle)
        #expect(list.schools.first?.district == "서초구")
    }

    @Test func namesMissingColumns() throws {
        let header = OfficialCSV.columns.filter { $0 != "학교급구분" && $0 != "데이터기준일자" }
        let error = try #require(OfficialCSV.error(OfficialCSV.text([], header: header)))
        #expect(error.line == 1)
        #expect(error.problem == .missingColumns(["학교급구분", "데이터기준일자"]))
        #expect(OfficialCSV.error("")?.problem == .empty)
    }

    @Test func aBrokenRowNamesItsLine() throws {
        var short = OfficialCSV.row(id: "B3", name: "다중학교")
        short.removeLast()
        let fieldCount = try #require(OfficialCSV.error(OfficialCSV.text([OfficialCSV.row(id: "B2", name: "나중학교"), short])))
        #expect(fieldCount == OfficialListError(line: 3, problem: .fieldCount(19, header: 20)))

        let level = OfficialCSV.error(OfficialCSV.text([OfficialCSV.row(id: "B2", name: "특수학교", level: "특수학교")]))
        #expect(level?.line == 2)
        #expect(level?.problem == .unknownLevel("특수학교", id: "B2"))

        #expect(OfficialCSV.error(OfficialCSV.text([OfficialCSV.row(id: " ", name: "가")])) == OfficialListError(line: 2, problem: .emptyID))
        #expect(OfficialCSV.error(OfficialCSV.text([OfficialCSV.row(id: "B5", name: "")])) == OfficialListError(line: 2, problem: .emptyName(id: "B5")))

        let duplicate = OfficialCSV.error(OfficialCSV.text([
            OfficialCSV.row(id: "B7", name: "가"), OfficialCSV.row(id: "B8", name: "나"), OfficialCSV.row(id: "B7", name: "다"),
        ]))
        #expect(duplicate == OfficialListError(line: 4, problem: .duplicateID("B7", firstLine: 2)))

        let badDate = OfficialCSV.error(OfficialCSV.text([OfficialCSV.row(id: "B9", name: "가", edition: "2026/03/20")]))
        #expect(badDate == OfficialListError(line: 2, problem: .notADate("2026/03/20")))
        #expect(OfficialCSV.error(OfficialCSV.text([]))?.problem == .noSchools)
    }

    @Test func readsCP949() throws {
        let text = OfficialCSV.text([OfficialCSV.row(id: "B1", name: "똠방각하초등학교", level: "초등학교")])
        let list = try OfficialSchoolList.parse(bytes: OfficialCSV.cp949(text))
        #expect(list.encoding == .cp949)
        #expect(list.schools.first?.name == "똠방각하초등학교")
        #expect(list.schools.first?.level == .elementary)
    }

    @Test func refusesBytesThatAreNeitherUTF8NorCP949() throws {
        let text = OfficialCSV.text([OfficialCSV.row(id: "B1", name: "가"), OfficialCSV.row(id: "B2", name: "나")])
        let lineThree = text.utf8.count - text.split(separator: "\n").last!.utf8.count - 1
        let brokenUTF8 = Array(text.utf8.prefix(lineThree)) + [0xFF, 0xFF] + Array(text.utf8.dropFirst(lineThree))
        let utf8Error = try #require(OfficialCSV.error(bytes: brokenUTF8))
        #expect(utf8Error.line == 3)
        #expect(utf8Error.problem == .notText(readsAs: .utf8, failure: nil))

        let cp949 = OfficialCSV.cp949(text)
        let lineThreeCP949 = cp949.count - cp949.split(separator: UInt8(ascii: "\n")).last!.count - 1
        let brokenCP949 = Array(cp949.prefix(lineThreeCP949)) + [0xFF, 0xFF] + Array(cp949.dropFirst(lineThreeCP949))
        let cp949Error = try #require(OfficialCSV.error(bytes: brokenCP949))
        #expect(cp949Error.line == 3)
        #expect(cp949Error.problem == .notText(readsAs: .cp949, failure: nil))
    }

    @Test func readsUTF8WithAByteOrderMark() throws {
        let text = OfficialCSV.text([OfficialCSV.row(id: "B1", name: "가나초등학교", level: "초등학교")])
        let list = try OfficialSchoolList.parse(bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        #expect(list.encoding == .utf8WithBOM)
        #expect(list.schools.first?.id == "B1")
    }

    @Test func readsCRLFLineEnds() throws {
        let rows = [OfficialCSV.row(id: "B1", name: "가"), OfficialCSV.row(id: "B2", name: "나")]
        let crlf = try OfficialCSV.parse(OfficialCSV.text(rows, lineEnd: "\r\n"))
        #expect(crlf.schools == (try OfficialCSV.parse(OfficialCSV.text(rows))).schools)
        #expect(crlf.schools.allSatisfy { !$0.name.contains("\r") })
        var broken = rows + [["B3"]]
        broken[0][0] = "B0"
        #expect(OfficialCSV.error(OfficialCSV.text(broken, lineEnd: "\r\n"))?.line == 4)
    }

    @Test func readsQuotedFields() throws {
        let header = OfficialCSV.columns.joined(separator: ",")
        var row = OfficialCSV.row(id: "B1", name: "\"가나, \"\"다\"\" 학교\"", road: "\"서울특별시  서초구\n효령로 197\"")
        let quoted = header + "\n" + row.joined(separator: ",") + "\n"
        let school = try #require(try OfficialCSV.parse(quoted).schools.first)
        #expect(school.name == "가나, \"다\" 학교")
        #expect(school.address == "서울특별시 서초구 효령로 197")
        #expect(school.district == "서초구")

        // A line break inside quotes moves the following line numbers on.
        row[0] = "B2"
        row[2] = "대학교"
        #expect(OfficialCSV.error(quoted + row.joined(separator: ","))?.line == 4)
        #expect(OfficialCSV.error(header + "\nB1,\"unclosed\n") == OfficialListError(line: 2, problem: .unclosedQuote))
        #expect(OfficialCSV.error(header + "\nB1,가\"나\n")?.problem == .quoteInUnquotedField)
        #expect(OfficialCSV.error(header + "\n\"B1\"x,가\n")?.problem == .textAfterClosingQuote)
    }

    @Test func derivesProvinceAndDistrict() throws {
        let list = try OfficialCSV.parse(OfficialCSV.text([
            OfficialCSV.row(id: "B1", name: "가", office: "경기도교육청", road: "경기도 수원시 장안구 정자로 1"),
            OfficialCSV.row(id: "B2", name: "나", office: "세종특별자치시교육청", road: "세종특별자치시 한누리대로 2130"),
            OfficialCSV.row(id: "B3", name: "다", office: "세종특별자치시교육청", road: "", lot: "세종특별자치시 조치원읍 신안리 1"),
            OfficialCSV.row(id: "B4", name: "라", office: "제주특별자치도교육청", road: "제주특별자치도 제주시  516로 1"),
            OfficialCSV.row(id: "B5", name: "마", office: "강원특별자치도교육청", road: "강원도 춘천시 중앙로 1"),
            OfficialCSV.row(id: "B6", name: "바", office: "", road: "부산광역시 해운대구 해운대로 1"),
            OfficialCSV.row(id: "B7", name: "사", office: "경상북도교육청", road: "경상북도 울릉군 울릉읍 1"),
        ]))
        let regions = list.schools.map { "\($0.province)|\($0.district)" }
        #expect(regions == [
            "경기도|수원시 장안구", "세종특별자치시|", "세종특별자치시|", "제주특별자치도|제주시", "강원특별자치도|춘천시",
            "부산광역시|해운대구", "경상북도|울릉군",
        ])
        #expect(list.schools[2].address == "세종특별자치시 조치원읍 신안리 1")
        #expect(list.schools[2].lotAddress == nil)
        #expect(list.schools[3].address == "제주특별자치도 제주시 516로 1")

        let nowhere = OfficialCSV.error(OfficialCSV.text([OfficialCSV.row(id: "B8", name: "아", office: "", road: "", lot: "")]))
        #expect(nowhere == OfficialListError(line: 2, problem: .noProvince(id: "B8")))
    }

    @Test func optionalDetailsThatDoNotParseAreLeftOut() throws {
        let list = try OfficialCSV.parse(OfficialCSV.text([
            OfficialCSV.row(id: "B1", name: "가", founded: "미상", ownership: "", latitude: "", longitude: "north"),
        ]))
        let school = try #require(list.schools.first)
        #expect(school.founded == nil && school.ownership == nil && school.latitude == nil && school.longitude == nil)
    }

    @Test(.enabled(if: SharedData.isAvailable, "../shared/data not found: skipped"))
    func the2026Edition() throws {
        let list = try OfficialSchoolList.load(path: SharedData.path(SharedData.edition2026CP949))
        #expect(list.encoding == .cp949)
        #expect(list.edition == "2026-03-20")
        #expect(list.schools.count == 12_011)
        let byLevel = Dictionary(grouping: list.schools, by: \.level).mapValues(\.count)
        #expect(byLevel == [.elementary: 6_303, .middle: 3_312, .high: 2_396])
        let provinces = Set(list.schools.map(\.province))
        #expect(provinces.count == 17)
        #expect(provinces.isSuperset(of: ["강원특별자치도", "전북특별자치도", "세종특별자치시", "서울특별시"]))
        #expect(!provinces.contains("강원도"))
        // The office's province is the address's first word everywhere in this edition.
        #expect(list.schools.allSatisfy { $0.address.split(separator: " ").first.map(String.init) == $0.province })
        #expect(list.schools.filter { $0.province == "세종특별자치시" }.allSatisfy { $0.district.isEmpty })
        #expect(list.schools.filter { $0.province != "세종특별자치시" }.allSatisfy { !$0.district.isEmpty })
        #expect(list.schools.contains { $0.district == "수원시 장안구" })
        #expect(list.schools.allSatisfy { !$0.address.contains("  ") && !$0.address.isEmpty })
        #expect(list.schools.filter { $0.lotAddress == nil }.count == 12)
        #expect(list.schools.filter(\.isBranch).count == 119)
        #expect(list.schools.contains { $0.name == "NLCS JeJu" })

        let utf8 = try OfficialSchoolList.load(path: SharedData.path(SharedData.edition2026UTF8))
        #expect(utf8.encoding == .utf8)
        #expect(utf8.schools == list.schools)
    }

    @Test(.enabled(if: SharedData.isAvailable, "../shared/data not found: skipped"))
    func the2025Edition() throws {
        let list = try OfficialSchoolList.load(path: SharedData.path(SharedData.edition2025CP949))
        #expect(list.edition == "2025-03-25")
        #expect(list.schools.count == 11_985)
        #expect(Set(list.schools.map(\.province)).count == 17)
    }
}
