// A game's saving, alone in a process: what StateStoreProcessTests runs several of at once on one
// data directory, and kills with SIGKILL mid-save. A separate program rather than fork() of the
// test runner, whose other threads may hold locks at the moment of the fork.
//
//   StateStoreWorker DIRECTORY PLAYER SCHOOL ROUNDS   (ROUNDS = 0: save until killed)
//
// Each round adds one tap to S1 and one to SCHOOL, and one tap to PLAYER (whose first round
// switches to S2). Exit 0 when every save succeeded.
import TouchSchoolCore
import TouchSchoolStore

#if canImport(Glibc)
import Glibc
#endif

func printError(_ line: String) {
    let bytes = Array("\(line)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 5, let rounds = Int(arguments[4]) else {
    printError("usage: StateStoreWorker DIRECTORY PLAYER SCHOOL ROUNDS")
    exit(2)
}
let (directory, player, school) = (arguments[1], arguments[2], arguments[3])
let catalog = Catalog(schools: ["S1", "S2", "S3"].map {
    School(id: $0, name: "학교\($0)", level: .elementary, province: "서울특별시", district: "종로구", address: "")
}, aliases: ["OLD1": "S1"], source: .starter)
let store = StateStore(directory: directory)
var deltas: [String: UInt64] = ["S1": 1]
deltas[school, default: 0] += 1
var round = 0
while rounds == 0 || round < rounds {
    let pending = PendingChanges(player: player, scoreDeltas: deltas, playerTaps: 1,
                                 bestTapsPerSecond: round, switchedToSchool: round == 0 ? "S2" : nil)
    do {
        _ = try store.sync(pending, aliases: catalog.aliases, lockTimeoutNanoseconds: nil)  // as a game's saving thread
    } catch {
        printError("StateStoreWorker: \(error)")
        exit(1)
    }
    round += 1
}
exit(0)
