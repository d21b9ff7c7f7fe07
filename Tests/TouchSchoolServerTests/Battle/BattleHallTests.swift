import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// The battle's rules as a value: events in, effects out, the time passed in. No socket, no
/// store, no clock: every store answer is written here by hand.
@Suite struct BattleHallTests {
    static let t0 = ContinuousClock.now
    static func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }

    static let catalog = try! CatalogResource(bytes: CatalogFile.encode(storeTestCatalog), source: "test")
    static let battleID = "hall-test-battle-0001"

    /// A hall sending its views in `slices` (1: every view at each tick, as the tests of what a
    /// view holds and when it goes expect; `BattleHallSlicesTests` has the standard's).
    static func hall(board: StoredBoard = StoredBoard(version: 0, scores: [:]), devicesStored: Int = 0,
                     maximumDevices: Int = .max, readsRounds: Bool = false, slices: Int = 1) -> BattleHall {
        BattleHall(battleID: battleID, catalog: catalog, board: board, histories: TapJudges(addresses: .standard),
                   devicesStored: devicesStored, maximumDevices: maximumDevices, readsRounds: readsRounds, slices: slices, now: t0)
    }

    static func batch(_ connection: ConnectionID, _ device: String, seq: UInt64, taps: UInt64) -> ReceivedBatch {
        ReceivedBatch(connection: connection, device: device, player: "p", batch: TapBatch(
            seq: seq, taps: ["A": taps], playerTaps: taps, switchedToSchool: seq == 1 ? "A" : nil, bestTapsPerSecond: 5, startMs: 0, endMs: 100))
    }

    static func ack(_ seq: UInt64, _ taps: UInt64) -> Acknowledgement {
        Acknowledgement(seq: seq, accepted: taps, refused: 0, player: PlayerState(schoolID: "A", taps: taps, bestTapsPerSecond: 5))
    }

    /// A saved window as a store would answer it: these outcomes, this board.
    static func saved(_ outcomes: [BatchOutcome], board: StoredBoard, newDevices: Int = 0) -> Result<CommittedWindow, BattleStoreError> {
        let accepted = outcomes.reduce(UInt64(0)) { if case let .acknowledged(ack) = $1 { $0 + ack.accepted } else { $0 } }
        return .success(CommittedWindow(rules: CommitRules.Result(outcomes: outcomes, changedSchools: Set(board.scores.keys),
                                                                  accepted: accepted, newDevices: newDevices),
                                        histories: TapJudges(addresses: .standard), board: board))
    }

    /// A player connected as `id` and welcomed for `device` (never seen by the store).
    static func welcomed(_ hall: inout BattleHall, _ id: ConnectionID, _ device: String, at ms: Int = 0) {
        _ = hall.update(.connect(id), now: at(ms))
        _ = hall.update(.hello(id, device: device), now: at(ms))
        _ = hall.update(.deviceRead(id, device: device, .success(nil)), now: at(ms))
        #expect(hall.connections[id]?.device == device)
    }

    // MARK: - Reading effects

    /// Whether `message` is the view of `school` with that total.
    static func isView(_ message: ServerMessage?, of school: String, total: UInt64) -> Bool {
        if case let .schoolView(view)? = message { view.school == school && view.total == total } else { false }
    }

    static func commits(_ effects: [BattleHall.Effect]) -> [[ReceivedBatch]] {
        effects.compactMap { if case let .commit(batches, _, _) = $0 { batches } else { nil } }
    }

    /// The messages sent, decoded, with their connection; a close frame as its reason.
    static func sent(_ effects: [BattleHall.Effect]) -> [Sent] {
        effects.compactMap {
            guard case let .send(message, id) = $0 else { return nil }
            switch message {
            case let .text(text): return Sent(to: id, message: try? MessageCoding.decodeServer(text), close: nil, text: text)
            case let .close(code, _): return Sent(to: id, message: nil, close: code, text: nil)
            }
        }
    }

    struct Sent: Equatable {
        var to: ConnectionID
        var message: ServerMessage?
        var close: UInt16?
        var text: String?
    }

    static func wakes(_ effects: [BattleHall.Effect]) -> [BattleHall.Alarm: ContinuousClock.Instant] {
        var wakes: [BattleHall.Alarm: ContinuousClock.Instant] = [:]
        for case let .wake(alarm, instant) in effects { wakes[alarm] = instant }
        return wakes
    }

    static func answers(_ effects: [BattleHall.Effect]) -> [ConnectionID: HelloOutcome] {
        var answers: [ConnectionID: HelloOutcome] = [:]
        for case let .answerHello(id, outcome) in effects { answers[id] = outcome }
        return answers
    }

    static func reads(_ effects: [BattleHall.Effect]) -> [ConnectionID] {
        effects.compactMap { if case let .readDevice(id, _, _) = $0 { id } else { nil } }
    }

    static func stops(_ effects: [BattleHall.Effect]) -> Bool {
        effects.contains { if case .stop = $0 { true } else { false } }
    }

    // MARK: - Commit windows

    @Test func batchesInOneWindowCommitTogetherAWindowAfterTheOldestArrived() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        Self.welcomed(&hall, 2, "device-2")
        let first = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(10))
        #expect(Self.commits(first).isEmpty)
        #expect(Self.wakes(first) == [.commit: Self.at(60)])
        let second = hall.update(.batch(Self.batch(2, "device-2", seq: 1, taps: 4)), now: Self.at(40))
        #expect(Self.commits(second).isEmpty && Self.wakes(second).isEmpty, "the window runs from the oldest batch")
        let due = hall.update(.alarm(.commit), now: Self.at(60))
        #expect(Self.commits(due).map { $0.map(\.device) } == [["device-1", "device-2"]])
        #expect(hall.commits.inFlight == ["device-1", "device-2"] && hall.commits.pending.isEmpty)
    }

    @Test func aCommitWaitsForTheOneUnderWayAndStartsAWindowAfterItStarted() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(0))
        #expect(Self.commits(hall.update(.alarm(.commit), now: Self.at(50))).count == 1)
        let meanwhile = hall.update(.batch(Self.batch(1, "device-1", seq: 2, taps: 2)), now: Self.at(52))
        #expect(Self.commits(meanwhile).isEmpty && Self.wakes(meanwhile).isEmpty, "one commit at a time")
        // The first is saved at 120 ms: the second batch has waited its window (52 + 50) and the
        // last commit started more than a window ago (50 + 50): it goes at once.
        let done = hall.update(.committed(Self.saved([.acknowledged(Self.ack(1, 3))], board: .init(version: 1, scores: ["A": 3]))),
                               now: Self.at(120))
        #expect(Self.commits(done).map { $0.map(\.batch.seq) } == [[2]])
    }

    @Test func fastCommitsFollowEachOtherNoSoonerThanAWindowApart() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(0))
        _ = hall.update(.alarm(.commit), now: Self.at(50))
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 2, taps: 2)), now: Self.at(51))
        let done = hall.update(.committed(Self.saved([.acknowledged(Self.ack(1, 3))], board: .init(version: 1, scores: ["A": 3]))),
                               now: Self.at(55))
        #expect(Self.commits(done).isEmpty)
        #expect(Self.wakes(done)[.commit] == Self.at(101), "the batch's window (51 + 50) is later than the last start's (50 + 50)")
    }

    @Test func aFullWindowIsSavedAtOnce() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        var effects: [BattleHall.Effect] = []
        for seq in 1...UInt64(BattleHall.commitBatchLimit) {
            effects = hall.update(.batch(Self.batch(1, "device-1", seq: seq, taps: 1)), now: Self.at(1))
        }
        #expect(Self.commits(effects).first?.count == BattleHall.commitBatchLimit)
    }

    // MARK: - Acknowledgements

    @Test func anAckGoesOutOnlyOnceItsCommitIsSaved() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        let received = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(0))
        let started = hall.update(.alarm(.commit), now: Self.at(50))
        #expect(Self.sent(received + started).isEmpty, "nothing acknowledged before the save")
        let done = hall.update(.committed(Self.saved([.acknowledged(Self.ack(1, 3))], board: .init(version: 1, scores: ["A": 3]))),
                               now: Self.at(250))
        #expect(Self.sent(done).first == Self.Sent(to: 1, message: .ack(Self.ack(1, 3)), close: nil,
                                                   text: MessageCoding.encode(.ack(Self.ack(1, 3)))))
        #expect(Self.sent(done).count == 2 && Self.isView(Self.sent(done).last?.message, of: "A", total: 3),
                "the ack, then the view of the school it switched to (the last broadcast is older than its interval)")
        #expect(hall.board(.allTime).0 == Board(version: 1, scores: ["A": 3]))
        #expect(done.contains { if case .measure(.taps(accepted: 3, refused: 0)) = $0 { true } else { false } })
    }

    @Test func aFailedCommitAcknowledgesNothingAndIsTriedAgainAfterTheRetryDelay() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(0))
        _ = hall.update(.alarm(.commit), now: Self.at(50))
        let failed = hall.update(.committed(.failure(BattleStoreError(message: "the disk is full"))), now: Self.at(60))
        #expect(Self.sent(failed).isEmpty)
        #expect(hall.lastSaveError == "the disk is full" && hall.commits.pending.map(\.batch.seq) == [1])
        #expect(Self.wakes(failed) == [.commit: Self.at(1_060)])
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 2, taps: 1)), now: Self.at(500))
        let retried = hall.update(.alarm(.commit), now: Self.at(1_060))
        #expect(Self.commits(retried).map { $0.map(\.batch.seq) } == [[1, 2]], "the failed batches first, then what came after")
        let done = hall.update(.committed(Self.saved([.acknowledged(Self.ack(1, 3)), .acknowledged(Self.ack(2, 4))],
                                                     board: .init(version: 1, scores: ["A": 4]))), now: Self.at(1_070))
        #expect(hall.lastSaveError == nil)
        #expect(done.contains { if case .log(.notice, "Saving works again", _) = $0 { true } else { false } })
    }

    @Test func aBatchOutOfOrderClosesItsConnectionAndWhatItSentAfterIsDropped() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 3, taps: 3)), now: Self.at(0))
        _ = hall.update(.alarm(.commit), now: Self.at(50))
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 4, taps: 3)), now: Self.at(55))
        let done = hall.update(.committed(Self.saved([.outOfOrder(expected: 1)], board: .init(version: 0, scores: [:]))), now: Self.at(60))
        #expect(Self.sent(done).map(\.close) == [nil, CloseCode.policyViolation])
        #expect(Self.sent(done).first?.message == .error(ProtocolError(code: CloseCode.policyViolation,
                                                                       message: "batch 3 out of order: expected 1")))
        #expect(hall.commits.pending.isEmpty && Self.commits(done).isEmpty)
        #expect(hall.update(.batch(Self.batch(1, "device-1", seq: 5, taps: 1)), now: Self.at(70)).isEmpty && hall.commits.pending.isEmpty,
                "the connection has no device any more")
    }

    // MARK: - Welcomes

    @Test func aHelloDuringACommitOfItsDeviceIsWelcomedAfterItWithTheSavedNumber() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(0))
        _ = hall.update(.alarm(.commit), now: Self.at(50))
        _ = hall.update(.connect(2), now: Self.at(55))
        let hello = hall.update(.hello(2, device: "device-1"), now: Self.at(55))
        #expect(Self.reads(hello).isEmpty && Self.answers(hello).isEmpty, "the number is not the truth before the save")
        let done = hall.update(.committed(Self.saved([.acknowledged(Self.ack(1, 3))], board: .init(version: 1, scores: ["A": 3]))),
                               now: Self.at(90))
        #expect(Self.reads(done) == [2])
        let record = DeviceRecord(lastSeq: 1, player: "p", lastEndMs: 100)
        let read = hall.update(.deviceRead(2, device: "device-1", .success((record, PlayerRecord(schoolID: "A", taps: 3, bestTapsPerSecond: 5)))),
                               now: Self.at(95))
        guard case let .welcome(text, _) = Self.answers(read)[2], case let .welcome(welcome) = try? MessageCoding.decodeServer(text) else {
            Issue.record("no welcome: \(read)")
            return
        }
        #expect(welcome == Welcome(battle: Self.battleID, lastSeq: 1,
                                   player: PlayerState(schoolID: "A", taps: 3, bestTapsPerSecond: 5), catalog: Self.catalog.etag))
        #expect(Self.sent(read) == [Self.Sent(to: 1, message: nil, close: CloseCode.normal, text: nil)],
                "the device's older connection is closed: the newest wins")
        #expect(hall.connections[1]?.device == nil && hall.connections.connectionOfDevice["device-1"] == 2)
    }

    @Test func aHelloWaitsWhileItsDevicesBatchesWaitForTheirWindow() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(0))
        _ = hall.update(.connect(2), now: Self.at(10))
        #expect(Self.reads(hall.update(.hello(2, device: "device-1"), now: Self.at(10))).isEmpty)
        _ = hall.update(.connect(3), now: Self.at(10))
        #expect(Self.reads(hall.update(.hello(3, device: "device-3"), now: Self.at(10))) == [3], "another device is read at once")
        #expect(Self.reads(hall.update(.batch(Self.batch(1, "device-1", seq: 2, taps: 1)), now: Self.at(20))).isEmpty)
        #expect(Self.reads(hall.update(.alarm(.commit), now: Self.at(50))).isEmpty, "its batches are being saved")
        let done = hall.update(.committed(Self.saved([.acknowledged(Self.ack(1, 3)), .acknowledged(Self.ack(2, 4))],
                                                     board: .init(version: 1, scores: ["A": 4]))), now: Self.at(60))
        #expect(Self.reads(done) == [2], "read once its device's batches are saved, not before")
    }

    @Test func aHelloIsReadAgainWhileTheStoreCannotBeRead() {
        var hall = Self.hall()
        _ = hall.update(.connect(1), now: Self.at(0))
        _ = hall.update(.hello(1, device: "device-1"), now: Self.at(0))
        let failed = hall.update(.deviceRead(1, device: "device-1", .failure(BattleStoreError(message: "down"))), now: Self.at(5))
        #expect(Self.answers(failed).isEmpty && hall.lastSaveError == "down")
        #expect(failed.contains { if case .readDevice(1, "device-1", after: BattleHall.retryDelay) = $0 { true } else { false } })
    }

    @Test func aFullBattleRefusesANewDeviceButWelcomesAKnownOne() {
        var hall = Self.hall(devicesStored: 2, maximumDevices: 2)
        _ = hall.update(.connect(1), now: Self.at(0))
        _ = hall.update(.hello(1, device: "new"), now: Self.at(0))
        let refused = hall.update(.deviceRead(1, device: "new", .success(nil)), now: Self.at(1))
        #expect(Self.answers(refused)[1] == .refused(ProtocolError(
            code: CloseCode.battleFull, message: "this battle takes no new players now: it holds its limit of 2 devices")))
        _ = hall.update(.connect(2), now: Self.at(0))
        _ = hall.update(.hello(2, device: "known"), now: Self.at(0))
        let known = hall.update(.deviceRead(2, device: "known", .success((DeviceRecord(lastSeq: 4, player: "p", lastEndMs: 0), PlayerRecord()))),
                                now: Self.at(1))
        guard case .welcome = Self.answers(known)[2] else { Issue.record("\(known)"); return }
    }

    @Test func aConnectionGoneBeforeItsWelcomeIsAnsweredGoingAway() {
        var hall = Self.hall()
        _ = hall.update(.connect(1), now: Self.at(0))
        _ = hall.update(.hello(1, device: "device-1"), now: Self.at(0))
        let gone = hall.update(.disconnect(1), now: Self.at(1))
        #expect(Self.answers(gone) == [1: .refused(BattleHall.goingAway)])
        #expect(hall.update(.deviceRead(1, device: "device-1", .success(nil)), now: Self.at(2)).isEmpty, "a late read is dropped")
    }

    // MARK: - The board

    /// The national top as a page stream shows it: one row, of 3 schools.
    static let top = BoardViewKey.page(.national, places: 0..<1)

    static func topEvent(version: UInt64, _ school: String, _ total: UInt64) -> String {
        BoardStream.event("page", json: MessageCoding.encodePage(PageMessage(version: version, league: LeagueName(), from: 0, size: 3,
                                                                            rows: [RankedRow(rank: 1, school: school, total: total)])))
    }

    @Test func changesGoOutAtMostABroadcastIntervalApartToPlayersAndPageStreams() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        let opened = hall.update(.streamPage(2, Self.top), now: Self.at(0))
        #expect(Self.sent(opened).isEmpty && Self.wakes(opened)[.broadcast] == Self.at(250), "its page at the next interval")
        _ = hall.update(.connect(3), now: Self.at(0))  // no hello yet: no view
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(0))
        _ = hall.update(.alarm(.commit), now: Self.at(50))
        let done = hall.update(.committed(Self.saved([.acknowledged(Self.ack(1, 3))], board: .init(version: 1, scores: ["A": 3]))),
                               now: Self.at(100))
        #expect(Self.sent(done).map(\.message) == [.ack(Self.ack(1, 3))], "the last broadcast (at the start) is 100 ms old")
        let due = hall.update(.alarm(.broadcast), now: Self.at(250))
        #expect(Self.sent(due).map(\.to) == [1, 2])
        #expect(Self.isView(Self.sent(due).first?.message, of: "A", total: 3), "the player, its school's view")
        #expect(Self.sent(due).last?.text == Self.topEvent(version: 1, "A", 3))
    }

    @Test func aPlayerWatchingAPageIsSentItAgainWhenItChanges() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        Self.welcomed(&hall, 2, "device-2")
        _ = hall.update(.watch(2, Self.top), now: Self.at(0))
        let first = hall.update(.alarm(.broadcast), now: Self.at(250))
        let page = { (version: UInt64, rows: [RankedRow]) in
            MessageCoding.encodePage(PageMessage(version: version, league: LeagueName(), from: 0, size: 3, rows: rows))
        }
        #expect(Self.sent(first).map(\.text) == [page(0, [RankedRow(rank: 1, school: "A", total: 0)])], "its page, due")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(260))
        _ = hall.update(.alarm(.commit), now: Self.at(310))
        _ = hall.update(.committed(Self.saved([.acknowledged(Self.ack(1, 3))], board: .init(version: 1, scores: ["A": 3]))),
                        now: Self.at(320))
        let due = hall.update(.alarm(.broadcast), now: Self.at(500))
        #expect(Self.sent(due).map(\.to) == [1, 2])
        #expect(Self.isView(Self.sent(due).first?.message, of: "A", total: 3), "the player who switched: its school's view")
        #expect(Self.sent(due).last?.text == page(1, [RankedRow(rank: 1, school: "A", total: 3)]), "the watcher: its page, changed")
        let quiet = hall.update(.alarm(.broadcast), now: Self.at(750))
        #expect(Self.sent(quiet).isEmpty, "nothing changed, nothing due")
    }

    @Test func aPlayersViewFollowsItsSchoolSwitchAndANewCatalog() throws {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(0))
        _ = hall.update(.alarm(.commit), now: Self.at(50))
        _ = hall.update(.committed(Self.saved([.acknowledged(Self.ack(1, 3))], board: .init(version: 1, scores: ["A": 3]))),
                        now: Self.at(60))
        let onA = hall.update(.alarm(.broadcast), now: Self.at(250))
        #expect(Self.sent(onA).count == 1 && Self.isView(Self.sent(onA).first?.message, of: "A", total: 3))

        let toB = ReceivedBatch(connection: 1, device: "device-1", player: "p", batch: TapBatch(
            seq: 2, taps: ["B": 2], playerTaps: 2, switchedToSchool: "B", bestTapsPerSecond: 5, startMs: 200, endMs: 300))
        _ = hall.update(.batch(toB), now: Self.at(300))
        _ = hall.update(.alarm(.commit), now: Self.at(350))
        let ackB = Acknowledgement(seq: 2, accepted: 2, refused: 0, player: PlayerState(schoolID: "B", taps: 5, bestTapsPerSecond: 5))
        _ = hall.update(.committed(Self.saved([.acknowledged(ackB)], board: .init(version: 2, scores: ["B": 2]))), now: Self.at(360))
        let onB = hall.update(.alarm(.broadcast), now: Self.at(500))
        #expect(Self.sent(onB).count == 1 && Self.isView(Self.sent(onB).first?.message, of: "B", total: 2), "the new school's view, not A's")

        // B listed first: every position moves, so the view is sent again though no total changed.
        let reordered = try CatalogResource(bytes: CatalogFile.encode(Catalog(schools: [1, 0, 2].map { storeTestCatalog[$0] }, source: .starter)),
                                            source: "reordered")
        let read = hall.update(.catalogRead(.success(reordered)), now: Self.at(750))
        #expect(Self.sent(read).count == 1 && Self.isView(Self.sent(read).first?.message, of: "B", total: 2))
        #expect(Self.sent(hall.update(.alarm(.broadcast), now: Self.at(1_000))).isEmpty, "then nothing until a total changes")
    }

    /// Under load every interval sends thousands of views: the list of who watches what is made
    /// once and kept while no connection changes, through batches and their commits (looked at
    /// before the next views, which would make a list dropped again).
    @Test func theListOfWatchersIsKeptWhileNoConnectionChanges() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        Self.welcomed(&hall, 2, "device-2")
        // Each interval: a batch and its commit, well before the views are due, then the views.
        // The first views make the list; the batches and commits after them keep it.
        for seq in UInt64(1)...4 {
            let start = Int(seq - 1) * 250
            _ = hall.update(.batch(Self.batch(1, "device-1", seq: seq, taps: 3)), now: Self.at(start + 10))
            _ = hall.update(.alarm(.commit), now: Self.at(start + 60))
            _ = hall.update(.committed(Self.saved([.acknowledged(Self.ack(seq, 3 * seq))], board: .init(version: seq, scores: ["A": 3 * seq]))),
                            now: Self.at(start + 70))
            let kept = hall.connections.hasWatchList
            if seq > 1 { #expect(kept, "batch \(seq): kept through a batch and its commit") }
            #expect(Self.sent(hall.update(.alarm(.broadcast), now: Self.at(start + 250))).count == 1, "batch \(seq): its school's view")
            let made = hall.connections.hasWatchList
            #expect(made)
        }
        _ = hall.update(.disconnect(2), now: Self.at(1_100))
        let dropped = !hall.connections.hasWatchList
        #expect(dropped, "a connection gone: made again")
    }

    @Test func anOlderReadingNeverOverwritesANewerTotal() {
        var hall = Self.hall(board: StoredBoard(version: 5, scores: ["A": 10]))
        _ = hall.update(.alarm(.poll), now: Self.at(0))  // not asked for: nothing
        _ = hall.update(.boardHint(version: 9), now: Self.at(0))
        #expect(hall.polling)
        _ = hall.update(.banned(BanOutcome(removed: ["A": 4], board: StoredBoard(version: 8, scores: ["A": 6]))), now: Self.at(300))
        _ = hall.update(.polled(devices: nil, .success(StoredBoard(version: 7, scores: ["A": 12, "B": 1]))), now: Self.at(301))
        #expect(hall.board(.allTime).0 == Board(version: 8, scores: ["A": 6, "B": 1]))
        #expect(hall.polledVersion == 7)
        #expect(hall.update(.boardHint(version: 8), now: Self.at(302)).isEmpty, "the board is there already")
    }

    @Test func aBanThatRemovedTapsSendsTheNewTotals() {
        var hall = Self.hall(board: StoredBoard(version: 2, scores: ["A": 10, "B": 3]))
        // An interval apart each: nothing is held back for the interval.
        let interval = BattleHall.broadcastInterval
        let opened = hall.update(.streamPage(1, Self.top), now: Self.at(0) + interval)
        #expect(Self.sent(opened).map(\.text) == [Self.topEvent(version: 2, "A", 10)])
        let ban = hall.update(.banned(BanOutcome(removed: ["A": 4], board: StoredBoard(version: 3, scores: ["A": 6]))),
                              now: Self.at(0) + interval * 2)
        #expect(Self.sent(ban).map(\.text) == [Self.topEvent(version: 3, "A", 6)])
        let kept = hall.update(.banned(BanOutcome(removed: [:], board: nil)), now: Self.at(0) + interval * 3)
        #expect(kept.isEmpty, "a ban without its taps removed changes no total")
    }

    // MARK: - Shutdown

    @Test func shutdownSavesWhatArrivedAcknowledgesItThenSaysGoingAwayAndStops() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        _ = hall.update(.streamPage(2, Self.top), now: Self.at(0))
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(10))
        let closing = hall.update(.shutdown(saying: true), now: Self.at(20))
        #expect(Self.commits(closing).count == 1, "saved at once, without waiting for the window")
        #expect(!Self.stops(closing))
        #expect(hall.update(.batch(Self.batch(1, "device-1", seq: 2, taps: 1)), now: Self.at(25)).isEmpty && hall.commits.pending.isEmpty,
                "no batch is taken once the final save began")
        let done = hall.update(.committed(Self.saved([.acknowledged(Self.ack(1, 3))], board: .init(version: 1, scores: ["A": 3]))),
                               now: Self.at(40))
        #expect(Self.sent(done).map(\.to) == [1, 1, 2, 1, 1, 2], "the ack, the view, the stream's page, then going away to each")
        #expect(Self.sent(done).first?.message == .ack(Self.ack(1, 3)) && Self.isView(Self.sent(done)[1].message, of: "A", total: 3))
        #expect(Self.sent(done).map(\.message)[3] == .error(BattleHall.goingAway))
        #expect(Self.sent(done).compactMap(\.close) == [CloseCode.goingAway, CloseCode.goingAway])
        #expect(Self.stops(done) && hall.finished)
        #expect(hall.update(.batch(Self.batch(1, "device-1", seq: 2, taps: 1)), now: Self.at(50)).isEmpty)
        // After the end, a connection's writer still ends when it goes, and a late hello is answered.
        let gone = hall.update(.disconnect(1), now: Self.at(60))
        #expect(gone.count == 1 && { if case .finish(1) = gone[0] { true } else { false } }())
        #expect(Self.answers(hall.update(.hello(2, device: "device-2"), now: Self.at(61))) == [2: .refused(BattleHall.goingAway)])
    }

    @Test func shutdownWaitsForTheCommitUnderWayAndTakesWhatArrivedMeanwhile() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(0))
        _ = hall.update(.alarm(.commit), now: Self.at(50))
        let closing = hall.update(.shutdown(saying: false), now: Self.at(55))
        #expect(Self.commits(closing).isEmpty && !Self.stops(closing))
        #expect(!closing.contains { if case .log = $0 { true } else { false } }, "a cancellation says nothing")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 2, taps: 1)), now: Self.at(56))
        let first = hall.update(.committed(Self.saved([.acknowledged(Self.ack(1, 3))], board: .init(version: 1, scores: ["A": 3]))),
                                now: Self.at(60))
        #expect(Self.commits(first).map { $0.map(\.batch.seq) } == [[2]] && !Self.stops(first))
        let last = hall.update(.committed(Self.saved([.acknowledged(Self.ack(2, 4))], board: .init(version: 2, scores: ["A": 4]))),
                               now: Self.at(70))
        #expect(Self.sent(last).first?.message == .ack(Self.ack(2, 4)))
        #expect(Self.stops(last))
    }

    @Test func shutdownGivesUpAfterThreeFailedFinalSaves() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(0))
        _ = hall.update(.shutdown(saying: true), now: Self.at(1))
        var now = 1
        for attempt in 1...3 {
            let failed = hall.update(.committed(.failure(BattleStoreError(message: "down"))), now: Self.at(now + 10))
            #expect(Self.sent(failed).allSatisfy { $0.message.map { if case .ack = $0 { false } else { true } } ?? true })
            if attempt == 3 {
                #expect(Self.stops(failed), "the batch waits for the next server: never acknowledged")
                #expect(Self.sent(failed).map(\.message).first == .error(BattleHall.goingAway))
            } else {
                #expect(Self.wakes(failed) == [.commit: Self.at(now + 210)])
                now += 210
                #expect(Self.commits(hall.update(.alarm(.commit), now: Self.at(now))).count == 1)
            }
        }
    }

    @Test func shutdownRefusesWaitingHellosAndNewConnections() {
        var hall = Self.hall()
        Self.welcomed(&hall, 1, "device-1")
        _ = hall.update(.batch(Self.batch(1, "device-1", seq: 1, taps: 3)), now: Self.at(0))
        _ = hall.update(.connect(2), now: Self.at(1))
        _ = hall.update(.hello(2, device: "device-1"), now: Self.at(1))
        let closing = hall.update(.shutdown(saying: true), now: Self.at(2))
        #expect(Self.answers(closing) == [2: .refused(BattleHall.goingAway)])
        #expect(Self.answers(hall.update(.hello(1, device: "device-1"), now: Self.at(3))) == [1: .refused(BattleHall.goingAway)])
        #expect(hall.update(.alarm(.poll), now: Self.at(400)).isEmpty)
    }

    @Test func theServerPollsOtherServersSavesOneAtATimeAndCountsDevicesNowAndThen() {
        var hall = Self.hall()
        let start = hall.update(.start, now: Self.at(0))
        #expect(Self.wakes(start) == [.poll: Self.at(200), .catalog: Self.at(2_000)])
        let poll = hall.update(.alarm(.poll), now: Self.at(200))
        #expect(poll.contains { if case .poll(since: 0, countDevices: false, season: nil) = $0 { true } else { false } })
        #expect(Self.wakes(poll) == [.poll: Self.at(400)])
        let again = hall.update(.alarm(.poll), now: Self.at(400))
        #expect(!again.contains { if case .poll = $0 { true } else { false } }, "the first poll has not answered")
        _ = hall.update(.polled(devices: nil, .success(nil)), now: Self.at(410))
        let counting = hall.update(.boardHint(version: nil), now: Self.at(60_000))
        #expect(counting.contains { if case .poll(since: 0, countDevices: true, season: nil) = $0 { true } else { false } })
        _ = hall.update(.polled(devices: 42, .success(nil)), now: Self.at(60_010))
        #expect(hall.devicesStored == 42)
    }
}
