#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolClient
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore

/// A fresh directory under the system's temporary directory, removed by `remove()`.
@Suite(.onOwnThreads) struct OutboxTests {
    func changes(_ taps: UInt64, school: String = "S1", switched: Bool = false) -> PendingChanges {
        PendingChanges(player: "p", scoreDeltas: [school: taps], playerTaps: taps, bestTapsPerSecond: 7,
                       switchedToSchool: switched ? school : nil)
    }

    @Test func batchesAreNumberedOneTwoThreeAndEmptyChangesMakeNone() {
        var outbox = Outbox()
        #expect(outbox.append(PendingChanges(player: "p"), startMs: 0, endMs: 500) == nil)
        let first = outbox.append(changes(3, switched: true), startMs: 0, endMs: 500)
        let second = outbox.append(changes(4), startMs: 500, endMs: 1000)
        #expect(first?.seq == 1)
        #expect(first?.switchedToSchool == "S1")
        #expect(first?.taps == ["S1": 3])
        #expect(second?.seq == 2)
        #expect(second?.startMs == 500 && second?.endMs == 1000)
        #expect(outbox.waitingTaps == 7)
        #expect(outbox.nextSeq == 3)
    }

    @Test func anAckRemovesItsBatchAndThoseBeforeItAndNumbersAreNeverReused() {
        var outbox = Outbox()
        for taps in 1...4 { outbox.append(changes(UInt64(taps)), startMs: 0, endMs: 1) }
        #expect(outbox.acknowledge(2)?.seq == 2)
        #expect(outbox.batches.map(\.seq) == [3, 4])
        #expect(outbox.acknowledge(2) == nil)
        outbox.acknowledge(4)
        #expect(outbox.batches.isEmpty)
        #expect(outbox.append(changes(1), startMs: 1, endMs: 2)?.seq == 5)
    }

    @Test func aWelcomeDropsWhatTheServerHasAndRenumbersWhenTheNumbersDoNotFollowOn() {
        var outbox = Outbox()
        for taps in 1...4 { outbox.append(changes(UInt64(taps)), startMs: 0, endMs: 1) }
        outbox.serverApplied(upTo: 2)
        #expect(outbox.batches.map(\.seq) == [3, 4])
        #expect(outbox.nextSeq == 5)
        // The server lost its data: it knows nothing of this device.
        outbox.serverApplied(upTo: 0)
        #expect(outbox.batches.map(\.seq) == [1, 2])
        #expect(outbox.batches.map(\.playerTaps) == [3, 4])
        #expect(outbox.nextSeq == 3)
        // This outbox was made again while the server knows the device up to 10.
        outbox.serverApplied(upTo: 10)
        #expect(outbox.batches.isEmpty)
        #expect(outbox.nextSeq == 11)
        #expect(outbox.append(changes(1), startMs: 1, endMs: 2)?.seq == 11)
    }

    @Test func theOutboxSurvivesAKillAsWritten() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = OutboxFile(path: "\(directory.path)/outbox.json")
        #expect(try file.load() == Outbox())
        var outbox = Outbox()
        outbox.append(changes(5, switched: true), startMs: 100, endMs: 600)
        outbox.append(changes(6), startMs: 600, endMs: 1100)
        try file.save(outbox)
        // A new process reads what the killed one wrote.
        let reopened = try OutboxFile(path: file.path).load()
        #expect(reopened == outbox)
        var acknowledged = reopened
        acknowledged.acknowledge(1)
        try file.save(acknowledged)
        let again = try OutboxFile(path: file.path).load()
        #expect(again.batches.map(\.seq) == [2])
        #expect(again.nextSeq == 3)
        // No temporary file is left beside it.
        #expect(FileIO.list(directory.path) == ["outbox.json"])
    }

    @Test func aDamagedOutboxIsAnErrorNotAnEmptyOne() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = "\(directory.path)/outbox.json"
        try FileSystem.live.replaceAtomically(path, with: Array("{\"outbox\": ".utf8))
        #expect(throws: OutboxError.self) { try OutboxFile(path: path).load() }
    }
}

@Suite(.onOwnThreads) struct DeviceKeyTests {
    func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func aKeyIsMadeOnceWith43Base64URLCharactersAndMode0600() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let data = "\(directory.path)/data"
        let key = try DeviceKey.loadOrCreate(dataDirectory: data)
        #expect(key.count == 43)
        #expect(key.utf8.count == BattleRules.madeDeviceKeyLength && BattleRules.isValidDeviceKey(key))
        let path = DeviceKey.path(inDataDirectory: data)
        #expect(mode(path) == 0o600)
        #expect(try DeviceKey.loadOrCreate(dataDirectory: data) == key)
        #expect(FileIO.list(data) == ["device.key"])
        let other = TemporaryDirectory()
        defer { other.remove() }
        #expect(try DeviceKey.loadOrCreate(dataDirectory: other.path) != key)
    }

    @Test func aKeyOthersCanReadIsMadePrivate() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = try DeviceKey.loadOrCreate(dataDirectory: directory.path)
        let path = DeviceKey.path(inDataDirectory: directory.path)
        chmod(path, 0o644)
        #expect(try DeviceKey.loadOrCreate(dataDirectory: directory.path) == key)
        #expect(mode(path) == 0o600)
    }

    @Test func aFileThatIsNotAKeyIsRefusedNotReplaced() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = DeviceKey.path(inDataDirectory: directory.path)
        try FileSystem.live.replaceAtomically(path, with: Array("not a key\n".utf8))
        #expect(throws: DeviceKeyError.self) { try DeviceKey.loadOrCreate(dataDirectory: directory.path) }
        #expect(try FileIO.read(path) == Array("not a key\n".utf8))
    }
}

@Suite(.onOwnThreads) struct ServerAddressTests {
    @Test func theFourSchemesAndABareHost() throws {
        let plain = try ServerAddress(parsing: "http://127.0.0.1:8080")
        #expect(plain == ServerAddress(secure: false, host: "127.0.0.1", port: 8080))
        #expect(plain.httpBase == "http://127.0.0.1:8080")
        #expect(plain.playURL == "ws://127.0.0.1:8080/v1/play")
        #expect(plain.directoryName == "127.0.0.1_8080")
        #expect(try ServerAddress(parsing: "ws://Example.org:9000/") == ServerAddress(secure: false, host: "example.org", port: 9000))
        #expect(try ServerAddress(parsing: "https://example.org") == ServerAddress(secure: true, host: "example.org", port: 443))
        let secure = try ServerAddress(parsing: "wss://example.org:8443/v1/play")
        #expect(secure.playURL == "wss://example.org:8443/v1/play")
        #expect(secure.httpBase == "https://example.org:8443")
        #expect(try ServerAddress(parsing: "school.local:8080") == ServerAddress(secure: false, host: "school.local", port: 8080))
        #expect(try ServerAddress(parsing: "http://school.local").port == 80)
    }

    @Test func ipv6InBrackets() throws {
        let address = try ServerAddress(parsing: "http://[::1]:8080")
        #expect(address.host == "::1")
        #expect(address.httpBase == "http://[::1]:8080")
        #expect(address.playURL == "ws://[::1]:8080/v1/play")
        #expect(address.directoryName == "__1_8080")
    }

    @Test func badURLsSayWhatIsWrong() {
        for (input, words) in [
            ("", "empty"), ("ftp://host:21", "scheme"), ("http://:8080", "host is missing"), ("http://host:0", "port"),
            ("http://host:99999", "port"), ("http://host:80x", "port"), ("http://host:8080/scores", "only the scheme"),
            ("http://user@host:8080", "only the scheme"), ("http://ho st:8080", "host may hold"), ("http://::1:8080", "brackets"),
            ("http://[::1:8080", "]"),
        ] {
            #expect(throws: ServerAddressError.self, "\(input)") { try ServerAddress(parsing: input) }
            do {
                _ = try ServerAddress(parsing: input)
            } catch {
                #expect(error.description.contains(words), "\(input): \(error)")
            }
        }
    }
}

@Suite(.onOwnThreads) struct BoardMirrorTests {
    static let catalog = Catalog(schools: [
        School(id: "S1", name: "서울고등학교", level: .high, province: "서울특별시", district: "서초구", address: ""),
        School(id: "S2", name: "휘문고등학교", level: .high, province: "서울특별시", district: "강남구", address: ""),
    ], source: .starter)

    /// A view of S1 at 100, second nationally behind S9 and ahead of S2.
    static let view = SchoolViewMessage(
        version: 3, school: "S1", total: 100,
        ranks: [Standing(rank: 2, size: 3, gap: 6), Standing(rank: 1, size: 2, gap: nil), Standing(rank: 1, size: 2, gap: nil),
                Standing(rank: 1, size: 2, gap: nil)],
        above: [RankedRow(rank: 1, school: "S9", total: 106)], below: [RankedRow(rank: 3, school: "S2", total: 50)],
        top: [RankedRow(rank: 1, school: "S9", total: 106), RankedRow(rank: 2, school: "S1", total: 100), RankedRow(rank: 3, school: "S2", total: 50)])

    @Test func theGameSeesTheViewsTotalsPlusEveryWaitingTap() {
        var mirror = BoardMirror()
        mirror.take(Welcome(battle: "client-tests-battle", lastSeq: 0, player: PlayerState(schoolID: "S1", taps: 20, bestTapsPerSecond: 5), catalog: "c1"))
        mirror.take(Self.view)
        #expect(mirror.scores == ["S1": 100, "S2": 50, "S9": 106])
        var outbox = Outbox()
        outbox.append(PendingChanges(player: "p", scoreDeltas: ["S1": 4], playerTaps: 4, bestTapsPerSecond: 6), startMs: 0, endMs: 1)
        let board = mirror.board(adding: outbox, catalog: Self.catalog, generation: 2, player: "p")
        #expect(board.catalogGeneration == 2)
        #expect(board.counts == [104, 50])
        #expect(board.player == PlayerRecord(schoolID: "S1", taps: 24, bestTapsPerSecond: 6))
        // A switch in the outbox restarts my count at the new school.
        outbox.append(PendingChanges(player: "p", scoreDeltas: ["S2": 2], playerTaps: 2, bestTapsPerSecond: 6, switchedToSchool: "S2"),
                      startMs: 1, endMs: 2)
        let switched = mirror.board(adding: outbox, catalog: Self.catalog, generation: 2, player: "p")
        #expect(switched.counts == [104, 52])
        #expect(switched.player == PlayerRecord(schoolID: "S2", taps: 2, bestTapsPerSecond: 6))
    }

    @Test func anAcknowledgedBatchMovesFromTheOutboxToTheBoardAndTheNextViewsTotalsReplace() {
        var mirror = BoardMirror(scores: ["S1": 10], player: PlayerState(schoolID: "S1", taps: 10, bestTapsPerSecond: 3))
        var outbox = Outbox()
        outbox.append(PendingChanges(player: "p", scoreDeltas: ["S1": 5], playerTaps: 5, bestTapsPerSecond: 4), startMs: 0, endMs: 1)
        let before = mirror.board(adding: outbox, catalog: Self.catalog, generation: 0, player: "p")
        let batch = outbox.acknowledge(1)
        mirror.acknowledged(Acknowledgement(seq: 1, accepted: 5, refused: 0, player: PlayerState(schoolID: "S1", taps: 15, bestTapsPerSecond: 4)), batch: batch)
        let after = mirror.board(adding: outbox, catalog: Self.catalog, generation: 0, player: "p")
        #expect(after == before)
        #expect(mirror.scores == ["S1": 15])
        mirror.take(Self.view)
        #expect(mirror.scores == ["S1": 100, "S2": 50, "S9": 106])
        mirror.take(PageMessage(version: 4, league: LeagueName(level: "high"), from: 1, size: 3,
                                rows: [RankedRow(rank: 2, school: "S1", total: 101), RankedRow(rank: 3, school: "S2", total: 51)]))
        #expect(mirror.scores == ["S1": 101, "S2": 51, "S9": 106])
    }

    /// The game reads the views by catalog position, each league named as `League.leagues(of:)`
    /// orders them; a school the catalog does not have (S9) is left out of the rows.
    @Test func theViewsAreReadByCatalogPosition() throws {
        let page = PageMessage(version: 4, league: LeagueName(level: "high", province: "서울특별시"), from: 5, size: 40,
                               rows: [RankedRow(rank: 6, school: "S2", total: 50), RankedRow(rank: 7, school: "S1", total: 49)])
        let mirror = BoardMirror(view: Self.view, page: page)
        let views = mirror.views(in: Self.catalog)
        try #require(views.count == 2)
        guard case let .school(school) = views[0], case let .page(read) = views[1] else {
            Issue.record("views: \(views)")
            return
        }
        #expect(school.school == 0)
        #expect(school.count == 100)
        #expect(school.national == LeagueStanding(league: .national, rank: 2, size: 3, gap: 6))
        #expect(school.standings.map(\.league) == League.leagues(of: Self.catalog[0]))
        #expect(school.above.isEmpty)
        #expect(school.below == [RankedSchool(position: 1, rank: 3, count: 50)])
        #expect(school.top.map(\.position) == [0, 1])
        #expect(read.league == .levelInProvince(.high, "서울특별시"))
        #expect(read.places == 5..<7)
        #expect(read.size == 40)
        #expect(read.rows == [RankedSchool(position: 1, rank: 6, count: 50), RankedSchool(position: 0, rank: 7, count: 49)])
        #expect(Watch(PageWatch(league: .levelInProvince(.high, "서울특별시"), places: 5..<25))
                == Watch(league: LeagueName(level: "high", province: "서울특별시"), from: 5, count: 20))
        #expect(Watch(nil).league == nil)
        // A terminal taller than a page asks for the most a server sends.
        #expect(Watch(PageWatch(league: .national, places: 0..<500)).count == Watch.maximumCount)
    }

    @Test func refusedTapsAreNotAddedAndTheServersPlayerWins() {
        var mirror = BoardMirror(scores: ["S1": 10], player: nil)
        let batch = TapBatch(seq: 1, taps: ["S1": 500], playerTaps: 500, bestTapsPerSecond: 40, startMs: 0, endMs: 500)
        mirror.acknowledged(Acknowledgement(seq: 1, accepted: 30, refused: 470, player: PlayerState(schoolID: "S1", taps: 30, bestTapsPerSecond: 9)), batch: batch)
        #expect(mirror.scores["S1"] == 10)
        #expect(mirror.player == PlayerState(schoolID: "S1", taps: 30, bestTapsPerSecond: 9))
    }
}
