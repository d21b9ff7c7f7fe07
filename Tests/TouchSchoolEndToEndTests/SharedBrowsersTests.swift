import Foundation
import Testing
import TouchSchoolTestSupport

/// A suite's browsers (`SharedBrowsers`) lent from one test's page to the next: the next page
/// finds the browser as new (no window, storage, script or device of the last page's left) and
/// is the device it asked for, as a browser of its own was.
@Suite(.onOwnThreads, .tags(.process, .browser), .sharedBrowsers(), .serialized, .enabled(if: Browser.isInstalled, "chromium or chromedriver not found (scripts/test installs them): skipped"))
struct SharedBrowsersTests {
    /// What a page sees of its device and what the last page may have left: its viewport and
    /// screen, touch, pointer, focus, language, and the origin's storage, the service worker,
    /// a script run before every page, the windows.
    static func facts(_ browser: Browser) throws -> [String: Any] {
        try #require(try browser.script("""
            return { width: innerWidth, height: innerHeight, screen: [screen.width, screen.height], touchPoints: navigator.maxTouchPoints,
                     coarse: matchMedia('(pointer: coarse)').matches, focused: document.hasFocus(), language: navigator.language,
                     stored: localStorage.getItem('left'), cookie: document.cookie, scripted: window.leftBehind === true }
            """) as? [String: Any])
    }

    /// The pointer events and touch events a button's click brings, in order.
    static func clickEvents(_ browser: Browser) throws -> [String] {
        try browser.script("""
            const button = document.body.appendChild(document.createElement('button'));
            button.id = 'probe'; button.textContent = 'probe';
            button.style.cssText = 'position: fixed; left: 0; top: 0; width: 200px; height: 80px; z-index: 2147483647';
            window.heard = [];
            for (const type of ['pointerdown', 'touchstart', 'mousedown', 'click'])
              button.addEventListener(type, (event) => window.heard.push(type + ':' + (event.pointerType || '')));
            return true
            """)
        try browser.click("#probe")
        return try #require(try browser.script("return window.heard") as? [String])
    }

    @Test func theNextPageFindsTheBrowserAsNewAndIsTheDeviceItAskedFor() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        // The game's page: a phone lays out a page without a viewport tag (a JSON answer) 980 px wide.
        let page = "\(server.baseURL)/"

        let desktop = try Browser(width: 1000, height: 760, touch: false)
        try desktop.runBeforeEveryPage("window.leftBehind = true")
        try desktop.open(page)
        try desktop.script("localStorage.setItem('left', 'behind'); document.cookie = 'left=behind; max-age=3600'; return true")
        _ = try desktop.newWindow()
        let seen = try Self.facts(desktop)
        #expect(seen["width"] as? Int == 1000 && seen["touchPoints"] as? Int == 0 && seen["coarse"] as? Bool == false, "\(seen)")
        #expect(seen["stored"] as? String == "behind" && seen["scripted"] as? Bool == true, "\(seen)")
        #expect(try Self.clickEvents(desktop) == ["pointerdown:mouse", "mousedown:", "click:mouse"])
        let profile = desktop.profile
        desktop.close()

        // The same browser, lent again: a phone's page, with nothing of the desktop's.
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        #expect(phone.profile == profile, "the suite's browser was lent again")
        #expect(try phone.windows().count == 1)
        try phone.open(page)
        let facts = try Self.facts(phone)
        #expect(facts["width"] as? Int == 390 && facts["height"] as? Int == 844, "\(facts)")
        #expect(facts["screen"] as? [Int] == [390, 844], "\(facts)")
        #expect(facts["touchPoints"] as? Int == 1 && facts["coarse"] as? Bool == true, "\(facts)")
        #expect(facts["focused"] as? Bool == true && facts["language"] as? String == "ko-KR", "\(facts)")
        #expect(facts["stored"] is NSNull && facts["cookie"] as? String == "" && facts["scripted"] as? Bool == false, "\(facts)")
        // A phone's click is a tap, as chromedriver's mobile emulation made it.
        #expect(try Self.clickEvents(phone) == ["pointerdown:touch", "touchstart:", "mousedown:", "click:touch"])
        let screenshot = try phone.screenshot()
        #expect(screenshot.count > 24 && Array(screenshot[16..<24]) == [0, 0, 1, 0x86, 0, 0, 3, 0x4C], "a 390 × 844 PNG")
    }

    /// Another language, or a page open beside another, is another browser of the suite's.
    @Test func aSecondPageAtOnceOrAnotherLanguageIsAnotherBrowser() throws {
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        let projector = try Browser(width: 1280, height: 720, touch: false)
        defer { projector.close() }
        let english = try Browser(width: 1280, height: 720, touch: false, language: "en-US")
        defer { english.close() }
        #expect(Set([phone.profile, projector.profile, english.profile]).count == 3)
        #expect(try english.string("return navigator.language") == "en-US")
    }
}
