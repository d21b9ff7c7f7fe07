import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
import TouchSchoolTestSupport

/// The server on loopback with real WebSocket and HTTP clients: in this process
/// (`InProcessServer`), and a real `touchschool serve` where the process is what is tested
/// (signals, kill -9 and a restart, a start refused, the game's commands reading its directory).
/// Serialized: each test runs its own server, and their timings (a second to see another's taps)
/// must not suffer from the others on a two-core machine.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct ServerTests {
    let schoolA = "S0001"
    let schoolB = "S0002"

    @Test func twoPlayersSeeEachOthersTapsWithinASecondAndTotalsAreExact() async throws {
        try await InProcessServer.with { server in
            let alice = TestDevice(name: "alice"), bob = TestDevice(name: "bob")
            let (a, welcomeA) = try await TestPlayer.join(server, device: alice)
            let (b, _) = try await TestPlayer.join(server, device: bob)
            #expect(welcomeA.lastSeq == 0)
            try await a.watchTheBoard()
            try await b.watchTheBoard()

            try await a.send(.taps(alice.batch(schoolA, taps: 10, switchTo: true)))
            // Seen without bob asking: the live board. How soon (the two seconds, about one
            // on a quiet server) is measured under load by Benchmarks/load.sh, not timed here.
            let seen = try await b.page("alice's taps on bob's board", totals: [schoolA: 10])
            #expect(seen.version >= 1)
            let ackA = try await a.ack(1)
            #expect(ackA.accepted == 10 && ackA.refused == 0)
            #expect(ackA.player == PlayerState(schoolID: schoolA, taps: 10, bestTapsPerSecond: 8))

            try await b.send(.taps(bob.batch(schoolB, taps: 7, switchTo: true)))
            _ = try await a.page("bob's taps on alice's board", totals: [schoolB: 7])
            try await a.send(.taps(alice.batch(schoolA, taps: 5)))
            _ = try await a.ack(2)
            _ = try await b.ack(1)

            let board = try await HTTP.scores(server)
            #expect(board.scores == [schoolA: 15, schoolB: 7])
            let me = try await HTTP.get("\(server.baseURL)/v1/me", headers: [(PlayProtocol.deviceHeader, alice.key)])
            #expect(me.status == 200)
            #expect(me.body.contains("\"taps\":15") && me.body.contains("\"school\":\"\(schoolA)\"") && me.body.contains("\"player\":\"alice\""))

            // A third player is sent the page it watches at once, as saved.
            let (c, _) = try await TestPlayer.join(server, device: TestDevice(name: "carol"))
            try await c.watchTheBoard()
            let pageC = try await c.page("the page as saved", totals: [schoolA: 15, schoolB: 7])
            #expect(pageC.version == board.version)

            let metrics = try await HTTP.get("\(server.baseURL)/metrics")
            #expect(metrics.body.contains("touchschool_taps_accepted_total 22"))
            #expect(metrics.body.contains("touchschool_open_connections 3"))
            for player in [a, b, c] { await player.close() }
        }
    }

    @Test func anAcknowledgedBatchSentAgainIsNotCountedTwiceAlsoAfterAReconnect() async throws {
        try await InProcessServer.with { server in
            let device = TestDevice(name: "kim")
            let (first, _) = try await TestPlayer.join(server, device: device)
            let batch = device.batch(schoolA, taps: 12, switchTo: true)
            try await first.send(.taps(batch))
            #expect(try await first.ack(1).accepted == 12)
            try await first.send(.taps(batch))
            _ = try await first.next("the second ack of 1", after: first.messages.count) { if case let .ack(ack) = $0, ack.seq == 1 { ack } else { nil } }
            #expect(first.acks.filter { $0.seq == 1 }.map(\.accepted) == [12, 0])
            await first.close()

            let (second, welcome) = try await TestPlayer.join(server, device: device)
            #expect(welcome.lastSeq == 1)
            #expect(welcome.player == PlayerState(schoolID: schoolA, taps: 12, bestTapsPerSecond: 8))
            try await second.send(.taps(batch))
            let again = try await second.ack(1)
            #expect(again.accepted == 0 && again.refused == 0)
            #expect(try await HTTP.scores(server).scores == [schoolA: 12])
            await second.close()
        }
    }

    @Test func aBatchClaimingTenThousandTapsInASecondIsMostlyRefused() async throws {
        try await InProcessServer.with { server in
            let device = TestDevice(name: "cheater")
            let (player, _) = try await TestPlayer.join(server, device: device)
            let now = TestDevice.nowMs()
            try await player.send(.taps(TapBatch(seq: 1, taps: [schoolA: 10_000], playerTaps: 10_000, switchedToSchool: schoolA, bestTapsPerSecond: 10_000,
                                                 startMs: now - 1_000, endMs: now)))
            let ack = try await player.ack(1)
            #expect(ack.accepted + ack.refused == 10_000)
            #expect(ack.accepted <= 60, "accepted \(ack.accepted)")
            #expect(ack.player.bestTapsPerSecond <= 230)
            #expect(try await HTTP.scores(server).scores[schoolA] == ack.accepted)
            // Taps for a school the server does not know count nowhere.
            try await player.send(.taps(TapBatch(seq: 2, taps: ["NO-SUCH-SCHOOL": 3], playerTaps: 0, bestTapsPerSecond: 0, startMs: now, endMs: now + 200)))
            let unknown = try await player.ack(2)
            #expect(unknown.accepted == 0 && unknown.refused == 3)
            #expect(try await HTTP.scores(server).scores == [schoolA: ack.accepted])
            await player.close()
        }
    }

    @Test func malformedOversizedAndOutOfOrderMessagesCloseOnlyTheirConnection() async throws {
        try await InProcessServer.with { server in
            let honest = TestDevice(name: "honest")
            let (good, _) = try await TestPlayer.join(server, device: honest)
            var expectedTotal: UInt64 = 0

            func playOnce() async throws {
                let batch = honest.batch(schoolA, taps: 3)
                try await good.send(.taps(batch))
                #expect(try await good.ack(batch.seq).accepted == 3)
                expectedTotal += 3
            }

            // Not JSON.
            let (malformed, _) = try await TestPlayer.join(server, device: TestDevice(name: "m"))
            try await malformed.sendText("{\"type\": \"taps\", \"seq\": ")
            #expect(try await malformed.closed() == CloseCode.policyViolation)
            #expect(malformed.errorMessages.first?.code == CloseCode.policyViolation)
            try await playOnce()

            // Over the size limit.
            let (oversized, _) = try await TestPlayer.join(server, device: TestDevice(name: "o"))
            try await oversized.sendText("{\"type\":\"ping\",\"pad\":\"" + String(repeating: "x", count: PlayProtocol.maximumClientMessageBytes) + "\"}")
            #expect(try await oversized.closed() == CloseCode.messageTooBig)
            #expect(oversized.errorMessages.first?.code == CloseCode.messageTooBig)
            try await playOnce()

            // Over the limit of a whole message, in 1 KiB fragments: the same close code.
            let (fragmented, _) = try await TestPlayer.join(server, device: TestDevice(name: "f"))
            try await fragmented.sendFragmented("{\"type\":\"ping\",\"pad\":\"" + String(repeating: "x", count: 70 << 10) + "\"}", fragmentBytes: 1 << 10)
            #expect(try await fragmented.closed() == CloseCode.messageTooBig)
            try await playOnce()

            // A gap in the numbers: nothing of it counted.
            let skipper = TestDevice(name: "s")
            let (outOfOrder, _) = try await TestPlayer.join(server, device: skipper)
            try await outOfOrder.send(.taps(TapBatch(seq: 5, taps: [schoolB: 4], playerTaps: 4, switchedToSchool: schoolB, bestTapsPerSecond: 1,
                                                     startMs: TestDevice.nowMs() - 500, endMs: TestDevice.nowMs())))
            #expect(try await outOfOrder.closed() == CloseCode.policyViolation)
            #expect(outOfOrder.errorMessages.first?.message == "batch 5 out of order: expected 1")
            try await playOnce()

            // Taps before hello, a binary frame, a wrong protocol version, too many schools.
            let early = try await TestPlayer.connect(to: server)
            try await early.send(.taps(TestDevice(name: "e").batch(schoolB, taps: 1)))
            #expect(try await early.closed() == CloseCode.policyViolation)
            let binary = try await TestPlayer.connect(to: server)
            try await binary.sendBinary([1, 2, 3])
            #expect(try await binary.closed() == CloseCode.policyViolation)
            let future = try await TestPlayer.connect(to: server)
            try await future.send(.hello(Hello(protocol: 99, device: TestDevice(name: "f").key, player: "f")))
            #expect(try await future.closed() == CloseCode.unsupportedVersion)
            let (wide, _) = try await TestPlayer.join(server, device: TestDevice(name: "w"))
            var many: [String: UInt64] = [:]
            for index in 1...20 { many[String(format: "S%04d", index)] = 1 }
            try await wide.send(.taps(TapBatch(seq: 1, taps: many, playerTaps: 0, bestTapsPerSecond: 0, startMs: TestDevice.nowMs() - 900, endMs: TestDevice.nowMs())))
            #expect(try await wide.closed() == CloseCode.policyViolation)
            try await playOnce()

            // Fuzz: random bytes and mutated messages, each on its own connection.
            var generator = SystemRandomNumberGenerator()
            let valid = MessageCoding.encode(.taps(TestDevice(name: "z").batch(schoolB, taps: 2)))
            for round in 0..<12 {
                let (fuzzed, _) = try await TestPlayer.join(server, device: TestDevice(name: "fuzz\(round)"))
                var bytes = Array(valid.utf8)
                for _ in 0..<3 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0x20...0x7E, using: &generator) }
                let text = round % 3 == 0 ? String((0..<50).map { _ in Character(UnicodeScalar(UInt8.random(in: 0x20...0x7E, using: &generator))) })
                                          : String(decoding: bytes, as: UTF8.self)
                try? await fuzzed.sendText(text)
                try? await fuzzed.send(.ping)
                _ = try await fuzzed.next("pong or close") { message -> Bool? in
                    switch message {
                    case .pong, .error: true
                    default: nil
                    }
                }
                await fuzzed.close()
            }
            try await playOnce()

            let scores = try await HTTP.scores(server).scores
            // Only the honest player's taps and whatever a fuzzed batch validly claimed for school B.
            #expect(scores[schoolA] == expectedTotal)
            #expect((scores[schoolB] ?? 0) <= 108)
            #expect(!good.ended)
            await good.close()
        }
    }

    /// A gap closes the connection, and the batch it sent right behind the gap is never applied:
    /// not in the save that finds the gap, nor when it arrives while that save runs (it waits for
    /// the next one), nor after. The delays sweep across the save, which starts a commit window
    /// (50 ms) after the gap arrived.
    @Test func aBatchSentRightAfterAGapIsNeverApplied() async throws {
        try await InProcessServer.with { server in
            for delay in stride(from: 40, through: 70, by: 1) {
                let device = TestDevice(name: "gap\(delay)")
                let (player, _) = try await TestPlayer.join(server, device: device)
                let now = TestDevice.nowMs()
                try await player.send(.taps(TapBatch(seq: 3, taps: [schoolB: 2], playerTaps: 2, switchedToSchool: schoolB, bestTapsPerSecond: 1,
                                                     startMs: now - 900, endMs: now - 800)))
                try await Task.sleep(for: .milliseconds(delay))
                // The next batch the server expects; sending fails once the close arrived, as it may.
                try? await player.send(.taps(TapBatch(seq: 1, taps: [schoolB: 1], playerTaps: 1, switchedToSchool: schoolB, bestTapsPerSecond: 1,
                                                      startMs: now - 700, endMs: now - 600)))
                #expect(try await player.closed() == CloseCode.policyViolation)
                #expect(player.acks.isEmpty, "sent \(delay) ms after the gap: \(player.acks)")
                await player.close()
            }
            #expect(try await HTTP.scores(server).scores[schoolB] == nil)
        }
    }

    @Test func aFloodOfConnectionsFromOneAddressHitsTheLimitAndOthersArePlaying() async throws {
        try await InProcessServer.with(configure: { $0.limits.connectionsPerAddress = 20; $0.limits.devicesPerAddressPerHour = 45 }) { server in
            let device = TestDevice(name: "regular")
            let (regular, _) = try await TestPlayer.join(server, device: device)
            var flood: [TestPlayer] = []
            for index in 0..<30 {
                let player = try await TestPlayer.connect(to: server)
                try await player.send(.hello(Hello(protocol: PlayProtocol.version, device: TestDevice(name: "flood\(index)").key, player: "flood")))
                flood.append(player)
            }
            // 19 more fit (with the regular player's); the rest are refused with 4029.
            _ = try await Wait.until(timeout: 5, every: .milliseconds(20)) {
                flood.filter { $0.closeCode == CloseCode.tooManyConnections }.count >= 11
            }
            try await Task.sleep(for: .milliseconds(200))
            #expect(flood.filter { $0.closeCode == CloseCode.tooManyConnections }.count == 11)
            #expect(flood.filter { $0.ended }.count == 11)
            for player in flood { await player.close() }
            try await Task.sleep(for: .milliseconds(300))
            let batch = device.batch(schoolA, taps: 4, switchTo: true)
            try await regular.send(.taps(batch))
            #expect(try await regular.ack(1).accepted == 4)

            // Devices: one address may not mint keys without end (20 used so far: the regular
            // player's and the 19 flood connections that fit).
            var admitted = 0
            var tooMany = 0
            for index in 0..<30 {
                let player = try await TestPlayer.connect(to: server)
                try await player.send(.hello(Hello(protocol: PlayProtocol.version, device: TestDevice(name: "bot\(index)").key, player: "bot")))
                let first = try await player.next("welcome or error") { message -> Bool? in
                    switch message {
                    case .welcome: true
                    case .error: false
                    default: nil
                    }
                }
                if first { admitted += 1 } else { tooMany += 1 }
                await player.close()
            }
            #expect(admitted == 25 && tooMany == 5)
            #expect(try await HTTP.get("\(server.baseURL)/healthz").status == 200)
            #expect(try await HTTP.scores(server).scores == [schoolA: 4])
            await regular.close()
        }
    }

    @Test func killMinusNineMidPlayThenRestartLosesAndDoublesNothing() async throws {
        let directory = TemporaryDirectory().path
        let server = try ServerProcess.start(dataDirectory: directory)
        defer { server.stop() }
        let devices = [TestDevice(name: "a"), TestDevice(name: "b")]
        var players: [TestPlayer] = []
        for device in devices { players.append(try await TestPlayer.join(server, device: device).0) }
        let (sent, acknowledged) = try await playUntilKilled(server, devices, players) { _, round in round == 0 }

        let restarted = try ServerProcess.start(dataDirectory: directory)
        defer { restarted.stop() }
        let expected = try await resendAfterRestart(restarted, devices, sent: sent, acknowledged: acknowledged, before: [:])
        #expect(try await HTTP.scores(restarted).scores == expected)
        // The battle was in the data directory's database, not in state.json.
        #expect(FileManager.default.fileExists(atPath: "\(directory)/battle.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/state.json"))
    }

    /// Two devices' batches keep arriving, twelve rounds 15 ms apart (the second's 7th waited
    /// for), then the server is killed -9: some were acknowledged, the last ones maybe not. What
    /// each sent, and what each had acknowledged.
    func playUntilKilled(_ server: ServerProcess, _ devices: [TestDevice], _ players: [TestPlayer],
                                switchesAt: (Int, Int) -> Bool) async throws -> (sent: [[TapBatch]], acknowledged: [Set<UInt64>]) {
        var sent: [[TapBatch]] = [[], []]
        for round in 0..<12 {
            for index in 0..<2 {
                let batch = devices[index].batch(index == 0 ? schoolA : schoolB, taps: UInt64(3 + round % 4), switchTo: switchesAt(index, round))
                sent[index].append(batch)
                try await players[index].send(.taps(batch))
            }
            if round == 6 { _ = try await players[1].ack(7) }
            try await Task.sleep(for: .milliseconds(15))
        }
        server.signal(SIGKILL)
        #expect(server.waitForExit(timeout: 5) == 128 + SIGKILL)
        let acknowledged = players.map { Set($0.acks.map(\.seq)) }
        #expect(acknowledged[1].contains(7))
        for player in players { await player.close() }
        return (sent, acknowledged)
    }

    /// After the restart each device is welcomed with at least what it had acknowledged, sends
    /// again what was not applied (counted once, nothing refused) and its first batch anyway
    /// (counted nothing): the totals there must then be, `before` plus everything sent.
    func resendAfterRestart(_ restarted: ServerProcess, _ devices: [TestDevice], sent: [[TapBatch]], acknowledged: [Set<UInt64>],
                                   before: [String: UInt64]) async throws -> [String: UInt64] {
        var expected = before
        for index in devices.indices {
            let (player, welcome) = try await TestPlayer.join(restarted, device: devices[index])
            #expect(welcome.lastSeq >= acknowledged[index].max() ?? 0, "everything acknowledged was saved")
            for batch in sent[index] where batch.seq > welcome.lastSeq { try await player.send(.taps(batch)) }
            for batch in sent[index] where batch.seq > welcome.lastSeq { #expect(try await player.ack(batch.seq).refused == 0) }
            let first = sent[index][0], count = player.messages.count
            try await player.send(.taps(first))
            let again = try await player.next("the ack of \(first.seq) sent again", after: count) {
                if case let .ack(ack) = $0, ack.seq == first.seq { ack } else { nil }
            }
            #expect(again.accepted == 0)
            for batch in sent[index] { expected[batch.taps.keys.first!, default: 0] += batch.totalTaps }
            await player.close()
        }
        return expected
    }

    /// A directory an earlier release served from `state.json`: the first start moves it into
    /// `battle.sqlite` (the device's numbers with it), a kill -9 mid-play and a restart lose and
    /// double nothing, and `state.json` is left as it was.
    @Test func aServerOnAStateJSONMovesItInThenAKillMinusNineMidPlayLosesAndDoublesNothing() async throws {
        let directory = TemporaryDirectory().path
        let earlier = TestDevice(name: "earlier"), newcomer = TestDevice(name: "new")
        _ = try StateStore(directory: directory).change { state in
            state.scores = [schoolA: 7]
            state.devices[earlier.key] = DeviceRecord(lastSeq: 2, player: "earlier", lastEndMs: TestDevice.nowMs() - 60_000)
            state.players[earlier.key] = PlayerRecord(schoolID: schoolA, taps: 7, bestTapsPerSecond: 8)
            state.boardVersion = 3
            return true
        }
        let stateJSON = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/state.json"))
        // Its batches 1 and 2 were applied before, by the earlier release.
        _ = (earlier.batch(schoolA, taps: 3), earlier.batch(schoolA, taps: 4))

        let server = try ServerProcess.start(dataDirectory: directory)
        defer { server.stop() }
        #expect(server.errors.contains("Moved state.json into the battle database once"), "\(server.errors)")
        #expect(try await HTTP.scores(server).scores == [schoolA: 7])
        let devices = [earlier, newcomer]
        var players: [TestPlayer] = []
        for device in devices {
            let (player, welcome) = try await TestPlayer.join(server, device: device)
            #expect(welcome.lastSeq == (device === earlier ? 2 : 0))
            players.append(player)
        }
        let (sent, acknowledged) = try await playUntilKilled(server, devices, players) { index, round in index == 1 && round == 0 }

        let restarted = try ServerProcess.start(dataDirectory: directory)
        defer { restarted.stop() }
        #expect(!restarted.errors.contains("Moved state.json"), "moved once only")
        let expected = try await resendAfterRestart(restarted, devices, sent: sent, acknowledged: acknowledged, before: [schoolA: 7])
        #expect(try await HTTP.scores(restarted).scores == expected)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/state.json")) == stateJSON)
    }

    /// `rank`, `stats` and `search` of the game's own program read a server's directory from its
    /// database, while the server writes it.
    @Test func rankStatsAndSearchReadTheServersDatabaseWhileItServes() async throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let device = TestDevice(name: "kim")
        let (player, _) = try await TestPlayer.join(server, device: device)
        try await player.send(.taps(device.batch(schoolA, taps: 9, switchTo: true)))
        _ = try await player.ack(1)

        let directory = server.dataDirectory
        let rank = Subprocess.run(ServerProcess.binary, ["rank", "--json", "--top", "1", "--data-dir", directory])
        #expect(rank.status == 0, "\(rank.error)")
        #expect(rank.output.contains("\"id\": \"\(schoolA)\"") && rank.output.contains("\"count\": 9"), "\(rank.output)")
        let stats = Subprocess.run(ServerProcess.binary, ["stats", "--json", "--player=\(device.key)", "--data-dir", directory])
        #expect(stats.status == 0, "\(stats.error)")
        #expect(stats.output.contains("\"myTaps\": 9") && stats.output.contains("\"count\": 9"), "\(stats.output)")
        let search = Subprocess.run(ServerProcess.binary, ["search", "--json", "--limit", "1", "서울고등학교", "--data-dir", directory])
        #expect(search.status == 0, "\(search.error)")
        #expect(search.output.contains("\"id\": \"\(schoolA)\"") && search.output.contains("\"score\": 9"), "\(search.output)")
        await player.close()
    }

    /// A database the server cannot read: it does not start, says why, and leaves the file.
    @Test func aDatabaseThatCannotBeReadIsAClearErrorAtStartAndIsLeftAsItIs() throws {
        let directory = TemporaryDirectory().path
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: URL(fileURLWithPath: "\(directory)/battle.sqlite"))
        let launched = try ServerProcess.launch(dataDirectory: directory)
        #expect { _ = try launched.listening() } throws: { error in
            "\(error)".contains("battle.sqlite: file is not a database") && "\(error)".contains("left as it is")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/battle.sqlite")) == garbage)
    }

    /// Seen before: `: > DIR/battle.sqlite` beside an existing `battle.id` started a fresh battle
    /// in silence, every score gone and new taps acknowledged into the empty store. A battle's
    /// database emptied or removed is refused, naming both ways on, and left as it is; moving
    /// `battle.id` away is the operator saying "a new battle".
    @Test func anEmptiedOrMissingDatabaseOfABattleWithHistoryIsRefusedAndLeftAsItIs() async throws {
        let directory = TemporaryDirectory().path
        let server = try ServerProcess.start(dataDirectory: directory)
        let device = TestDevice(name: "before")
        let (player, _) = try await TestPlayer.join(server, device: device)
        try await player.send(.taps(device.batch(schoolA, taps: 5, switchTo: true)))
        _ = try await player.ack(1)
        server.signal(SIGTERM)
        #expect(server.waitForExit(timeout: 10) == 0, "\(server.errors)")
        let database = "\(directory)/battle.sqlite"
        for (what, empty) in [("is empty", { try Data().write(to: URL(fileURLWithPath: database)) }),
                              ("is missing", { try FileManager.default.removeItem(atPath: database) })] as [(String, () throws -> Void)] {
            try empty()
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            let launched = try ServerProcess.launch(dataDirectory: directory)
            #expect { _ = try launched.listening() } throws: { error in
                "\(error)".contains("battle.sqlite: it \(what), but \(directory)/battle.id says this directory holds battle")
                    && "\(error)".contains("restore battle.sqlite from a backup") && "\(error)".contains("move battle.id away")
            }
            let left = FileManager.default.contents(atPath: database)
            #expect(what == "is empty" ? left == Data() : left == nil, "\(what): left as it was")
        }
        try FileManager.default.moveItem(atPath: "\(directory)/battle.id", toPath: "\(directory)/battle.id.old")
        let fresh = try ServerProcess.start(dataDirectory: directory)
        defer { fresh.stop() }
        #expect(try await HTTP.scores(fresh).scores.isEmpty, "a new battle, begun as the operator said")
    }

    /// A second `serve` on a port another one holds says so and ends at once with status 1,
    /// whatever it was asked to do next (it used to print nothing, spin a core and ignore SIGTERM).
    @Test func aBusyPortEndsServeAtOnceWithTheReason() async throws {
        // The port held by a server in this process: only the second needs to be a process.
        try await InProcessServer.with { first in
            let started = Date()
            let second = try ServerProcess.launch(arguments: ["--port", "\(first.port)"])
            #expect(second.waitForExit(timeout: 30) == 1)
            #expect(Date().timeIntervalSince(started) < 10)
            let errors = second.errors
            #expect(errors.contains("cannot listen on 127.0.0.1:\(first.port): the port is in use"), "\(errors)")
            #expect(errors.contains("--port"))
            // Nothing arrived to save: the refusal is not told as a shutdown.
            #expect(!errors.contains("Shutting down"), "\(errors)")
            // The first plays on.
            #expect(try await HTTP.get("\(first.baseURL)/healthz").status == 200)
        }
    }

    /// A second `serve` on the data directory another one serves ends at once with status 1,
    /// naming the first's pid and port, and the first plays on. Two used to start on one database
    /// and each showed the live board of its own players only.
    @Test func aSecondServeOnOneDataDirectoryIsRefusedNamingTheFirst() async throws {
        let first = try ServerProcess.start()
        defer { first.stop() }
        let started = Date()
        let second = try ServerProcess.launch(dataDirectory: first.dataDirectory)
        let status = second.waitForExit(timeout: 10 - Date().timeIntervalSince(started))
        #expect(status == 1, "the second server still ran after 10 s, or ended with \(String(describing: status))")
        let errors = second.errors
        #expect(errors.contains("already serves the data directory \(first.dataDirectory)"), "\(errors)")
        #expect(errors.contains("pid \(first.pid), port \(first.port)"), "\(errors)")
        #expect(try await HTTP.get("\(first.baseURL)/healthz").status == 200)
    }

    @Test func sigtermSavesAndAcknowledgesWhatArrivedThenExitsZero() async throws {
        let directory = TemporaryDirectory().path
        let server = try ServerProcess.start(dataDirectory: directory)
        defer { server.stop() }
        let device = TestDevice(name: "last")
        let (player, _) = try await TestPlayer.join(server, device: device)
        for _ in 0..<3 { try await player.send(.taps(device.batch(schoolA, taps: 5, switchTo: device.seq == 0))) }
        try await Task.sleep(for: .milliseconds(20))
        server.signal(SIGTERM)
        #expect(try await player.closed(timeout: 10) == CloseCode.goingAway)
        #expect(player.acks.map(\.seq) == [1, 2, 3])
        #expect(player.errorMessages.last?.code == CloseCode.goingAway)
        #expect(server.waitForExit(timeout: 10) == 0, "\(server.errors)")

        let restarted = try ServerProcess.start(dataDirectory: directory)
        defer { restarted.stop() }
        #expect(try await HTTP.scores(restarted).scores == [schoolA: 15])
    }

    @Test func theCatalogIsServedWithAnETagAndNotSentAgainWhenUnchanged() async throws {
        try await InProcessServer.with { server in
            let first = try await HTTP.get("\(server.baseURL)/v1/catalog")
            #expect(first.status == 200)
            #expect(first.body.contains("\"format\": \"touchschool-catalog\""))
            let etag = try #require(first.headers.first { $0.0.lowercased() == "etag" }?.1)
            let again = try await HTTP.get("\(server.baseURL)/v1/catalog", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty)
            let (player, welcome) = try await TestPlayer.join(server, device: TestDevice(name: "c"))
            #expect(welcome.catalog == etag)
            let health = try await HTTP.get("\(server.baseURL)/healthz")
            #expect(health.status == 200 && health.body.contains("\"status\":\"ok\""))
            await player.close()
        }
    }

    @Test func silenceIsClosedAfterTheHelloTimeAndANewConnectionOfADeviceReplacesTheOld() async throws {
        // The hello's time shortened (10 s in service), not waited out.
        let hello = 3.0
        try await InProcessServer.with(configure: { $0.timeouts.hello = .seconds(hello) }) { server in
            let connected = Date()
            let silent = try await TestPlayer.connect(to: server)
            let device = TestDevice(name: "\u{1B}[31mevil\u{1B}[0m\u{7}")
            let (old, _) = try await TestPlayer.join(server, device: device)
            let (new, _) = try await TestPlayer.join(server, device: device)
            #expect(try await old.closed() == CloseCode.normal)
            try await new.send(.taps(device.batch(schoolA, taps: 2, switchTo: true)))
            #expect(try await new.ack(1).accepted == 2)
            let me = try await HTTP.get("\(server.baseURL)/v1/me", headers: [(PlayProtocol.deviceHeader, device.key)])
            #expect(me.body.contains("\"player\":\"evil\""), "\(me.body)")
            #expect(try await silent.closed(timeout: hello + 3) == CloseCode.policyViolation)
            let silentFor = Date().timeIntervalSince(connected)
            #expect(silentFor >= hello - 0.5, "closed \(silentFor) s after connecting, before the hello's \(hello) s")
            #expect(silent.errorMessages.first?.message.contains("no hello") == true)
            await new.close()
        }
    }

    /// Saves are grouped: fifty players sending at once cost far fewer saves than batches.
    @Test func manyPlayersShareSaves() async throws {
        try await InProcessServer.with { server in
            let devices = (0..<50).map { TestDevice(name: "p\($0)") }
            var players: [TestPlayer] = []
            for device in devices { players.append(try await TestPlayer.join(server, device: device).0) }
            for round in 0..<4 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (device, player) in zip(devices, players) {
                        let batch = device.batch(round % 2 == 0 ? schoolA : schoolB, taps: 3, switchTo: round == 0)
                        group.addTask { try await player.send(.taps(batch)) }
                    }
                    try await group.waitForAll()
                }
            }
            for player in players { _ = try await player.ack(4, timeout: 10) }
            #expect(try await HTTP.scores(server).scores == [schoolA: 300, schoolB: 300])
            let metrics = try await HTTP.get("\(server.baseURL)/metrics").body
            let commits = metrics.split(separator: "\n").first { $0.hasPrefix("touchschool_commits_total ") }
                .flatMap { Double($0.split(separator: " ")[1]) } ?? .infinity
            #expect(commits < 100, "\(commits) saves for 200 batches")
            for player in players { await player.close() }
        }
    }

    /// An import into the server's directory is served without a restart, and scores kept under
    /// a starter id move to the official one.
    @Test func anImportWhileServingIsTakenUp() async throws {
        try await InProcessServer.with(store: .sqlite) { server in
            let device = TestDevice(name: "i")
            let (player, welcome) = try await TestPlayer.join(server, device: device)
            try await player.send(.taps(device.batch(schoolA, taps: 5, switchTo: true)))
            _ = try await player.ack(1)
            let official = """
                {"format": "touchschool-catalog", "version": 1, "source": "official", "edition": "2026-03-20", "schools": [
                  {"id": "B000000001", "name": "서울고등학교", "level": "high", "province": "서울특별시", "district": "서초구", "address": "서울특별시 서초구"}
                ], "aliases": {"\(schoolA)": "B000000001"}}
                """
            try official.write(toFile: "\(server.dataDirectory)/catalog.json.tmp", atomically: false, encoding: .utf8)
            rename("\(server.dataDirectory)/catalog.json.tmp", "\(server.dataDirectory)/catalog.json")
            var etag = welcome.catalog
            _ = try await Wait.until(timeout: 8, every: .milliseconds(200)) {
                etag = try await HTTP.get("\(server.baseURL)/v1/catalog").headers.first { $0.0.lowercased() == "etag" }?.1 ?? ""
                return etag != welcome.catalog
            }
            #expect(etag != welcome.catalog)
            try await player.send(.taps(device.batch("B000000001", taps: 2)))
            #expect(try await player.ack(2).accepted == 2)
            #expect(try await HTTP.scores(server).scores == ["B000000001": 7])
            await player.close()
        }
    }

    /// Durable before acknowledged: while the data directory cannot be written (its disk is
    /// full), nothing is acknowledged and /healthz says so; once it can, the waiting batch is
    /// saved and acknowledged, counted once. A real full file system (a small tmpfs filled up),
    /// so only as root.
    @Test(.enabled("needs root to mount a small tmpfs") { geteuid() == 0 })
    func nothingIsAcknowledgedWhileSavesFailAndTheWaitingBatchCountsOnceAfter() async throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #require(mount("tmpfs", directory, "tmpfs", 0, "size=1m") == 0, "\(String(cString: strerror(errno)))")
        defer { umount2(directory, Int32(MNT_DETACH)) }
        try await InProcessServer.with(store: .sqlite, dataDirectory: directory) { server in
            let device = TestDevice(name: "kim")
            let (player, _) = try await TestPlayer.join(server, device: device)
            try await player.send(.taps(device.batch(schoolA, taps: 10, switchTo: true)))
            #expect(try await player.ack(1).accepted == 10)

            // The disk fills up: the database's log cannot grow. Its last page may still hold a
            // small commit or two (1 KB pages in 4 KB blocks): batches go on until one is not saved.
            let filler = "\(directory)/filler"
            let descriptor = open(filler, O_WRONLY | O_CREAT, 0o600)
            try #require(descriptor >= 0)
            let block = [UInt8](repeating: 0, count: 4096)
            while write(descriptor, block, block.count) > 0 {}
            close(descriptor)
            var expected: UInt64 = 10
            var unsaved: UInt64?
            for _ in 0..<8 where unsaved == nil {
                let batch = device.batch(schoolA, taps: 5)
                try await player.send(.taps(batch))
                expected += 5
                // A save is tried within the commit window and again every second: give it several.
                if (try? await player.ack(batch.seq, timeout: 3)) == nil { unsaved = batch.seq }
            }
            let waiting = try #require(unsaved, "every save succeeded on a full disk")
            #expect(!player.acks.contains { $0.seq == waiting }, "acknowledged without being saved")
            let health = try await HTTP.get("\(server.baseURL)/healthz")
            #expect(health.status == 503, "\(health.body)")

            try FileManager.default.removeItem(atPath: filler)
            #expect(try await player.ack(waiting).accepted == 5)
            #expect(try await HTTP.scores(server).scores == [schoolA: expected])
            #expect(try await HTTP.get("\(server.baseURL)/healthz").status == 200)
            await player.close()
        }
    }
}
