import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolClient
import TouchSchoolCore
import TouchSchoolProtocol

/// A server that refuses the game at its hello (the address banned, the battle full, too many
/// devices from the address) is said as that refusal, not as a server out of reach: the taps wait,
/// and the game asks again only a minute later (as the page does), not every second or two.
@Suite(.onOwnThreads) struct ServerRefusalTests {
    @Test(arguments: [(CloseCode.banned, ServerRefusal.bannedAddress), (CloseCode.battleFull, .battleFull),
                      (CloseCode.tooManyConnections, .tooManyFromAddress)])
    func aRefusalAtTheHelloIsSaidAndAskedAgainMuchLater(code: UInt16, refusal: ServerRefusal) async throws {
        let server = try await ScriptedServer { message in
            guard case .hello = message else { return [] }
            return [.send(.error(ProtocolError(code: code, message: "refused"))), .close(code)]
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let scripted = ScriptedServerTests()
        let (battle, folder) = scripted.battle(on: server.port, in: directory)
        battle.start()
        battle.submit(PendingChanges(player: "p", scoreDeltas: ["S1": 4], playerTaps: 4, bestTapsPerSecond: 1, switchedToSchool: "S1"))
        let said = GameEvent.connectionChanged(.refused(refusal, waitingTaps: 4))
        let events = try await scripted.collect(battle) { $0.contains(said) }
        #expect(events.contains(said), "\(events)")
        #expect(!events.contains(.connectionChanged(.offline(waitingTaps: 4))), "\(events)")
        // Offline, the first retry comes within 0.2 s; refused, none within the next 3 s.
        try await Task.sleep(for: .seconds(3))
        #expect(server.received.all.count == 1, "\(server.received.all)")
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
        #expect(try folder.outbox.load().waitingTaps == 4)
    }
}
