#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import Testing
import TouchSchoolOutbox
import TouchSchoolTestSupport
@testable import TouchSchoolClient
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore

/// The network battle with no server to talk to: every submit is answered at once, in order,
/// the taps are kept durably, and the game is told it is offline with how many taps wait.
@Suite(.onOwnThreads) struct NetworkBattleOfflineTests {
    static let catalog = BoardMirrorTests.catalog

    /// Sleeps without holding a thread of the cooperative pool: the connection task needs one.
    func events(of battle: NetworkBattle, until done: ([GameEvent]) -> Bool) async throws -> [GameEvent] {
        var all: [GameEvent] = []
        for _ in 0..<1000 {
            all += battle.takeEvents()
            if done(all) { break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        return all
    }

    /// Offline, the game is shown the last views kept, and the totals they named.
    @Test func offlineEverySubmitIsAnsweredInOrderAndKept() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = ServerAddress(secure: false, host: "127.0.0.1", port: try freePort())
        let folder = BattleFolder(dataDirectory: directory.path, battle: "offline-battle-0001", servers: [server])
        let battle = NetworkBattle(folder: folder, device: String(repeating: "A", count: 43), player: "p", catalog: Self.catalog,
                                   catalogETag: nil, board: BoardMirror(scores: ["S2": 9], view: BoardMirrorTests.view),
                                   outbox: Outbox())
        let kept = try #require(SchoolView(BoardMirrorTests.view, in: Self.catalog))
        #expect(battle.takeEvents() == [.viewed(.school(kept), catalogGeneration: 0)])
        battle.start()
        battle.submit(PendingChanges(player: "p", scoreDeltas: ["S1": 3], playerTaps: 3, bestTapsPerSecond: 2, switchedToSchool: "S1"))
        battle.submit(PendingChanges(player: "p"))
        battle.submit(PendingChanges(player: "p", scoreDeltas: ["S1": 2], playerTaps: 2, bestTapsPerSecond: 2))
        let all = try await events(of: battle) { events in
            events.contains(.connectionChanged(.offline(waitingTaps: 5))) && events.filter { if case .synced = $0 { true } else { false } }.count == 3
        }
        let answers = all.compactMap { event -> SyncedBoard?? in if case let .synced(board) = event { board } else { nil } }
        #expect(answers.count == 3)
        #expect(answers[0]?.counts == [3, 9])
        #expect(answers[1] == .some(nil)) // nothing changed in between
        #expect(answers[2]?.counts == [5, 9])
        #expect(answers[2]?.player == PlayerRecord(schoolID: "S1", taps: 5, bestTapsPerSecond: 2))
        #expect(all.contains(.connectionChanged(.offline(waitingTaps: 5))))
        #expect(battle.finish(timeoutNanoseconds: 1_000_000_000))
        // Kept for the next game.
        let outbox = try folder.outbox.load()
        #expect(outbox.batches.map(\.seq) == [1, 2])
        #expect(outbox.waitingTaps == 5)
        #expect(outbox.batches[0].switchedToSchool == "S1")
        #expect(outbox.batches[1].startMs >= outbox.batches[0].endMs)
        #expect(folder.cachedBoard()?.view == BoardMirrorTests.view)
        #expect(battle.waitingTaps == 5)
        #expect(battle.startingState.scores == ["S1": 5, "S2": 9])
    }

    /// A server that takes the connection, reads the upgrade request and closes its side without
    /// a word (as a server shutting down closes a connection it has not answered yet): the game
    /// is offline within the handshake's deadline and tries again, never "connecting" for ever.
    /// The WebSocket client keeps a half-closed connection open and waits for an answer that
    /// cannot come.
    @Test func aServerThatClosesWithoutAnsweringLeavesTheGameOfflineNotConnectingForEver() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer {
            // Wakes the accepting thread (closing alone does not), which then ends.
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 && listen(listener, 16) == 0
            }
        }
        try #require(bound)
        // Each connection: its request read, its sending side shut, the socket kept open.
        let held = Mutex<[Int32]>([])
        defer { held.withLock { $0.forEach { close($0) } } }
        let accepting = Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                shutdown(connection, Int32(SHUT_WR))
                held.withLock { $0.append(connection) }
            }
        }
        accepting.start()

        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = ServerAddress(secure: false, host: "127.0.0.1", port: Int(UInt16(bigEndian: address.sin_port)))
        let folder = BattleFolder(dataDirectory: directory.path, battle: "silent-battle-0001", servers: [server])
        // The handshake's deadline shortened (15 s in play), not waited out.
        let handshake = 2.0
        let battle = NetworkBattle(folder: folder, device: String(repeating: "B", count: 43), player: "p", catalog: Self.catalog,
                                   catalogETag: nil, board: BoardMirror(), outbox: Outbox(), handshakeSeconds: handshake)
        let start = Date()
        battle.start()
        var all: [GameEvent] = []
        while !all.contains(.connectionChanged(.offline(waitingTaps: 0))), Date().timeIntervalSince(start) < handshake + 15 {
            all += battle.takeEvents()
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(all.contains(.connectionChanged(.offline(waitingTaps: 0))), "events: \(all)")
        #expect(held.withLock { $0.count } >= 1, "the game never reached the server")
        _ = battle.finish(timeoutNanoseconds: 0)
    }
}
