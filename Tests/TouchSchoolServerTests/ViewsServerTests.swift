import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolProtocol

/// Protocol 2 over real sockets, the server in process on loopback: a player is sent its school's
/// view after a switch, a watched page, a refusal of a bad watch; a board stream of one page.
@Suite(.onOwnThreads) struct ViewsServerTests {
    let schoolA = "S0001"
    let schoolB = "S0002"

    @Test func aPlayerReceivesItsSchoolsViewAndTheWatchedPageNotTheBoard() async throws {
        try await InProcessServer.with { server in
            let leader = TestDevice(name: "leader"), chaser = TestDevice(name: "chaser")
            let (a, welcomeA) = try await TestPlayer.join(server, device: leader)
            #expect(welcomeA.protocol == 2)
            try await a.send(.taps(leader.batch(schoolA, taps: 10, switchTo: true)))
            _ = try await a.ack(1)
            let first = try await a.next("A's view") { if case let .schoolView(view) = $0, view.total == 10 { view } else { nil } }
            #expect(first.school == schoolA && first.ranks[0].rank == 1 && first.ranks[0].gap == nil)
            #expect(first.top.first == RankedRow(rank: 1, school: schoolA, total: 10))

            let (b, _) = try await TestPlayer.join(server, device: chaser)
            try await b.send(.taps(chaser.batch(schoolB, taps: 4, switchTo: true)))
            _ = try await b.ack(1)
            let second = try await b.next("B's view") { if case let .schoolView(view) = $0, view.total == 4 { view } else { nil } }
            #expect(second.school == schoolB && second.ranks[0].rank == 2 && second.ranks[0].gap == 6)
            #expect(second.above == [RankedRow(rank: 1, school: schoolA, total: 10)])

            try await b.send(.watch(Watch(league: LeagueName(), from: 0, count: 2)))
            let page = try await b.next("the page") { if case let .page(page) = $0 { page } else { nil } }
            #expect(page.rows == [RankedRow(rank: 1, school: schoolA, total: 10), RankedRow(rank: 2, school: schoolB, total: 4)])
            let directory = try JSONDecoder().decode(SchoolDirectory.self, from: Data(try await HTTP.get("\(server.baseURL)/v1/schools").body.utf8))
            #expect(page.size == directory.schools.count, "every school of the catalog is ranked")

            // GET gives what a watcher is sent: the same view, the same page.
            let view = try await HTTP.get("\(server.baseURL)/v1/view?school=\(schoolB)")
            #expect(view.status == 200)
            #expect(try MessageCoding.decodeServer(view.body) == .schoolView(second))
            let got = try await HTTP.get("\(server.baseURL)/v1/page?count=2")
            #expect(try MessageCoding.decodeServer(got.body) == .page(page))
            #expect(try await HTTP.get("\(server.baseURL)/v1/view?school=NOPE").status == 404)
            #expect(try await HTTP.get("\(server.baseURL)/v1/view").status == 400)
            #expect(try await HTTP.get("\(server.baseURL)/v1/page?count=0").status == 400)
            #expect(try await HTTP.get("\(server.baseURL)/v1/page").status == 400)

            try await b.send(.watch(Watch(league: LeagueName(level: "college"), from: 0, count: 2)))
            #expect(try await b.closed() == CloseCode.policyViolation)
        }
    }

    /// A game of protocol 1 (the whole board to every player) is told to update: the error and
    /// close code its players already show as "update the game", keeping their waiting taps.
    @Test func aGameOfProtocol1IsToldToUpdateAndNothingOfItIsKept() async throws {
        try await InProcessServer.with { server in
            let old = TestDevice(name: "old")
            let player = try await TestPlayer.connect(to: server)
            try await player.send(.hello(Hello(protocol: 1, device: old.key, player: old.name)))
            try? await player.send(.taps(old.batch(schoolA, taps: 5, switchTo: true)))
            #expect(try await player.closed() == CloseCode.unsupportedVersion)
            #expect(player.errorMessages.map(\.code) == [CloseCode.unsupportedVersion])
            #expect(!player.messages.contains { if case .welcome = $0 { true } else { false } })
            #expect(try await HTTP.scores(server).scores.isEmpty, "nothing of the old game counted")
        }
    }

    @Test func aBoardStreamOfOnePageSendsThatPage() async throws {
        try await InProcessServer.with { server in
            let device = TestDevice(name: "projected")
            let (player, _) = try await TestPlayer.join(server, device: device)
            try await player.send(.taps(device.batch(schoolB, taps: 7, switchTo: true)))
            _ = try await player.ack(1)
            let stream = try await BoardStreamReader.open(url: "\(server.baseURL)\(PlayProtocol.boardPath)?count=1&from=0")
            #expect(stream.status == 200)
            let first = try await stream.event(0)
            #expect(first.name == "page")
            let page = try JSONDecoder().decode(ServerMessage.self, from: Data(first.data.utf8))
            guard case let .page(rows) = page else {
                Issue.record("a page: \(first.data)")
                return
            }
            #expect(rows.rows == [RankedRow(rank: 1, school: schoolB, total: 7)])
            await stream.close()

            let refused = try await BoardStreamReader.open(url: "\(server.baseURL)\(PlayProtocol.boardPath)?count=500")
            #expect(refused.status == 400)
            #expect(try await refused.ended())
        }
    }
}
