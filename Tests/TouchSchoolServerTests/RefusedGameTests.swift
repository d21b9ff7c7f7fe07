import Foundation
import Testing
@testable import TouchSchoolClient
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// The game's own client (`NetworkBattle`) against the real server when it refuses the game: the
/// battle full (`serve --maximum-devices`), the address banned by the operator. The game is told
/// that refusal (its status line says what to do first: `RefusalInstructionTests`), not that the
/// server is out of reach, and its taps wait.
@Suite(.onOwnThreads) struct RefusedGameTests {
    static let school = "S0001"

    /// Plays 2 taps from a new game on `server` and waits for the game to be told `refusal`.
    static func refusedGame(on server: InProcessServer, _ refusal: ServerRefusal) async throws {
        let address = ServerAddress(secure: false, host: "127.0.0.1", port: server.port)
        let client = try RestoreTests.Client(battle: try await HTTP.battle(server), servers: [address])
        client.battle.start()
        try await client.tap(2, first: true)
        var seen: [GameEvent] = []
        let told = GameEvent.connectionChanged(.refused(refusal, waitingTaps: 2))
        #expect(try await Wait.until(timeout: 30) {
            seen += client.events()
            return seen.contains(told)
        }, "\(seen)")
        #expect(!seen.contains(.connectionChanged(.offline(waitingTaps: 2))), "\(seen)")
        _ = client.battle.finish(timeoutNanoseconds: 1_000_000_000)
        #expect(try client.battle.folder.outbox.load().waitingTaps == 2)
    }

    @Test func aFullBattleIsSaidToANewGame() async throws {
        try await InProcessServer.with(configure: { $0.maximumDevices = 1 }) { server in
            let device = TestDevice(name: "first")
            let (first, _) = try await TestPlayer.join(server, device: device)
            try await first.send(.taps(device.batch(Self.school, taps: 3, switchTo: true)))
            #expect(try await first.ack(1).accepted == 3)
            try await Self.refusedGame(on: server, .battleFull)
            await first.close()
        }
    }

    @Test func aBannedAddressIsSaidToTheGame() async throws {
        try await InProcessServer.with { server in
            let token = try AdminAPI.token(of: server)
            #expect(try await AdminAPI.request(server, token: token, "POST", "/v1/admin/addresses/127.0.0.1/ban").status == 200)
            try await Self.refusedGame(on: server, .bannedAddress)
        }
    }
}
