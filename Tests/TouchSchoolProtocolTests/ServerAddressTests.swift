import Testing
import TouchSchoolProtocol
import TouchSchoolTestSupport

@Suite(.onOwnThreads) struct ServerAddressTests {
    @Test func theFourSchemesAndABareHost() throws {
        let plain = try ServerAddress(parsing: "http://127.0.0.1:8080")
        #expect(plain == ServerAddress(secure: false, host: "127.0.0.1", port: 8080))
        #expect(plain.httpBase == "http://127.0.0.1:8080")
        #expect(plain.playURL == "ws://127.0.0.1:8080/v1/play")
        #expect(plain.directoryName == "127.0.0.1_8080")
        #expect(try ServerAddress(parsing: "ws://Example.org:9000/") == ServerAddress(secure: false, host: "example.org", port: 9000))
        #expect(try ServerAddress(parsing: "https://example.org") == ServerAddress(secure: true, host: "example.org", port: 443))
        let secure = try ServerAddress(parsing: "wss://example.org:8443/v1/play")
        #expect(secure.playURL == "wss://example.org:8443/v1/play")
        #expect(secure.httpBase == "https://example.org:8443")
        #expect(try ServerAddress(parsing: "school.local:8080") == ServerAddress(secure: false, host: "school.local", port: 8080))
        #expect(try ServerAddress(parsing: "http://school.local").port == 80)
    }

    @Test func ipv6InBrackets() throws {
        let address = try ServerAddress(parsing: "http://[::1]:8080")
        #expect(address.host == "::1")
        #expect(address.httpBase == "http://[::1]:8080")
        #expect(address.playURL == "ws://[::1]:8080/v1/play")
        #expect(address.directoryName == "__1_8080")
    }

    @Test func badURLsSayWhatIsWrong() {
        for (input, words) in [
            ("", "empty"), ("ftp://host:21", "scheme"), ("http://:8080", "host is missing"), ("http://host:0", "port"),
            ("http://host:99999", "port"), ("http://host:80x", "port"), ("http://host:8080/scores", "only the scheme"),
            ("http://user@host:8080", "only the scheme"), ("http://ho st:8080", "host may hold"), ("http://::1:8080", "brackets"),
            ("http://[::1:8080", "]"),
        ] {
            #expect(throws: ServerAddressError.self, "\(input)") { try ServerAddress(parsing: input) }
            do {
                _ = try ServerAddress(parsing: input)
            } catch {
                #expect(error.description.contains(words), "\(input): \(error)")
            }
        }
    }
}
