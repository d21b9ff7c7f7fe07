import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolProtocol

/// The one conversion between a league and its name on the wire, as docs/protocol.md writes the
/// names: the client and the server both use it.
@Suite struct LeagueNamesTests {
    static func name(_ json: String) throws -> LeagueName { try JSONDecoder().decode(LeagueName.self, from: Data(json.utf8)) }

    @Test func eachDocumentedNameIsItsLeagueAndBack() throws {
        let cases: [(String, League)] = [
            (#"{}"#, .national),
            (#"{"level":"high"}"#, .level(.high)),
            (#"{"province":"서울특별시"}"#, .province("서울특별시")),
            (#"{"level":"elementary","province":"부산광역시"}"#, .levelInProvince(.elementary, "부산광역시")),
        ]
        for (json, league) in cases {
            let name = try Self.name(json)
            #expect(League(name) == league, "\(json)")
            #expect(LeagueName(league) == name, "\(json)")
        }
    }

    @Test func aLevelThatIsNoneOfTheThreeIsNoLeague() throws {
        #expect(League(try Self.name(#"{"level":"college"}"#)) == nil)
        #expect(League(try Self.name(#"{"level":"college","province":"서울특별시"}"#)) == nil)
        #expect(League(try Self.name(#"{"level":"High"}"#)) == nil, "names are lower case")
    }
}
