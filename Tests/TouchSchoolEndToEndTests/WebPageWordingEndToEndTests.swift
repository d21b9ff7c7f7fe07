import Foundation
import Testing
import TouchSchoolTestSupport

/// One game, two faces: the page says what the terminal game says, in its words
/// (`Sources/TouchSchoolView/Strings.swift`), in a real headless Chromium against the real server:
/// the school to overtake and by how many taps, the speed, a result count that says when the
/// search stopped at its limit, the question before a school change, the player's name, and the
/// keyboard's hint only where there is a keyboard. Every browser and server a test starts is gone
/// when it ends.
@Suite(.onOwnThreads, .tags(.process, .browser), .sharedBrowsers(), .serialized, .enabled(if: Browser.isInstalled, "chromium or chromedriver not found (scripts/test installs them): skipped"))
struct WebPageWordingEndToEndTests {
    typealias Page = WebPageEndToEndTests

    @Test func aPhoneSaysWhatTheTerminalSays() throws {
        // 휘문고 25, 서울고 12, 부산고 8 (and 한국과학영재학교 40).
        let server = try ServerProcess.forGames(catalog: nil, scores: Page.otherSchools)
        defer { server.stop() }
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        try phone.open(server.baseURL + "/")
        try phone.waitFor("the page") { (try phone.string("return document.body.dataset.ready || ''")) == "true" }
        // A touch-only phone: no keyboard in the hint, not even once it is touched.
        #expect(Page.text(phone, "play-hint") == "화면을 마구 터치하세요!")
        // The default name alone: it says "player" itself (after the label it read "플레이어 웹 플레이어").
        #expect(Page.text(phone, "player") == "웹 플레이어")
        // The header's new sound button and player fit a 390-px phone: nothing wider than the screen.
        #expect(try phone.script("return document.documentElement.scrollWidth") as? Int == 390)

        // "고" finds more schools than a search shows: the count says so. One found is one.
        try phone.type("고", into: "#query")
        try phone.waitFor("a capped count") { Page.text(phone, "found") == "20개 넘는 학교" }
        #expect(try phone.script("return document.querySelectorAll('#results li').length") as? Int == 20)
        try phone.script("const q = document.getElementById('query'); q.value = ''; q.dispatchEvent(new Event('input'))")
        try phone.type("민사고", into: "#query")
        try phone.waitFor("one school") { Page.text(phone, "found") == "1개 학교" }
        // A typo finds nothing: the server's closest name is offered as the terminal offers it.
        try phone.script("const q = document.getElementById('query'); q.value = ''; q.dispatchEvent(new Event('input'))")
        try phone.type("휘뮨고", into: "#query")
        try phone.waitFor("a guess") { Page.text(phone, "found") == "혹시 휘문고등학교?" }
        #expect(Page.text(phone, "results").contains("휘문고등학교"))
        try phone.script("const q = document.getElementById('query'); q.value = ''; q.dispatchEvent(new Event('input'))")
        try phone.type("민사고", into: "#query")
        try phone.waitFor("one school again") { Page.text(phone, "found") == "1개 학교" }

        // The name the page plays under is shown, and the server is told it.
        // Drawn at the page's next frame, not within the script that changed it: read once it is.
        try phone.script("const n = document.getElementById('player-name'); n.value = '김하늘'; n.dispatchEvent(new Event('change'))")
        try phone.waitFor("the name in the header", timeout: 5) { Page.text(phone, "player") == "플레이어 김하늘" }
        try phone.click("#results button")
        try Page.waitUntilDelivered(phone)
        #expect(Page.text(phone, "speed") == "초당 0번 · 최고 0번")

        // 부산고 (8) is the one to pass: nine taps; then 서울고 (12).
        try phone.waitFor("부산고 to overtake") { Page.text(phone, "gap") == "부산고등학교까지 9번" }
        try Page.touch(phone, 9, after: 0)
        try phone.waitFor("서울고 next") { Page.text(phone, "gap") == "서울고등학교까지 4번" }
        #expect(Page.text(phone, "play-hint") == "화면을 마구 터치하세요!")
        let speed = Page.text(phone, "speed")
        #expect(speed.hasPrefix("초당 ") && speed.contains("번 · 최고 ") && !speed.hasSuffix("최고 0번"), "\(speed)")
        try phone.waitFor("the speed back to 0", timeout: 3) { Page.text(phone, "speed").hasPrefix("초당 0번 · ") }
        try Page.waitUntilDelivered(phone)
        // The server knows the player by the name shown (the page said hello again with it).
        let device = try phone.string("return JSON.parse(localStorage.getItem('touchschool.device'))")
        let me = Subprocess.run("/usr/bin/curl", ["-s", "--max-time", "5", "-H", "X-TouchSchool-Device: \(device)", "\(server.baseURL)/v1/me"]).output
        #expect(me.contains("\"player\":\"김하늘\""), "\(me)")

        // Leaving a school I tapped for asks first, in the terminal's words; no keeps the school.
        try phone.click("#to-picker")
        try phone.script("const q = document.getElementById('query'); q.value = ''; q.dispatchEvent(new Event('input'))")
        try phone.type("휘문고", into: "#query")
        try phone.waitFor("휘문고 found") { Page.text(phone, "results").contains("휘문고등학교") }
        try phone.click("#results button")
        try phone.waitFor("the question") { try phone.script("return document.getElementById('confirm').open") as? Bool == true }
        #expect(Page.text(phone, "confirm").contains("학교를 바꾸면 내 터치 수가 0부터 다시 시작합니다. 바꿀까요?"))
        #expect(Page.text(phone, "confirm-from") == "지금 학교: 민족사관고등학교 (강원특별자치도 횡성군)")
        #expect(Page.text(phone, "confirm-to") == "바꿀 학교: 휘문고등학교 (서울특별시 강남구)")
        #expect(Page.text(phone, "confirm-keeps") == "내 터치 수 9번은 지금 학교의 점수에 그대로 남습니다.")
        // n answers no, as in the terminal (and so does the button).
        try phone.pressKeys(["n"])
        #expect(try phone.script("return document.getElementById('confirm').open") as? Bool == false)
        try phone.click("#to-game")
        #expect(Page.text(phone, "school-name") == Page.minsago && Page.text(phone, "my-taps") == "9")
        try phone.click("#to-picker")
        try phone.click("#results button")
        try phone.waitFor("the question again") { try phone.script("return document.getElementById('confirm').open") as? Bool == true }
        try phone.click("#confirm-yes")
        try phone.waitFor("휘문고's game") { Page.text(phone, "school-name") == "휘문고등학교" && Page.text(phone, "my-taps") == "0" }
        try phone.waitFor("한국과학영재학교 to overtake") { Page.text(phone, "gap") == "한국과학영재학교까지 16번" }
        phone.close()
    }

    /// A touch screen that says its pointer is fine and hovers (some phones do, and every touch
    /// laptop): seen before, the phone's first load named the keyboard. Not until a mouse is used.
    @Test func aTouchScreenThatSaysItHasAFinePointerNamesNoKeyboard() throws {
        let server = try ServerProcess.forGames(catalog: nil, scores: Page.otherSchools)
        defer { server.stop() }
        // A fine pointer that hovers, and a coarse one (Blink's pointer and hover types, as bits);
        // a phone's emulation (`touch: true`) would put its own pointer over these at a moment of
        // its own.
        let phone = try Browser(width: 390, height: 844, touch: false,
                                flags: ["--blink-settings=primaryPointerType=4,primaryHoverType=2,availablePointerTypes=6,availableHoverTypes=3"])
        defer { phone.close() }
        try phone.emulateTouchScreen(points: 5)
        try phone.open("\(server.baseURL)/?school=S0127")
        try phone.waitFor("the page") { (try phone.string("return document.body.dataset.ready || ''")) == "true" }
        try #require(try phone.script("return matchMedia('(hover: hover) and (pointer: fine)').matches && navigator.maxTouchPoints > 0") as? Bool == true,
                     "the browser does not say it has both")
        #expect(Page.text(phone, "play-hint") == "화면을 마구 터치하세요!")
        // Touches once the page plays (a tap before it holds the device counts nowhere).
        try Page.waitUntilDelivered(phone)
        try Page.touch(phone, 2, after: 0)
        #expect(Page.text(phone, "play-hint") == "화면을 마구 터치하세요!", "touches are no mouse")
        phone.close()
    }

    @Test func aComputerSaysItInEnglishWithItsKeyboard() throws {
        let server = try ServerProcess.forGames(catalog: nil, scores: Page.otherSchools)
        defer { server.stop() }
        let desktop = try Browser(width: 1280, height: 800, touch: false, language: "en-US")
        defer { desktop.close() }
        try desktop.open("\(server.baseURL)/?school=S0127")
        try Page.waitUntilDelivered(desktop)
        try desktop.waitFor("the school to overtake") { Page.text(desktop, "gap") == "5 taps to overtake 서울고등학교" }
        #expect(Page.text(desktop, "player") == "web player")
        #expect(Page.text(desktop, "speed") == "0 taps/s · best 0")
        // A mouse: this is a computer, with a keyboard.
        try desktop.movePointer(x: 400, y: 400)
        try desktop.waitFor("the keyboard's hint") { Page.text(desktop, "play-hint") == "Tap the screen like crazy! (keyboard: Space or Enter)" }
        try desktop.open("\(server.baseURL)/?school=S0126")
        try Page.waitUntilDelivered(desktop)
        try desktop.waitFor("the leader") { Page.text(desktop, "gap") == "#1!" }
        try desktop.click("#to-picker")
        try desktop.type("고", into: "#query")
        try desktop.waitFor("a capped count") { Page.text(desktop, "found") == "More than 20 schools" }
        desktop.close()
    }

    /// Two schools of one name (the starter catalog's two 세화고등학교) are told apart by where
    /// they are on a phone, where the ranking has no region column and the side board never had
    /// one, as the terminal's ranking and side panel do; a name of its own gets nothing.
    @Test func sameNamedSchoolsAreToldApartOnAPhone() throws {
        let server = try ServerProcess.forGames(catalog: nil, scores: ["S0011": 30, "S0602": 20, "S0001": 10])
        defer { server.stop() }
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        try phone.open(server.baseURL + "/?school=S0001")
        let side = "return [...document.querySelectorAll('#mini-list li .s')].map(e => e.innerText).join('|')"
        try phone.waitFor("the side board") { (try phone.string(side)).contains("세화고등학교 제주특별자치도 제주시") }
        #expect(try phone.string(side) == "세화고등학교 서울특별시 서초구|세화고등학교 제주특별자치도 제주시|서울고등학교")
        try phone.click("#to-board")
        let names = "return [...document.querySelectorAll('#board-rows tr')].map(r => r.cells[2].innerText).join('|')"
        try phone.waitFor("the ranking") { (try phone.string(names)).contains("서울고등학교") }
        #expect(try phone.string(names) == "세화고등학교 서울특별시 서초구|세화고등학교 제주특별자치도 제주시|서울고등학교")
    }

    /// A battle's start on a phone: no school has a tap, and mine has no rank yet (every school
    /// read 1위), with one tap to take the first place; one tap later it is first.
    @Test func aSchoolWithoutATapHasNoRankYet() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        try phone.open("\(server.baseURL)/?school=S0003")
        try Page.waitUntilDelivered(phone)
        try phone.waitFor("no rank yet") { Page.text(phone, "school-rank") == "아직 순위 없음" }
        #expect(Page.text(phone, "gap") == "첫 터치면 1위!")
        try Page.touch(phone, 1, after: 0)
        try phone.waitFor("the first place") { Page.text(phone, "school-rank") == "전국 1위" }
        #expect(Page.text(phone, "gap") == "1위!")
        phone.close()
    }

    /// On a phone, the name field is on the screen with the search and its results, before them
    /// in the order of the fields: below twenty results it was never reached, and every phone
    /// played as 웹 플레이어.
    @Test func thePhonesNameFieldComesBeforeTheResults() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        try phone.open("\(server.baseURL)/")
        try phone.type("고", into: "#query")
        try phone.waitFor("twenty results") { try phone.script("return document.querySelectorAll('#results li').length") as? Int == 20 }
        let placed = try phone.script("""
            const name = document.getElementById('player-name'), results = document.getElementById('results');
            const r = name.getBoundingClientRect();
            return [r.top >= 0 && r.bottom <= innerHeight, (name.compareDocumentPosition(results) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0]
            """) as? [Bool]
        #expect(placed == [true, true], "on the screen, and before the results: \(String(describing: placed))")
        phone.close()
    }
}
