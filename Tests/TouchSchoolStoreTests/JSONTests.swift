import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore
@testable import TouchSchoolStore

@Suite(.onOwnThreads) struct JSONTests {
    @Test func parsesEveryKindOfValueIntoTheTreeAsWritten() throws {
        let value = try JSONValue.parse("{\"a\": [1, -2.5e3, \"x\\u00e9\\n\\ud83c\\udf89\", true, false, null], \"b\": {}, \"big\": 99999999999999999999}")
        #expect(value == .object([
            ("a", .array([.number("1"), .number("-2.5e3"), .string("xé\n🎉"), .bool(true), .bool(false), .null])),
            ("b", .object([])),
            // Numbers stay as written: a score past 64 bits is seen, not rounded.
            ("big", .number("99999999999999999999")),
        ]))
        #expect(value["big"]?.uint64Value == nil)
        #expect(value["a"]?.arrayValue?.first?.uint64Value == 1)
        #expect(value["missing"] == nil)
    }

    /// What the writer writes (the state and catalog files) reads back as the same values.
    @Test func writtenTextReadsBackTheSame() throws {
        let strings = ["", "plain", "\"quoted\" \\ slash /", "tab\tnew\nline\r", "\u{1}\u{1F}\u{7F}", "서울고등학교", "🎉✅"]
        var writer = JSONWriter()
        writer.raw("[")
        for text in strings {
            writer.string(text)
            writer.raw(", ")
        }
        writer.number(UInt64.max)
        writer.raw(", ")
        writer.number(Int.min)
        writer.raw(", ")
        writer.number(37.4826)
        writer.raw("]")
        #expect(try JSONValue.parse(bytes: writer.bytes) == .array(
            strings.map(JSONValue.string) + [.number("18446744073709551615"), .number("-9223372036854775808"), .number("37.4826")]
        ))
    }

    @Test func refusesWhatIsNotJSON() {
        for text in ["", "{", "[1,]", "{\"a\" 1}", "\"open", "01x", "tru", "\"\\ud800\"", "\"tab\there\"", "[] []"] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONValue.parse(text) }
        }
    }
}
