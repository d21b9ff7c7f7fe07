import Foundation
import Testing
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// A battle whose store holds as many devices as it may (`serve --maximum-devices`), against a
/// real server: new devices are refused, the others play and are saved, a restart starts on the
/// same store, and room made by the operator lets the newcomer in.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct StoreLimitTests {
    let school = "S0001"

    /// Joins `device` and has one batch of `taps` acknowledged.
    func play(_ server: ServerProcess, _ device: TestDevice, taps: UInt64) async throws -> UInt64 {
        let (player, _) = try await TestPlayer.join(server, device: device)
        let batch = device.batch(school, taps: taps, switchTo: device.seq == 0)
        try await player.send(.taps(batch))
        let accepted = try await player.ack(batch.seq).accepted
        await player.close()
        return accepted
    }

    /// A hello from a device the full battle does not know: closed with `battleFull`.
    func expectRefused(_ server: ServerProcess, _ device: TestDevice) async throws {
        let player = try await TestPlayer.connect(to: server)
        try await player.send(.hello(Hello(protocol: PlayProtocol.version, device: device.key, player: device.name)))
        #expect(try await player.closed() == CloseCode.battleFull)
        #expect(player.errorMessages.first?.message.contains("limit of 3 devices") == true, "\(player.errorMessages)")
    }

    @Test func aFullBattleRefusesNewDevicesKeepsSavingTheOthersAndStartsAgainOnItsStore() async throws {
        let directory = TemporaryDirectory().path
        let players = (0..<3).map { TestDevice(name: "player\($0)") }
        let newcomer = TestDevice(name: "newcomer")
        do {
            let server = try ServerProcess.start(dataDirectory: directory, arguments: ["--maximum-devices", "3"])
            defer { server.stop() }
            for device in players { #expect(try await play(server, device, taps: 5) == 5) }
            try await expectRefused(server, newcomer)
            // The devices it holds play on, and are saved.
            for device in players { #expect(try await play(server, device, taps: 2) == 2) }
            #expect(try await HTTP.get(server.baseURL + "/healthz").status == 200)
            server.signal(SIGKILL)
            _ = server.waitForExit(timeout: 5)
        }
        do {
            let restarted = try ServerProcess.start(dataDirectory: directory, arguments: ["--maximum-devices", "3"])
            defer { restarted.stop() }
            #expect(try await HTTP.scores(restarted).scores[school] == 21)
            try await expectRefused(restarted, newcomer)
            #expect(try await play(restarted, players[0], taps: 1) == 1)
            restarted.signal(SIGTERM)
            _ = restarted.waitForExit(timeout: 20)
        }
        let roomier = try ServerProcess.start(dataDirectory: directory, arguments: ["--maximum-devices", "4"])
        defer { roomier.stop() }
        #expect(try await play(roomier, newcomer, taps: 4) == 4)
        #expect(try await HTTP.scores(roomier).scores[school] == 26)
    }
}
