import Foundation
import Testing
import TouchSchoolTestSupport

/// The page as a phone app, in a real headless Chromium at 390×844 against the real server:
/// Chromium's own verdict that it is installable (its manifest, icons and service worker), and a
/// cold start with the server gone: a new window opens the game from the worker's cache, taps
/// wait in the outbox, and once the server is back they count once. What else of the server is
/// opened in the worker's scope (a health check, an API answer, a QR code, the board stream) is the
/// server's own, never the game's offline copy. Every browser and server a test starts is gone
/// when it ends.
@Suite(.onOwnThreads, .tags(.process, .browser), .sharedBrowsers(), .serialized, .enabled(if: Browser.isInstalled, "chromium or chromedriver not found (scripts/test installs them): skipped"))
struct WebPageAppEndToEndTests {
    typealias Page = WebPageEndToEndTests

    @Test func thePageIsInstallableAndOpensAndPlaysOfflineFromAColdStart() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        let game = "\(server.baseURL)/?school=S0003"
        try Self.openUnderTheWorker(game, in: phone)
        try phone.waitFor("Chromium's verdict: installable", timeout: 10) { try phone.installabilityErrors().isEmpty }
        try Page.touch(phone, 2, after: 0)
        try Page.waitUntilDelivered(phone)

        // The server gone, the game's window closed; a new one opens the game cold.
        server.kill9()
        try Self.openCold(game, in: phone)
        try phone.waitFor("the game, offline") { Page.text(phone, "my-taps") == "2" && Page.status(phone).state == "offline" }
        try Page.touch(phone, 3, after: 2)
        // Kept in the outbox while the game tries again (its status goes between offline and connecting).
        try phone.waitFor("three taps waiting") { Page.status(phone).waiting == "3" }
        #expect(Page.status(phone).state != "online")

        // The server back: the three waiting taps count, once.
        try server.restart()
        try Page.waitUntilDelivered(phone)
        #expect(try NetworkPlayEndToEndTests.total("S0003", on: server) == 5)
        phone.close()
    }

    /// Links anyone can send open in the worker's scope as what they are (a health check, an API
    /// answer, a QR code of the sender's text): the worker keeps the game's page as it was, and a
    /// cold start with the server gone opens the game, its taps there.
    @Test func linksOpenedInTheWorkersScopeNeverTakeTheGamesPlace() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        let game = "\(server.baseURL)/?school=S0003"
        try Self.openUnderTheWorker(game, in: phone)
        try Page.touch(phone, 2, after: 0)
        try Page.waitUntilDelivered(phone)

        for (link, shows) in [("/healthz", #""status":"ok""#), ("/v1/rounds", "[]"), ("/v1/qr.svg?text=SENDERS-TEXT", "<svg")] {
            try phone.open(server.baseURL + link)
            let page = try phone.string("return document.documentElement.outerHTML")
            #expect(page.contains(shows), "\(link) opens as \(page.prefix(200))")
            let kept = try phone.script("return caches.match('/').then((page) => page ? page.headers.get('Content-Type') : 'nothing')") as? String
            #expect(kept?.hasPrefix("text/html") == true, "after \(link), the worker keeps \(kept ?? "?") as the game's page")
        }

        server.kill9()
        try Self.openCold(game, in: phone)
        try phone.waitFor("the game, offline") { Page.text(phone, "my-taps") == "2" && Page.status(phone).state == "offline" }
        phone.close()
    }

    /// The board stream opened in a tab of a browser with the worker installed loads as it does
    /// without one: its events show as they come, none waits for an end the stream never has.
    @Test func theBoardStreamOpenedInATabShowsItsEvents() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        try Self.openUnderTheWorker("\(server.baseURL)/?school=S0003", in: phone)
        // Opened by the game's page, which reads the tab's text: the driver would wait for the
        // stream's tab to finish loading, which a stream never does.
        try phone.script("window.stream = window.open('/v1/board?count=10'); return true")
        try phone.waitFor("the stream's first event in its tab") {
            try phone.string("const tab = window.stream.document; return tab.body ? tab.body.innerText : ''").contains("event: page")
        }
        #expect(try phone.script("return window.stream.navigator.serviceWorker.controller !== null") as? Bool == true,
                "the stream's tab is in the worker's scope")
        phone.close()
    }

    /// Closes the current window and opens `url` in a new one: the app started cold.
    static func openCold(_ url: String, in browser: Browser) throws {
        let first = try browser.currentWindow()
        let second = try browser.newWindow()
        try browser.switchTo(window: first)
        try browser.closeWindow()
        try browser.switchTo(window: second)
        try browser.open(url)
    }

    /// Opens `url` (the game) and waits until the worker installed from it controls the page.
    static func openUnderTheWorker(_ url: String, in browser: Browser) throws {
        try browser.open(url)
        try Page.waitUntilDelivered(browser)
        try browser.waitFor("the service worker in control") {
            try browser.script("return navigator.serviceWorker.controller !== null") as? Bool == true
        }
    }
}
