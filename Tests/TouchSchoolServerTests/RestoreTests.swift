import Foundation
import Synchronization
import Testing
@testable import TouchSchoolClient
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolStore
import TouchSchoolTestSupport

/// A server whose devices' numbers went back (its store restored from a backup) with the game's
/// own client, `NetworkBattle`, playing through it: the waiting taps are numbered after the
/// restored numbers and counted once, the game is never shut out, and a renumbering that cannot
/// be saved is not sent, so that a crash after it does not count it twice. For the embedded store
/// (`battle.sqlite` backed up while serving and restored with the `sqlite3` shell, as
/// docs/operations.md says) and for PostgreSQL (`pg_dump`, then a restore into a new database).
@Suite(.onOwnThreads, .tags(.process), .serialized) struct RestoreTests {
    static let school = "S0001"

    /// The game's client on `folder`'s file system, whose outbox writes fail while `failing` is set.
    final class Client: Sendable {
        let directory: String
        let disk = Disk()
        let battle: NetworkBattle

        /// Whether the outbox's writes fail (a full disk).
        final class Disk: Sendable {
            private let full = Mutex(false)
            var isFull: Bool {
                get { full.withLock { $0 } }
                set { full.withLock { $0 = newValue } }
            }
        }

        init(battle battleID: String, servers: [ServerAddress], outbox: Outbox = Outbox(),
             directory: String = TemporaryDirectory().path) throws {
            self.directory = directory
            var fileSystem = FileSystem.live
            let write = fileSystem.writeDurably
            let disk = self.disk
            fileSystem.writeDurably = { (path, bytes) throws(FileError) in
                if disk.isFull, path.contains("outbox.json") { throw FileError(path: path, operation: "write", code: ENOSPC) }
                try write(path, bytes)
            }
            let folder = BattleFolder(dataDirectory: directory, battle: battleID, servers: servers, fileSystem: fileSystem)
            let device = try DeviceKey.loadOrCreate(dataDirectory: directory)
            battle = NetworkBattle(folder: folder, device: device, player: "p", catalog: Catalog(schools: [], source: .starter),
                                   catalogETag: nil, board: BoardMirror(), outbox: outbox)
        }

        /// The same installation's game started again after a crash: the outbox as on disk.
        func restarted(servers: [ServerAddress]) throws -> Client {
            try Client(battle: battle.folder.battle, servers: servers, outbox: try battle.folder.outbox.load(), directory: directory)
        }

        /// Taps as a player makes them: a batch at most every half second (the server's judge
        /// refuses a dozen taps claimed within a millisecond).
        func tap(_ taps: UInt64, first: Bool = false) async throws {
            try await Task.sleep(for: .milliseconds(500))
            battle.submit(PendingChanges(player: "p", scoreDeltas: [school: taps], playerTaps: taps, bestTapsPerSecond: 5,
                                         switchedToSchool: first ? school : nil))
        }

        /// Waits until every tap handed over is acknowledged (`timeout` seconds at most).
        func delivered(timeout: TimeInterval = 30) async throws -> Bool {
            battle.queue.sync {} // the taps handed over are in the outbox
            return try await Wait.until(timeout: timeout) {
                try battle.waitingTaps == 0 && battle.folder.outbox.load().batches.isEmpty
            }
        }

        func events() -> [GameEvent] { battle.takeEvents() }
    }

    /// A game played on `server` (listening on `port`): 5 taps delivered, then `backUp` (the
    /// store as it is with the device's batch 1 applied), 7 taps delivered, and the server
    /// stopped. The client, still running, and the server's battle.
    static func playThroughABackup(on server: ServerProcess, port: Int, backUp: () throws -> Void) async throws -> (Client, battle: String) {
        let address = ServerAddress(secure: false, host: "127.0.0.1", port: port)
        let battleID = try await HTTP.battle(server)
        let client = try Client(battle: battleID, servers: [address])
        client.battle.start()
        try await client.tap(5, first: true)
        #expect(try await client.delivered())
        try backUp()
        try await client.tap(7)
        #expect(try await client.delivered())
        #expect(try await HTTP.scores(server).scores == [Self.school: 12])
        server.signal(SIGTERM)
        // Within the server's own bound for a graceful stop (25 s): what is kept is tested here,
        // not how fast a loaded machine stops.
        #expect(server.waitForExit(timeout: 30) == 0)
        return (client, battleID)
    }

    @Test func theEmbeddedStoreRestoredMidPlayCountsEveryWaitingTapOnceEvenThroughAFailedSaveAndACrash() async throws {
        let data = TemporaryDirectory().path
        let port = try freePort()
        var server = try ServerProcess.start(dataDirectory: data, arguments: ["--port", "\(port)"])
        defer { server.stop() }
        let address = ServerAddress(secure: false, host: "127.0.0.1", port: port)
        // The backup, taken while the server runs.
        let backup = "\(TemporaryDirectory().path)/battle-backup.sqlite"
        let (client, battleID) = try await Self.playThroughABackup(on: server, port: port) {
            try sqlite3("\(data)/battle.sqlite", ".backup \(backup)")
        }

        // 11 and 13 taps wait as batches 3 and 4; the store is restored.
        try await client.tap(11)
        try await client.tap(13)
        #expect(try await Wait.until(timeout: 30) { client.battle.waitingTaps == 24 })
        try sqlite3("\(data)/battle.sqlite", ".restore \(backup)")

        // Back up, with the client's disk full: the welcome (last number 1) renumbers 3 and 4 as
        // 2 and 3, which cannot be saved, so nothing is sent and the game says why.
        client.disk.isFull = true
        server = try ServerProcess.start(dataDirectory: data, arguments: ["--port", "\(port)"])
        #expect(try await HTTP.battle(server) == battleID)
        var seen: [GameEvent] = []
        // The game's attempt that met the stopping server may wait out its handshake deadline
        // (15 s) before it tries this one: a minute at most on a loaded machine.
        #expect(try await Wait.until(timeout: 60) {
            seen += client.events()
            return seen.contains(.connectionChanged(.cannotSaveOutbox(waitingTaps: 24)))
        }, "the game's events: \(seen); its connection: \(client.battle.connectionPhase); the server's log: \(server.errors.suffix(4_000)); stacks: \(ThreadStacks.ofThisProcess())")
        try await Task.sleep(for: .seconds(1))
        #expect(try await HTTP.scores(server).scores == [Self.school: 5], "nothing renumbered was sent unsaved")
        #expect(try client.battle.folder.outbox.load().batches.map(\.seq) == [3, 4])

        // A crash (no goodbye), then the game again on a working disk: 24 taps counted once.
        // (Ending the game at once: nothing more is sent, and the outbox on disk is as it was.)
        _ = client.battle.finish(timeoutNanoseconds: 0)
        let again = try client.restarted(servers: [address])
        again.battle.start()
        #expect(try await again.delivered())
        #expect(try await HTTP.scores(server).scores == [Self.school: 5 + 11 + 13],
                "the 7 taps applied after the backup are lost with the restore; the waiting ones count once")
        // Played on: the numbers follow the server's.
        try await again.tap(2)
        #expect(try await again.delivered())
        #expect(try await HTTP.scores(server).scores == [Self.school: 31])
        #expect(again.battle.finish(timeoutNanoseconds: 2_000_000_000))
    }

    @Test func aPostgresDatabaseRestoredFromADumpMidPlayCountsEveryWaitingTapOnce() async throws {
        let cluster = try PostgresCluster.freshDatabase()
        defer { cluster.stop() }
        let port = try freePort()
        var server = try ServerProcess.start(arguments: ["--postgres", cluster.url, "--port", "\(port)"])
        defer { server.stop() }
        let dump = "\(cluster.directory)/battle.dump"
        let (client, battleID) = try await Self.playThroughABackup(on: server, port: port) { try cluster.dump(to: dump) }
        try await client.tap(11)
        #expect(try await Wait.until(timeout: 30) { client.battle.waitingTaps == 11 })
        // The database restored from the dump, as an operator would: dropped, made again, loaded.
        try cluster.restore(from: dump)
        #expect(try cluster.psql("SELECT battle FROM touchschool_battle") == battleID)

        server = try ServerProcess.start(arguments: ["--postgres", cluster.url, "--port", "\(port)"])
        // The game may be waiting out an attempt's handshake deadline (15 s) when the server comes
        // back, and a loaded machine (the whole suite beside it) slows every step: a minute at most.
        #expect(try await client.delivered(timeout: 60), "its connection: \(client.battle.connectionPhase); the server's log: \(server.errors.suffix(4_000)); stacks: \(ThreadStacks.ofThisProcess())")
        #expect(try await HTTP.scores(server).scores == [Self.school: 5 + 11])
        #expect(try cluster.psql("SELECT last_seq FROM touchschool_devices") == "2")
        try await client.tap(3)
        #expect(try await client.delivered())
        #expect(try await HTTP.scores(server).scores == [Self.school: 19])
        #expect(client.battle.finish(timeoutNanoseconds: 2_000_000_000))
    }
}

