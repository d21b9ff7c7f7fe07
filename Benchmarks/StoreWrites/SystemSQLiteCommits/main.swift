import TouchSchoolBattleDatabase
import TouchSchoolCore
import Workload

// The project's own access layer over the system libsqlite3: what SQLiteBattleStore runs.
let directory = Workload.temporaryDirectory()
let (database, _) = try BattleDatabase.openForServer(dataDirectory: directory)
try database.write { write throws(SQLiteError) in
    for index in 0..<Workload.devices {
        try write.save(device: Workload.deviceKey(index), record: DeviceRecord(lastSeq: 1, player: "player \(index)", lastEndMs: 1),
                       player: PlayerRecord(schoolID: Workload.school(ofDevice: index), taps: 1, bestTapsPerSecond: 5))
    }
}
try Workload.run("system libsqlite3 (TouchSchoolBattleDatabase)") { number in
    try database.write { write throws(SQLiteError) in
        var increments: [String: UInt64] = [:]
        for index in Workload.window(number) {
            let key = Workload.deviceKey(index)
            guard var (record, player) = try write.device(key) else { fatalError("no device \(key)") }
            record.lastSeq += 1
            record.lastEndMs += 1_000
            player.taps += 3
            try write.save(device: key, record: record, player: player)
            increments[Workload.school(ofDevice: index), default: 0] += 3
        }
        _ = try write.addToTotals(increments)
    }
}
Workload.remove(directory)
