import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
@testable import TouchSchoolServer

/// The views in slices (`BattleHall.broadcastSlices`): a tick sends one slice, ticks a fifth of an
/// interval apart, each view at most every interval. The catalog is `storeTestCatalog`: A, B and
/// C at places 0, 1 and 2 of the catalog, so in slices 0, 1 and 2 of five.
@Suite struct BattleHallSlicesTests {
    typealias T = BattleHallTests
    typealias V = BattleHallViewsTests

    /// What each tick sent: its time (ms after `T.t0`) and the schools of the views, by connection.
    struct Tick: Equatable {
        var ms: Int
        var views: [ConnectionID: String]
    }

    static func ticks(_ effects: [BattleHall.Effect], at ms: Int) -> [Tick] {
        var views: [ConnectionID: String] = [:]
        for (to, messages) in V.views(effects) {
            for case let .schoolView(view) in messages { views[to] = view.school }
        }
        return views.isEmpty ? [] : [Tick(ms: ms, views: views)]
    }

    /// Runs the broadcast alarms the hall asks for, each at its instant, up to `until` ms.
    static func runAlarms(_ hall: inout BattleHall, until ms: Int) -> [Tick] {
        var ticks: [Tick] = []
        while let at = hall.alarms[.broadcast], at <= T.at(ms) {
            let elapsed = (at - T.t0).components
            let atMs = Int(elapsed.seconds) * 1_000 + Int(elapsed.attoseconds / 1_000_000_000_000_000)
            ticks += Self.ticks(hall.update(.alarm(.broadcast), now: at), at: atMs)
        }
        return ticks
    }

    static func change(_ hall: inout BattleHall, version: UInt64, _ scores: [String: UInt64], at ms: Int) -> [Tick] {
        ticks(hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: version, scores: scores))), now: T.at(ms)), at: ms)
    }

    /// Players 1, 2 and 3 on A, B and C, welcomed at 0; A: 10, B: 5.
    static func hall() throws -> BattleHall {
        var hall = T.hall(board: StoredBoard(version: 4, scores: ["A": 10, "B": 5]), slices: BattleHall.broadcastSlices)
        _ = try #require(V.welcomed(&hall, 1, "device-1", school: "A"))
        _ = try #require(V.welcomed(&hall, 2, "device-2", school: "B"))
        _ = try #require(V.welcomed(&hall, 3, "device-3", school: "C"))
        return hall
    }

    @Test func theStandardIsFiveSlicesOfAFourthOfASecond() {
        #expect(BattleHall.broadcastSlices == 5)
        #expect(BattleHall.broadcastInterval == .milliseconds(250))
    }

    @Test func eachTickSendsOneSliceAFifthOfAnIntervalAfterTheLast() throws {
        var hall = try Self.hall()
        // The three views are due an interval after the start; one slice a tick, 50 ms apart.
        #expect(Self.runAlarms(&hall, until: 1_000) == [Tick(ms: 250, views: [1: "A"]), Tick(ms: 300, views: [2: "B"]),
                                                        Tick(ms: 350, views: [3: "C"])])
        // B gains 2 at 400: every view shows B. Each slice goes an interval after its last.
        #expect(Self.change(&hall, version: 5, ["B": 7], at: 1_100) == [Tick(ms: 1_100, views: [1: "A"])],
                "slice 0 was sent longest ago: at once")
        #expect(Self.runAlarms(&hall, until: 2_000) == [Tick(ms: 1_150, views: [2: "B"]), Tick(ms: 1_200, views: [3: "C"])])
        // Changes every 50 ms: each view every interval, no sooner, one slice a tick.
        var ticks: [Tick] = []
        for step in 0..<20 {
            let ms = 2_000 + step * 50
            ticks += Self.change(&hall, version: UInt64(6 + step), ["A": UInt64(11 + step)], at: ms)
            ticks += Self.runAlarms(&hall, until: ms + 49)
        }
        #expect(ticks.map(\.ms) == [2_000, 2_050, 2_100, 2_250, 2_300, 2_350, 2_500, 2_550, 2_600, 2_750, 2_800, 2_850])
        #expect(ticks.allSatisfy { $0.views.count == 1 })
        for id: ConnectionID in [1, 2, 3] {
            let times = ticks.filter { $0.views[id] != nil }.map(\.ms)
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 250 }, "connection \(id): \(times)")
        }
    }

    @Test func aViewComputedForOneSliceIsSentToEveryWatcherOfIt() throws {
        var hall = try Self.hall()
        _ = try #require(V.welcomed(&hall, 4, "device-4", school: "A", at: 10))
        let first = Self.runAlarms(&hall, until: 1_000)
        #expect(first.first == Tick(ms: 250, views: [1: "A", 4: "A"]))
        let change = hall.update(.banned(BanOutcome(removed: [:], board: StoredBoard(version: 5, scores: ["C": 1]))), now: T.at(1_000))
        let texts = T.sent(change).reduce(into: [ConnectionID: String]()) { $0[$1.to] = $1.text }
        #expect(Set(texts.keys) == [1, 4])
        #expect(texts[1] == texts[4], "one view, one message")
    }

    @Test func theLastChangesGoInEverySliceAtShutdown() throws {
        var hall = try Self.hall()
        _ = Self.runAlarms(&hall, until: 1_000)
        _ = Self.change(&hall, version: 5, ["B": 7], at: 1_100)
        // Slices 1 and 2 wait for their ticks; the shutdown sends them at once, before the goodbyes.
        let effects = hall.update(.shutdown(saying: false), now: T.at(1_101))
        #expect(Self.ticks(effects, at: 1_101) == [Tick(ms: 1_101, views: [2: "B", 3: "C"])])
        #expect(hall.finished)
    }
}

extension BattleHallSlicesTests {
    /// When each commit landed (ms) with its board version, and the views each connection was
    /// sent (ms, version), under a load of one batch every `batchEvery` ms, each commit taking
    /// `commitMs`.
    struct Load {
        var landings: [(ms: Int, version: UInt64)] = []
        var views: [ConnectionID: [(ms: Int, version: UInt64)]] = [:]

        /// How long after each landing in `from..<to` a connection was first sent a view that
        /// holds it: the longest for any connection.
        func longestWait(from: Int, to: Int) -> Int {
            var longest = 0
            for landing in landings where (from..<to).contains(landing.ms) {
                for (_, sent) in views {
                    guard let seen = sent.first(where: { $0.ms >= landing.ms && $0.version >= landing.version }) else { return .max }
                    longest = max(longest, seen.ms - landing.ms)
                }
            }
            return longest
        }
    }

    static func load(_ hall: inout BattleHall, from start: Int, until end: Int, batchEvery: Int, commitMs: Int) -> Load {
        var load = Load()
        var version: UInt64 = 10
        var total: UInt64 = 10
        var seq: UInt64 = 1
        var landing: (ms: Int, batches: [ReceivedBatch])?
        func record(_ effects: [BattleHall.Effect], at ms: Int) {
            for case let .commit(batches, _, _) in effects { landing = (ms + commitMs, batches) }
            for (to, messages) in V.views(effects) {
                for case let .schoolView(view) in messages { load.views[to, default: []].append((ms, view.version)) }
            }
        }
        for ms in start...end {
            if let due = landing, due.ms == ms {
                landing = nil
                version += 1
                total += UInt64(due.batches.count)
                load.landings.append((ms, version))
                let outcomes = due.batches.map { BatchOutcome.acknowledged(T.ack($0.batch.seq, 1)) }
                record(hall.update(.committed(T.saved(outcomes, board: StoredBoard(version: version, scores: ["A": total]))), now: T.at(ms)), at: ms)
            }
            if (ms - start) % batchEvery == 0 {
                seq += 1
                record(hall.update(.batch(T.batch(1, "device-1", seq: seq, taps: 1)), now: T.at(ms)), at: ms)
            }
            for alarm in [BattleHall.Alarm.commit, .broadcast] where hall.alarms[alarm].map({ $0 <= T.at(ms) }) == true {
                record(hall.update(.alarm(alarm), now: T.at(ms)), at: ms)
            }
        }
        return load
    }

    /// Commits every window or so (the window runs from a batch's arrival, so with a batch every
    /// 2 ms they start every 52 ms, drifting against the ticks), each taking a few ms: the ticks
    /// follow the landings, and every view holds a commit's taps within four ticks and a half
    /// after it landed (225 ms), not an interval (250 ms: 248–249 here when the ticks kept their
    /// own step). Each view still goes at most, and about, every interval.
    @Test func underLoadTheTicksFollowTheCommits() throws {
        for (batchEvery, commitMs) in [(1, 5), (1, 15), (2, 10), (3, 30), (5, 20), (7, 3)] {
            var hall = try Self.hall()
            _ = Self.runAlarms(&hall, until: 1_000)
            // A change at 1,030 sets the ticks going at 30 and 80 ms past each tenth of a second.
            _ = Self.change(&hall, version: 5, ["B": 7], at: 1_030)
            let load = Self.load(&hall, from: 1_031, until: 6_000, batchEvery: batchEvery, commitMs: commitMs)
            let label = "a batch every \(batchEvery) ms, commits of \(commitMs) ms"
            #expect(load.longestWait(from: 1_500, to: 5_500) <= 225, "\(label)")
            for (id, sent) in load.views {
                let gaps = zip(sent, sent.dropFirst()).map { $1.ms - $0.ms }
                #expect(gaps.allSatisfy { (250...300).contains($0) }, "\(label), connection \(id): \(gaps)")
            }
        }
    }
}
