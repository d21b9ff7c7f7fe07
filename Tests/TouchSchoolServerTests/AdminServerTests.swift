import Foundation
import Testing
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// The admin API of the server in process (of two processes on one PostgreSQL): a scripted
/// cheater beside honest players, seen, banned, its taps taken off once, the board of a connected
/// player following within a second.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct AdminServerTests {
    let schoolA = "S0001"
    let schoolB = "S0002"

    @Test func theTokenIsMadeAtFirstStartAndGuardsEveryAdminRequest() async throws {
        try await InProcessServer.with { server in
            let token = try AdminAPI.token(of: server)
            #expect(token.count >= 43 && token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            let attributes = try FileManager.default.attributesOfItem(atPath: "\(server.dataDirectory)/admin.token")
            #expect((attributes[.posixPermissions] as? Int) == 0o600)

            for headers in [[], [("Authorization", "Bearer wrong-token-wrong-token-wrong-token-0000")], [("Authorization", token)]] {
                #expect(try await HTTP.get("\(server.baseURL)/v1/admin/devices", headers: headers).status == 401)
                #expect(try await HTTP.post("\(server.baseURL)/v1/admin/addresses/127.0.0.1/ban", headers: headers).status == 401)
            }
            // Refused requests changed nothing: this address still plays.
            _ = try await TestPlayer.join(server, device: TestDevice(name: "after"))
            #expect(!server.errors.contains(token), "the token is never logged")
            #expect(try await AdminAPI.request(server, token: token, "GET", "/v1/admin/devices?top=0").status == 400)
            #expect(try await AdminAPI.request(server, token: token, "POST", "/v1/admin/devices/nothex/ban").status == 400)
            #expect(try await AdminAPI.request(server, token: token, "POST", "/v1/admin/devices/0123456789abcdef01234567/ban").status == 404)
            #expect(try await AdminAPI.request(server, token: token, "POST", "/v1/admin/addresses/not-an-address/ban").status == 400)
        }
    }

    @Test func aCheaterIsListedBannedAndItsTapsTakenOffOnce() async throws {
        try await InProcessServer.with { server in
            let token = try AdminAPI.token(of: server)
            try await AdminScenario.run(on: server, admin: server, token: token, schoolA: schoolA, schoolB: schoolB)

            // The address ban: new connections refused with 4003, then accepted again.
            #expect(try await AdminAPI.request(server, token: token, "POST", "/v1/admin/addresses/127.0.0.1/ban").status == 200)
            let refused = try await TestPlayer.connect(to: server)
            try await refused.send(.hello(Hello(protocol: PlayProtocol.version, device: TestDevice(name: "x").key, player: "x")))
            #expect(try await refused.closed() == CloseCode.banned)
            #expect(refused.errorMessages.map(\.code) == [CloseCode.banned])
            #expect(try await AdminAPI.request(server, token: token, "POST", "/v1/admin/addresses/127.0.0.1/unban").status == 200)
            let (again, _) = try await TestPlayer.join(server, device: TestDevice(name: "back"))
            await again.close()
            #expect(server.errors.contains("ban an address") && !server.errors.contains(token))
        }
    }

    @Test func twoServersOnOnePostgreSQLShareTheTokenAndTheBan() async throws {
        let cluster = try PostgresCluster.freshDatabase()
        defer { cluster.stop() }
        let tokenFile = TemporaryDirectory().path + "/token"
        let token = String(repeating: "s3cret-", count: 7)
        try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: tokenFile))
        let one = try ServerProcess.start(arguments: ["--postgres", cluster.url, "--admin-token-file", tokenFile])
        defer { one.stop() }
        let two = try ServerProcess.start(arguments: ["--postgres", cluster.url, "--admin-token-file", tokenFile])
        defer { two.stop() }
        #expect(!FileManager.default.fileExists(atPath: "\(one.dataDirectory)/admin.token"), "the shared token, not one of its own")
        // Played on one, listed and banned through the other; the other's players see the board.
        try await AdminScenario.run(on: one, admin: two, token: token, schoolA: schoolA, schoolB: schoolB)
    }
}

/// The cheater's story, on `server`, with the operator asking `admin` (the same server, or
/// another on the same PostgreSQL).
enum AdminScenario {
    static func run(on server: some RunningServer, admin: some RunningServer, token: String, schoolA: String, schoolB: String) async throws {
        let honest = TestDevice(name: "정직"), cheater = TestDevice(name: "bot")
        let watcher = TestDevice(name: "watcher")
        let (honestPlayer, _) = try await TestPlayer.join(server, device: honest)
        let (cheaterPlayer, _) = try await TestPlayer.join(server, device: cheater)
        let (watching, _) = try await TestPlayer.join(server, device: watcher)
        try await watching.watchTheBoard()

        try await honestPlayer.send(.taps(honest.batch(schoolA, taps: 6, switchTo: true)))
        let honestAccepted = try await honestPlayer.ack(1).accepted
        // The bot claims far more than a human makes: the guard refuses some of it.
        var cheaterAccepted: [String: UInt64] = [:]
        var cheaterRefused: UInt64 = 0
        for (index, school) in [schoolA, schoolB, schoolA, schoolB].enumerated() {
            try await cheaterPlayer.send(.taps(cheater.batch(school, taps: 400, durationMs: 100, switchTo: index == 0)))
            let ack = try await cheaterPlayer.ack(UInt64(index + 1))
            cheaterAccepted[school, default: 0] += ack.accepted
            cheaterRefused += ack.refused
        }
        #expect(cheaterRefused > 0 && cheaterAccepted.values.reduce(0, +) > honestAccepted)

        let devices = try await AdminAPI.devices(admin, token: token)
        let listed = try #require(devices.first { $0.player == "bot" })
        #expect(devices.first?.id == listed.id, "the cheater tops the list of the last hour")
        #expect(listed.accepted == cheaterAccepted.values.reduce(0, +) && listed.refused == cheaterRefused)
        #expect(listed.acceptedLastHour == listed.accepted && listed.refusedLastHour == listed.refused)
        #expect(listed.addresses == ["127.0.0.1"] && !listed.banned && listed.school == schoolA)
        #expect(listed.id.count == 24 && !listed.id.contains(cheater.key) && !cheater.key.contains(listed.id))
        let honestListed = try #require(devices.first { $0.player == "정직" })
        #expect(honestListed.accepted == honestAccepted && honestListed.refused == 0)

        let before = try await HTTP.scores(server).scores
        // The watcher's page shows the cheater's taps first: a page is sent when it changes, and
        // the cheater's batches and the ban can fall within one broadcast interval, the page
        // before them then the same as the page after.
        _ = try await watching.page("the board with the cheater's taps", totals: [schoolA: before[schoolA] ?? 0, schoolB: before[schoolB] ?? 0])
        let seen = watching.messages.count
        let banned = try await AdminAPI.request(admin, token: token, "POST", "/v1/admin/devices/\(listed.id)/ban?removeTaps=true")
        #expect(banned.status == 200)
        let removedAt = Date()
        var expected = before
        for (school, taps) in cheaterAccepted { expected[school] = (before[school] ?? 0) - taps }
        #expect(expected[schoolA] == honestAccepted, "the honest player's taps, all of them, and no more")
        _ = try await watching.page("the board without the cheater's taps", totals: [schoolA: expected[schoolA] ?? 0, schoolB: expected[schoolB] ?? 0],
                                    after: seen)
        #expect(Date().timeIntervalSince(removedAt) < 1, "on the live board within a second")
        #expect(try await HTTP.scores(server).scores.filter { $0.value > 0 } == expected.filter { $0.value > 0 })

        // Again: nothing more comes off.
        #expect(try await AdminAPI.request(admin, token: token, "POST", "/v1/admin/devices/\(listed.id)/ban?removeTaps=true").body
                == #"{"banned":true,"id":"\#(listed.id)","removed":{}}"#)
        #expect(try await HTTP.scores(server).scores.filter { $0.value > 0 } == expected.filter { $0.value > 0 })

        // Banned: every tap of the next batch refused, the batch numbered (the client moves on).
        try await cheaterPlayer.send(.taps(cheater.batch(schoolA, taps: 5)))
        let refusedAck = try await cheaterPlayer.ack(5)
        #expect(refusedAck.accepted == 0 && refusedAck.refused == 5)
        #expect(refusedAck.banned == true, "refused for the ban, not for the speed")
        try await honestPlayer.send(.taps(honest.batch(schoolA, taps: 3)))
        let honestAck = try await honestPlayer.ack(2)
        #expect(honestAck.accepted == 3 && honestAck.banned == nil, "honest players play on")
        #expect(try await AdminAPI.devices(admin, token: token).first { $0.id == listed.id }?.banned == true)

        // Unbanned: counted again.
        #expect(try await AdminAPI.request(admin, token: token, "POST", "/v1/admin/devices/\(listed.id)/unban").status == 200)
        try await cheaterPlayer.send(.taps(cheater.batch(schoolA, taps: 2, durationMs: 1_000)))
        #expect(try await cheaterPlayer.ack(6).accepted == 2)
        for player in [honestPlayer, cheaterPlayer, watching] { await player.close() }
    }
}

/// The admin API over HTTP, with the token in the header.
enum AdminAPI {
    typealias Device = AdminAnswer.Device

    static func token(of server: some RunningServer) throws -> String {
        try String(contentsOfFile: "\(server.dataDirectory)/admin.token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func request(_ server: some RunningServer, token: String, _ method: String,
                        _ path: String) async throws -> (status: UInt, headers: [(String, String)], body: String) {
        let headers = [("Authorization", "Bearer \(token)")]
        return method == "GET" ? try await HTTP.get(server.baseURL + path, headers: headers)
            : try await HTTP.post(server.baseURL + path, headers: headers)
    }

    static func devices(_ server: some RunningServer, token: String) async throws -> [Device] {
        let response = try await request(server, token: token, "GET", "/v1/admin/devices?top=50")
        guard response.status == 200 else { throw HarnessError("GET /v1/admin/devices: \(response.status) \(response.body)") }
        return try JSONDecoder().decode([Device].self, from: Data(response.body.utf8))
    }
}
