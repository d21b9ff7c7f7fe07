import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolTestSupport

/// The page `touchschool serve` serves at `/`, in a real headless Chromium against the real
/// server on loopback: search, touch play with several fingers, the board, a terminal player on
/// the same battle under tmux, and taps made while the server is down that count once, sent
/// again by the page or by the page opened again. The README's screenshots are taken here (see `screenshots`).
/// Every page, game and server a test opens is gone when it ends (the suite's browsers when the
/// suite does: `.sharedBrowsers()`).
@Suite(.onOwnThreads, .tags(.process, .tmux, .browser), .sharedBrowsers(), .serialized, .enabled(if: Browser.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"),
                             "chromium, chromedriver, curl or tmux not found (scripts/test installs them): skipped"))
struct WebPageEndToEndTests {

    static let minsago = "민족사관고등학교"
    /// Where the screenshots go: `.build/screenshots` so that a test run leaves the working tree
    /// clean, or the folder `TOUCHSCHOOL_SCREENSHOTS` names (relative to the package), e.g.
    /// `docs/screenshots` to refresh the README's pictures.
    static let screenshots: URL = {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = ProcessInfo.processInfo.environment["TOUCHSCHOOL_SCREENSHOTS"] ?? ".build/screenshots"
        return folder.hasPrefix("/") ? URL(fileURLWithPath: folder) : package.appendingPathComponent(folder)
    }()

    /// A text of the page by element id.
    static func text(_ browser: Browser, _ id: String) -> String {
        (try? browser.string("return document.getElementById('\(id)').textContent")) ?? ""
    }

    static func status(_ browser: Browser) -> (state: String, waiting: String) {
        let state = (try? browser.string("return document.getElementById('status').dataset.state || ''")) ?? ""
        let waiting = (try? browser.string("return document.getElementById('status').dataset.waiting || ''")) ?? ""
        return (state, waiting)
    }

    /// Waits until the page is connected and every tap it made is acknowledged.
    static func waitUntilDelivered(_ browser: Browser) throws {
        try browser.waitFor("every tap acknowledged") { status(browser) == ("online", "0") }
    }

    /// The middle area of the play surface, in viewport coordinates: (left, top, width, height).
    static func playArea(_ browser: Browser) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let values = try #require(try browser.script(
            "const r = document.getElementById('play').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]") as? [Double])
        return (Int(values[0]), Int(values[1]), Int(values[2]), Int(values[3]))
    }

    /// `count` touches spread over the play area: single fingers, and every fifth touch two
    /// fingers at once (multi-touch), each shown before the next.
    static func touch(_ browser: Browser, _ count: Int, after: Int, pointerType: String = "touch") throws {
        var done = 0
        var step = 0
        // Where each press landed, kept by the page: for a failure to say where a touch not
        // counted went, and to tell a touch the browser never delivered from one the game lost.
        _ = try browser.script("""
            if (!window.pressesSeen) {
              window.pressesSeen = [];
              addEventListener('pointerdown', (e) => window.pressesSeen.push([e.pointerType, e.target.id || e.target.tagName,
                Math.round(e.clientX), Math.round(e.clientY), Math.round(performance.now()), e.target.closest('#play') !== null]), true);
            }
            """)
        func pressesOnPlay() -> Int {
            (try? browser.script("return window.pressesSeen.filter((press) => press[5]).length") as? Int) ?? 0
        }
        while done < count {
            let area = try playArea(browser)
            let fingers = (step % 5 == 4 && count - done >= 2) ? 2 : 1
            let points = (0..<fingers).map { finger in
                (x: area.x + area.width * (1 + (step * 3 + finger * 5) % 9) / 10, y: area.y + area.height * (1 + (step * 7 + finger * 3) % 8) / 9)
            }
            let pressed = pressesOnPlay()
            try browser.touch(points, pointerType: pointerType)
            // A touch that reached no part of the play area (seen under load: the area measured,
            // then moved before the touch landed, on the list beside it) is touched again, once,
            // where the area is now, as a finger would tap again. Every press the page did get on
            // the play area must count: that is what is checked below.
            if !Wait.untilBlocking(timeout: 5, { pressesOnPlay() >= pressed + fingers }) {
                let delivered = max(0, pressesOnPlay() - pressed)
                let now = try playArea(browser)
                let again = (0..<(fingers - delivered)).map { finger in
                    (x: now.x + now.width * (1 + (step * 3 + finger * 5) % 9) / 10, y: now.y + now.height * (1 + (step * 7 + finger * 3) % 8) / 9)
                }
                try browser.touch(again, pointerType: pointerType)
            }
            done += fingers
            step += 1
            let expected = String(after + done)
            do {
                try browser.waitFor("my taps \(expected)") { text(browser, "my-taps") == expected }
            } catch {
                let presses = (try? browser.string("return JSON.stringify(window.pressesSeen)")) ?? "?"
                throw Browser.Failure(description: "\(error)\ntouched \(points) in the play area \(area); the presses the page saw: \(presses)")
            }
        }
    }

    static func save(_ png: Data, as name: String) throws {
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        try png.write(to: screenshots.appendingPathComponent(name))
    }

    /// The width of a PNG, from its header.
    static func pngWidth(_ png: Data) -> Int {
        guard png.count > 24, png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return 0 }
        return png[16..<20].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Other schools of the starter catalog with taps before the game: 한국과학영재학교 40,
    /// 휘문고등학교 25, 서울고등학교 12, 부산고등학교 8.
    static let otherSchools: [String: UInt64] = ["S0126": 40, "S0003": 25, "S0001": 12, "S0127": 8]

    @Test func aWebPlayerAndATerminalPlayerPlayOneBattle() throws {
        let server = try ServerProcess.forGames(catalog: nil, scores: Self.otherSchools)
        defer { server.stop() }
        let terminal = try TmuxSession(arguments: ["--lang", "en", "--server", server.baseURL], user: "terminal")
        defer { terminal.close() }
        try terminal.chooseSchool(named: "민사고", tapsLabel: "My taps")

        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        try phone.open(server.baseURL + "/")
        try phone.waitFor("the page") { (try phone.string("return document.body.dataset.ready || ''")) == "true" }
        #expect(try phone.string("return document.documentElement.lang") == "ko")
        #expect(Self.text(phone, "picker-title") == "학교를 검색해주세요")

        // The server's search, abbreviations and all, with the region on the row.
        try phone.type("민사고", into: "#query")
        try phone.waitFor("민족사관고등학교 in the results") { Self.text(phone, "results").contains(Self.minsago) }
        let row = try phone.string("return document.querySelector('#results button').textContent")
        #expect(row.contains(Self.minsago) && row.contains("강원특별자치도 횡성군") && row.contains("고등학교"), "\(row)")
        let id = try phone.string("return document.querySelector('#results button').dataset.id")
        try phone.click("#results button")
        try phone.waitFor("the game") { Self.text(phone, "school-name") == Self.minsago && Self.text(phone, "my-taps") == "0" }
        try Self.waitUntilDelivered(phone)
        #expect(try phone.script("return document.querySelectorAll('#play .puff').length") as? Int == 30)

        try Self.touch(phone, 17, after: 0)
        // The picture while the last puffs still fade, once the ranks (redrawn four times a
        // second) have caught up with the last tap.
        Thread.sleep(forTimeInterval: 0.3)
        try Self.save(try phone.screenshot(), as: "phone.png")
        try Self.touch(phone, 3, after: 17)
        let lastTap = Date()
        // The terminal player sees the page's taps without doing anything…
        try terminal.waitFor("the page's taps on the terminal", timeout: 10) { TmuxSession.number(after: "School total", in: $0) == 20 }
        let seen = Date().timeIntervalSince(lastTap)
        print("web → terminal: the terminal showed the page's last tap \(Int(seen * 1000)) ms after the page did")
        try Self.waitUntilDelivered(phone)
        #expect(Self.text(phone, "my-taps") == "20")
        #expect(Self.text(phone, "school-total") == "20")
        // Twenty touches, still thirty puffs: reused, never added per tap.
        #expect(try phone.script("return document.querySelectorAll('.puff').length") as? Int == 30)
        #expect(Self.text(phone, "warning").isEmpty)
        try phone.waitFor("third, five behind 휘문고") {
            Self.text(phone, "school-rank") == "전국 3위" && Self.text(phone, "gap") == "휘문고등학교까지 6번"
        }
        #expect(try NetworkPlayEndToEndTests.total(id, on: server) == 20)

        // … and the page sees the terminal's.
        try NetworkPlayEndToEndTests.tap(terminal, 7)
        try phone.waitFor("the terminal's taps on the page", timeout: 10) { Self.text(phone, "school-total") == "27" }
        #expect(Self.text(phone, "my-taps") == "20")
        try phone.waitFor("second, 13 behind 한국과학영재학교") {
            Self.text(phone, "school-rank") == "전국 2위" && Self.text(phone, "gap") == "한국과학영재학교까지 14번"
        }
        // The mini-board: the national top three and the two schools around mine (its view, protocol 2),
        // in order, mine highlighted; 부산고 is neither.
        #expect(try phone.string("return [...document.querySelectorAll('#mini-list li')].map(li => li.textContent).join('|')")
                == "1한국과학영재학교40|2민족사관고등학교27|3휘문고등학교25|4서울고등학교12")
        #expect(try phone.string("return document.querySelector('#mini-list li.mine').textContent") == "2민족사관고등학교27")

        // A desktop opened at /?school=ID plays for that school at once, with the mouse.
        let desktop = try Browser(width: 1280, height: 800, touch: false)
        defer { desktop.close() }
        try desktop.open("\(server.baseURL)/?school=\(id)")
        try desktop.waitFor("the game for \(id)") {
            Self.text(desktop, "school-name") == Self.minsago && Self.text(desktop, "school-total") == "27"
        }
        try Self.waitUntilDelivered(desktop)
        try Self.touch(desktop, 3, after: 0, pointerType: "mouse")
        // The keyboard taps too: Space on the focused play area.
        try desktop.script("document.getElementById('play').focus()")
        try desktop.pressKeys(["\u{E00D}"])
        try desktop.waitFor("a tap by keyboard") { Self.text(desktop, "my-taps") == "4" }
        try Self.waitUntilDelivered(desktop)
        try phone.waitFor("the desktop's taps on the phone", timeout: 10) { Self.text(phone, "school-total") == "31" }
        try Self.save(try desktop.screenshot(), as: "desktop.png")

        // The board: my school highlighted; the level league has it, another province's does not.
        try desktop.click("#to-board")
        try desktop.waitFor("the board, nationally") {
            (try desktop.string("return document.querySelector('#board-rows tr.mine')?.textContent || ''")).contains(Self.minsago)
        }
        #expect(try desktop.string("return document.querySelector('#board-rows tr.mine td:last-child').textContent") == "31")
        #expect(try desktop.string("return [...document.querySelectorAll('#board-rows tr')].map(tr => tr.cells[0].textContent + tr.cells[2].textContent).join('|')")
                == "1한국과학영재학교|2민족사관고등학교|3휘문고등학교|4서울고등학교|5부산고등학교")
        try desktop.click("#my-league")
        try desktop.waitFor("my league") {
            let province = try desktop.string("return document.getElementById('league-province').value")
            let rows = try desktop.string("return document.getElementById('board-rows').textContent")
            return province == "강원특별자치도" && rows.contains(Self.minsago)
        }
        try desktop.script("const p = document.getElementById('league-province'); p.value = '서울특별시'; p.dispatchEvent(new Event('change'))")
        try desktop.waitFor("another province's league") {
            try desktop.string("return document.getElementById('board-rows').textContent") == "1-휘문고등학교서울특별시 강남구252-서울고등학교서울특별시 서초구12"
        }
        try desktop.script("const p = document.getElementById('league-province'); p.value = ''; p.dispatchEvent(new Event('change'))")
        try desktop.waitFor("the national board again") {
            (try desktop.string("return document.getElementById('board-rows').textContent")).contains(Self.minsago)
        }
        try Self.save(try desktop.screenshot(), as: "board.png")
        // Full screen for a projector (the Fullscreen API, from the page's button): only the
        // board and the way back out remain.
        try desktop.click("#fullscreen")
        try desktop.waitFor("full screen") {
            try desktop.script("return document.fullscreenElement !== null && getComputedStyle(document.getElementById('to-picker')).display === 'none'") as? Bool == true
        }
        try desktop.click("#fullscreen")
        try desktop.waitFor("out of full screen") { try desktop.script("return document.fullscreenElement === null") as? Bool == true }
        // A 4K projector: the type grows with the screen.
        try desktop.resize(width: 3840, height: 2160)
        try desktop.waitFor("large type on a 4K screen") {
            let size = try desktop.string("return getComputedStyle(document.querySelector('#board-rows td')).fontSize")
            return (Double(size.replacingOccurrences(of: "px", with: "")) ?? 0) >= 30
        }

        try NetworkPlayEndToEndTests.quit(terminal)
        #expect(try NetworkPlayEndToEndTests.total(id, on: server) == 31)

        // Three hundred taps in a moment (dispatched by a script: no finger is that fast): the
        // server refuses what is beyond a human, and the page says so in the original's words.
        try phone.script("""
            const play = document.getElementById('play'), r = play.getBoundingClientRect();
            for (let i = 0; i < 300; i++) play.dispatchEvent(new PointerEvent('pointerdown',
              { bubbles: true, cancelable: true, pointerId: 1, clientX: r.left + 10 + i % 50, clientY: r.top + 10 + i % 70 }));
            """)
        try phone.waitFor("the refusal", timeout: 10) { Self.text(phone, "warning") == "비정상적인 터치 수가 감지되었습니다." }
        try Self.waitUntilDelivered(phone)
        let afterBurst = try NetworkPlayEndToEndTests.total(id, on: server)
        #expect(afterBurst < 31 + 300, "the burst counted in full: \(afterBurst)")
        try phone.waitFor("the server's total on the page") { Self.text(phone, "school-total") == String(afterBurst) }
        #expect(try phone.script("return document.querySelectorAll('.puff').length") as? Int == 30)
        let screenshots = try ["phone.png", "desktop.png"].map { try Data(contentsOf: Self.screenshots.appendingPathComponent($0)) }
        #expect(screenshots.map(Self.pngWidth) == [390, 1280])

        phone.close()
        desktop.close()
    }

    @Test func tapsMadeWhileTheConnectionIsDownCountOnceEvenWhenThePageIsClosed() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let id = try WebPageDeviceEndToEndTests.minsagoID(server)
        let phone = try Browser(width: 360, height: 740, touch: true, language: "en-US")
        defer { phone.close() }
        try phone.open("\(server.baseURL)/?school=\(id)")
        try phone.waitFor("the game in English") { Self.text(phone, "school-name") == Self.minsago && Self.text(phone, "status") == "Online" }
        // Readable at 360 px: nothing wider than the screen.
        #expect(try phone.script("return document.documentElement.scrollWidth") as? Int == 360)
        try Self.touch(phone, 5, after: 0)
        try Self.waitUntilDelivered(phone)

        // The connection drops (the server is killed) and comes back: the taps made meanwhile
        // are sent again by the same page.
        server.kill9()
        try phone.waitFor("offline") { Self.status(phone).state != "online" }
        try Self.touch(phone, 4, after: 5)
        try phone.waitFor("four taps waiting") { Self.text(phone, "status") == "Offline · 4 taps waiting" }
        try server.restart()
        try Self.waitUntilDelivered(phone)
        #expect(try NetworkPlayEndToEndTests.total(id, on: server) == 9)

        // Again, and this time the page is closed before the server is back: the taps wait in
        // the page's storage and go out when the page is opened again.
        server.kill9()
        try phone.waitFor("offline") { Self.status(phone).state != "online" }
        try Self.touch(phone, 6, after: 9)
        try phone.waitFor("six taps waiting") { Self.text(phone, "status") == "Offline · 6 taps waiting" }
        try phone.open("about:blank")
        try server.restart()
        #expect(try NetworkPlayEndToEndTests.total(id, on: server) == 9)
        try phone.open("\(server.baseURL)/?school=\(id)")
        try Self.waitUntilDelivered(phone)
        #expect(Self.text(phone, "my-taps") == "15")
        #expect(Self.text(phone, "school-total") == "15")
        #expect(try NetworkPlayEndToEndTests.total(id, on: server) == 15)

        // Once more after everything was acknowledged: nothing is sent twice.
        try phone.open("\(server.baseURL)/?school=\(id)")
        try Self.waitUntilDelivered(phone)
        #expect(Self.text(phone, "my-taps") == "15")
        Thread.sleep(forTimeInterval: 1)
        #expect(try NetworkPlayEndToEndTests.total(id, on: server) == 15)
        phone.close()
    }

    /// A school name that is markup stays text: on the results, in the header and on the board.
    @Test func namesFromTheCatalogAreShownAsTextNeverAsMarkup() throws {
        let hostile = "<img src=x onerror=document.title=1>한빛고등학교<b>"
        let catalog = TmuxSession.catalogJSON.replacingOccurrences(of: "\"한빛고등학교\"", with: "\"\(hostile)\"")
        let server = try ServerProcess.forGames(catalog: catalog)
        defer { server.stop() }
        let browser = try Browser(width: 1280, height: 800, touch: false, language: "en-US")
        defer { browser.close() }
        try browser.open(server.baseURL + "/")
        try browser.type("한빛", into: "#query")
        try browser.waitFor("the school in the results") { Self.text(browser, "results").contains("한빛고등학교") }
        #expect(try browser.string("return document.querySelector('#results .name').textContent") == hostile)
        try browser.click("#results button")
        try browser.waitFor("the game") { Self.text(browser, "school-name") == hostile }
        try Self.touch(browser, 2, after: 0, pointerType: "mouse")
        try Self.waitUntilDelivered(browser)
        try browser.click("#to-board")
        try browser.waitFor("the board") {
            try browser.string("return document.querySelector('#board-rows tr.mine td:nth-child(3)')?.textContent || ''") == hostile
        }
        // No element a name made: the page's own (with an id, as the projector's QR image) aside.
        #expect(try browser.script("return document.querySelectorAll('img:not([id]), b:not([id])').length") as? Int == 0)
        #expect(try browser.string("return document.title") == "School Battle TouchSchool")
    }

    /// Seen before: an imported 10 KB school name without a space widened the search list to
    /// 174,275 px. On a phone the page keeps its width with such a name in the results, the
    /// game's heading and the board, and a result shows at most two lines of it.
    @Test func aSchoolNameOfTenKilobytesKeepsThePageOnAPhonesWidth() throws {
        let long = "한빛고등학교" + String(repeating: "W", count: 10_000)
        let catalog = TmuxSession.catalogJSON.replacingOccurrences(of: "\"한빛고등학교\"", with: "\"\(long)\"")
        let server = try ServerProcess.forGames(catalog: catalog)
        defer { server.stop() }
        let browser = try Browser(width: 390, height: 844, touch: true, language: "ko-KR")
        defer { browser.close() }
        func widths() throws -> (page: Int, view: Int) {
            let page = try browser.script("return document.documentElement.scrollWidth") as? Int ?? -1
            let view = try browser.script("return document.documentElement.clientWidth") as? Int ?? 0
            return (page, view)
        }
        try browser.open(server.baseURL + "/")
        try browser.type("한빛", into: "#query")
        try browser.waitFor("the school in the results") { Self.text(browser, "results").contains(long) }
        let results = try widths()
        #expect(results.page <= results.view, "the search list: \(results)")
        // Two lines are about 2.4 to 3 em high; the whole name would be hundreds.
        let tenthsOfEm = try browser.script("""
            const name = document.querySelector('#results .name');
            return Math.round(10 * name.getBoundingClientRect().height / parseFloat(getComputedStyle(name).fontSize));
            """) as? Int ?? -1
        #expect((10...35).contains(tenthsOfEm), "the name in a result is \(tenthsOfEm) tenths of an em high")
        try browser.click("#results button")
        try browser.waitFor("the game") { Self.text(browser, "school-name") == long }
        let game = try widths()
        #expect(game.page <= game.view, "the game: \(game)")
        try Self.touch(browser, 2, after: 0)
        try Self.waitUntilDelivered(browser)
        try browser.click("#to-board")
        try browser.waitFor("the board") { Self.text(browser, "board-rows").contains(long) }
        let board = try widths()
        #expect(board.page <= board.view, "the board: \(board)")
    }
}
