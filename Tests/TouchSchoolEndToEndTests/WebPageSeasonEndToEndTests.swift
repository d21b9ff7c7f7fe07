import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolTestSupport

/// A week's season crossed on a real `touchschool serve --season week`, its clock moved to just
/// before a Monday 00:00 in Korea (`--clock-offset-ms`, hidden), read once a second as a person
/// reads it, in Korean and in English, on a phone (390×844) and on the projector (1920×1080), in a
/// real headless Chromium: before the boundary, this week's numbers (the schools the phone tapped
/// for, not the totals imported before the season); after it, the new week at 0 for everybody
/// while 전체 / All time keeps every total; once the week's end and grace have passed, the
/// projector's hall of fame of last week with the three schools tapped for, in the order of their
/// taps. The expectations are the test's own taps and days. Every browser and server a test starts
/// is gone when it ends.
@Suite(.onOwnThreads, .tags(.process, .browser), .sharedBrowsers(), .serialized, .enabled(if: Browser.isInstalled, "chromium or chromedriver not found (scripts/test installs them): skipped"))
struct WebPageSeasonEndToEndTests {
    typealias Page = WebPageEndToEndTests

    /// Totals from before any season (a state file): all time's only. 한국과학영재학교 40, 부산고 30.
    static let imported: [String: UInt64] = ["S0126": 40, "S0127": 30]
    /// The phone's taps this week, in turn: 휘문고 5, 서울고 3, then 경기고 2 (the school it ends on).
    static let tapped: [(school: String, name: String, taps: Int)] = [("S0003", "휘문고등학교", 5), ("S0001", "서울고등학교", 3), ("S0002", "경기고등학교", 2)]
    /// How long before the boundary the server starts: the pages open and the taps are made and
    /// acknowledged within it (a few seconds alone; 24 s in `scripts/test`'s eight suites at once,
    /// where 25 s left a run's taps straddling the boundary).
    static let leadMs: Int64 = 45_000
    /// The season's grace after its end, before its hall is taken (docs/protocol.md, "Seasons").
    static let graceMs: Int64 = 5_000

    /// The words a person reads, by language: written here, not taken from the page's catalogue.
    struct Words: Sendable {
        let week, allTime, weekStandings, allTimeStandings, emptyBoard, noRank, fame, lastWeek: String
        let weekRank: @Sendable (Int) -> String
        let allTimeRank: @Sendable (Int) -> String
        let days: @Sendable (String, String) -> String
        let dayFormat: String
    }

    static let words: [String: Words] = [
        "ko": Words(week: "이번 주", allTime: "전체", weekStandings: "이번 주 순위", allTimeStandings: "전체 순위", emptyBoard: "아직 터치가 없습니다.", noRank: "아직 순위 없음",
                    fame: "명예의 전당", lastWeek: "지난 주", weekRank: { "이번 주 \($0)위" }, allTimeRank: { "전체 \($0)위" },
                    days: { "\($0)–\($1)" }, dayFormat: "M월 d일"),
        "en": Words(week: "This week", allTime: "All time", weekStandings: "This week's standings", allTimeStandings: "All-time standings", emptyBoard: "No taps yet.", noRank: "no rank yet",
                    fame: "Hall of fame", lastWeek: "Last week", weekRank: { "#\($0) this week" }, allTimeRank: { "#\($0) all time" },
                    days: { "\($0) – \($1)" }, dayFormat: "MMM d"),
    ]

    static func nowMs() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// A season's first and last days on Korea's calendar (UTC+9), as the words write them.
    static func days(_ words: Words, from: Int64, to: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 9 * 3600)
        formatter.dateFormat = words.dayFormat
        let day = { (ms: Int64) in formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)) }
        return words.days(day(from), day(to - 1))
    }

    /// What a screen shows, read at once: the ranking's title, period, toggle and rows ("rank name
    /// taps"), whether "no taps yet" shows, the game's rank, and the hall of fame. Only what is
    /// shown counts: a hidden element reads as "".
    struct Screen: Decodable, CustomStringConvertible {
        let title, period, toggle, empty, rank, fameTitle, fameSeason, fameNational: String
        let rows: [String]
        var description: String {
            "title \(title) | period \(period) | toggle \(toggle) | rows \(rows) | empty \(empty) | rank \(rank) | \(fameTitle) \(fameSeason): \(fameNational)"
        }
    }

    static func read(_ browser: Browser) throws -> Screen {
        let json = try browser.string("""
            const $ = (id) => document.getElementById(id);
            const shown = (id) => $(id).checkVisibility();
            const text = (id) => (shown(id) ? $(id).innerText.replace(/\\s+/g, ' ').trim() : '');
            const rows = [...document.querySelectorAll('#board-rows tr')].filter((tr) => tr.checkVisibility())
              .map((tr) => [tr.cells[0], tr.cells[2].firstChild, tr.cells[4]].map((cell) => cell.textContent).join(' '));
            const fame = [...document.querySelectorAll('#fame-national li')].map((li) => li.innerText.replace(/\\s+/g, ' ').trim()).join(' | ');
            return JSON.stringify({ title: text('board-title'), period: text('board-period'), toggle: text('period-toggle'), rows,
                                    empty: text('board-empty'), rank: text('school-rank'), fameTitle: text('fame-title'), fameSeason: text('fame-season'),
                                    fameNational: shown('fame') ? fame : '' });
            """)
        return try JSONDecoder().decode(Screen.self, from: Data(json.utf8))
    }

    @Test(arguments: ["ko", "en"])
    func aWeekEndsOnThePhoneAndTheProjector(_ lang: String) throws {
        let words = try #require(Self.words[lang])
        let local = Self.nowMs()
        let boundary = try #require(Season.at(.week, ms: local)).endsAtMs
        let offset = boundary - Self.leadMs - local
        let serverNow = { Self.nowMs() + offset }
        let server = try ServerProcess.forGames(catalog: nil, scores: Self.imported,
                                                arguments: ["--season", "week", "--clock-offset-ms", String(offset)])
        defer { server.stop() }
        let language = lang == "ko" ? "ko-KR" : "en-US"
        let projector = try Browser(width: 1920, height: 1080, touch: false, language: language)
        defer { projector.close() }
        try projector.fillScreen(width: 1920, height: 1080)
        try projector.open(server.baseURL + "/?board")
        let phone = try Browser(width: 390, height: 844, touch: true, language: language)
        defer { phone.close() }

        // The phone taps for three schools in turn (a page opened for a school plays for it).
        for (school, _, taps) in Self.tapped {
            try phone.open("\(server.baseURL)/?school=\(school)")
            try Page.waitUntilDelivered(phone)
            try Page.touch(phone, taps, after: 0)
            try Page.waitUntilDelivered(phone)
        }
        let lastWeek = Self.days(words, from: boundary - 7 * 86_400_000, to: boundary)
        let thisWeek = Self.days(words, from: boundary, to: boundary + 7 * 86_400_000)
        let week = Self.tapped.enumerated().map { "\($0.offset + 1) \($0.element.name) \($0.element.taps)" }
        // All time: the imported totals above the week's taps, which count there too.
        let allTime = ["1 한국과학영재학교 40", "2 부산고등학교 30"] + Self.tapped.enumerated().map { "\($0.offset + 3) \($0.element.name) \($0.element.taps)" }

        // Before the boundary: the game's rank is this week's (경기고, third with 2 taps); the
        // ranking says the week and its days, and its toggle shows all time and back.
        try phone.waitFor("this week's rank") { try Self.read(phone).rank == words.weekRank(3) }
        try phone.click("#to-board")
        try phone.waitFor("this week's ranking") { try Self.read(phone).rows == week }
        #expect(try Self.read(phone).period == "\(words.week) (\(lastWeek))")
        #expect(try Self.read(phone).toggle == words.allTime)
        try phone.click("#period-toggle")
        try phone.waitFor("all time's ranking") { try Self.read(phone).rows == allTime }
        #expect(try Self.read(phone).period == words.allTime)
        #expect(try Self.read(phone).toggle == words.week)
        try phone.click("#period-toggle")
        try phone.waitFor("this week's ranking again") { try Self.read(phone).rows == week }
        try projector.waitFor("the projector's week") { try Self.read(projector).rows == week }
        try Page.save(try phone.screenshot(), as: "season-phone-\(lang).png")
        try #require(serverNow() < boundary - 1_000, "the taps and the first readings took longer than the \(Self.leadMs) ms before the boundary")

        // Once a second, across the boundary and past the week's end and grace.
        var samples: [(from: Int64, to: Int64, phone: Screen, projector: Screen)] = []
        let until = boundary + Self.graceMs + 10_000
        while serverNow() < until {
            let from = serverNow()
            let phoneShows = try Self.read(phone), projectorShows = try Self.read(projector)
            samples.append((from, serverNow(), phoneShows, projectorShows))
            Thread.sleep(forTimeInterval: 1)
        }
        let log = samples.map { "\($0.from - boundary) ms: phone \($0.phone)\n    projector \($0.projector)" }.joined(separator: "\n")
        let before = samples.filter { $0.to < boundary - 300 }
        // The turn reaches every screen at once (the server sends the season and the pages at the
        // boundary); a second is room for a loaded machine to draw it.
        let after = samples.filter { $0.from > boundary + 1_000 }
        #expect(before.count >= 2 && after.count >= 10, "\(log)")
        for sample in before {
            #expect(sample.phone.rows == week && sample.phone.period == "\(words.week) (\(lastWeek))", "\(sample.from - boundary) ms: \(sample.phone)")
            #expect(sample.projector.rows == week && sample.projector.title == words.weekStandings && sample.projector.period == lastWeek,
                    "\(sample.from - boundary) ms: \(sample.projector)")
            #expect(sample.projector.fameNational == "", "no hall before the week ends: \(sample.projector)")
        }
        for sample in after {
            // The new week: nobody has a tap; the phone lists its own school, at 0, without a rank.
            #expect(sample.phone.rows == ["- 경기고등학교 0"] && sample.phone.period == "\(words.week) (\(thisWeek))", "\(sample.from - boundary) ms: \(sample.phone)")
            #expect(sample.projector.rows == [] && sample.projector.empty == words.emptyBoard && sample.projector.title == words.weekStandings
                    && sample.projector.period == thisWeek, "\(sample.from - boundary) ms: \(sample.projector)")
        }
        // Last week's hall, once its end and grace have passed (the projector reads it again every
        // 2 s until it is taken): the three schools in the order of the taps made for them.
        let hall = Self.tapped.enumerated().map { "\($0.offset + 1) \($0.element.name) \($0.element.taps)" }.joined(separator: " | ")
        let famed = samples.filter { $0.projector.fameNational != "" }
        #expect(famed.allSatisfy { $0.to > boundary + Self.graceMs }, "\(log)")
        let shownFrom = try #require(famed.first, "no hall of fame shown by \(until - boundary) ms past the boundary:\n\(log)").from
        #expect(shownFrom < boundary + Self.graceMs + 6_000, "\(log)")
        for sample in famed {
            #expect(sample.projector.fameTitle == words.fame && sample.projector.fameNational == hall
                    && sample.projector.fameSeason == "\(words.lastWeek) (\(lastWeek))", "\(sample.projector)")
        }
        #expect(samples.last?.projector.fameNational == hall, "\(log)")
        // The hall under the ranking's column, on the screen, the rows' ten places made room above it.
        let placed = try #require(try projector.script("""
            const fame = document.getElementById('fame').getBoundingClientRect();
            const rowHeight = parseFloat(getComputedStyle(document.getElementById('board')).getPropertyValue('--row-height'));
            return [document.getElementById('board-rows').getBoundingClientRect().top + 10 * rowHeight, fame.top, fame.bottom]
            """) as? [Double])
        #expect(placed[0] <= placed[1] && placed[2] <= 1080, "ten rows end at \(placed[0]), the hall from \(placed[1]) to \(placed[2])")
        try Page.save(try projector.screenshot(), as: "season-projector-\(lang).png")

        // The game's rank in the new week, then all time, which kept every total.
        try phone.click("#to-game")
        try phone.waitFor("no rank yet this week") { try Self.read(phone).rank == words.noRank }
        try phone.click("#to-board")
        try phone.click("#period-toggle")
        try phone.waitFor("all time, kept") { try Self.read(phone).rows == allTime }
        try phone.click("#to-game")
        try phone.waitFor("all time's rank") { try Self.read(phone).rank == words.allTimeRank(5) }
        // The projector of all time (`?board&period=all`) says so, with every total.
        try projector.open(server.baseURL + "/?board&period=all")
        try projector.waitFor("the projector's all time") { try Self.read(projector).rows == allTime }
        #expect(try Self.read(projector).title == words.allTimeStandings)
        #expect(try Self.read(projector).period == "")
        phone.close()
        projector.close()
    }
}
