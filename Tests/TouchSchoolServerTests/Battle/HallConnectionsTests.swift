import Testing
import TouchSchoolCore
import TouchSchoolProtocol
@testable import TouchSchoolServer

/// The hall's connections alone: one record each, forgotten everywhere by one `remove`; the list
/// of watchers dropped only by what changes who watches what.
@Suite struct HallConnectionsTests {
    typealias T = BattleHallTests

    static let ranking = BoardRanking(catalog: T.catalog.catalog, scores: [:], slices: 1)

    @Test func removeForgetsAConnectionEverywhere() {
        var connections = HallConnections()
        connections.add(1, Connection(kind: .player))
        connections.setHello(1, .reading(device: "device-1"))
        connections.bind(1, device: "device-1", school: "A")
        #expect(connections.helloing == [1] && connections.connectionOfDevice == ["device-1": 1])
        let removed = connections.remove(1)
        #expect(removed?.device == "device-1")
        #expect(connections[1] == nil && connections.helloing.isEmpty && connections.connectionOfDevice.isEmpty)
        let again = connections.remove(1)
        #expect(again == nil)
    }

    @Test func theNewestConnectionOfADeviceWins() {
        var connections = HallConnections()
        connections.add(1, Connection(kind: .player))
        connections.add(2, Connection(kind: .player))
        connections.bind(1, device: "device-1", school: "A")
        connections.bind(2, device: "device-1", school: "A")
        #expect(connections[1]?.device == nil && connections[2]?.device == "device-1" && connections.connectionOfDevice == ["device-1": 2])
        // The old one gone does not unbind the new one.
        connections.remove(1)
        #expect(connections.connectionOfDevice == ["device-1": 2])
    }

    @Test func theListOfWatchersIsDroppedOnlyByWhatChangesIt() throws {
        var connections = HallConnections()
        connections.add(1, Connection(kind: .player))
        connections.bind(1, device: "device-1", school: "A")
        let page = try #require(try BoardRanking.key(of: Watch(league: LeagueName(), from: 0, count: 11)))
        connections.add(2, Connection(kind: .pageStream, page: page))
        let list = connections.watchers(in: Self.ranking)
        #expect(list.slices[0].map(\.id) == [1, 2] && list.slices[0].map(\.isPage) == [false, true])
        // The round told, a page's budget: the same watchers.
        connections.toldRound(1, Round(id: 1, title: nil, startsAtMs: 0, endsAtMs: 10_000), place: RoundStanding(id: 1, place: nil, count: 0, players: 0, final: false),
                              at: T.at(0))
        connections.toldRoundEvent(2, version: 3)
        connections.setNextPageAt(2, T.at(500))
        connections.setHello(1, nil)
        #expect(connections.hasWatchList)
        connections.setSchool(1, "B")
        #expect(!connections.hasWatchList, "a school switched")
        _ = connections.watchers(in: Self.ranking)
        connections.setPage(1, page)
        #expect(!connections.hasWatchList, "a page asked for")
        _ = connections.watchers(in: Self.ranking)
        connections.unbind(1)
        #expect(!connections.hasWatchList, "a connection being closed")
        #expect(connections.watchers(in: Self.ranking).slices[0].map(\.id) == [2])
        connections.add(3, Connection(kind: .player))
        #expect(!connections.hasWatchList, "a connection come")
    }
}
