import Testing
@testable import TouchSchoolCore
@testable import TouchSchoolStore

@Test func jsonRoundTrip() throws {
    let value = try JSONValue.parse("{\"a\": [1, -2.5, \"x\\u00e9\", true, null]}")
    #expect(value["a"]?.arrayValue?.count == 5)
}
