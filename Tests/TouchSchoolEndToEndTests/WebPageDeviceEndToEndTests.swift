import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolTestSupport

/// One device, one numbering, in the browser: one headless Chromium (one WebDriver session, one
/// profile, so one storage and one set of Web Locks) with a window per tab, against real servers
/// on loopback. The projector's board tab reads a stream that needs no device and never takes the
/// player's place; of two play tabs only the one holding the device's lock plays, and the one that
/// lost it writes nothing more; every tap counts once. Each battle keeps its own outbox: taps made
/// for one are never sent to another met at the same address. And the page's copy of the battle's
/// rules (`rules.js`) gives every case of `Tests/Vectors/battle-rules.json`.
@Suite(.onOwnThreads, .tags(.process, .browser), .sharedBrowsers(), .serialized, .enabled(if: Browser.isInstalled, "chromium or chromedriver not found (.ci/run installs them): skipped"))
struct WebPageDeviceEndToEndTests {
    typealias Page = WebPageEndToEndTests

    static let minsago = "민족사관고등학교"

    /// The id of 민족사관고등학교 in the server's catalog.
    static func minsagoID(_ server: ServerProcess) throws -> String {
        let search = DataCommandsBinary.run(["search", "민사고", "--json", "--server", server.baseURL, "--data-dir", "\(server.folder)/reader"])
        return try #require(try JSONValue.parse(search.output)["schools"]?.arrayValue?.first?["id"]?.stringValue)
    }

    /// Every key of the page's storage with its value, in order: equal snapshots mean nothing wrote.
    static func storage(_ browser: Browser) throws -> String {
        try browser.string("return JSON.stringify(Object.keys(localStorage).sort().map((k) => [k, localStorage.getItem(k)]))")
    }

    /// `count` taps dispatched as pointer events on the play area of the current window, however
    /// the page takes them (a page that does not play shows nothing for them).
    static func dispatchTaps(_ browser: Browser, _ count: Int) throws {
        try browser.script("""
            const play = document.getElementById('play'), r = play.getBoundingClientRect();
            for (let i = 0; i < \(count); i++) play.dispatchEvent(new PointerEvent('pointerdown',
              { bubbles: true, cancelable: true, pointerId: 1, clientX: r.left + 20 + i, clientY: r.top + 20 + i }));
            """)
    }

    /// The total the board of the current window shows for 민족사관고등학교.
    static func boardTotal(_ browser: Browser) -> String {
        (try? browser.string("""
            return [...document.querySelectorAll('#board-rows tr')].filter((tr) => tr.cells[2].textContent === '\(minsago)')
              .map((tr) => tr.cells[4].textContent).join()
            """)) ?? ""
    }

    /// A value of the server's `/metrics` (Prometheus text: `name value`).
    static func metric(_ name: String, on server: ServerProcess) -> Double? {
        let text = Subprocess.run("/usr/bin/curl", ["-s", "--max-time", "5", "\(server.baseURL)/metrics"]).output
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    @Test func aBoardTabAndASecondPlayTabNeverTakeThePlayersPlace() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let id = try Self.minsagoID(server)
        let browser = try Browser(width: 1000, height: 760, touch: false, language: "en-US")
        defer { browser.close() }

        // The player's tab.
        let player = try browser.currentWindow()
        try browser.open("\(server.baseURL)/?school=\(id)")
        try browser.waitFor("the game, online") { Page.text(browser, "school-name") == Self.minsago && Page.status(browser).state == "online" }
        try Page.touch(browser, 5, after: 0, pointerType: "mouse")
        try Page.waitUntilDelivered(browser)

        // The projector's tab: the live board, from the stream, without the device.
        let board = try browser.newWindow()
        try browser.switchTo(window: board)
        try browser.open("\(server.baseURL)/?board")
        try browser.waitFor("the saved total on the board tab") { Self.boardTotal(browser) == "5" }
        #expect(Page.status(browser).state == "online")
        try browser.switchTo(window: player)
        try Page.touch(browser, 3, after: 5, pointerType: "mouse")
        try Page.waitUntilDelivered(browser)
        try browser.switchTo(window: board)
        try browser.waitFor("the new taps on the board tab, live", timeout: 10) { Self.boardTotal(browser) == "8" }
        try browser.switchTo(window: player)
        #expect(Page.status(browser).state == "online", "the player's tab lost its place: \(Page.text(browser, "status"))")
        #expect(Self.metric("touchschool_open_connections", on: server) == 1)
        #expect(Self.metric("touchschool_open_board_streams", on: server) == 1)

        // A second play tab: refused the device, it says so and writes nothing, however it is tapped.
        let before = try Self.storage(browser)
        let second = try browser.newWindow()
        try browser.switchTo(window: second)
        try browser.open("\(server.baseURL)/?school=\(id)")
        try browser.waitFor("playing in another tab") {
            try browser.script("return !document.getElementById('elsewhere').hidden") as? Bool == true
                && Page.text(browser, "elsewhere").contains("Playing in another tab")
        }
        try Self.dispatchTaps(browser, 3)
        // Its board is live too, from the stream (the player's tab is idle: nothing to see move).
        try browser.waitFor("the board in the waiting tab") { Page.text(browser, "school-total") == "8" }
        Thread.sleep(forTimeInterval: 1)
        // The player's taps, as the playing tab keeps them (it read 0).
        #expect(Page.text(browser, "my-taps") == "8")
        #expect(try Self.storage(browser) == before, "the waiting tab wrote to the storage")
        #expect(Self.metric("touchschool_open_connections", on: server) == 1)
        try browser.switchTo(window: player)
        #expect(Page.status(browser).state == "online")

        // The player's tab goes offline with taps waiting; the second tab takes over.
        server.kill9()
        try browser.waitFor("offline") { Page.status(browser).state == "offline" }
        try Page.touch(browser, 4, after: 8, pointerType: "mouse")
        try browser.waitFor("four taps waiting") { Page.text(browser, "status") == "Offline · 4 taps waiting" }
        try browser.switchTo(window: second)
        try browser.click("#play-here")
        // It read the waiting taps from the storage.
        try browser.waitFor("the second tab plays, with the first tab's waiting taps") {
            try browser.script("return document.getElementById('elsewhere').hidden") as? Bool == true
                && Page.text(browser, "status") == "Offline · 4 taps waiting"
        }
        try browser.switchTo(window: player)
        try browser.waitFor("the first tab stopped") { Page.status(browser).state == "stopped" }
        try Self.expectEveryTapOnceAfterTheTakeOver(browser, server: server, school: id, player: player, second: second, board: board)

        browser.close()
    }

    /// After a take-over, the server down, with 5 + 3 taps saved and 4 waiting: the tab that lost
    /// the device (`player`, the current window, stopped) writes nothing more however it is
    /// tapped; once the server is back, the tab that took over (`second`) sends what waited, then
    /// its own 2 taps, and the first never connects again: every tap made in the playing tab
    /// counts once, as the board tab (`board`) shows.
    static func expectEveryTapOnceAfterTheTakeOver(_ browser: Browser, server: ServerProcess, school id: String,
                                                   player: String, second: String, board: String) throws {
        #expect(Page.text(browser, "status") == "Reload to play here: another tab took over the game.")
        let afterTakeOver = try storage(browser)
        try dispatchTaps(browser, 5)
        try browser.script("document.dispatchEvent(new Event('visibilitychange'))")
        // Longer than an offline seal (5 s): a tab still playing would have written its batch.
        Thread.sleep(forTimeInterval: 5.5)
        #expect(try storage(browser) == afterTakeOver, "the tab that lost the device wrote to the storage")
        #expect(Page.status(browser).state == "stopped")

        try server.restart()
        try browser.switchTo(window: second)
        try Page.waitUntilDelivered(browser)
        try Page.touch(browser, 2, after: 12, pointerType: "mouse")
        try Page.waitUntilDelivered(browser)
        #expect(try NetworkPlayEndToEndTests.total(id, on: server) == 5 + 3 + 4 + 2)
        try browser.switchTo(window: board)
        try browser.waitFor("every tap on the board tab", timeout: 15) { boardTotal(browser) == "14" }
        #expect(metric("touchschool_open_connections", on: server) == 1)
        try browser.switchTo(window: player)
        #expect(Page.status(browser).state == "stopped")
    }

    /// A JSON value as text with its keys sorted: equal texts, equal values.
    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]), as: UTF8.self)
    }

    /// The battle a server names (`GET /v1/battle`).
    static func battle(of server: ServerProcess) throws -> String {
        let answer = Subprocess.run("/usr/bin/curl", ["-s", "--max-time", "5", "\(server.baseURL)/v1/battle"]).output
        return try #require(try JSONValue.parse(answer)["battle"]?.stringValue, "\(answer)")
    }

    /// The taps the page keeps for `battle`: in its stored outbox and its open batch.
    static func storedTaps(_ browser: Browser, battle: String) throws -> Int {
        try #require(try browser.script("""
            const read = (name) => JSON.parse(localStorage.getItem('touchschool.' + name + ':' + arguments[0]));
            const taps = (batch) => Object.values(batch.taps).reduce((a, b) => a + b, 0);
            const box = read('outbox'), open = read('open');
            return (box ? box.batches.map(taps).reduce((a, b) => a + b, 0) : 0) + (open ? taps(open) : 0);
            """, [battle]) as? Int)
    }

    @Test func eachBattleKeepsItsOwnTapsAndNeverSendsThemToAnother() throws {
        let first = try ServerProcess.forGames(catalog: nil)
        defer { first.stop() }
        let firstBattle = try Self.battle(of: first)
        let id = try Self.minsagoID(first)
        let browser = try Browser(width: 1000, height: 760, touch: false, language: "en-US")
        defer { browser.close() }
        try browser.open("\(first.baseURL)/?school=\(id)")
        try browser.waitFor("the game, online") { Page.status(browser).state == "online" }
        try Page.touch(browser, 3, after: 0, pointerType: "mouse")
        try Page.waitUntilDelivered(browser)

        // Offline, four taps wait for the first battle.
        first.kill9()
        try browser.waitFor("offline") { Page.status(browser).state == "offline" }
        try Page.touch(browser, 4, after: 3, pointerType: "mouse")
        try browser.waitFor("four taps waiting") { Page.text(browser, "status") == "Offline · 4 taps waiting" }

        // Another battle at the same address (a new server, as after a reset): the page plays
        // it from its own outbox; the first battle's taps stay stored, unsent.
        let second = try ServerProcess.forGames(port: first.port, catalog: nil)
        defer { second.stop() }
        let secondBattle = try Self.battle(of: second)
        #expect(secondBattle != firstBattle)
        try Page.waitUntilDelivered(browser)
        #expect(Page.text(browser, "my-taps") == "0")
        try Page.touch(browser, 2, after: 0, pointerType: "mouse")
        try Page.waitUntilDelivered(browser)
        #expect(try NetworkPlayEndToEndTests.total(id, on: second) == 2)
        #expect(try Self.storedTaps(browser, battle: firstBattle) == 4)
        #expect(try browser.string("return localStorage.getItem('touchschool.battle')") == "\"\(secondBattle)\"")

        // The first battle again: its four taps go to it, once.
        second.stop()
        try first.restart()
        try browser.waitFor("the first battle's welcome") {
            try browser.string("return localStorage.getItem('touchschool.battle')") == "\"\(firstBattle)\""
        }
        try Page.waitUntilDelivered(browser)
        #expect(try NetworkPlayEndToEndTests.total(id, on: first) == 7)
        #expect(Page.text(browser, "my-taps") == "7")
        #expect(try Self.storedTaps(browser, battle: firstBattle) == 0)
        browser.close()
    }

    /// The page's rules against the cases both copies of them must give: each case passed into
    /// the page as written in the file and run through the module `rules.js` as the page imports it
    /// (the script's promise is awaited); a case that differs is named.
    @Test func thePagesRulesGiveEveryCaseOfTheSharedVectors() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/battle-rules.json")
        let vectors = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let browser = try Browser(width: 800, height: 600, touch: false, language: "en-US")
        defer { browser.close() }
        try browser.open("\(server.baseURL)/?board")
        try browser.waitFor("the page") { (try browser.string("return document.body.dataset.ready || ''")) == "true" }
        let results = try #require(try browser.script("""
            const cases = arguments[0];
            return import('/rules.js').then((rules) => ({
              player: cases.player.map((c) => rules.player(c.before, c.batch)),
              welcome: cases.welcome.map((c) => rules.welcome(c.outbox, c.lastSeq)),
              deviceKey: cases.deviceKey.map((c) => rules.isValidDeviceKey(c.key)),
              battleID: cases.battleID.map((c) => rules.isValidBattleID(c.id)),
              movement: cases.movement.map((c) => rules.movement({ before: c.before[c.school], now: c.now[c.school] },
                                                                  c.before.map((before, i) => ({ before, now: c.now[i] })))),
              shownRank: cases.shownRank.map((c) => rules.shownRank(c.rank, c.count)),
              standing: cases.standing.map((c) => rules.standing(c.total, c.view, c.hidden)),
              pageMovements: cases.pageMovements.map((c) => rules.pageMovements(c.rows, c.from, c.then)),
            }));
            """, [vectors]) as? [String: Any])
        for (group, expected) in [("player", "after"), ("welcome", "after"), ("deviceKey", "valid"), ("battleID", "valid"), ("movement", "movement"),
                                  ("shownRank", "shown"), ("standing", "standing"),
                                  ("pageMovements", "movements")] {
            let cases = try #require(vectors[group] as? [[String: Any]], "\(group) in the vectors")
            let answers = try #require(results[group] as? [Any], "\(group) from the page")
            #expect(!cases.isEmpty && answers.count == cases.count, "\(group): \(answers.count) answers to \(cases.count) cases")
            for (rule, answer) in zip(cases, answers) {
                let wanted = try #require(rule[expected])
                let (got, want) = (try Self.canonical(answer), try Self.canonical(wanted))
                #expect(got == want, "\(group): \(rule["case"] ?? "?"): the page gives \(got), the case \(want)")
            }
        }
        browser.close()
    }
}
