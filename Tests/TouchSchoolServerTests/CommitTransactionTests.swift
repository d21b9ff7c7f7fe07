import Testing
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolProtocol
@testable import TouchSchoolServer

/// The commit transaction every store runs, on rows written here by hand: what it writes.
@Suite struct CommitTransactionTests {
    let catalog = Catalog(schools: ["A", "B"].map {
        School(id: $0, name: "\($0) school", level: .high, province: "서울특별시", district: "", address: "")
    }, source: .starter)
    let now: Int64 = 1_800_000_000_000

    func received(_ seq: UInt64, _ taps: [String: UInt64], device: String) -> ReceivedBatch {
        ReceivedBatch(connection: 1, device: device, player: "p",
                      batch: TapBatch(seq: seq, taps: taps, playerTaps: taps.values.reduce(0, +), switchedToSchool: seq == 1 ? "A" : nil, bestTapsPerSecond: 5,
                                      startMs: now - 1_000 + Int64(seq) * 100, endMs: now - 900 + Int64(seq) * 100),
                      address: "127.0.0.1")
    }

    @Test func aWindowWritesItsChangedDevicesTheirTalliesAndTheIncrementsOnly() {
        var rows = CommitTransaction.Rows()
        // "old" was saved at batch 4 with 10 taps for A: its batch 4 again only repeats.
        rows.devices["old"] = DeviceRecord(lastSeq: 4, player: "p", lastEndMs: now - 5_000)
        rows.players["old"] = PlayerRecord(schoolID: "A", taps: 10, bestTapsPerSecond: 5)
        rows.activities["old"] = DeviceActivity().adding(accepted: 10, refused: 0, addresses: ["127.0.0.1"], hour: DeviceActivity.hour(ofMs: now))
        let batches = [received(1, ["A": 3], device: "new"), received(4, ["A": 9], device: "old")]
        #expect(CommitTransaction.devices(of: batches) == ["new", "old"])
        #expect(CommitTransaction.devicesToWrite(batches, saved: rows.devices) == ["new"])
        let plan = CommitTransaction.plan(batches, rows: rows, histories: TapJudges(addresses: .standard), catalog: catalog, nowMs: now)
        #expect(plan.devices == [CommitTransaction.DeviceWrite(device: "new", record: DeviceRecord(lastSeq: 1, player: "p", lastEndMs: now - 800),
                                                               player: PlayerRecord(schoolID: "A", taps: 3, bestTapsPerSecond: 5))])
        #expect(plan.activities.map(\.device) == ["new"])
        #expect(plan.activities.first?.activity.accepted == 3 && plan.activities.first?.addedBySchool == ["A": 3])
        #expect(plan.activities.first?.publicID == DevicePublicID.of("new"))
        #expect(plan.increments == ["A": 3], "the totals read start at 0: what the window adds")
        #expect(plan.rules.newDevices == 1)
        let window = plan.committed(board: StoredBoard(version: 8, scores: ["A": 13]))
        #expect(window.board == StoredBoard(version: 8, scores: ["A": 13]))
        #expect(plan.committed(board: nil).board == StoredBoard(version: 0, scores: [:]))
    }

    @Test func aBannedDevicesTapsAreRefusedAndTalliedNotCounted() {
        var rows = CommitTransaction.Rows()
        rows.banned = ["bad"]
        let plan = CommitTransaction.plan([received(1, ["A": 7], device: "bad")], rows: rows, histories: TapJudges(addresses: .standard),
                                          catalog: catalog, nowMs: now)
        #expect(plan.increments.isEmpty)
        #expect(plan.devices.map(\.record.lastSeq) == [1], "numbered as applied: its client moves on")
        #expect(plan.activities.first?.activity.refused == 7 && plan.activities.first?.addedBySchool == [:])
    }
}
