import Foundation
import Testing
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// Debian's QR reader (`zbar-tools`), which reads the projector's code back.
private let zbarimg = "/usr/bin/zbarimg"

/// The projector's page (`/?board`) at 1920×1080 with 40 schools on the board, in a real headless
/// Chromium against the real server: a screenful of rows that needs no scrolling, pages turned by
/// themselves, the join address with a QR code that a QR reader of its own (Debian's `zbarimg`)
/// reads back from a screenshot, ▲/▼ when a school passes others, controls only while the
/// pointer moves, and a screen-wide overlay while the board's stream is lost. The README's
/// projector picture is taken here. Every page and server a test opens is gone when it ends (the
/// suite's browsers when the suite does).
@Suite(.onOwnThreads, .tags(.process, .browser), .sharedBrowsers(), .serialized, .enabled(if: Browser.isInstalled && FileManager.default.isExecutableFile(atPath: zbarimg),
                                            "chromium, chromedriver, curl or zbarimg not found (scripts/test installs them): skipped"))
struct WebPageProjectorEndToEndTests {
    typealias Page = WebPageEndToEndTests

    /// Forty schools of the starter catalog with taps: 서울고 100, 경기고 99, 휘문고 98 on top,
    /// then S0004 … S0040 at 90 down to 54.
    static let scores: [String: UInt64] = {
        var scores: [String: UInt64] = ["S0001": 100, "S0002": 99, "S0003": 98]
        for number in 4...40 { scores[String(format: "S%04d", number)] = UInt64(94 - number) }
        return scores
    }()

    /// The rows shown, as "rank movement name" each.
    static func rows(_ browser: Browser) throws -> [String] {
        try browser.string("""
            return [...document.querySelectorAll('#board-rows tr')].map((tr) => tr.cells[0].textContent + ' ' + tr.cells[1].textContent + ' ' + tr.cells[2].textContent).join('|')
            """).split(separator: "|").map(String.init)
    }

    static func visibility(_ browser: Browser, _ selector: String) throws -> String {
        try browser.string("return getComputedStyle(document.querySelector('\(selector)')).visibility")
    }

    /// What `zbarimg` reads in a PNG: the texts of the QR codes it finds, one a line.
    static func qrCodes(in png: Data) throws -> String {
        let file = NSTemporaryDirectory() + "touchschool-qr-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).png"
        try png.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        return Subprocess.run(zbarimg, ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", file]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theProjectorFillsTheScreenTurnsItsPagesAndShowsWhereToJoin() throws {
        let server = try ServerProcess.forGames(catalog: nil, scores: Self.scores)
        defer { server.stop() }
        let projector = try Browser(width: 1920, height: 1080, touch: false)
        defer { projector.close() }
        try projector.fillScreen(width: 1920, height: 1080)
        // What the Content-Security-Policy refused, from the page's first moment: nothing, with
        // the QR code drawn and the rows sized by the page.
        try projector.runBeforeEveryPage("""
            window.refused = [];
            document.addEventListener('securitypolicyviolation', (event) => window.refused.push(event.violatedDirective + ' ' + event.blockedURI));
            """)
        try projector.open(server.baseURL + "/?board")
        // The second page as the page itself first draws it (number and rows together), kept for
        // the test to read however late: it stays 8 s, which a loaded machine's WebDriver calls
        // can spend.
        _ = try projector.script("""
            window.secondPage = null;
            (function watch() {
              const rows = [...document.querySelectorAll('#board-rows tr')].map((tr) => tr.cells[0].textContent + ' ' + tr.cells[1].textContent);
              if (document.getElementById('board-page')?.textContent === '2' && rows[0]?.startsWith('11 ')) { window.secondPage = rows; return; }
              requestAnimationFrame(watch);
            })();
            """)
        // The rows as read with the page's number: read again later, they may be the next page's
        // (a page stays 8 s, which a loaded machine spends between two WebDriver calls). Until the
        // school directory has come, a row shows the school's id. How many pages have taps is
        // known once a page reaches a school without one (the page's stream ranks every school):
        // not yet on the first page.
        var firstPage: [String] = []
        try projector.waitFor("the first page, named") {
            firstPage = try Self.rows(projector)
            return firstPage.count == 10 && Page.text(projector, "board-page") == "1" && firstPage.first == "1 - 서울고등학교"
        }
        #expect(firstPage.last == "10 - 경복고등학교")

        // A whole page on the screen, nothing to scroll, in rows sized to the screen: ten of
        // them take most of its height.
        #expect(try projector.script("return document.documentElement.scrollHeight") as? Int == 1080)
        let lastBottom = try #require(try projector.script("return document.querySelector('#board-rows tr:last-child').getBoundingClientRect().bottom") as? Double)
        #expect(lastBottom <= 1080)
        let rowHeight = try #require(try projector.script("return document.querySelector('#board-rows tr').getBoundingClientRect().height") as? Double)
        #expect(rowHeight * 10 >= 1080 * 0.7, "rows of \(rowHeight) px")

        // The join address in words and as a QR code that a reader of its own reads back; the
        // server listens on 127.0.0.1 only (`serve`'s default): beside it, that no phone can open
        // it, and what to run instead.
        #expect(Page.text(projector, "join-url") == server.baseURL + "/")
        try projector.waitFor("the warning beside the code") {
            try projector.string("return document.getElementById('join-warning').innerText").hasSuffix("touchschool serve --host 0.0.0.0")
        }
        #expect(Page.text(projector, "join-warning").hasPrefix("휴대폰에서는 이 주소를 열 수 없습니다."))
        let screenshot = try projector.screenshot()
        #expect(try Self.qrCodes(in: screenshot) == server.baseURL + "/")
        try Page.save(screenshot, as: "projector.png")

        #expect(try projector.script("return window.refused") as? [String] == [])

        // No controls until the pointer moves, and hidden again once it rests.
        for control in ["#league-level", "#my-league", "#fullscreen"] { #expect(try Self.visibility(projector, control) == "hidden", "\(control)") }
        // Both seen together, by the page itself at each frame: the controls hide again 3 s after
        // the pointer rests, and a loaded machine's WebDriver round trips can take longer than that.
        _ = try projector.script("""
            window.controlsSeen = false;
            const shown = (selector) => getComputedStyle(document.querySelector(selector)).visibility === 'visible';
            (function watch() {
              if (shown('#league-level') && shown('#my-league')) { window.controlsSeen = true; return; }
              requestAnimationFrame(watch);
            })();
            """)
        try projector.movePointer(x: 600, y: 500)
        try projector.waitFor("the controls") { try projector.script("return window.controlsSeen") as? Bool == true }
        try projector.waitFor("the controls hidden again", timeout: 8) { try Self.visibility(projector, "#league-level") == "hidden" }

        // The pages turn by themselves.
        try projector.waitFor("the second page", timeout: 12) { try projector.script("return window.secondPage") is [String] }
        #expect(try (projector.script("return window.secondPage") as? [String])?.count == 10)

        // 휘문고 passes the two above it: ▲2 for it, ▼1 for each passed, as the terminal shows
        // it (a moment later the arrows are gone: every row that ever showed one is recorded).
        // The player: another window of the same browser (a board tab never takes a player's place).
        let board = try projector.currentWindow()
        let player = try projector.newWindow()
        try projector.switchTo(window: player)
        try projector.open(server.baseURL + "/?school=S0003")
        try Page.waitUntilDelivered(projector)
        try projector.switchTo(window: board)
        try projector.script("""
            window.moved = new Set();
            new MutationObserver(() => {
              for (const tr of document.querySelectorAll('#board-rows tr')) {
                if (/[▲▼]/.test(tr.cells[1].textContent)) window.moved.add(tr.cells[1].textContent + ' ' + tr.cells[2].textContent);
              }
            }).observe(document.getElementById('board-rows'), { childList: true });
            """)
        // The fourth page reached the schools without a tap: now the pages are counted.
        try projector.waitFor("the first page of four", timeout: 40) { Page.text(projector, "board-page") == "1 / 4" }
        try projector.switchTo(window: player)
        try WebPageDeviceEndToEndTests.dispatchTaps(projector, 3)
        try Page.waitUntilDelivered(projector)
        try projector.switchTo(window: board)
        // The page sends the first tap at once and the other two a quarter second later: the
        // board may show 휘문고 between (▲1, tied with 경기고) on its way up, and no other school.
        try projector.waitFor("the arrows", timeout: 6) {
            let moved = try projector.string("return [...window.moved].sort().join('|')").split(separator: "|").map(String.init)
            return Set(["▲2 휘문고등학교", "▼1 경기고등학교", "▼1 서울고등학교"]).isSubset(of: moved)
                && moved.allSatisfy { $0.hasSuffix("휘문고등학교") || $0 == "▼1 경기고등학교" || $0 == "▼1 서울고등학교" }
        }

        // The board's stream lost: the whole screen says so until it is back.
        server.kill9()
        try projector.waitFor("the offline overlay", timeout: 10) {
            try projector.script("return !document.getElementById('offline-overlay').hidden") as? Bool == true
        }
        let overlay = try #require(try projector.script("""
            const r = document.getElementById('offline-overlay').getBoundingClientRect(); return [r.width, r.height]
            """) as? [Double])
        #expect(overlay == [1920, 1080])
        #expect(Page.text(projector, "offline-overlay").contains("오프라인"))
        try server.restart()
        try projector.waitFor("the overlay gone", timeout: 30) {
            try projector.script("return document.getElementById('offline-overlay').hidden") as? Bool == true
        }

        projector.close()
    }

    /// The projector opened on the teacher's own machine (`http://localhost:P/?board`), the server
    /// on every interface: the join address, in words and in the QR code a reader reads back, is
    /// the phone page `serve` printed for the class, not the loopback no phone can reach.
    /// Seen before: the region column cut `강원특별자치도 …` with half of the row empty. On a 1080p
    /// projector the longest names and regions of the starter catalog are shown whole.
    /// The teacher's projector: the address `touchschool round link` prints, with the admin token
    /// in its fragment. The page takes the token out of its address at once and shows the round's
    /// controls; a round started there is the server's, with its title as typed (a `<b>` shown as
    /// text); stopped there, it ends. The plain board shows no controls and holds no token.
    @Test func theTeachersLinkStartsAndStopsARoundAndKeepsTheTokenOutOfTheAddress() throws {
        let server = try ServerProcess.forGames(catalog: nil, scores: Self.scores)
        defer { server.stop() }
        let link = DataCommandsBinary.run(["round", "link", "--server", server.baseURL, "--data-dir", server.dataDirectory])
        try #require(link.status == 0, "round link: \(link.error)")
        let address = link.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let token = try String(contentsOfFile: "\(server.dataDirectory)/admin.token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(address == "\(server.baseURL)/?board#admin=\(token)")

        let teacher = try Browser(width: 1280, height: 720, touch: false)
        defer { teacher.close() }
        try teacher.open(address)
        // The controls: in the page (shown, as the board's filters, while the pointer moves).
        try teacher.waitFor("the controls") { try teacher.script("return document.getElementById('admin').hidden") as? Bool == false }
        #expect(try teacher.string("return location.href") == "\(server.baseURL)/?board", "the token left the address")
        #expect(try teacher.string("return document.body.innerText").contains(token) == false)

        // Shown by the pointer, then kept while in use (a title takes longer to type than the
        // pointer's 3 s of rest): the form is still there after the controls would have hidden.
        try teacher.movePointer(x: 600, y: 400)
        try teacher.type("3반 <b>대항전</b>", into: "#admin-title")
        try teacher.waitFor("the board's filters at rest", timeout: 8) { try Self.visibility(teacher, "#league-level") == "hidden" }
        #expect(try Self.visibility(teacher, "#admin") == "visible", "the form in use stays")
        try teacher.click("#admin-start")
        var rounds: [RoundAnswer.Summary] = []
        try teacher.waitFor("the round started") {
            let answer = try LoopbackHTTP.request("GET", port: server.port, path: "/v1/rounds", timeout: 5)
            rounds = try JSONDecoder().decode([RoundAnswer.Summary].self, from: answer.body)
            return rounds.count == 1
        }
        #expect(rounds.first?.title == "3반 <b>대항전</b>")
        // Shown: its `hidden` gone (a hidden section is `display: none`, its visibility still
        // "visible": waiting on that waited for nothing, and a busy CI run read the heading before
        // the round had come).
        try teacher.waitFor("the round on the projector") { try teacher.script("return document.getElementById('round-screen').hidden") as? Bool == false }
        #expect(try teacher.string("return document.getElementById('round-heading').textContent").contains("3반 <b>대항전</b>"))
        #expect(try teacher.script("return document.querySelectorAll('#round-heading b').length") as? Int == 0, "the title is text")
        try teacher.click("#admin-stop")
        try teacher.waitFor("the round stopped") {
            let answer = try LoopbackHTTP.request("GET", port: server.port, path: "/v1/rounds", timeout: 5)
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            return try JSONDecoder().decode([RoundAnswer.Summary].self, from: answer.body).first.map { $0.endsAtMs <= now } == true
        }

        // A student's projector: the same board, no controls, no token kept.
        let student = try Browser(width: 1280, height: 720, touch: false)
        defer { student.close() }
        try student.open("\(server.baseURL)/?board")
        try student.waitFor("the board") { Page.status(student).state == "online" }
        #expect(try student.script("return document.getElementById('admin').hidden") as? Bool == true)
        #expect(try student.string("return JSON.stringify(sessionStorage)").contains(token) == false)
    }

    /// The teacher's link pasted into the projector's tab already open at `/?board`: the browser
    /// changes only the address's fragment (no reload). Seen before: no controls, and the token
    /// left in the address bar. Now the page takes it at once, as at its start.
    @Test func theTeachersLinkPastedIntoTheOpenProjectorShowsTheControlsAndLeavesNoToken() throws {
        let server = try ServerProcess.forGames(catalog: nil, scores: Self.scores)
        defer { server.stop() }
        let link = DataCommandsBinary.run(["round", "link", "--server", server.baseURL, "--data-dir", server.dataDirectory])
        try #require(link.status == 0, "round link: \(link.error)")
        let address = link.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let token = try String(contentsOfFile: "\(server.dataDirectory)/admin.token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let teacher = try Browser(width: 1280, height: 720, touch: false)
        defer { teacher.close() }
        try teacher.open("\(server.baseURL)/?board")
        try teacher.waitFor("the board") { Page.status(teacher).state == "online" }
        #expect(try teacher.script("return document.getElementById('admin').hidden") as? Bool == true)
        // The same page all along: what this script leaves in it would be gone with a reload.
        try teacher.script("window.sameDocument = true")
        try teacher.open(address)
        try teacher.waitFor("the controls") { try teacher.script("return document.getElementById('admin').hidden") as? Bool == false }
        #expect(try Self.visibility(teacher, "#admin") == "visible", "shown at once, though the mouse never moved")
        #expect(try teacher.script("return window.sameDocument") as? Bool == true, "no reload")
        try teacher.waitFor("the token out of the address") { try teacher.string("return location.href") == "\(server.baseURL)/?board" }
        #expect(try teacher.string("return document.body.innerText").contains(token) == false)
        // Kept for the tab's session: a reload keeps the controls.
        try teacher.open("\(server.baseURL)/?board")
        try teacher.waitFor("the controls after a reload") { try teacher.script("return document.getElementById('admin').hidden") as? Bool == false }
        teacher.close()
    }

    @Test func theProjectorShowsTheLongestNamesAndRegionsWhole() throws {
        var scores = Self.scores
        scores["S0470"] = 300  // 전주교육대학교전주부설초등학교, 전북특별자치도 전주시 완산구
        scores["S0271"] = 250  // 고양국제고등학교, 경기도 고양시 일산동구
        let server = try ServerProcess.forGames(catalog: nil, scores: scores)
        defer { server.stop() }
        let projector = try Browser(width: 1920, height: 1080, touch: false)
        defer { projector.close() }
        try projector.fillScreen(width: 1920, height: 1080)
        try projector.open(server.baseURL + "/?board")
        try projector.waitFor("the first page") { try Self.rows(projector).first == "1 - 전주교육대학교전주부설초등학교" }
        let cut = try projector.string("""
            return [...document.querySelectorAll('#board-rows td')].filter((cell) => cell.scrollWidth > cell.clientWidth)
              .map((cell) => cell.textContent + ' ' + cell.scrollWidth + '>' + cell.clientWidth).join(' | ');
            """)
        #expect(cut.isEmpty, "cells cut: \(cut)")
    }

    @Test func theProjectorOpenedAtLocalhostShowsTheAddressServePrints() throws {
        let server = try ServerProcess.forGames(catalog: nil, scores: Self.scores, host: "0.0.0.0")
        defer { server.stop() }
        // The first phone page of the greeting ("phone or browser  http://HOST:P/"), which the QR
        // code in the terminal draws too.
        let printed = server.printed.split(separator: "\n").first { $0.contains("phone or browser") || $0.contains("휴대폰·브라우저") }
        let phonePage = try #require(printed.flatMap { $0.split(separator: " ").last.map(String.init) }, "\(server.printed)")
        try #require(!phonePage.contains("127.0.0.1") && phonePage.hasSuffix(":\(server.port)/"), "\(phonePage)")
        let projector = try Browser(width: 1920, height: 1080, touch: false)
        defer { projector.close() }
        try projector.fillScreen(width: 1920, height: 1080)
        try projector.open("http://localhost:\(server.port)/?board")
        try projector.waitFor("the printed join address") { Page.text(projector, "join-url") == phonePage }
        try projector.waitFor("the QR code drawn") {
            try projector.script("const qr = document.getElementById('join-qr'); return qr.complete && qr.naturalWidth > 0 && qr.alt === '\(phonePage)'") as? Bool == true
        }
        #expect(try Self.qrCodes(in: projector.screenshot()) == phonePage)
        #expect(try projector.script("return document.getElementById('join-warning').hidden") as? Bool == true, "phones reach it: nothing to warn of")
        projector.close()
    }
}
