#if canImport(Glibc)
import Glibc
#endif
import TouchSchoolBattleDatabase
import TouchSchoolCore
import Workload

// The project's own access layer over the system libsqlite3, as SQLiteBattleStore runs a window
// (CommitTransaction's plan): each device's tally and record read, the table of changes compacted
// when due, each device's change appended (its record, its tally, the taps it added to its
// school), then the totals and the board's version. LayoutCommits' `tables 1024` is the same
// window as the server wrote it before `device_changes`.
let directory = Workload.temporaryDirectory()
var database: BattleDatabase? = try BattleDatabase.openForServer(dataDirectory: directory).database
// `STORE_WRITES_COMPACTION_ROWS`: another compaction threshold than the server's.
if let rows = getenv("STORE_WRITES_COMPACTION_ROWS").flatMap({ Int(String(cString: $0)) }) { database!.compactionRows = rows }
let tapsPerBatch: UInt64 = 10
func publicID(_ index: Int) -> String { String(String(UInt64(index + 7) &* 0xD6E8_FEB8_6659_FD93, radix: 16).suffix(24)) }
try database!.write { write throws(SQLiteError) in
    for index in 0..<Workload.devices {
        let key = Workload.deviceKey(index), school = Workload.school(ofDevice: index)
        try write.save(device: key, record: DeviceRecord(lastSeq: 1, player: "player \(index)", lastEndMs: 1_764_000_000_000),
                       player: PlayerRecord(schoolID: school, taps: tapsPerBatch, bestTapsPerSecond: 10))
        try write.saveActivity(device: key, publicID: publicID(index),
                               activity: DeviceActivity().adding(accepted: tapsPerBatch, refused: 0, addresses: ["127.0.0.1"],
                                                                 client: "web", hour: 490_000))
        try write.addSchoolTaps(device: key, [school: tapsPerBatch])
    }
}
var compactionSteps: [Duration] = []
// Closing the database checkpoints what its log still holds: counted, it is written all the same.
try Workload.run("system libsqlite3 (TouchSchoolBattleDatabase), compacted every \(database!.compactionRows) rows",
                 finally: { database = nil }) { number in
    try database!.write { write throws(SQLiteError) in
        var increments: [String: UInt64] = [:]
        var changes: [(String, ChangedDevice)] = []
        for index in Workload.window(number) {
            let key = Workload.deviceKey(index), school = Workload.school(ofDevice: index)
            guard let (activity, _) = try write.activity(device: key), var (record, player) = try write.device(key) else {
                fatalError("no device \(key)")
            }
            record.lastSeq += 1
            record.lastEndMs += 1_000
            player.taps += tapsPerBatch
            changes.append((key, ChangedDevice(record: record, player: player, publicID: publicID(index),
                                               activity: activity.adding(accepted: tapsPerBatch, refused: 0, addresses: ["127.0.0.1"],
                                                                         client: "web", hour: 490_000),
                                               added: [school: tapsPerBatch])))
            increments[school, default: 0] += tapsPerBatch
        }
        // The compaction's own share of the commit, apart from the fsync the machine's other work
        // makes slow or fast: what a compaction adds to the window it runs in.
        let compactionStart = ContinuousClock.now
        try write.compactIfDue(appending: changes.count)
        if number >= Workload.warmUpCommits { compactionSteps.append(ContinuousClock.now - compactionStart) }
        for (key, change) in changes.sorted(by: { $0.0 < $1.0 }) { try write.appendChange(device: key, change) }
        _ = try write.newBoard(changing: increments.keys)
    }
}
let steps = compactionSteps.map { Double($0.components.attoseconds) / 1e12 + Double($0.components.seconds) * 1e6 }.sorted()
print("  its compaction step (compactIfDue, in the transaction): median \(Int(steps[steps.count / 2])) µs, "
      + "p99 \(Int(steps[steps.count * 99 / 100])) µs, slowest \(Int(steps.last ?? 0)) µs")
Workload.remove(directory)
