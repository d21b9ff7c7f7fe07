import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolProtocol
@testable import TouchSchoolServer

/// The rules of a save, without a server: each (device, number) once, in order, judged.
@Suite(.onOwnThreads) struct CommitRulesTests {
    let catalog = Catalog(schools: ["A", "B", "C"].map {
        School(id: $0, name: "\($0) school", level: .high, province: "서울특별시", district: "", address: "")
    }, aliases: ["OLD-A": "A"], source: .starter)
    let now: Int64 = 1_800_000_000_000

    func received(_ seq: UInt64, _ taps: [String: UInt64], device: String = "d1", connection: UInt64 = 1,
                  switchedTo: String? = nil, startMs: Int64? = nil, endMs: Int64? = nil) -> ReceivedBatch {
        let player = taps.values.reduce(0, +)
        return ReceivedBatch(connection: connection, device: device, player: "p",
                             batch: TapBatch(seq: seq, taps: taps, playerTaps: player, switchedToSchool: switchedTo, bestTapsPerSecond: 5,
                                             startMs: startMs ?? now - 1_000 + Int64(seq) * 100, endMs: endMs ?? now - 900 + Int64(seq) * 100),
                             address: "127.0.0.1")
    }

    @Test func batchesApplyOnceInOrder() {
        var state = SavedState()
        var histories = TapJudges(addresses: .standard)
        let first = CommitRules.apply([received(1, ["A": 3], switchedTo: "A"), received(2, ["A": 2]), received(1, ["A": 3], switchedTo: "A")],
                                      to: &state, histories: &histories, catalog: catalog, nowMs: now)
        #expect(first.outcomes.map { if case let .acknowledged(ack) = $0 { ack.accepted } else { UInt64(99) } } == [UInt64(3), 2, 0])
        #expect(state.scores == ["A": 5])
        #expect(state.devices["d1"] == DeviceRecord(lastSeq: 2, player: "p", lastEndMs: now - 700), "the end of batch 2, kept for a restart")
        #expect(state.players["d1"] == PlayerRecord(schoolID: "A", taps: 5, bestTapsPerSecond: 5))
        #expect(state.boardVersion == 1)
        #expect(first.changedSchools == ["A"])

        let gap = CommitRules.apply([received(4, ["B": 1], connection: 7), received(3, ["B": 1], connection: 7)],
                                    to: &state, histories: &histories, catalog: catalog, nowMs: now)
        #expect(gap.outcomes == [.outOfOrder(expected: 3), .outOfOrder(expected: 3)])
        #expect(state.scores == ["A": 5])
        #expect(state.boardVersion == 1)
    }

    @Test func unknownSchoolsAreRefusedAndAliasesFollowed() {
        var state = SavedState()
        var histories = TapJudges(addresses: .standard)
        let result = CommitRules.apply([received(1, ["OLD-A": 2, "NOPE": 4, "B": 1])], to: &state, histories: &histories,
                                       catalog: catalog, nowMs: now)
        guard case let .acknowledged(ack) = result.outcomes[0] else { Issue.record("not acknowledged"); return }
        #expect(ack.accepted == 3 && ack.refused == 4)
        #expect(state.scores == ["A": 2, "B": 1])
    }

    @Test func tenThousandTapsInOneSecondAreMostlyRefused() {
        var state = SavedState()
        var histories = TapJudges(addresses: .standard)
        let result = CommitRules.apply([received(1, ["B": 10_000, "A": 10_000], startMs: now - 1_000, endMs: now)],
                                       to: &state, histories: &histories, catalog: catalog, nowMs: now)
        guard case let .acknowledged(ack) = result.outcomes[0] else { Issue.record("not acknowledged"); return }
        #expect(ack.accepted + ack.refused == 20_000)
        #expect(ack.accepted <= 6 + 230 * 1 / 5 + 1)
        // Accepted taps are taken from the schools in id order.
        #expect(state.scores == ["A": ack.accepted])
    }

    /// A restarted server has no histories in memory: the device's last judged time, saved with
    /// the scores, lets a backlog played offline during a long outage count in full.
    @Test func afterARestartABacklogPlayedOfflineCountsInFull() {
        var state = SavedState()
        var histories = TapJudges(addresses: .standard)
        _ = CommitRules.apply([received(1, ["A": 5], switchedTo: "A", startMs: now - 60_000, endMs: now - 59_000)],
                              to: &state, histories: &histories, catalog: catalog, nowMs: now - 59_000)
        #expect(state.devices["d1"]?.lastEndMs == now - 59_000)
        var restarted = TapJudges(addresses: .standard)
        // Twenty batches of 10 taps, one a second, played while the server was down.
        let backlog = (0..<20).map { second in
            received(UInt64(second + 2), ["A": 10], startMs: now - 50_000 + Int64(second) * 1_000, endMs: now - 49_100 + Int64(second) * 1_000)
        }
        let result = CommitRules.apply(backlog, to: &state, histories: &restarted, catalog: catalog, nowMs: now)
        #expect(result.refused == 0)
        #expect(state.scores["A"] == 205)
        // A device never seen may claim no more than two minutes before its first batch.
        var fresh = TapJudges(addresses: .standard)
        let old = CommitRules.apply([received(1, ["B": 40], device: "d2", startMs: now - 600_000, endMs: now - 599_000)],
                                    to: &state, histories: &fresh, catalog: catalog, nowMs: now)
        #expect(old.accepted <= 6, "a claim of ten minutes ago is judged as made two minutes ago, in an instant")
    }

    /// A class of 40 behind one address, every player at full honest speed for a ten-minute
    /// battle: a 5-second sprint at 44 taps a second at the top of each minute (the guard's burst
    /// is 46), 20 a second the rest of it (a minute's 1,320 under the 1,500), all sprinting at
    /// once (1,760 a second under the address's 2,000). Batches of 250 ms, saved together as a
    /// server's commit windows do: nothing is refused.
    @Test func anHonestClassOfFortyAtFullSpeedLosesNothingToTheJudgeOrTheBudget() {
        var state = SavedState()
        var histories = TapJudges(addresses: .standard)
        let devices = (0..<40).map { "student-\($0)" }
        let start = now - 600_000
        var (accepted, refused, claimed): (UInt64, UInt64, UInt64) = (0, 0, 0)
        for tick in 0..<(600 * 4) {
            let endMs = start + Int64(tick + 1) * 250
            let sprinting = (tick % 240) < 20
            let taps: UInt64 = sprinting ? 11 : 5
            let batches = devices.enumerated().map { index, device in
                ReceivedBatch(connection: UInt64(index), device: device, player: device,
                              batch: TapBatch(seq: UInt64(tick + 1), taps: ["A": taps], playerTaps: taps, switchedToSchool: tick == 0 ? "A" : nil,
                                              bestTapsPerSecond: 44, startMs: endMs - 250, endMs: endMs),
                              address: "10.1.2.3", network: "10.1.2.3")
            }
            claimed += taps * 40
            let result = CommitRules.apply(batches, to: &state, histories: &histories, catalog: catalog, nowMs: endMs + 30)
            accepted += result.accepted
            refused += result.refused
        }
        #expect(refused == 0, "\(refused) of \(claimed) refused")
        #expect(accepted == claimed && state.scores["A"] == claimed)
    }
}

@Suite(.onOwnThreads) struct PlayerNameTests {
    @Test func namesAreCleanedOfControlsAndEscapeSequences() {
        #expect(PlayerNames.clean("김민지") == "김민지")
        #expect(PlayerNames.clean("\u{1B}[31;1mred\u{1B}[0m team") == "red team")
        #expect(PlayerNames.clean("\u{1B}]0;owned\u{7}title") == "title")
        #expect(PlayerNames.clean("\u{1B}]2;x\u{1B}\\after") == "after")
        #expect(PlayerNames.clean("a\u{9B}2Jb\u{202E}c\td\n") == "ab c d")
        #expect(PlayerNames.clean("  \u{7}\u{1B}  ") == "player")
        #expect(PlayerNames.clean(String(repeating: "가", count: 100)) == String(repeating: "가", count: 32))
        // One character with 8,143 combining marks is not a name's worth of storage.
        let heavy = "e" + String(repeating: "\u{301}", count: 8_143)
        #expect(heavy.count == 1)
        #expect(PlayerNames.clean(heavy) == "player")
        #expect(PlayerNames.clean("kim " + heavy + " lee") == "kim")
        // Within every limit: 32 characters of two scalars each are 64 scalars and 96 bytes.
        let accented = String(repeating: "e\u{301}", count: 40)
        let kept = PlayerNames.clean(accented)
        #expect(kept.count == 32 && kept.unicodeScalars.count == 64 && kept.utf8.count == 96)
        // Four-byte characters: 32 of them would be 128 bytes, the most.
        #expect(PlayerNames.clean(String(repeating: "😀", count: 40)).utf8.count == 128)
        #expect(PlayerNames.clean(String(repeating: "😀", count: 40)).count == 32)
    }
}
