// A server's commits alone in a process, through the battle database as SQLiteBattleStore
// writes it, compacting `device_changes` every few rows: what SQLiteBattleStoreTests kills with
// SIGKILL at any point, compactions under way (sliced over several commits) included. A separate program rather than fork() of the test
// runner, whose other threads may hold locks at the moment of the fork.
//
//   BattleDatabaseWorker DIRECTORY DEVICES COMPACTION_ROWS [--pause-mid-compaction]
//
// With --pause-mid-compaction it stops after the first commit that leaves a compaction under way
// and waits to be killed: a kill then finds that state for certain, where a kill timed from
// outside misses a compaction that lasts a few milliseconds.
// Commits until killed, going on from what the directory holds: each window moves every one of
// DEVICES devices to its next batch number, with 3 taps for school A and, from the device's
// second batch on, 2 for school B. So every device has the same last number n, each has 3n taps
// for A and 2(n − 1) for B, and the totals are the devices' sums: what the test checks.
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolStore

#if canImport(Glibc)
import Glibc
#endif

func fail(_ line: String) -> Never {
    let bytes = Array("BattleDatabaseWorker: \(line)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 4 || (arguments.count == 5 && arguments[4] == "--pause-mid-compaction"),
      let count = Int(arguments[2]), let compactionRows = Int(arguments[3]) else {
    fail("usage: BattleDatabaseWorker DIRECTORY DEVICES COMPACTION_ROWS [--pause-mid-compaction]")
}
let pausesMidCompaction = arguments.count == 5
let devices = (0..<count).map { "worker-device-\($0)-" + String(repeating: "k", count: 24) }
do throws(StoreError) {
    let database = try BattleDatabase.openForServer(dataDirectory: arguments[1]).database
    database.compactionRows = compactionRows
    while true {
        let compacting = try database.write { write throws(SQLiteError) -> Bool in
            var increments: [String: UInt64] = [:]
            var changes: [(String, ChangedDevice)] = []
            for device in devices {
                let (record, player) = try write.device(device) ?? (DeviceRecord(lastSeq: 0, player: device, lastEndMs: 0), PlayerRecord())
                let seq = record.lastSeq + 1
                let added: [String: UInt64] = seq == 1 ? ["A": 3] : ["A": 3, "B": 2]
                let activity = (try write.activity(device: device)?.activity ?? DeviceActivity())
                    .adding(accepted: 3 + (added["B"] ?? 0), refused: 0, addresses: ["10.0.0.1"], hour: 1)
                changes.append((device, ChangedDevice(record: DeviceRecord(lastSeq: seq, player: device, lastEndMs: Int64(seq)),
                                                      player: PlayerRecord(schoolID: "A", taps: player.taps + 3 + (added["B"] ?? 0)),
                                                      publicID: "public-\(device)", activity: activity, added: added)))
                for (school, taps) in added { increments[school, default: 0] += taps }
            }
            let compacting = try write.compactIfDue(appending: changes.count)
            for (device, change) in changes { try write.appendChange(device: device, change) }
            _ = try write.newBoard(changing: increments.keys)
            return compacting
        }
        if compacting && pausesMidCompaction {
            while true { pause() }
        }
    }
} catch {
    fail(error.message)
}
