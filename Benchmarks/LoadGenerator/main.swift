// The load benchmark (issue 9): simulated players over real WebSockets on loopback against a
// server this program starts itself (`touchschool serve` or the bare baseline), measured from
// outside through /proc.
//
//   LoadGenerator --kind real --server PATH/touchschool --players 2000
//   LoadGenerator --kind bare --server PATH/BareWebSocketServer --players 2000
//   LoadGenerator --kind real --server PATH/touchschool --players 2000 --instances 2 \
//       --postgres URL --postgres-pid PID     (issue 10: instances on one PostgreSQL)
//   LoadGenerator --kind real --server PATH/touchschool --players 1000 --round --round-readers 20
//       (issue 48: the round's standings read beside the players; Benchmarks/round-readers.sh)
//   LoadGenerator --kind real --server PATH/touchschool --players 4000 --map
//       (issue 50: every player's screen shows the map, `{"type":"map","show":true}` after its
//       welcome, and a projector's board stream reads beside them: the map's bytes per player and
//       per stream)
//
// With --postgres, `--instances` servers share the database and the players are dealt to them
// in turn (so the probe's watchers sit on other instances than the probe, mostly); PostgreSQL's
// commits and rows written in the window come from its statistics views, its CPU from
// /proc of the postmaster (--postgres-pid) and its children.
//
// Each player: its own device key and WebSocket, hello (`--protocol 2`: views; 1: the whole
// board), then one `taps` batch a second with 10 taps for its own school of the official list
// (`--official CSV`, imported into the real server's data directory first: player i taps for the
// list's i-th school, as in a national event), stamped over the second before it, the live
// board or views received all along. Player 0 is the probe: 24 taps a second for its school,
// which leads the nation, so that every player's screen holds it. Players join at `--ramp` a
// second; after all have joined and `--settle` seconds, `--duration` seconds are measured:
// batches sent in that window give the ack latency (send → ack) and the taps acknowledged; the
// probe's batches give the time for a tap to reach every other player's screen; every byte each
// player receives (text and WebSocket frame header) gives the bytes per player; the server's
// CPU (utime + stime) and resident
// memory come from /proc/<pid>, and so do the bytes it wrote to storage (`write_bytes` of
// /proc/<pid>/io: the embedded database's log and checkpoints, BENCHMARKS.md "The embedded
// database"). Then sending stops, the acks still due are awaited, and the loss
// check runs: every batch acknowledged exactly once, and the server's `GET /v1/scores` totals
// equal to the taps acknowledged as accepted. The server is stopped with SIGTERM (SIGKILL after
// 15 s). The result: one line `RESULT {json}` on standard output.
import Foundation
import NIOPosix
import Synchronization

struct Options {
    var kind = "real"
    var server = ""
    var players = 500
    var ramp = 200.0
    var settle = 3.0
    var duration = 30.0
    var protocolVersion = 2
    var taps: UInt64 = 10
    var dataDirectory: String?
    var official = "../../shared/data/korea-schools-2026-03-20.utf8.csv"
    var instances = 1
    var postgres: String?
    var postgresPID: pid_t?
    /// With a round: started after the players joined, running through the whole window.
    var round = false
    /// With a round: this many readers of its standings (`GET /v1/rounds/ID`), each from an address
    /// of its own, `readsPerSecond` times a second each, over the window's second half; the first
    /// half is the idle baseline of the same run (`ackP99msIdle` against `ackP99msReading`).
    var roundReaders = 0
    var readsPerSecond = 2.5
    /// Every player shows the map, and one board stream (`GET /v1/board?count=10&map=1`, a projector showing the map) reads beside them.
    var map = false

    static func parse() -> Options {
        var options = Options()
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        func value(_ name: String) -> String {
            guard let value = arguments.next() else { fail("\(name) needs a value") }
            return value
        }
        while let argument = arguments.next() {
            switch argument {
            case "--kind": options.kind = value(argument)
            case "--server": options.server = value(argument)
            case "--players": options.players = Int(value(argument)) ?? options.players
            case "--ramp": options.ramp = Double(value(argument)) ?? options.ramp
            case "--settle": options.settle = Double(value(argument)) ?? options.settle
            case "--duration": options.duration = Double(value(argument)) ?? options.duration
            case "--protocol": options.protocolVersion = Int(value(argument)) ?? options.protocolVersion
            case "--taps": options.taps = UInt64(value(argument)) ?? options.taps
            case "--data-dir": options.dataDirectory = value(argument)
            case "--official": options.official = value(argument)
            case "--instances": options.instances = max(1, Int(value(argument)) ?? 1)
            case "--postgres": options.postgres = value(argument)
            case "--postgres-pid": options.postgresPID = pid_t(value(argument))
            case "--round": options.round = true
            case "--round-readers": options.roundReaders = max(0, Int(value(argument)) ?? 0)
            case "--reads-per-second": options.readsPerSecond = Double(value(argument)) ?? options.readsPerSecond
            case "--map": options.map = true
            default: fail("unknown argument \(argument)")
            }
        }
        guard ["real", "bare"].contains(options.kind), !options.server.isEmpty else {
            fail("usage: LoadGenerator --kind real|bare --server PATH [--players N] [--protocol 1|2] [--ramp N/s] [--duration S] [--settle S] [--official CSV] [--round [--round-readers N] [--reads-per-second R]] [--map]")
        }
        guard options.roundReaders == 0 || options.round, options.roundReaders <= 250, options.readsPerSecond > 0 else {
            fail("--round-readers needs --round, at most 250 readers (127.0.0.2 to 127.0.0.251), --reads-per-second above 0")
        }
        return options
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("LoadGenerator: \(message)\n".utf8))
    exit(2)
}

func note(_ message: String) {
    FileHandle.standardError.write(Data("[load] \(message)\n".utf8))
}

let options = Options.parse()
let fileLimit = raiseOpenFileLimit()
if fileLimit < UInt64(options.players) * 2 + 100 { note("warning: the open-file limit is \(fileLimit)") }

let dataDirectory = options.dataDirectory ?? makeTemporaryDirectory("touchschool-load-data")

// The schools: the official list's ids (its first column, ASCII in either encoding), one per
// player; the real server plays that list, imported into its data directory.
guard let listBytes = FileManager.default.contents(atPath: options.official) else { fail("cannot read the official list at \(options.official) (--official CSV)") }
let schoolIDs: [String] = listBytes.split(separator: UInt8(ascii: "\n")).dropFirst().compactMap { line in
    let id = line.prefix { $0 != UInt8(ascii: ",") }
    return id.isEmpty ? nil : String(decoding: id, as: UTF8.self)
}
guard schoolIDs.count >= options.players else { fail("the list has \(schoolIDs.count) schools: fewer than the \(options.players) players, one school each") }
if options.kind == "real" {
    let importer = Process()
    importer.executableURL = URL(fileURLWithPath: options.server)
    importer.arguments = ["import", options.official, "--data-dir", dataDirectory] + (options.postgres.map { ["--postgres", $0] } ?? [])
    importer.standardOutput = FileHandle.nullDevice
    try importer.run()
    importer.waitUntilExit()
    guard importer.terminationStatus == 0 else { fail("\(options.server) import \(options.official) failed (\(importer.terminationStatus))") }
}
let arguments: [String] = options.kind == "real"
    ? [options.server, "serve", "--port", "0", "--data-dir", dataDirectory,
       // Every simulated player connects from 127.0.0.1: the per-address limits and tap budget
       // (a school lab's worth) raised out of the way, as for a whole nation behind one address.
       "--connections-per-address", "1000000", "--sockets-per-address", "1000000", "--devices-per-address", "1000000",
       "--address-taps-per-second", "1000000000", "--address-burst", "1000000000"] + (options.postgres.map { ["--postgres", $0] } ?? [])
    : [options.server, "--port", "0", "--board-schools", "8"]
if options.instances > 1, options.postgres == nil { fail("--instances needs --postgres: servers share a battle only there") }
let servers: [ServerUnderTest] = {
    var started: [ServerUnderTest] = []
    for _ in 0..<options.instances {
        do { started.append(try ServerUnderTest.start(arguments, environment: ["LOG_LEVEL": "warning"])) } catch {
            for server in started { _ = server.stop() }
            fail("\(error)")
        }
    }
    return started
}()
let server = servers[0]
if options.kind == "real" {
    // The schools as the server serves them (`GET /v1/schools`: rows `[id, name, level, province,
    // district]`): every player's school must be one, or its taps would be refused.
    struct Directory: Decodable { var schools: [[String]] }
    guard let text = httpGet(port: server.port, path: "/v1/schools"),
          let rows = (try? JSONDecoder().decode(Directory.self, from: Data(text.utf8)))?.schools ?? (try? JSONDecoder().decode([[String]].self, from: Data(text.utf8))) else {
        for server in servers { _ = server.stop() }
        fail("GET /v1/schools gave no list of schools")
    }
    let served = Set(rows.compactMap(\.first))
    let missing = schoolIDs.prefix(options.players).filter { !served.contains($0) }
    guard missing.isEmpty else {
        for server in servers { _ = server.stop() }
        fail("the server does not serve \(missing.count) of the players' schools (\(missing.prefix(3).joined(separator: ", ")))")
    }
    note("the server serves \(served.count) schools; each player taps for its own")
}
note("\(options.kind) server pids \(servers.map(\.pid)) on ports \(servers.map(\.port)); \(options.players) players")
try? await Task.sleep(for: .seconds(1))
let idleRSS = servers.reduce(UInt64(0)) { $0 + (ProcFS.residentKB(pid: $1.pid) ?? 0) }
/// CPU ticks of every server, and of PostgreSQL's processes.
func serversCPU() -> UInt64 { servers.reduce(0) { $0 + (ProcFS.cpuTicks(pid: $1.pid) ?? 0) } }
/// The servers' own count of commit windows saved (`touchschool_commits_total`), summed.
func serversCommits() -> UInt64 {
    servers.reduce(0) { sum, server in
        let text = httpGet(port: server.port, path: "/metrics") ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("touchschool_commits_total ") }
        return sum + (line.flatMap { UInt64($0.split(separator: " ").last ?? "") } ?? 0)
    }
}
func serversWritten() -> UInt64 { servers.reduce(0) { $0 + (ProcFS.writtenBytes(pid: $1.pid) ?? 0) } }
func postgresCPU() -> UInt64 { options.postgresPID.map { ProcFS.treeCPUTicks(root: $0) } ?? 0 }

let run = Run(players: options.players, protocolVersion: options.protocolVersion, schoolIDs: Array(schoolIDs.prefix(options.players)),
              tapsPerBatch: options.taps, showsMap: options.map)
/// With --map: a projector's board stream, its map events counted in the window.
let boardStream = options.map ? BoardStreamReader.start(port: server.port, path: "/v1/board?count=10&map=1", run: run) : nil
let players = (0..<options.players).map { Player(index: $0) }

// Ramp up: `ramp` players a second.
let rampStart = ContinuousClock.now
var playerTasks: [Task<Void, Never>] = []
for player in players {
    let due = rampStart + .seconds(Double(player.index) / options.ramp)
    try? await Task.sleep(until: due, clock: .continuous)
    let port = servers[player.index % servers.count].port
    playerTasks.append(Task { await PlayerConnection.play(player, port: port, run: run, group: MultiThreadedEventLoopGroup.singleton) })
}
let joinDeadline = ContinuousClock.now + .seconds(60)
while run.welcomed.load(ordering: .relaxed) + run.failed.load(ordering: .relaxed) < options.players,
      ContinuousClock.now < joinDeadline {
    try? await Task.sleep(for: .milliseconds(50))
}
let rampSeconds = ((ContinuousClock.now - rampStart) / .milliseconds(100)).rounded() / 10
note("joined: \(run.welcomed.load(ordering: .relaxed)), failed: \(run.failed.load(ordering: .relaxed)), after \(rampSeconds) s")
try? await Task.sleep(for: .seconds(options.settle))

// A round for the whole window (real server): started through the admin API with the data
// directory's token, its countdown over before the window opens, so that every player is sent
// its round messages as in a class's race.
var roundID: Int64?
if options.round, options.kind == "real" {
    let token = (try? String(contentsOfFile: dataDirectory + "/admin.token", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    let seconds = Int(options.duration.rounded(.up)) + 5
    struct Started: Decodable { var id: Int64 }
    guard let started = httpRequest("POST", port: server.port, path: "/v1/admin/rounds?seconds=\(seconds)&title=load",
                                    headers: ["Authorization: Bearer \(token)"]) else {
        for server in servers { _ = server.stop() }
        fail("the round could not be started")
    }
    roundID = (try? JSONDecoder().decode(Started.self, from: Data(started.utf8)))?.id
    note("a round of \(seconds) s started")
    try? await Task.sleep(for: .milliseconds(3_200))
}

// The measured window.
let startCPU = serversCPU()
let startPostgresCPU = postgresCPU()
let startStats = options.postgres.flatMap(PostgresStats.read)
let startCommits = serversCommits()
let startWritten = serversWritten()
let startMachine = ProcFS.machineTicks()
let startSelf = ProcFS.selfCPUSeconds()
let windowStart = nowNanos()
run.windowStart.store(windowStart, ordering: .relaxed)
run.windowEnd.store(windowStart + UInt64(options.duration * 1e9), ordering: .relaxed)
/// The whole seconds of the window before the readers start (all of them without readers).
let idleSeconds = options.roundReaders > 0 ? Int(options.duration / 2) : Int(options.duration.rounded(.up))
let readers = RoundReaders(count: options.kind == "real" ? options.roundReaders : 0)
if readers.count > 0, let roundID {
    readers.start(port: server.port, path: "/v1/rounds/\(roundID)", perSecond: options.readsPerSecond,
                  from: windowStart + UInt64(idleSeconds) * 1_000_000_000, until: windowStart + UInt64(options.duration * 1e9))
    note("\(readers.count) readers of /v1/rounds/\(roundID) from the window's second \(idleSeconds), \(options.readsPerSecond) a second each")
}
func serversRSS() -> UInt64 { servers.reduce(0) { $0 + (ProcFS.residentKB(pid: $1.pid) ?? 0) } }
var peakRSS = serversRSS()
/// When the readers started, the servers' CPU and the generator's then.
var readersStart: (at: UInt64, cpu: UInt64, generator: Double)?
for second in 0..<Int(options.duration.rounded(.up)) {
    if readers.count > 0, second == idleSeconds { readersStart = (nowNanos(), serversCPU(), ProcFS.selfCPUSeconds()) }
    try? await Task.sleep(for: .seconds(1))
    peakRSS = max(peakRSS, serversRSS())
}
let windowEnd = nowNanos()
let endCPU = serversCPU()
let endPostgresCPU = postgresCPU()
let endStats = options.postgres.flatMap(PostgresStats.read)
let endCommits = serversCommits()
let endWritten = serversWritten()
let endMachine = ProcFS.machineTicks()
let endSelf = ProcFS.selfCPUSeconds()
let endRSS = serversRSS()
readers.wait(timeoutSeconds: 15)
let connected = players.filter { $0.state.withLock { $0.welcomed && !$0.ended } }.count

// Drain: stop sending, wait for the acks due (bounded), then a second for the last board.
run.stopSending.store(true, ordering: .relaxed)
let drainDeadline = ContinuousClock.now + .seconds(20)
while run.batchesAcked.load(ordering: .relaxed) < run.batchesSent.load(ordering: .relaxed), ContinuousClock.now < drainDeadline {
    try? await Task.sleep(for: .milliseconds(50))
}
try? await Task.sleep(for: .milliseconds(1_500))

// The loss check.
struct Scores: Decodable { var scores: [String: UInt64] }
let scoresText = httpGet(port: server.port, path: "/v1/scores")
let serverTotal: UInt64? = scoresText.flatMap { try? JSONDecoder().decode(Scores.self, from: Data($0.utf8)) }
    .map { $0.scores.values.reduce(0, +) }
var sent = 0, unacked = 0, duplicated = 0, accepted: UInt64 = 0, acceptedInWindow: UInt64 = 0
var latencies: [UInt32] = []
var bySecond: [[UInt32]] = []
var unexpected: [String] = []
var failures: [String] = []
var endedEarly = 0
var otherLatencies: [UInt32] = []
var bytesReceived: [Double] = []
var viewsReceived: UInt64 = 0, viewBytesReceived: UInt64 = 0
var roundsReceived: UInt64 = 0, roundBytesReceived: UInt64 = 0
var mapsReceived: UInt64 = 0, mapBytesReceived: UInt64 = 0
var welcomeBytes = 0, firstViewBytes = 0
for player in players {
    player.state.withLock { state in
        sent += state.acks.count
        unacked += state.acks.count(where: { $0 == 0 })
        duplicated += state.acks.count(where: { $0 > 1 })
        accepted += state.accepted
        acceptedInWindow += state.acceptedInWindow
        latencies.append(contentsOf: state.latencies)
        for (latency, second) in zip(state.latencies, state.latencySeconds) {
            let second = Int(second)
            if second >= bySecond.count { bySecond += Array(repeating: [], count: second + 1 - bySecond.count) }
            bySecond[second].append(latency)
        }
        unexpected.append(contentsOf: state.unexpected.prefix(2))
        if let failure = state.failure { failures.append(failure) }
        if state.ended { endedEarly += 1 }
        otherLatencies.append(contentsOf: state.seenLatencies)
        welcomeBytes = max(welcomeBytes, state.welcomeBytes)
        firstViewBytes = max(firstViewBytes, state.firstViewBytes)
        if state.welcomed, !state.ended, !player.isProbe {
            bytesReceived.append(Double(state.bytesInWindow))
            viewsReceived += state.viewsInWindow
            viewBytesReceived += state.viewBytesInWindow
            roundsReceived += state.roundsInWindow
            roundBytesReceived += state.roundBytesInWindow
            mapsReceived += state.mapsInWindow
            mapBytesReceived += state.mapBytesInWindow
        }
    }
}
let probeBatchesInWindow = run.probeSent.withLock { sent in sent.filter { run.inWindow($0) }.count }
/// Probe batches sent in the window that some connected player never saw.
let unseen = max(0, probeBatchesInWindow * bytesReceived.count - otherLatencies.count)
let exitStatus = servers.map { $0.stop() }.max() ?? 0
latencies.sort()
otherLatencies.sort()

let windowSeconds = Double(windowEnd - windowStart) / 1e9
let serverCPUSeconds = Double(endCPU - startCPU) / ProcFS.ticksPerSecond
let playerSeconds = Double(connected) * windowSeconds
var machineBusyCores: Double?
if let startMachine, let endMachine {
    let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
    machineBusyCores = Double(endMachine.busy - startMachine.busy) / Double(max(1, endMachine.total - startMachine.total)) * cores
}
let generatorCores = (endSelf - startSelf) / windowSeconds
let serverCores = serverCPUSeconds / windowSeconds
let postgresCores = Double(endPostgresCPU - startPostgresCPU) / ProcFS.ticksPerSecond / windowSeconds
let tapsDifference = serverTotal.map { Int64(bitPattern: $0) - Int64(bitPattern: accepted) }

var result: [String: Any] = [
    "kind": options.kind,
    "players": options.players,
    "joined": run.welcomed.load(ordering: .relaxed),
    "connectedAtEnd": connected,
    "rampSeconds": rampSeconds,
    "windowSeconds": windowSeconds,
    "tapsPerSecondAcked": Double(acceptedInWindow) / windowSeconds,
    "tapsPerSecondOffered": Double(connected) * Double(options.taps),
    "batchesMeasured": latencies.count,
    // Ack p99 (ms) of the batches sent in each second of the window: where the slow ones are.
    "ackP99msBySecond": bySecond.map { (percentile($0.sorted(), 0.99) ?? 0).rounded() },
    "ackP50ms": percentile(latencies, 0.50) ?? -1,
    "ackP99ms": percentile(latencies, 0.99) ?? -1,
    "ackMaxms": percentile(latencies, 1.0) ?? -1,
    "otherP50ms": percentile(otherLatencies, 0.50) ?? -1,
    "otherP99ms": percentile(otherLatencies, 0.99) ?? -1,
    "otherSamples": otherLatencies.count,
    "otherUnseen": unseen,
    "protocol": options.protocolVersion,
    "bytesPerPlayerSecondMean": bytesReceived.isEmpty ? -1 : bytesReceived.reduce(0, +) / Double(bytesReceived.count) / windowSeconds,
    "bytesPerPlayerSecondMax": (bytesReceived.max() ?? -1) / windowSeconds,
    "welcomeBytesMax": welcomeBytes,
    "firstViewBytesMax": firstViewBytes,
    // Views (protocol 2) or board messages (protocol 1, the bare server's broadcasts) each player
    // received a second, and their mean size on the wire (text and frame header).
    "viewsPerPlayerSecond": bytesReceived.isEmpty ? -1 : Double(viewsReceived) / Double(bytesReceived.count) / windowSeconds,
    "viewBytesMean": viewsReceived == 0 ? -1 : Double(viewBytesReceived) / Double(viewsReceived),
    // With --round: the round's messages (`round`, `roundPlace`) each player received a second, and their bytes a second.
    "round": options.round,
    "roundMessagesPerPlayerSecond": bytesReceived.isEmpty ? -1 : Double(roundsReceived) / Double(bytesReceived.count) / windowSeconds,
    "roundBytesPerPlayerSecond": bytesReceived.isEmpty ? -1 : Double(roundBytesReceived) / Double(bytesReceived.count) / windowSeconds,
    "serverCPUusPerPlayerSecond": serverCPUSeconds / max(1, playerSeconds) * 1e6,
    "serverCores": serverCores,
    "generatorCores": generatorCores,
    "othersCores": machineBusyCores.map { max(0, $0 - serverCores - generatorCores - postgresCores) } ?? -1,
    "instances": options.instances,
    "store": options.postgres == nil ? "embedded" : "postgres",
    "idleRSSkB": Int(idleRSS),
    "endRSSkB": Int(endRSS),
    "peakRSSkB": Int(peakRSS),
    "kBPerConnection": Double(Int64(endRSS) - Int64(idleRSS)) / Double(max(1, connected)),
    "batchesSent": sent,
    "unacked": unacked,
    "duplicateAcks": duplicated,
    "tapsAccepted": Int(accepted),
    "tapsSent": sent * Int(options.taps),
    "serverTotal": serverTotal.map { Int($0) } ?? -1,
    "tapsDifference": tapsDifference.map { Int($0) } ?? Int.min,
    "connectionsFailed": run.failed.load(ordering: .relaxed),
    "connectionsEndedEarly": endedEarly,
    "serverExit": Int(exitStatus),
]
result["commitsPerSecond"] = Double(endCommits - startCommits) / windowSeconds
result["serverWriteBytesPerSecond"] = Double(endWritten - startWritten) / windowSeconds
result["serverWriteBytesPerCommit"] = Double(endWritten - startWritten) / Double(max(1, endCommits - startCommits))
if let startStats, let endStats {
    // The servers' commit windows (each one transaction); PostgreSQL's transactions also count
    // the polls and the hellos' reads.
    let commits = Double(endCommits - startCommits)
    result["pgTransactionsPerSecond"] = Double(endStats.commits - startStats.commits) / windowSeconds
    result["pgRowsPerCommit"] = Double(endStats.rows - startStats.rows) / max(1, commits)
    result["pgCores"] = postgresCores
    result["pgCPUmsPerCommit"] = Double(endPostgresCPU - startPostgresCPU) / ProcFS.ticksPerSecond * 1000 / max(1, commits)
}
if readers.count > 0 {
    // The same run's acks without readers (the window's first half) and with them (its second).
    let idle = bySecond.prefix(idleSeconds).flatMap { $0 }.sorted()
    let reading = bySecond.dropFirst(idleSeconds).flatMap { $0 }.sorted()
    result["ackP50msIdle"] = percentile(idle, 0.50) ?? -1
    result["ackP99msIdle"] = percentile(idle, 0.99) ?? -1
    result["ackP50msReading"] = percentile(reading, 0.50) ?? -1
    result["ackP99msReading"] = percentile(reading, 0.99) ?? -1
    let reads = readers.result
    result["roundReaders"] = readers.count
    result["roundReadsPerSecond"] = Double(readers.count) * options.readsPerSecond
    result["roundReadStatuses"] = Dictionary(uniqueKeysWithValues: reads.statuses.map { (String($0.key), $0.value) })
    result["roundReadP50ms"] = reads.p50ms
    result["roundReadP99ms"] = reads.p99ms
    result["roundAnswerBytes"] = reads.bytes
    if let readersStart {
        let idle = Double(readersStart.at - windowStart) / 1e9, reading = Double(windowEnd - readersStart.at) / 1e9
        result["serverCoresIdle"] = Double(readersStart.cpu - startCPU) / ProcFS.ticksPerSecond / idle
        result["serverCoresReading"] = Double(endCPU - readersStart.cpu) / ProcFS.ticksPerSecond / reading
        result["generatorCoresIdle"] = (readersStart.generator - startSelf) / idle
        result["generatorCoresReading"] = (endSelf - readersStart.generator) / reading
    }
}
let lost = unacked + duplicated + (tapsDifference == 0 ? 0 : 1) + run.failed.load(ordering: .relaxed) + (options.players - connected)
if let boardStream {
    let read = boardStream.stop()
    result["map"] = true
    result["mapMessagesPerPlayerSecond"] = bytesReceived.isEmpty ? -1 : Double(mapsReceived) / Double(bytesReceived.count) / windowSeconds
    result["mapBytesPerPlayerSecond"] = bytesReceived.isEmpty ? -1 : Double(mapBytesReceived) / Double(bytesReceived.count) / windowSeconds
    result["streamBytesPerSecond"] = Double(read.bytes) / windowSeconds
    result["streamMapBytesPerSecond"] = Double(read.mapBytes) / windowSeconds
    result["streamMapEventsPerSecond"] = Double(read.mapEvents) / windowSeconds
}
result["lost"] = lost
if !unexpected.isEmpty { result["unexpected"] = Array(unexpected.prefix(3)) }
if !failures.isEmpty { result["failures"] = Array(failures.prefix(3)) }
if lost > 0, options.kind == "real" { result["serverErrors"] = servers.map { String($0.errors.suffix(600)) }.joined(separator: "\n") }
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print("RESULT " + String(decoding: json, as: UTF8.self))
if options.dataDirectory == nil { try? FileManager.default.removeItem(atPath: dataDirectory) }
for server in servers { try? FileManager.default.removeItem(atPath: server.logDirectory) }
exit(0)
