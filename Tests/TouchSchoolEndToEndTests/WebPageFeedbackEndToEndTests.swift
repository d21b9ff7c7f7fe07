import Foundation
import Testing
import TouchSchoolTestSupport

/// The play page's sound and touch feedback on a phone, in a real headless Chromium against the
/// real server: every sound the page starts (an oscillator's `start`) and every vibration is
/// counted by a script that runs before the page's own. Taps click and buzz, a refused burst
/// plays the warning, muted plays nothing, and the mute is still on after a reload. Every page
/// and server a test opens is gone when it ends (the suite's browsers when the suite does).
@Suite(.onOwnThreads, .tags(.process, .browser), .sharedBrowsers(), .serialized, .enabled(if: Browser.isInstalled, "chromium or chromedriver not found (scripts/test installs them): skipped"))
struct WebPageFeedbackEndToEndTests {
    typealias Page = WebPageEndToEndTests

    /// Records each sound started (its wave and pitch) and each vibration, from the page's first moment.
    static let counter = """
        window.sounds = [];
        window.vibrations = 0;
        const start = OscillatorNode.prototype.start;
        OscillatorNode.prototype.start = function (...when) { window.sounds.push(this.type); return start.apply(this, when); };
        navigator.vibrate = () => { window.vibrations += 1; return true; };
        """

    static func sounds(_ browser: Browser) throws -> [String] {
        try browser.script("return window.sounds") as? [String] ?? []
    }

    static func vibrations(_ browser: Browser) throws -> Int {
        try browser.script("return window.vibrations") as? Int ?? -1
    }

    /// Three hundred taps at once (no finger is that fast): the server refuses most of them.
    static func refusedBurst(_ phone: Browser) throws {
        try WebPageDeviceEndToEndTests.dispatchTaps(phone, 300)
        try phone.waitFor("the refusal", timeout: 10) { Page.text(phone, "warning") == "비정상적인 터치 수가 감지되었습니다." }
        try Page.waitUntilDelivered(phone)
    }

    @Test func tapsSoundAndBuzzARefusalWarnsAndAMuteIsRemembered() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let phone = try Browser(width: 390, height: 844, touch: true, flags: ["--autoplay-policy=no-user-gesture-required"])
        defer { phone.close() }
        try phone.runBeforeEveryPage(Self.counter)
        let game = "\(server.baseURL)/?school=S0003"
        try phone.open(game)
        try Page.waitUntilDelivered(phone)
        #expect(Page.text(phone, "sound") == "소리 켜짐")
        #expect(try Self.sounds(phone).isEmpty)

        // Five touches, a click and a buzz each.
        try Page.touch(phone, 5, after: 0)
        #expect(try Self.sounds(phone) == Array(repeating: "triangle", count: 5))
        #expect(try Self.vibrations(phone) == 5)

        // The burst's 300 taps in a moment are a short rattle (a click and a buzz every 40 ms at
        // most: how many depends on how long the browser takes to dispatch them), and each
        // refusal plays the warning (two low tones) and buzzes. A burst the browser takes longer
        // than a batch's time to dispatch (a busy machine) goes in two batches, refused twice.
        try Self.refusedBurst(phone)
        let sounds = try Self.sounds(phone)
        let rattle = sounds.dropFirst(5).filter { $0 == "triangle" }.count
        let warnings = sounds.filter { $0 == "square" }.count
        #expect(sounds.prefix(5) == ["triangle", "triangle", "triangle", "triangle", "triangle"] && sounds.last == "square", "\(sounds)")
        #expect(sounds.allSatisfy { $0 == "triangle" || $0 == "square" } && (1...30).contains(rattle), "\(sounds)")
        #expect(warnings % 2 == 0 && (1...3).contains(warnings / 2), "\(sounds)")
        #expect(try Self.vibrations(phone) == 5 + rattle + warnings / 2)

        // Muted: the choice survives a reload, and nothing sounds (a phone still buzzes).
        try phone.click("#sound")
        try phone.waitFor("muted") { Page.text(phone, "sound") == "소리 꺼짐" }
        #expect(try phone.string("return document.getElementById('sound').getAttribute('aria-pressed')") == "true")
        try phone.open(game)
        try Page.waitUntilDelivered(phone)
        #expect(Page.text(phone, "sound") == "소리 꺼짐")
        let before = Int(Page.text(phone, "my-taps")) ?? 0
        try Page.touch(phone, 3, after: before)
        try Self.refusedBurst(phone)
        #expect(try Self.sounds(phone).isEmpty)
        #expect(try Self.vibrations(phone) >= 3 + 1 + 1)

        // Sound on again.
        try phone.click("#sound")
        try phone.waitFor("sound on") { Page.text(phone, "sound") == "소리 켜짐" }
        let now = Int(Page.text(phone, "my-taps")) ?? 0
        try Page.touch(phone, 1, after: now)
        #expect(try Self.sounds(phone) == ["triangle"])
        phone.close()
    }

    /// A phone the operator bans (`touchschool admin ban`, as docs/operations.md tells): its next
    /// taps are refused and the page says to ask the operator, as it is banned, not that it tapped
    /// too fast. Its address banned too (`admin ban-address`), the page opened again is refused
    /// (4003) and says so, what to do first, within the 390-px phone.
    @Test func aBannedPhoneIsToldTheOperatorBannedIt() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        try phone.open("\(server.baseURL)/?school=S0003")
        try Page.waitUntilDelivered(phone)
        try Page.touch(phone, 3, after: 0)
        try Page.waitUntilDelivered(phone)
        let admin = ["--server", server.baseURL, "--data-dir", server.dataDirectory]
        let listed = DataCommandsBinary.run(["admin", "devices", "--json"] + admin)
        let devices = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]]
        let id = try #require(devices?.first?["id"] as? String, "\(listed)")
        let banned = DataCommandsBinary.run(["admin", "ban", id] + admin)
        try #require(banned.status == 0, "\(banned)")
        // Two taps at once: their batch's acknowledgement takes them back off "my taps".
        try WebPageDeviceEndToEndTests.dispatchTaps(phone, 2)
        try phone.waitFor("the ban said", timeout: 10) { Page.text(phone, "warning") == "운영자에게 문의하세요: 차단된 기기라 터치가 세지 않습니다." }
        let address = DataCommandsBinary.run(["admin", "ban-address", "127.0.0.1"] + admin)
        try #require(address.status == 0, "\(address)")
        try phone.open("\(server.baseURL)/?school=S0003")
        // First what to do, then why, then the taps the page keeps (a burst's last may still wait).
        try phone.waitFor("the address's ban said", timeout: 10) {
            Page.text(phone, "status").hasPrefix("운영자에게 문의하세요: 이 주소는 차단되어 서버가 받지 않습니다.")
        }
        // Wrapped, not clipped: nothing wider than the phone, the whole line inside the status.
        #expect(try phone.script("return document.documentElement.scrollWidth") as? Int == 390)
        let fits = try phone.script("""
            const status = document.getElementById('status'), box = status.getBoundingClientRect();
            return status.scrollWidth <= status.clientWidth && box.left >= 0 && box.right <= 390
            """) as? Bool
        #expect(fits == true)
        phone.close()
    }
}
