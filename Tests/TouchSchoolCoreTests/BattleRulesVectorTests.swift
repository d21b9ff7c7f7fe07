import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolCore

/// The battle's rules against the hand-written cases of `Tests/Vectors/battle-rules.json`, which
/// the page's copy of the rules (`Web/rules.js`) runs in Chromium and Node too: both sides give the same
/// answer for every case, and the answer is the one written there, not one this code computed.
@Suite(.onOwnThreads) struct BattleRulesVectorTests {
    nonisolated(unsafe) static let vectors: [String: Any] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/battle-rules.json")
        let data = try! Data(contentsOf: file)
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }()

    static func cases(_ name: String) -> [[String: Any]] { vectors[name] as! [[String: Any]] }

    static func record(_ value: Any) -> PlayerRecord {
        let object = value as! [String: Any]
        return PlayerRecord(schoolID: object["school"] as? String, taps: (object["taps"] as! NSNumber).uint64Value,
                            bestTapsPerSecond: (object["best"] as! NSNumber).intValue)
    }

    static func numbering(_ value: Any) -> OutboxNumbering {
        let object = value as! [String: Any]
        return OutboxNumbering(nextSeq: (object["nextSeq"] as! NSNumber).uint64Value,
                               waiting: (object["waiting"] as! [NSNumber]).map(\.uint64Value))
    }

    @Test func everyCaseIsThere() {
        #expect(Self.cases("player").count >= 7)
        #expect(Self.cases("welcome").count >= 10)
        #expect(Self.cases("deviceKey").count >= 10)
        #expect(Self.cases("battleID").count >= 6)
        #expect(Self.cases("movement").count >= 8)
        #expect(Self.cases("shownRank").count >= 5)
        #expect(Self.cases("standing").count >= 11)
        #expect(Self.cases("pageMovements").count >= 7)
    }

    @Test func aBatchChangesAPlayerAsWritten() {
        for example in Self.cases("player") {
            let batch = example["batch"] as! [String: Any]
            let after = BattleRules.player(Self.record(example["before"]!), adding: (batch["playerTaps"] as! NSNumber).uint64Value,
                                           switchedTo: batch["switchedTo"] as? String, best: (batch["best"] as! NSNumber).intValue)
            #expect(after == Self.record(example["after"]!), "\(example["case"]!)")
        }
    }

    @Test func aWelcomeNumbersTheOutboxAsWritten() {
        for example in Self.cases("welcome") {
            let after = BattleRules.welcome(Self.numbering(example["outbox"]!), lastSeq: (example["lastSeq"] as! NSNumber).uint64Value)
            #expect(after == Self.numbering(example["after"]!), "\(example["case"]!)")
        }
    }

    @Test func deviceKeysAndBattleIDsAreValidAsWritten() {
        for example in Self.cases("deviceKey") {
            #expect(BattleRules.isValidDeviceKey(example["key"] as! String) == (example["valid"] as! Bool), "\(example["case"]!)")
        }
        for example in Self.cases("battleID") {
            #expect(BattleRules.isValidBattleID(example["id"] as! String) == (example["valid"] as! Bool), "\(example["case"]!)")
        }
    }

    /// The leaderboard's ▲/▼: a board of the case's schools (one league) at its `before` counts,
    /// the baseline, then set to its `now` counts.
    @Test func movementCountsThePlacesClimbedAsWritten() {
        for example in Self.cases("movement") {
            let before = (example["before"] as! [NSNumber]).map(\.uint64Value)
            let now = (example["now"] as! [NSNumber]).map(\.uint64Value)
            let schools = before.indices.map { School(id: "M\($0)", name: "학교\($0)", level: .high, province: "서울", district: "", address: "") }
            var board = Leaderboard(catalog: Catalog(schools: schools, source: .starter), counts: before)
            for (school, count) in now.enumerated() { board.setCount(count, of: school) }
            let school = (example["school"] as! NSNumber).intValue
            #expect(board.movement(of: school, in: .national) == (example["movement"] as! NSNumber).intValue, "\(example["case"]!)")
        }
    }

    /// Where my school stands nationally, as the game's header says it on a server: the rule
    /// `nationalStanding` applies to its view, schools named by letters as the catalog's positions.
    @Test func theStandingIsAsWritten() {
        for example in Self.cases("standing") {
            var positions: [String: Int] = [:]
            let position = { (id: String) -> Int in
                if let known = positions[id] { return known }
                positions[id] = positions.count
                return positions.count - 1
            }
            let rows = { (value: Any?) -> [RankedSchool] in
                (value as! [[Any]]).map { RankedSchool(position: position($0[0] as! String), rank: 0, count: ($0[1] as! NSNumber).uint64Value) }
            }
            let view = example["view"] as! [String: Any]
            let standing = BattleRules.standing(total: (example["total"] as! NSNumber).uint64Value, count: (view["total"] as! NSNumber).uint64Value,
                                                rank: (view["rank"] as! NSNumber).intValue, gap: (view["gap"] as? NSNumber)?.uint64Value,
                                                above: rows(view["above"]), hidden: rows(example["hidden"]))
            let wanted = example["standing"] as! [String: Any]
            let gap = wanted["gap"] as? [String: Any]
            #expect(standing.rank == (wanted["rank"] as! NSNumber).intValue, "\(example["case"]!)")
            #expect(standing.chase?.school == (gap?["school"] as? String).map { positions[$0]! }, "\(example["case"]!)")
            #expect(standing.chase?.taps == (gap?["taps"] as? NSNumber)?.uint64Value, "\(example["case"]!)")
            #expect((standing.chase == nil) == (gap == nil), "\(example["case"]!)")
        }
    }

    /// The ▲/▼ of a page a server sent, against the same page a moment ago: the rule ServedViews'
    /// `movement` applies, schools named by letters as the catalog's positions.
    @Test func aPagesMovementsAreAsWritten() {
        for example in Self.cases("pageMovements") {
            var positions: [String: Int] = [:]
            let rows = { (value: Any?) -> [RankedSchool]? in
                (value as? [[Any]])?.map { row in
                    let id = row[0] as! String
                    let position = positions[id] ?? positions.count
                    positions[id] = position
                    return RankedSchool(position: position, rank: 0, count: (row[1] as! NSNumber).uint64Value)
                }
            }
            let now = rows(example["rows"])!, then = rows(example["then"])
            let moved = BattleRules.pageMovements(rows: now, from: (example["from"] as! NSNumber).intValue, then: then)
            let wanted = (example["movements"] as! [[Any]]).map { (positions[$0[0] as! String]!, ($0[1] as! NSNumber).intValue) }
            #expect(moved.map(\.position) == wanted.map(\.0) && moved.map(\.climbed) == wanted.map(\.1), "\(example["case"]!): \(moved)")
        }
    }

    /// The rank every screen shows: none for a school without a tap.
    @Test func theShownRankIsAsWritten() {
        for example in Self.cases("shownRank") {
            let school = RankedSchool(position: 0, rank: (example["rank"] as! NSNumber).intValue,
                                      count: (example["count"] as! NSNumber).uint64Value)
            #expect(school.shownRank == (example["shown"] as? NSNumber)?.intValue, "\(example["case"]!)")
        }
    }
}
