#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCore

/// The official national school list: 공공데이터포털 (data.go.kr) standard dataset 15021148,
/// 전국초중등학교위치표준데이터, a CSV file as the portal serves it (CP949) or re-saved as UTF-8.
///
/// Columns are found by their header name, never by position, so a reordered or extended file
/// still reads. Any bad file is refused as a whole, with the line at fault: an import either
/// takes every row or changes nothing.
public struct OfficialSchoolList: Sendable {
    /// The schools in file order, all listed.
    public var schools: [School]
    /// 데이터기준일자: the latest date the rows give, e.g. `2026-03-20`.
    public var edition: String
    /// What the file was written in.
    public var encoding: TextEncoding

    public init(schools: [School], edition: String, encoding: TextEncoding) {
        self.schools = schools
        self.edition = edition
        self.encoding = encoding
    }

    /// The list is about 4 MB for the whole country; a file many times larger is not the list,
    /// and reading on would only exhaust memory (`import /dev/zero`).
    public static let maximumFileSize = 64 << 20

    public static func load(path: String) throws(OfficialListError) -> OfficialSchoolList {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: maximumFileSize) } catch {
            throw OfficialListError(line: nil, problem: error.code == EFBIG ? .tooLarge(mebibytes: maximumFileSize >> 20) : .unreadable(error))
        }
        return try parse(bytes: bytes)
    }

    public static func parse(bytes: [UInt8]) throws(OfficialListError) -> OfficialSchoolList {
        let text: [UInt8]
        let encoding: TextEncoding
        do { (text, encoding) = try TextEncoding.decodeToUTF8(bytes) } catch {
            let line = 1 + bytes[..<error.byteOffset].count(where: { $0 == UInt8(ascii: "\n") })
            throw OfficialListError(line: line, problem: .notText(readsAs: error.encoding, failure: error.failure))
        }
        let records: [CSVRecord]
        do { records = try CSV.parse(utf8: text) } catch { throw OfficialListError(line: error.line, problem: error.problem) }
        guard let header = records.first else { throw OfficialListError(line: nil, problem: .empty) }
        let columns = try Columns(header: header)
        try checkNotCutShort(records, endsWithLineBreak: text.last == UInt8(ascii: "\n"))

        var schools: [School] = []
        schools.reserveCapacity(records.count - 1)
        var lineByID: [String: Int] = [:]
        var edition = ""
        for record in records.dropFirst() {
            guard record.fields.count == header.fields.count else {
                throw OfficialListError(line: record.line, problem: .fieldCount(record.fields.count, header: header.fields.count))
            }
            let row = Row(fields: record.fields, line: record.line, columns: columns)
            let school = try row.school()
            if let firstLine = lineByID.updateValue(record.line, forKey: school.id) {
                throw OfficialListError(line: record.line, problem: .duplicateID(school.id, firstLine: firstLine))
            }
            let rowEdition = try row.edition()
            if rowEdition > edition { edition = rowEdition }
            schools.append(school)
        }
        guard !schools.isEmpty else { throw OfficialListError(line: nil, problem: .noSchools) }
        return OfficialSchoolList(schools: schools, edition: edition, encoding: encoding)
    }
}

extension OfficialSchoolList {
    /// The portal's file may end without a line break, so a download cut inside the last column
    /// looks like a whole row. Such a cut shows in the last field: the last column (제공기관명,
    /// the provider) repeats the same few values on every row, so a last value that no other row
    /// has is a cut, not data.
    static func checkNotCutShort(_ records: [CSVRecord], endsWithLineBreak: Bool) throws(OfficialListError) {
        guard !endsWithLineBreak, records.count > 2, let last = records.last, let value = last.fields.last else { return }
        let column = records[0].fields.count - 1
        let seenElsewhere = records.dropFirst().dropLast().contains { $0.fields.count > column && $0.fields[column] == value }
        guard !seenElsewhere else { return }
        throw OfficialListError(line: last.line, problem: .cutShort(column: records[0].fields[column], value: value))
    }
}

/// Why an official list cannot be imported, as facts: `line` is the file's line (1 = the header),
/// and the commands say `problem` in the user's language (`CommandText.officialListError`).
public struct OfficialListError: Error, Equatable, Sendable {
    public var line: Int?
    public var problem: Problem

    public init(line: Int?, problem: Problem) {
        self.line = line
        self.problem = problem
    }

    public enum Problem: Equatable, Sendable {
        /// The file cannot be opened or read.
        case unreadable(FileError)
        /// Larger than `OfficialSchoolList.maximumFileSize`, read no further: not the list (about 4 MB).
        case tooLarge(mebibytes: Int)
        /// Neither UTF-8 nor CP949: it reads as `readsAs` (the encoding that read further) up to
        /// the line; UTF-8 with a byte order mark is UTF-8 only. `failure`: CP949 could not be
        /// converted at all.
        case notText(readsAs: TextEncoding, failure: ConversionFailure?)
        case unclosedQuote, quoteInUnquotedField, textAfterClosingQuote
        case empty
        case duplicateColumn(String)
        /// Not the official list (표준데이터 15021148): it lacks these columns.
        case missingColumns([String])
        /// Ends without a line break inside its last column (`column`), whose `value` no other row has.
        case cutShort(column: String, value: String)
        case fieldCount(Int, header: Int)
        case duplicateID(String, firstLine: Int)
        case noSchools
        case emptyID
        case emptyName(id: String)
        case unknownLevel(String, id: String)
        /// Neither 시도교육청명 nor a province in the address.
        case noProvince(id: String)
        /// 데이터기준일자 that is not a date like 2026-03-20.
        case notADate(String)
    }
}

/// Where each column we read sits in this file.
private struct Columns {
    let id, name, level, province, roadAddress, lotAddress, edition: Int
    let founded, ownership, branch, latitude, longitude: Int?

    init(header: CSVRecord) throws(OfficialListError) {
        var positionByName: [String: Int] = [:]
        for (position, field) in header.fields.enumerated() {
            let name = field.trimmingSpaces
            if positionByName.updateValue(position, forKey: name) != nil {
                throw OfficialListError(line: header.line, problem: .duplicateColumn(name))
            }
        }
        let required = ["학교ID", "학교명", "학교급구분", "시도교육청명", "소재지도로명주소", "소재지지번주소", "데이터기준일자"]
        let missing = required.filter { positionByName[$0] == nil }
        guard missing.isEmpty else {
            throw OfficialListError(line: header.line, problem: .missingColumns(missing))
        }
        id = positionByName["학교ID"]!
        name = positionByName["학교명"]!
        level = positionByName["학교급구분"]!
        province = positionByName["시도교육청명"]!
        roadAddress = positionByName["소재지도로명주소"]!
        lotAddress = positionByName["소재지지번주소"]!
        edition = positionByName["데이터기준일자"]!
        founded = positionByName["설립일자"]
        ownership = positionByName["설립형태"]
        branch = positionByName["본교분교구분"]
        latitude = positionByName["위도"]
        longitude = positionByName["경도"]
    }
}

/// One data row, read into a `School`.
private struct Row {
    let fields: [String]
    let line: Int
    let columns: Columns

    func value(_ column: Int) -> String { fields[column].trimmingSpaces }
    func value(_ column: Int?) -> String { column.map { value($0) } ?? "" }

    func school() throws(OfficialListError) -> School {
        let id = value(columns.id)
        guard !id.isEmpty else { throw OfficialListError(line: line, problem: .emptyID) }
        let name = value(columns.name).collapsingSpaces
        guard !name.isEmpty else { throw OfficialListError(line: line, problem: .emptyName(id: id)) }
        let levelName = value(columns.level)
        guard let level = SchoolLevel.allCases.first(where: { $0.koreanName == levelName }) else {
            throw OfficialListError(line: line, problem: .unknownLevel(levelName, id: id))
        }
        let roadAddress = value(columns.roadAddress).collapsingSpaces
        let lotAddress = value(columns.lotAddress).collapsingSpaces
        let address = roadAddress.isEmpty ? lotAddress : roadAddress
        let (province, district) = try region(address: address, id: id)
        let ownershipName = value(columns.ownership)
        let latitude = Double(value(columns.latitude)).flatMap { abs($0) <= 90 ? $0 : nil }
        let longitude = Double(value(columns.longitude)).flatMap { abs($0) <= 180 ? $0 : nil }
        let founded = value(columns.founded)
        return School(
            id: id, name: name, level: level, province: province, district: district, address: address,
            lotAddress: roadAddress.isEmpty || lotAddress.isEmpty ? nil : lotAddress,
            ownership: Ownership.allCases.first(where: { $0.koreanName == ownershipName }),
            isBranch: value(columns.branch) == "분교",
            latitude: latitude, longitude: longitude,
            founded: founded.isISODate ? founded : nil
        )
    }

    /// 시도 from the education office's name (`강원특별자치도교육청` → `강원특별자치도`): the office is
    /// the list's own authority, and stays right where an address still has a province's former
    /// name (`강원도`). 시군구 from the address, after its province word.
    func region(address: String, id: String) throws(OfficialListError) -> (province: String, district: String) {
        let words = address.split(separator: " ")
        let addressProvince = words.first.flatMap { $0.isProvinceName ? String($0) : nil }
        let office = value(columns.province)
        let officeProvince = office.hasSuffix("교육청") ? String(office.dropLast(3)) : office
        guard let province = officeProvince.isEmpty ? addressProvince : officeProvince else {
            throw OfficialListError(line: line, problem: .noProvince(id: id))
        }
        var rest = words.dropFirst(addressProvince == nil ? 0 : 1)[...]
        guard let first = rest.popFirst(), first.hasSuffix("시") || first.hasSuffix("군") || first.hasSuffix("구") else {
            return (province, "")  // 세종특별자치시 has no 시군구: a road or 읍 follows.
        }
        if first.hasSuffix("시"), let second = rest.first, second.hasSuffix("구") {
            return (province, "\(first) \(second)")  // 수원시 장안구
        }
        return (province, String(first))
    }

    func edition() throws(OfficialListError) -> String {
        let date = value(columns.edition)
        guard date.isISODate else {
            throw OfficialListError(line: line, problem: .notADate(date))
        }
        return date
    }
}

private extension StringProtocol {
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }

    /// Runs of white space (a line break in a quoted field too) as one space: some addresses in
    /// the list have double spaces.
    var collapsingSpaces: String { split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    /// 시도 names end so: 경기도, 강원특별자치도, 서울특별시, 부산광역시, 세종특별자치시. A 시 alone
    /// (수원시) is a 시군구.
    var isProvinceName: Bool {
        hasSuffix("도") || hasSuffix("특별시") || hasSuffix("광역시") || hasSuffix("특별자치시")
    }

    /// `YYYY-MM-DD`.
    var isISODate: Bool {
        let bytes = Array(utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        return bytes.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) }
    }
}
