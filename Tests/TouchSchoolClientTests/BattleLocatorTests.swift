import Foundation
import Testing
@testable import TouchSchoolClient
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolStore
import TouchSchoolTestSupport

/// Where a data directory keeps a battle: found by asking the servers, else by what each address
/// remembers; and what a version before battle identities kept per address, moved in once.
@Suite(.onOwnThreads) struct BattleLocatorTests {
    static let battle = "3f2a9c0d8e7b4a1f9c2d3e4f5a6b7c8d"
    static let byAddress = ServerAddress(secure: false, host: "127.0.0.1", port: 8080)
    static let byName = ServerAddress(secure: false, host: "localhost", port: 8080)

    static func batch(_ seq: UInt64, taps: UInt64, at ms: Int64) -> TapBatch {
        TapBatch(seq: seq, taps: ["S1": taps], playerTaps: taps, bestTapsPerSecond: 3, startMs: ms, endMs: ms + 500)
    }

    /// What an earlier version left in an address's folder.
    static func legacy(_ locator: BattleLocator, _ server: ServerAddress, _ outbox: Outbox, board: Bool = false) throws {
        let folder = locator.addressFolder(server)
        try FileIO.createDirectory(folder)
        try OutboxFile(path: "\(folder)/outbox.json").save(outbox)
        if board { try FileSystem.live.replaceAtomically("\(folder)/board.json", with: Array(#"{"version":3,"scores":{"S1":9}}"#.utf8)) }
    }

    @Test func aServerThatAnswersIsRememberedAndTheMemoryServesWhenNoneAnswers() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let locator = BattleLocator(dataDirectory: directory.path)
        let down: (ServerAddress) throws(ServerRequestError) -> String = { server throws(ServerRequestError) in
            throw ServerRequestError(description: "cannot reach the server at \(server): connection refused")
        }
        #expect(locator.locate([Self.byAddress], ask: down) == .unknown(why: "cannot reach the server at http://127.0.0.1:8080: connection refused", failure: nil))
        #expect(locator.locate([Self.byName, Self.byAddress], ask: { _ in Self.battle }) == .answered(battle: Self.battle, by: Self.byName))
        #expect(locator.rememberedBattle(at: Self.byName) == Self.battle)
        #expect(locator.rememberedBattle(at: Self.byAddress) == nil, "only the address that answered")
        guard case let .remembered(battle, _) = locator.locate([Self.byAddress, Self.byName], ask: down) else {
            Issue.record("the battle remembered for localhost was not found")
            return
        }
        #expect(battle == Self.battle)
        // A link that is not a battle identity is not one.
        try FileSystem.live.replaceAtomically("\(locator.addressFolder(Self.byName))/battle", with: Array("../../etc\n".utf8))
        #expect(locator.rememberedBattle(at: Self.byName) == nil)
    }

    @Test func anEarlierVersionsOutboxesMoveInOnceEachTheSecondNumberedAfterTheFirst() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let locator = BattleLocator(dataDirectory: directory.path)
        // Both numbered under the one device key: 3 and 4 through the address, 2 through the name.
        let first = Outbox(nextSeq: 5, batches: [Self.batch(3, taps: 4, at: 1_000), Self.batch(4, taps: 6, at: 2_000)])
        let second = Outbox(nextSeq: 3, batches: [Self.batch(2, taps: 7, at: 3_000)])
        try Self.legacy(locator, Self.byAddress, first, board: true)
        try Self.legacy(locator, Self.byName, second)
        let folder = BattleFolder(dataDirectory: directory.path, battle: Self.battle, servers: [Self.byName, Self.byAddress])

        #expect(try locator.adoptLegacy(of: Self.byAddress, into: folder) == 10)
        // The first moves as it is: the server tells by its numbers what it applied.
        #expect(try folder.outbox.load() == first)
        #expect(folder.cachedBoard()?.scores == ["S1": 9])
        #expect(!FileIO.exists("\(locator.addressFolder(Self.byAddress))/outbox.json"))
        #expect(!FileIO.exists("\(locator.addressFolder(Self.byAddress))/board.json"))

        #expect(try locator.adoptLegacy(of: Self.byName, into: folder) == 7)
        let merged = try folder.outbox.load()
        #expect(merged.batches.map(\.seq) == [3, 4, 5])
        #expect(merged.nextSeq == 6)
        #expect(merged.batches[2].taps == ["S1": 7] && merged.batches[2].startMs == 3_000)
        #expect(!FileIO.exists("\(locator.addressFolder(Self.byName))/outbox.json"))

        // A crash after the merged outbox was saved and before the old one was removed: the old
        // one is found merged already and only removed.
        try Self.legacy(locator, Self.byName, second)
        #expect(try locator.adoptLegacy(of: Self.byName, into: folder) == 7)
        #expect(try folder.outbox.load() == merged)
        #expect(!FileIO.exists("\(locator.addressFolder(Self.byName))/outbox.json"))
        // Nothing left to move.
        #expect(try locator.adoptLegacy(of: Self.byName, into: folder) == 0)
    }

    @Test func nothingMovesWhileAnEarlierVersionsGamePlaysOnTheAddress() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let locator = BattleLocator(dataDirectory: directory.path)
        let first = Outbox(nextSeq: 2, batches: [Self.batch(1, taps: 4, at: 1_000)])
        try Self.legacy(locator, Self.byAddress, first)
        let playing = try #require(try FileSystem.live.tryLock("\(locator.addressFolder(Self.byAddress))/play.lock"))
        let folder = BattleFolder(dataDirectory: directory.path, battle: Self.battle, servers: [Self.byAddress])
        #expect(try locator.adoptLegacy(of: Self.byAddress, into: folder) == 0)
        #expect(try OutboxFile(path: "\(locator.addressFolder(Self.byAddress))/outbox.json").load() == first)
        playing.release()
        #expect(try locator.adoptLegacy(of: Self.byAddress, into: folder) == 4)
        #expect(try folder.outbox.load() == first)
    }
}
