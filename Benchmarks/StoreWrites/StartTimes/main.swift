import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolStore
import Workload

// What a server's store does at start, on a battle of 100,000 devices (2,000 schools): before,
// read and decode the whole state.json; now, open battle.sqlite (checked) and read the board,
// and once, at the first start, move state.json in. The rest of a start (the catalog, the HTTP
// server) is the same for both. Each timing is the median of five, the files in the page cache.
let devices = 100_000
let directory = Workload.temporaryDirectory()
_ = try StateStore(directory: directory).change { state in
    for index in 0..<devices {
        let key = Workload.deviceKey(index)
        state.devices[key] = DeviceRecord(lastSeq: UInt64(index % 50 + 1), player: "player \(index)", lastEndMs: 1_795_000_000_000 + Int64(index))
        state.players[key] = PlayerRecord(schoolID: "S\(10_000 + index % 2_000)", taps: UInt64(index % 300), bestTapsPerSecond: 7)
        state.scores["S\(10_000 + index % 2_000)", default: 0] += UInt64(index % 300)
    }
    state.boardVersion = 1_000
    return true
}
let clock = ContinuousClock()
func median(_ runs: Int = 5, _ body: () throws -> Void) rethrows -> Duration {
    var times: [Duration] = []
    for _ in 0..<runs { times.append(try clock.measure(body)) }
    return times.sorted()[runs / 2]
}

let readStateJSON = try median { _ = try StateStore(directory: directory).read() }
print("state.json, \(devices) devices: read and decoded in \(readStateJSON)")

// Each first start on a copy of the directory made beforehand (the copy is not timed).
var moveDirectories: [String] = []
var moves: [Duration] = []
for _ in 0..<5 {
    let copy = Workload.temporaryDirectory()
    moveDirectories.append(copy)
    try FileIO.writeDurably("\(copy)/state.json", try FileIO.read("\(directory)/state.json"))
    moves.append(try clock.measure { _ = try BattleDatabase.openForServer(dataDirectory: copy) })
}
let move = moves.sorted()[2]
print("battle.sqlite, the first start: made, state.json moved in: \(move)")

let database = moveDirectories[0]
let stateBytes = FileIO.stamp("\(directory)/state.json").map { _ in (try? FileIO.read("\(directory)/state.json").count) ?? 0 } ?? 0
let databaseBytes = (try? FileIO.read(BattleDatabase.path(inDataDirectory: database)).count) ?? 0
print("sizes: state.json \(stateBytes) bytes, battle.sqlite \(databaseBytes) bytes")
let open = try median {
    let (opened, _) = try BattleDatabase.openForServer(dataDirectory: database)
    _ = try opened.board()
}
print("battle.sqlite, a later start: opened, checked and the board read: \(open)")
print("ratio state.json / battle.sqlite at a later start: \(Double(readStateJSON.components.attoseconds / 1_000_000_000 + readStateJSON.components.seconds * 1_000_000_000) / Double(open.components.attoseconds / 1_000_000_000 + open.components.seconds * 1_000_000_000))")
for copy in moveDirectories { Workload.remove(copy) }
print("the state.json of \(devices) devices is left in \(directory) (for server-start-times.py)")
