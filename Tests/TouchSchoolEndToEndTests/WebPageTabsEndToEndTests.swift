import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolTestSupport

/// One tab plays where the browser has no Web Locks: the page served over plain http to a name
/// that is not this machine's (`http://school.test:PORT`, which Chromium is told resolves to
/// 127.0.0.1), as a class plays on a school's network. That is no secure context, so the tabs agree
/// over a BroadcastChannel (docs/protocol.md, "A client in a browser"); every test checks first
/// that the page really runs without Web Locks. One headless Chromium (one profile: one storage)
/// with a window per tab, against a real server on loopback.
@Suite(.onOwnThreads, .tags(.process, .browser), .sharedBrowsers(), .serialized, .enabled(if: Browser.isInstalled, "chromium or chromedriver not found (.ci/run installs them): skipped"))
struct WebPageTabsEndToEndTests {
    typealias Page = WebPageEndToEndTests
    typealias Device = WebPageDeviceEndToEndTests

    static let host = "school.test"

    static func insecureBrowser(language: String) throws -> Browser {
        try Browser(width: 1000, height: 760, touch: false, language: language, flags: ["--host-resolver-rules=MAP \(host) 127.0.0.1"])
    }

    static func address(_ server: ServerProcess) -> String { "http://\(host):\(server.port)" }

    /// The page of the current window is on the insecure origin and has no Web Locks.
    static func expectNoWebLocks(_ browser: Browser) throws {
        let facts = try #require(try browser.script(
            "return [location.hostname, window.isSecureContext, navigator.locks === undefined, typeof BroadcastChannel]") as? [Any])
        #expect(facts[0] as? String == host)
        #expect(facts[1] as? Bool == false, "a secure context: the page would use Web Locks")
        #expect(facts[2] as? Bool == true, "navigator.locks is defined")
        #expect(facts[3] as? String == "function")
    }

    /// Whether the current window says another tab plays, with the button to play here.
    static func waits(_ browser: Browser) -> Bool {
        (try? browser.script("return !document.getElementById('elsewhere').hidden && !document.getElementById('play-here').hidden") as? Bool) == true
    }

    /// Whether the current window plays: no word of another tab, not stopped.
    static func plays(_ browser: Browser) -> Bool {
        (try? browser.script("return document.getElementById('elsewhere').hidden") as? Bool) == true
            && !["", "stopped"].contains(Page.status(browser).state)
    }

    /// Seconds from now until `condition` holds (polled every 50 ms), or a failure after `timeout`.
    static func seconds(until what: String, in browser: Browser, timeout: Double, _ condition: () throws -> Bool) throws -> Double {
        let start = Date()
        try browser.waitFor(what, timeout: timeout, condition)
        return Date().timeIntervalSince(start)
    }

    @Test func withoutWebLocksOneTabPlaysAndPlayHereMovesIt() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let id = try Device.minsagoID(server)
        let browser = try Self.insecureBrowser(language: "en-US")
        defer { browser.close() }

        let player = try browser.currentWindow()
        try browser.open("\(Self.address(server))/?school=\(id)")
        try browser.waitFor("the game, online") { Page.text(browser, "school-name") == Device.minsago && Page.status(browser).state == "online" }
        try Self.expectNoWebLocks(browser)
        try Page.touch(browser, 5, after: 0, pointerType: "mouse")
        try Page.waitUntilDelivered(browser)

        // The projector's tab takes no part.
        let board = try browser.newWindow()
        try browser.switchTo(window: board)
        try browser.open("\(Self.address(server))/?board")
        try browser.waitFor("the saved total on the board tab") { Device.boardTotal(browser) == "5" }

        // A second play tab is refused the device: it says so and writes nothing, however tapped.
        try browser.switchTo(window: player)
        let before = try Device.storage(browser)
        let second = try browser.newWindow()
        try browser.switchTo(window: second)
        try browser.open("\(Self.address(server))/?school=\(id)")
        try browser.waitFor("playing in another tab") { Self.waits(browser) && Page.text(browser, "elsewhere").contains("Playing in another tab") }
        try Self.expectNoWebLocks(browser)
        try Device.dispatchTaps(browser, 3)
        try browser.waitFor("the board in the waiting tab") { Page.text(browser, "school-total") == "5" }
        // Longer than a silence that makes a waiting tab ask again (3 s): the player answers.
        Thread.sleep(forTimeInterval: 4.5)
        #expect(Self.waits(browser))
        #expect(Page.text(browser, "my-taps") == "5", "the player's taps, as the playing tab keeps them")
        #expect(try Device.storage(browser) == before, "the waiting tab wrote to the storage")
        #expect(Device.metric("touchschool_open_connections", on: server) == 1)
        try browser.switchTo(window: player)
        #expect(Self.plays(browser) && Page.status(browser).state == "online", "the player's tab lost its place: \(Page.text(browser, "status"))")
        try Page.touch(browser, 3, after: 5, pointerType: "mouse")
        try Page.waitUntilDelivered(browser)

        // Offline with taps waiting, the player's tab gives the device to the second tab.
        server.kill9()
        try browser.waitFor("offline") { Page.status(browser).state == "offline" }
        try Page.touch(browser, 4, after: 8, pointerType: "mouse")
        try browser.waitFor("four taps waiting") { Page.text(browser, "status") == "Offline · 4 taps waiting" }
        try browser.switchTo(window: second)
        try browser.click("#play-here")
        let takeOver = try Self.seconds(until: "the second tab plays, with the first tab's waiting taps", in: browser, timeout: 5) {
            Self.plays(browser) && Page.text(browser, "status") == "Offline · 4 taps waiting"
        }
        try browser.switchTo(window: player)
        try browser.waitFor("the first tab stopped", timeout: 2) { Page.status(browser).state == "stopped" }
        print("play here: the second tab played \(Int(takeOver * 1000)) ms after the click (WebDriver's polling included)")
        try Device.expectEveryTapOnceAfterTheTakeOver(browser, server: server, school: id, player: player, second: second, board: board)

        browser.close()
    }

    @Test func withoutWebLocksAClosedOrCrashedPlayersTabIsReplacedByItself() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let id = try Device.minsagoID(server)
        let browser = try Self.insecureBrowser(language: "ko-KR")
        defer { browser.close() }

        let first = try browser.currentWindow()
        try browser.open("\(Self.address(server))/?school=\(id)")
        try browser.waitFor("the game, online") { Page.status(browser).state == "online" }
        try Self.expectNoWebLocks(browser)
        try Page.touch(browser, 2, after: 0, pointerType: "mouse")
        try Page.waitUntilDelivered(browser)
        // Two more tabs wait.
        var waiting: [String] = []
        for _ in 0..<2 {
            let tab = try browser.newWindow()
            try browser.switchTo(window: tab)
            try browser.open("\(Self.address(server))/?school=\(id)")
            try browser.waitFor("다른 탭에서 플레이 중") {
                Self.waits(browser) && Page.text(browser, "elsewhere").contains("다른 탭에서 플레이 중입니다.")
                    && Page.text(browser, "play-here") == "여기서 플레이"
            }
            waiting.append(tab)
        }

        // Offline, three taps wait in the first tab; it is closed: one of the others plays by
        // itself, with those taps.
        server.kill9()
        try browser.switchTo(window: first)
        try browser.waitFor("offline") { Page.status(browser).state == "offline" }
        try Page.touch(browser, 3, after: 2, pointerType: "mouse")
        try browser.waitFor("three taps waiting") { Page.text(browser, "status") == "오프라인 · 3번 대기 중" }
        try browser.closeWindow()
        var next = ""
        let start = Date()
        try browser.waitFor("a waiting tab plays by itself, with the closed tab's taps", timeout: 5) {
            for tab in waiting {
                try browser.switchTo(window: tab)
                if Self.plays(browser) && Page.text(browser, "status") == "오프라인 · 3번 대기 중" { next = tab; return true }
            }
            return false
        }
        print("closed: a waiting tab played \(Int(Date().timeIntervalSince(start) * 1000)) ms after the playing tab's window was closed")
        let last = try #require(waiting.first { $0 != next })
        try browser.switchTo(window: last)
        #expect(Self.waits(browser), "two tabs play")
        try browser.switchTo(window: next)
        try Page.touch(browser, 2, after: 5, pointerType: "mouse")

        // Its page crashes (no goodbye): the last tab notices the silence and plays by itself,
        // with every tap still waiting.
        browser.crashPage()
        try browser.switchTo(window: last)
        let afterCrash = try Self.seconds(until: "the last tab plays by itself, with every waiting tap", in: browser, timeout: 10) {
            Self.plays(browser) && Page.text(browser, "status") == "오프라인 · 5번 대기 중"
        }
        print("crashed: the waiting tab played \(Int(afterCrash * 1000)) ms after the playing tab's page crashed")

        // The server is back: every tap counts once.
        try server.restart()
        try Page.waitUntilDelivered(browser)
        try Page.touch(browser, 1, after: 7, pointerType: "mouse")
        try Page.waitUntilDelivered(browser)
        #expect(try NetworkPlayEndToEndTests.total(id, on: server) == 2 + 3 + 2 + 1)
        #expect(Page.text(browser, "my-taps") == "8")
        #expect(Device.metric("touchschool_open_connections", on: server) == 1)

        browser.close()
    }

    /// Listens from now on to what the tabs say on the device's channel, with a listener of the
    /// test's own in the board tab (which takes no part): `heard`, [type, id, since, epoch] in order.
    static func listen(_ browser: Browser) throws {
        try browser.script("""
            if (window.listener) window.listener.close();
            const heard = window.heard = [];
            window.listener = new BroadcastChannel('touchschool-device');
            window.listener.onmessage = (event) => heard.push([event.data.type, event.data.id, event.data.since, event.data.epoch]);
            """)
    }

    @Test func withoutWebLocksTwoTabsOpenedAtOnceEndWithOnePlaying() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let id = try Device.minsagoID(server)
        let browser = try Self.insecureBrowser(language: "en-US")
        defer { browser.close() }
        let board = try browser.currentWindow()
        try browser.open("\(Self.address(server))/?board")
        try browser.waitFor("the board") { Page.status(browser).state == "online" }
        try Self.expectNoWebLocks(browser)

        var taps = 0
        for round in 1...3 {
            try browser.switchTo(window: board)
            try Self.listen(browser)
            // Both pages start from one script: at the same instant, as far as a browser can.
            try browser.script("for (let i = 0; i < 2; i++) window.open(arguments[0], '_blank')", ["\(Self.address(server))/?school=\(id)"])
            let tabs = try browser.windows().filter { $0 != board }
            try #require(tabs.count == 2)
            try browser.waitFor("one tab plays, one waits (round \(round))") {
                var (playing, waiting) = (0, 0)
                for tab in tabs {
                    try browser.switchTo(window: tab)
                    if Self.plays(browser) && Page.status(browser).state == "online" { playing += 1 } else if Self.waits(browser) { waiting += 1 }
                }
                return playing == 1 && waiting == 1
            }
            // The claims the board heard before the first "owner": both tabs' where they crossed;
            // on a slow machine the second page may start after the first already plays, and then
            // only one.
            try browser.switchTo(window: board)
            let heard = try #require(try browser.script("return heard") as? [[Any]])
            let claims = heard.prefix { $0[0] as? String != "owner" }.filter { $0[0] as? String == "claim" }
            let claimants = Set(claims.compactMap { $0[1] as? String })
            #expect((1...2).contains(claimants.count), "round \(round): \(claimants.count) tabs claimed before one played: \(heard)")
            if claimants.count == 1 { print("round \(round): the claims did not cross (the second page started after the first played)") }
            let owners = Set(heard.filter { $0[0] as? String == "owner" }.compactMap { $0[1] as? String })
            #expect(owners.count == 1, "round \(round): more than one tab said it plays: \(heard)")
            let ranked = claims.compactMap { claim -> (id: String, since: Double, epoch: Double)? in
                guard let id = claim[1] as? String, let since = claim[2] as? Double, let epoch = claim[3] as? Double else { return nil }
                return (id, since, epoch)
            }.sorted { a, b in a.epoch != b.epoch ? a.epoch > b.epoch : a.since != b.since ? a.since < b.since : a.id < b.id }
            // The rank decides between claims each tab heard within its 500 ms; a claim that reached
            // the other tab later (a loaded machine) is a claim "heard none of within 500 ms"
            // (docs/protocol.md, "One tab plays"), and the tab that claimed plays. Which tab heard
            // what when is not what the board sees, so it holds the tabs to the rule it can check:
            // the one that plays is one that claimed.
            #expect(owners.isSubset(of: claimants), "round \(round): a tab that never claimed plays: \(heard)")
            if owners != Set(ranked.prefix(1).map(\.id)) { print("round \(round): the lower rank plays (a claim heard after 500 ms): \(heard)") }

            // Still one a few seconds on (past a silence that makes the waiting tab ask), and
            // the playing tab's taps count once.
            Thread.sleep(forTimeInterval: 4)
            var playing: [String] = []
            for tab in tabs {
                try browser.switchTo(window: tab)
                if Self.plays(browser) { playing.append(tab) } else { #expect(Self.waits(browser)) }
            }
            try #require(playing.count == 1, "round \(round): \(playing.count) tabs play")
            try browser.switchTo(window: playing[0])
            try Page.touch(browser, 2, after: taps, pointerType: "mouse")
            try Page.waitUntilDelivered(browser)
            taps += 2
            #expect(try NetworkPlayEndToEndTests.total(id, on: server) == UInt64(taps))
            #expect(Device.metric("touchschool_open_connections", on: server) == 1)
            for tab in tabs {
                try browser.switchTo(window: tab)
                try browser.closeWindow()
            }
        }

        browser.close()
    }
}
