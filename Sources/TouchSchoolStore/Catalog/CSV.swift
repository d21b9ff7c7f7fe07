/// One record of a CSV file and the line it starts on (1-based), for error messages.
struct CSVRecord: Equatable, Sendable {
    var line: Int
    var fields: [String]
}

/// A record that is not CSV (`problem`: `.unclosedQuote`, `.quoteInUnquotedField` or
/// `.textAfterClosingQuote`), and the line where it is.
struct CSVError: Error, Equatable, Sendable {
    var line: Int
    var problem: OfficialListError.Problem
}

/// RFC 4180 CSV over UTF-8 bytes: comma-separated fields, records ended by CRLF or LF, fields in
/// double quotes may hold commas, line breaks and doubled quotes. Blank lines are skipped. Anything
/// else ambiguous (a stray quote, text after a closing quote, an unclosed quote) is an error rather
/// than a guess, because a guessed field shifts every column after it.
enum CSV {
    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    static func parse(utf8 bytes: [UInt8]) throws(CSVError) -> [CSVRecord] {
        var records: [CSVRecord] = []
        var line = 1
        var index = 0
        let count = bytes.count

        /// At a record's end: consumes LF or CRLF and reports whether it did.
        func consumeLineEnd(_ index: inout Int, _ line: inout Int) -> Bool {
            if index < count, bytes[index] == lineFeed {
                index += 1
            } else if index + 1 < count, bytes[index] == carriageReturn, bytes[index + 1] == lineFeed {
                index += 2
            } else {
                return false
            }
            line += 1
            return true
        }

        while index < count {
            if consumeLineEnd(&index, &line) { continue }
            let recordLine = line
            var fields: [String] = []
            while true {
                if bytes[safe: index] == quote {
                    index += 1
                    var field: [UInt8] = []
                    var closed = false
                    while index < count {
                        let byte = bytes[index]
                        index += 1
                        if byte == quote {
                            if bytes[safe: index] == quote {
                                field.append(quote)
                                index += 1
                                continue
                            }
                            closed = true
                            break
                        }
                        if byte == lineFeed { line += 1 }
                        field.append(byte)
                    }
                    guard closed else { throw CSVError(line: recordLine, problem: .unclosedQuote) }
                    fields.append(String(decoding: field, as: UTF8.self))
                } else {
                    let start = index
                    while index < count {
                        let byte = bytes[index]
                        if byte == comma || byte == lineFeed { break }
                        if byte == carriageReturn, bytes[safe: index + 1] == lineFeed { break }
                        if byte == quote { throw CSVError(line: line, problem: .quoteInUnquotedField) }
                        index += 1
                    }
                    fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
                }
                if index == count || consumeLineEnd(&index, &line) { break }
                guard bytes[index] == comma else { throw CSVError(line: line, problem: .textAfterClosingQuote) }
                index += 1
            }
            records.append(CSVRecord(line: recordLine, fields: fields))
        }
        return records
    }
}

private extension Array where Element == UInt8 {
    subscript(safe index: Int) -> UInt8? { index < count ? self[index] : nil }
}
