import TouchSchoolCore

/// Reading the catalog file: straight from the bytes into schools, without a `JSONValue` tree in
/// between, since this is on the start-up path of every command.
extension CatalogFile {
    /// Reads the schools straight from the bytes, without a `JSONValue` tree in between: this is
    /// on the start-up path of every command. Errors give the line, which is the school's line in
    /// a catalog this program wrote.
    public static func decode(bytes: [UInt8]) throws(CatalogFileError) -> Catalog {
        do {
            return try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                var parser = JSONParser(bytes: buffer)
                let catalog = try decodeCatalog(&parser)
                parser.skipWhitespace()
                guard parser.index == buffer.count else { throw parser.error("unexpected text after the catalog") }
                return catalog
            }
        } catch {
            throw CatalogFileError(path: nil, message: error.description)
        }
    }

    private static func decodeCatalog(_ parser: inout JSONParser) throws(JSONParseError) -> Catalog {
        var format: String?
        var fileVersion: String?
        var sourceName: String?
        var edition: String?
        var schools: (schools: [School], positionByID: [String: Int])?
        var aliasMembers: [(String, JSONValue)] = []
        try parser.readObject("the catalog") { parser, key throws(JSONParseError) in
            switch key {
            case "format": format = try parser.readString(key.text)
            case "version": fileVersion = try parser.readNumber(key.text)
            case "source": sourceName = try parser.readString(key.text)
            case "edition": edition = try parser.readString(key.text)
            case "schools": schools = try decodeSchools(&parser)
            case "aliases":
                guard case let .object(members) = try parser.parseValue(depth: 1) else { throw parser.error("aliases must be an object") }
                aliasMembers = members
            default: throw parser.error("\"\(key.text)\" is not a field of the catalog format")
            }
        }
        guard format == formatName else { throw parser.error("not a TouchSchool catalog (\"format\" must be \"\(formatName)\")") }
        guard let fileVersion else { throw parser.error("version is missing") }
        guard let versionNumber = Int(fileVersion), versionNumber >= 1 else { throw parser.error("version must be a positive whole number") }
        guard versionNumber <= version else {
            throw parser.error("catalog format version \(versionNumber) is newer than this touchschool understands (\(version)); update touchschool")
        }
        let source: CatalogSource
        switch sourceName {
        case "starter": source = .starter
        case "official":
            guard let edition, !edition.isEmpty else { throw parser.error("edition is required for an official catalog") }
            source = .official(edition: edition)
        case nil: throw parser.error("source is missing")
        case let other?: throw parser.error("source must be \"starter\" or \"official\", not \"\(other)\"")
        }
        guard let (schools, positionByID) = schools else { throw parser.error("schools is missing") }
        var aliases: [String: String] = [:]
        for (formerID, value) in aliasMembers {
            guard let target = value.stringValue else { throw parser.error("aliases.\(formerID) must be a string") }
            guard positionByID[formerID] == nil else { throw parser.error("aliases.\(formerID) is the id of a school, so it cannot be an alias") }
            guard positionByID[target] != nil else { throw parser.error("aliases.\(formerID) points to \"\(target)\", which is not a school of the catalog") }
            guard aliases.updateValue(target, forKey: formerID) == nil else { throw parser.error("aliases.\(formerID) appears twice") }
        }
        return Catalog(schools: schools, positionByID: positionByID, aliases: aliases, source: source)
    }

    private static func decodeSchools(_ parser: inout JSONParser) throws(JSONParseError) -> (schools: [School], positionByID: [String: Int]) {
        var schools: [School] = []
        var positionByID: [String: Int] = [:]
        // A school takes about 340 bytes in a catalog this program wrote.
        let expectedCount = parser.bytes.count / 256
        schools.reserveCapacity(expectedCount)
        positionByID.reserveCapacity(expectedCount)
        var region = RepeatedRegion()
        try parser.readArray("schools") { parser throws(JSONParseError) in
            let school = try decodeSchool(&parser, index: schools.count, region: &region)
            guard positionByID.updateValue(schools.count, forKey: school.id) == nil else {
                throw parser.error("schools[\(schools.count)]: id \"\(school.id)\" appears twice")
            }
            schools.append(school)
        }
        return (schools, positionByID)
    }

    /// The previous school's province and district: the list is sorted by region, so that most
    /// schools reuse those strings instead of making (and checking) new ones.
    private struct RepeatedRegion {
        var province = RepeatedString()
        var district = RepeatedString()
    }

    private static func decodeSchool(_ parser: inout JSONParser, index: Int, region: inout RepeatedRegion) throws(JSONParseError) -> School {
        var id: String?, name: String?, province: String?, district: String?, address: String?
        var lotAddress: String?, founded: String?
        var level: SchoolLevel?, ownership: Ownership?
        /// Set, instead of `level` or `ownership`, to a value that is none of the choices.
        var unknownLevel: String?, unknownOwnership: String?
        var isBranch = false, isListed = true
        var latitude: Double?, longitude: Double?
        try parser.readObject("schools[\(index)]") { parser, key throws(JSONParseError) in
            switch key {
            case "id": id = try parser.readString("schools[\(index)].\(key.text)")
            case "name": name = try parser.readString("schools[\(index)].\(key.text)")
            case "level":
                (level, unknownLevel) = try parser.readChoice("schools[\(index)].\(key.text)") { text in
                    if "elementary" ~= text { return .elementary }
                    if "middle" ~= text { return .middle }
                    if "high" ~= text { return .high }
                    return nil
                }
            case "province": province = try parser.readString("schools[\(index)].\(key.text)", repeating: &region.province)
            case "district": district = try parser.readString("schools[\(index)].\(key.text)", repeating: &region.district)
            case "address": address = try parser.readString("schools[\(index)].\(key.text)")
            case "lotAddress": lotAddress = try parser.readString("schools[\(index)].\(key.text)")
            case "ownership":
                (ownership, unknownOwnership) = try parser.readChoice("schools[\(index)].\(key.text)") { text in
                    if "national" ~= text { return .national }
                    if "public" ~= text { return .public }
                    if "private" ~= text { return .private }
                    return nil
                }
            case "branch": isBranch = try parser.readBool("schools[\(index)].\(key.text)")
            case "listed": isListed = try parser.readBool("schools[\(index)].\(key.text)")
            case "lat": latitude = try parser.readCoordinate("schools[\(index)].\(key.text)", limit: 90)
            case "lon": longitude = try parser.readCoordinate("schools[\(index)].\(key.text)", limit: 180)
            case "founded": founded = try parser.readString("schools[\(index)].\(key.text)")
            default: throw parser.error("schools[\(index)]: \"\(key.text)\" is not a field of a school")
            }
        }
        func school() -> String { "schools[\(index)]" + (id.map { " (\($0))" } ?? "") }
        guard let id, !id.isEmpty else { throw parser.error("\(school()): id is missing or empty") }
        guard let name, !name.isEmpty else { throw parser.error("\(school()): name is missing or empty") }
        if let unknownLevel {
            throw parser.error("\(school()): level must be elementary, middle or high, not \"\(unknownLevel)\"")
        }
        guard let level else { throw parser.error("\(school()): level is missing") }
        guard let province, !province.isEmpty else { throw parser.error("\(school()): province is missing or empty") }
        guard let district else { throw parser.error("\(school()): district is missing") }
        guard let address else { throw parser.error("\(school()): address is missing") }
        if let unknownOwnership {
            throw parser.error("\(school()): ownership must be national, public or private, not \"\(unknownOwnership)\"")
        }
        return School(
            id: id, name: name, level: level, province: province, district: district, address: address,
            lotAddress: lotAddress, ownership: ownership, isBranch: isBranch, latitude: latitude,
            longitude: longitude, founded: founded, isListed: isListed
        )
    }
}

/// Reading a document of known shape member by member, straight into the caller's variables.
private extension JSONParser {
    /// Calls `readMember` with each member's name; it must read the value.
    mutating func readObject(
        _ what: @autoclosure () -> String, _ readMember: (inout JSONParser, MemberName) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { throw error("\(what()) must be an object") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try readMemberName()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            try readMember(&self, key)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file in an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return }
            throw error("expected ',' or '}'")
        }
    }

    /// Calls `readElement` for each element; it must read the element.
    mutating func readArray(
        _ what: @autoclosure () -> String, _ readElement: (inout JSONParser) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { throw error("\(what()) must be an array") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return }
        while true {
            skipWhitespace()
            try readElement(&self)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file in an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return }
            throw error("expected ',' or ']'")
        }
    }

    /// The string at `index` as its bytes in the document, when it has no escapes, moving past it;
    /// else nil, without moving.
    mutating func readPlainStringBytes() -> UnsafeBufferPointer<UInt8>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        let text = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
        index = end + 1
        return text
    }

    /// The name at `index` (an opening quote), kept as bytes unless it has escapes.
    mutating func readMemberName() throws(JSONParseError) -> MemberName {
        if let name = readPlainStringBytes() { return MemberName(bytes: name) }
        return MemberName(decoded: try parseString())
    }

    mutating func readString(_ field: @autoclosure () -> String) throws(JSONParseError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("\(field()) must be a string") }
        return try parseString()
    }

    /// A string that often repeats the one before it: then that one is returned, without making a
    /// new one.
    mutating func readString(_ field: @autoclosure () -> String, repeating previous: inout RepeatedString) throws(JSONParseError) -> String {
        let start = index
        if let text = readPlainStringBytes() {
            if text ~= previous.bytes { return previous.string }
            if let string = UTF8Validation.string(text) {
                previous = RepeatedString(bytes: text, string: string)
                return string
            }
            index = start
        }
        return try readString(field())
    }

    /// One of a few known strings, compared as bytes by `choose`; else the string, for the message.
    mutating func readChoice<Choice>(
        _ field: @autoclosure () -> String, _ choose: (UnsafeBufferPointer<UInt8>) -> Choice?
    ) throws(JSONParseError) -> (choice: Choice?, unknown: String?) {
        let start = index
        if let text = readPlainStringBytes(), let choice = choose(text) { return (choice, nil) }
        index = start
        return (nil, try readString(field()))
    }

    mutating func readNumber(_ field: @autoclosure () -> String) throws(JSONParseError) -> String {
        let text = try numberText(field())
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[text]), as: UTF8.self)
    }

    private mutating func numberText(_ field: @autoclosure () -> String) throws(JSONParseError) -> Range<Int> {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || (0x30...0x39).contains(bytes[index]) else {
            throw error("\(field()) must be a number")
        }
        return try scanNumber()
    }

    mutating func readBool(_ field: @autoclosure () -> String) throws(JSONParseError) -> Bool {
        guard case let .bool(value) = try parseValue(depth: 1) else { throw error("\(field()) must be true or false") }
        return value
    }

    mutating func readCoordinate(_ field: @autoclosure () -> String, limit: Double) throws(JSONParseError) -> Double {
        let text = UnsafeBufferPointer(rebasing: bytes[try numberText(field())])
        guard let value = Self.shortDecimal(text) ?? Double(String(decoding: text, as: UTF8.self)), abs(value) <= limit else {
            throw error("\(field()) must be a number between -\(Int(limit)) and \(Int(limit))")
        }
        return value
    }

    /// A number written `-ddd.ddd` with at most 15 digits, as the nearest `Double`, else nil.
    /// Both the digits as a whole number and the power of ten are then exact doubles, so that one
    /// division rounds correctly (Clinger's fast path), as `strtod` would, at a fraction of its cost.
    private static func shortDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var digits: Int64 = 0, digitCount = 0, fractionDigits = 0, seenPoint = false, isNegative = false
        for (offset, byte) in text.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digitCount += 1
                // Checked before multiplying: twenty digits would overflow `digits` and trap.
                guard digitCount <= 15 else { return nil }
                digits = digits * 10 + Int64(byte - 0x30)
                if seenPoint { fractionDigits += 1 }
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "-") where offset == 0: isNegative = true
            default: return nil
            }
        }
        let magnitude = Double(digits) / exactPowersOfTen[fractionDigits]
        return isNegative ? -magnitude : magnitude
    }

    private static let exactPowersOfTen: [Double] = (0...15).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }
}

/// A string read before, with its bytes in the document.
private struct RepeatedString {
    var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    var string = ""
}

/// The same bytes.
@inline(__always) private func ~= (text: UnsafeBufferPointer<UInt8>, other: UnsafeBufferPointer<UInt8>) -> Bool {
    guard text.count == other.count else { return false }
    for offset in 0..<text.count where text[offset] != other[offset] { return false }
    return true
}

/// The text of `field` (a name the format defines, in ASCII).
@inline(__always) private func ~= (field: StaticString, text: UnsafeBufferPointer<UInt8>) -> Bool {
    text ~= UnsafeBufferPointer(start: field.utf8Start, count: field.utf8CodeUnitCount)
}

/// A member name compared with the format's field names (`case "id":`) without first making a
/// `String` of it: a catalog has thirteen names for each of its twelve thousand schools.
private struct MemberName {
    private var bytes: UnsafeBufferPointer<UInt8>?
    /// Set instead of `bytes` for a name written with escapes.
    private var decoded: String?

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }
    init(decoded: String) { self.decoded = decoded }

    /// For messages.
    var text: String { decoded ?? bytes.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    @inline(__always) static func ~= (field: StaticString, name: MemberName) -> Bool {
        guard let bytes = name.bytes else {
            return name.decoded.map { $0.utf8.elementsEqual(UnsafeBufferPointer(start: field.utf8Start, count: field.utf8CodeUnitCount)) } ?? false
        }
        return field ~= bytes
    }
}

extension JSONWriter {
    /// `"id": …, "name": …, "level": …, "province": …, "district": …, "address": …`: how a school
    /// reads in every JSON the project writes (the catalog file and the commands' `--json`).
    public mutating func schoolMembers(_ school: School) {
        raw("\"id\": ")
        string(school.id)
        raw(", \"name\": ")
        string(school.name)
        raw(", \"level\": ")
        string(school.level.rawValue)
        raw(", \"province\": ")
        string(school.province)
        raw(", \"district\": ")
        string(school.district)
        raw(", \"address\": ")
        string(school.address)
    }
}
