import Foundation
import Testing
import TouchSchoolTestSupport

/// The page as a phone app, in a real headless Chromium at 390×844 against the real server:
/// Chromium's own verdict that it is installable (its manifest, icons and service worker), and a
/// cold start with the server gone: a new window opens the game from the worker's cache, taps
/// wait in the outbox, and once the server is back they count once. Every browser and server a
/// test starts is gone when it ends.
@Suite(.onOwnThreads, .serialized, .enabled(if: Browser.isInstalled, "chromium or chromedriver not found (scripts/test installs them): skipped"))
struct WebPageAppEndToEndTests {
    typealias Page = WebPageEndToEndTests

    @Test func thePageIsInstallableAndOpensAndPlaysOfflineFromAColdStart() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        let game = "\(server.baseURL)/?school=S0003"
        try phone.open(game)
        try Page.waitUntilDelivered(phone)
        try phone.waitFor("the service worker in control") {
            try phone.script("return navigator.serviceWorker.controller !== null") as? Bool == true
        }
        try phone.waitFor("Chromium's verdict: installable", timeout: 10) { try phone.installabilityErrors().isEmpty }
        try Page.touch(phone, 2, after: 0)
        try Page.waitUntilDelivered(phone)

        // The server gone, the game's window closed; a new one opens the game cold.
        server.kill9()
        let first = try phone.currentWindow()
        let second = try phone.newWindow()
        try phone.switchTo(window: first)
        try phone.closeWindow()
        try phone.switchTo(window: second)
        try phone.open(game)
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
        #expect(phone.processesUsingFolder().isEmpty)
    }
}
