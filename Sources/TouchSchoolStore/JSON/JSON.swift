import TouchSchoolCore

/// A small JSON reader and writer for the project's own files (state, catalog).
///
/// Why not Foundation's JSONDecoder: numbers must stay exact text so that a score beyond 64 bits,
/// a negative or a fraction is *detected* and reported rather than silently rounded, and loading
/// twelve thousand schools must not dominate the start-up of a one-shot `touchschool search`.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number exactly as written in the file.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in file order.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first(where: { $0.0 == key })?.1
    }

    public var stringValue: String? { if case let .string(s) = self { s } else { nil } }
    public var arrayValue: [JSONValue]? { if case let .array(a) = self { a } else { nil } }

    /// The number as a non-negative 64-bit integer; `nil` for anything else (negative, fraction,
    /// exponent, too large, not a number).
    public var uint64Value: UInt64? {
        guard case let .number(text) = self else { return nil }
        return UInt64(text)
    }
}

public struct JSONParseError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    /// 1-based line and column of the offending byte.
    public var line: Int
    public var column: Int
    public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    public static func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in try parse(bytes: buffer) }
    }

    public static func parse(bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the document") }
        return value
    }
}

/// Internal rather than private: `CatalogFile` reads its twelve thousand schools with it directly,
/// without building a `JSONValue` tree first.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    static let maximumDepth = 256

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func error(_ message: String) -> JSONParseError {
        var line = 1
        var lineStart = 0
        for i in 0..<min(index, bytes.count) where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        return JSONParseError(message: message, line: line, column: index - lineStart + 1)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nesting too deep") }
        guard index < bytes.count else { throw error("unexpected end of file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of file") }
        for i in 0..<count where bytes[index + i] != literal.utf8Start[i] {
            throw error("invalid literal")
        }
        index += count
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            members.append((key, value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file in an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file in an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> String {
        let text = try scanNumber()
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[text]), as: UTF8.self)
    }

    /// Moves past the number at `index` and returns where its text is, without making a `String`.
    mutating func scanNumber() throws(JSONParseError) -> Range<Int> {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.index]) { parser.index += 1 }
            return parser.index - from
        }
        guard digits(&self) > 0 else { throw error("invalid number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        return start..<index
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                guard let string = UTF8Validation.string(slice) else { throw error("invalid UTF-8 in a string") }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            index += 1
        }
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = scalars.withUnsafeBufferPointer(UTF8Validation.string) else { throw error("invalid UTF-8 in a string") }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unexpected end of file in a string") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid escape") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unexpected end of file in a string")
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of file in an escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
            default: throw error("invalid hex digit in an escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}

/// Appends JSON text to a byte buffer. Writing by hand keeps saving twelve thousand scores a
/// matter of a few milliseconds and the output byte-for-byte stable.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(reservingCapacity capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    public mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Escapes what JSON requires, and also every other control a terminal would act on (DEL, C1,
    /// bidi overrides: `VisibleText`), so that JSON printed to a terminal is as safe as text.
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Ids and names almost never need an escape: then their bytes are copied in one go
        // rather than looked at one by one (a tenth of a save of twelve thousand scores). The
        // check is conservative: any byte that may begin a control (C0, DEL, the C1 lead byte
        // 0xC2, and 0xE2 0x80/0x81, where the bidi controls are) takes the careful path.
        let copied = value.utf8.withContiguousStorageIfAvailable { utf8 in
            for (index, byte) in utf8.enumerated() {
                switch byte {
                case 0..<0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x7F, 0xC2: return false
                case 0xE2 where index + 1 < utf8.count && (utf8[index + 1] == 0x80 || utf8[index + 1] == 0x81): return false
                default: continue
                }
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied != true { escape(value) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ value: String) {
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": raw("\\\"")
            case "\\": raw("\\\\")
            case "\n": raw("\\n")
            case "\r": raw("\\r")
            case "\t": raw("\\t")
            case _ where VisibleText.isControl(scalar):
                raw("\\u")
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                for shift in stride(from: 12, through: 0, by: -4) { bytes.append(hex[Int(scalar.value >> UInt32(shift) & 0xF)]) }
            default: UTF8.encode(scalar) { bytes.append($0) }
            }
        }
    }

    public mutating func number(_ value: UInt64) {
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var remaining = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while remaining > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
        }
    }

    public mutating func number(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        number(value.magnitude.toUInt64)
    }

    public mutating func number(_ value: Double) {
        bytes.append(contentsOf: Array("\(value)".utf8))
    }
}

private extension UInt {
    var toUInt64: UInt64 { UInt64(self) }
}
