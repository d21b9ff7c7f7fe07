import TouchSchoolCore
import TouchSchoolStore
import Workload

// The baseline: the windows saved as the server saved them before battle.sqlite, through
// StateStore.change (read under the lock, change, replace the whole file durably).
let store = StateStore(directory: Workload.temporaryDirectory())
_ = try store.change { state in
    for index in 0..<Workload.devices {
        let key = Workload.deviceKey(index)
        state.devices[key] = DeviceRecord(lastSeq: 1, player: "player \(index)", lastEndMs: 1)
        state.players[key] = PlayerRecord(schoolID: Workload.school(ofDevice: index), taps: 1, bestTapsPerSecond: 5)
    }
    state.boardVersion = 1
    return true
}
try Workload.run("state.json (StateStore)") { number in
    _ = try store.change(lockTimeoutNanoseconds: nil) { state in
        for index in Workload.window(number) {
            let key = Workload.deviceKey(index)
            state.devices[key]!.lastSeq += 1
            state.devices[key]!.lastEndMs += 1_000
            state.players[key]!.taps += 3
            state.scores[Workload.school(ofDevice: index), default: 0] += 3
        }
        state.boardVersion += 1
        return true
    }
}
Workload.remove(store.directory)
