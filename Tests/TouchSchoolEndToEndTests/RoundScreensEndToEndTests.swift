import Foundation
import Testing
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// Issue 47's proof that every screen reads, through a whole round, as a person reads it: one
/// `touchschool serve` (with its SSH game), the projector (`/?board`, Chromium at 1920×1080), a
/// phone (390×844, touch) and two terminal games (tmux, 80×24) and an SSH game (OpenSSH's client
/// under tmux, 80×24): four players racing for two schools in a round of 12 s started with
/// `touchschool round start`. While they tap at a steady human rate, the visible text of every
/// screen is read once a second and kept: the projector's standings name the racing players and
/// a count rises at least every two seconds, as on the phone's and the terminals' round lines
/// (their place among the four); every screen's clock shows the seconds left as they are; at the
/// end every screen's counts and places are `touchschool round show ID --json`'s. In Korean and
/// in English, each screen's words in that language only; and with the projector reloaded
/// mid-race or opened after the start, its standings back within 2 s and rising. The readings
/// are printed as a timeline, which the failures refer to. Every process a test starts is gone
/// when it ends, but the suite's browsers, which end with the suite.
@Suite(.onOwnThreads, .tags(.process, .tmux, .browser), .sharedBrowsers(), .serialized,
       .enabled(if: Browser.isInstalled
                    && ["/usr/bin/tmux", "/usr/bin/ssh", "/usr/bin/ssh-keygen"].allSatisfy(FileManager.default.isExecutableFile(atPath:)),
                "chromium, chromedriver, tmux or OpenSSH's client not found (scripts/test installs them): skipped"))
struct RoundScreensEndToEndTests {
    typealias Page = WebPageEndToEndTests

    @Test func everyScreenReadsTheRoundInKorean() throws {
        try race(in: .korean, projector: .fromTheStart)
    }

    @Test func everyScreenReadsTheRoundInEnglish() throws {
        try race(in: .english, projector: .fromTheStart)
    }

    @Test func theProjectorReloadedMidRaceShowsTheStandingsAgainAndTheyKeepRising() throws {
        try race(in: .korean, projector: .reloadedMidRace)
    }

    @Test func theProjectorOpenedAfterTheStartShowsTheRaceAndItRises() throws {
        try race(in: .english, projector: .openedAfterTheStart)
    }

    // MARK: - The scenario

    /// When the projector's page is opened.
    enum ProjectorOpening {
        case fromTheStart
        /// Opened before the round, opened again (a reload) this long after the start.
        case reloadedMidRace
        /// Opened this long after the start.
        case openedAfterTheStart

        /// When, after the round's start, the page is opened (again): none before the round.
        var midRaceMs: Int64? {
            switch self {
            case .fromTheStart: nil
            case .reloadedMidRace: 5_000
            case .openedAfterTheStart: 2_000
            }
        }
    }

    /// The round's length: long enough for a dozen readings of the race.
    static let roundSeconds = 12
    /// The players tap from this long after the start to this long before the end: every tap
    /// well inside the window, whatever the games' clock offsets, so the counts are the taps made.
    static let tapsFromMs: Int64 = 300, tapsUntilMs: Int64 = 1_000
    /// A tick of the players' taps: each taps at most once a tick (four a second, a steady human
    /// rate far under the tap guard's limits), some skipping ticks, so that the counts differ.
    static let tickMs: Int64 = 250
    /// Once a second, every screen read.
    static let readingMs: Int64 = 1_000
    /// Readings from this long after the start (every player has tapped and been counted by then)
    /// are the race's: the standings name every player.
    static let settledMs: Int64 = 2_500
    /// "At least every two seconds": between two readings this far apart, a count rose.
    static let risesWithinMs: Int64 = 2_000
    /// How far off a screen's clock may be when it is read (RoundEndToEndTests times the start on
    /// every screen to 100 ms). Readings are taken in the middle of a second: a clock off by less
    /// reads the right second, one a second behind or skipping a second does not.
    static let clockSlackMs: Int64 = 250

    /// A racing player: who, on which screen, for which school, and on which ticks they tap.
    struct Player {
        var name: String
        var school: (id: String, name: String)
        var taps: (Int) -> Bool
    }

    static let hanbit = TmuxSession.schools[0], pureun = TmuxSession.schools[1]

    func race(in language: Language, projector opening: ProjectorOpening) throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let carolKey = try SSHPlayEndToEndTests.makeKey("carol", in: keys)
        let server = try ServerProcess.forGames(arguments: ["--ssh-port", "0"])
        defer { server.stop() }

        let players = [
            Player(name: "alice", school: Self.hanbit) { _ in true },
            Player(name: "bob", school: Self.pureun) { $0 % 4 != 3 },
            Player(name: "carol", school: Self.pureun) { $0 % 2 == 0 },
            Player(name: language.webPlayer, school: Self.hanbit) { $0 % 3 != 2 },
        ]
        let terminalArguments = ["--lang", language.code, "--server", server.baseURL]
        let alice = try TmuxSession(columns: 80, rows: 24, arguments: terminalArguments, user: "alice")
        defer { alice.close() }
        let bob = try TmuxSession(columns: 80, rows: 24, arguments: terminalArguments, user: "bob")
        defer { bob.close() }
        let carol = try SSHPlayEndToEndTests.player("carol", key: carolKey, on: server, language: language.locale, columns: 80, rows: 24)
        defer { carol.close() }
        let phone = try Browser(width: 390, height: 844, touch: true, language: language.browser)
        defer { phone.close() }
        let projector = try Browser(width: 1920, height: 1080, touch: false, language: language.browser)
        defer { projector.close() }
        let terminals = [("alice", alice), ("bob", bob), ("carol", carol)]

        for (name, session) in terminals {
            try session.chooseSchool(named: String(players.first { $0.name == name }!.school.name.prefix(3)), tapsLabel: language.tapsLabel)
        }
        try phone.open("\(server.baseURL)/?school=\(Self.hanbit.id)")
        try phone.waitFor("the game") { Page.text(phone, "school-name") == Self.hanbit.name }
        try Page.waitUntilDelivered(phone)
        try projector.fillScreen(width: 1920, height: 1080)
        let board = "\(server.baseURL)/?board"
        if opening != .openedAfterTheStart {
            try projector.open(board)
            try projector.waitFor("the board") { Page.status(projector).state == "online" }
        }

        let started = DataCommandsBinary.run(["round", "start", "--server", server.baseURL, "--seconds", "\(Self.roundSeconds)",
                                              "--title", language.title, "--json", "--data-dir", server.dataDirectory])
        try #require(started.status == 0, "round start: \(started.error)")
        let round = try JSONDecoder().decode(RoundAnswer.Summary.self, from: Data(started.output.utf8))

        // The race: taps each tick, every screen read each second; the projector opened (again)
        // mid-race is read at each tick until its standings are back.
        var readings: [Reading] = []
        var made = [Int](repeating: 0, count: players.count)
        var tick = 0
        var nextTap = round.startsAtMs + Self.tapsFromMs
        var nextReading = round.startsAtMs + Self.readingMs / 2
        var openedMidRace: Int64?
        /// When the projector opened mid-race named every player again: read at each tick until
        /// then, or for twice the time it has.
        var standingsBack: Int64?
        var watchingForStandings = false
        func read() throws -> Reading {
            var reading = try Reading(at: RoundEndToEndTests.wallMs(),
                                      projector: opening == .openedAfterTheStart && openedMidRace == nil ? nil : projector,
                                      phone: phone, terminals: terminals)
            reading.made = made
            return reading
        }
        while RoundEndToEndTests.wallMs() < round.endsAtMs + Self.readingMs / 2 {
            let now = RoundEndToEndTests.wallMs()
            if now >= nextTap && now < round.endsAtMs - Self.tapsUntilMs {
                for (index, player) in players.enumerated() where player.taps(tick) {
                    made[index] += 1
                    let key = String(GameEndToEndTests.playerKeys[(made[index] - 1) % GameEndToEndTests.playerKeys.count])
                    switch player.name {
                    case "alice": alice.type(key)
                    case "bob": bob.type(key)
                    case "carol": carol.type(key)
                    default: try Self.tapPhone(phone, at: made[index])
                    }
                }
                tick += 1
                nextTap = max(nextTap + Self.tickMs, RoundEndToEndTests.wallMs() + Self.tickMs / 2)
            }
            if let after = opening.midRaceMs, openedMidRace == nil, now >= round.startsAtMs + after {
                openedMidRace = now
                watchingForStandings = true
                try projector.open(board)
            }
            if let opened = openedMidRace, watchingForStandings {
                let reading = try read()
                readings.append(reading)
                if Set(reading.projectorCounts(of: players).keys) == Set(players.map(\.name)) { standingsBack = reading.ms }
                watchingForStandings = standingsBack == nil && reading.ms - opened <= 2 * Self.risesWithinMs
            }
            if now >= nextReading {
                readings.append(try read())
                while nextReading <= RoundEndToEndTests.wallMs() { nextReading += Self.readingMs }
            }
            let wake = min(nextReading, nextTap)
            let sleep = wake - RoundEndToEndTests.wallMs()
            if sleep > 0 { Thread.sleep(forTimeInterval: Double(sleep) / 1_000) }
        }

        // The end: read each second until every screen shows its result.
        let deadline = round.endsAtMs + round.graceMs + 15_000
        while true {
            let reading = try read()
            readings.append(reading)
            if reading.showsResults(on: terminals.map(\.0), in: language) || RoundEndToEndTests.wallMs() > deadline { break }
            Thread.sleep(forTimeInterval: Double(Self.readingMs) / 1_000)
        }
        let final = readings.last!

        let shown = DataCommandsBinary.run(["round", "show", "\(round.id)", "--json", "--server", server.baseURL])
        try #require(shown.status == 0, "round show: \(shown.error)")
        let results = try JSONDecoder().decode(RoundAnswer.Results.self, from: Data(shown.output.utf8))
        let timeline = readings.map { $0.line(players: players, language: language, round: round) }.joined(separator: "\n")
        let reopened = openedMidRace.map { opened in
            ", opened (again) at \(opened - round.startsAtMs) ms, its standings back \(standingsBack.map { "\($0 - opened) ms later" } ?? "never")"
        } ?? ""
        print("round screens (\(language.code), projector \(opening)\(reopened)), ms after the start:\n\(timeline)")

        // The server counted every tap made, once.
        let serverCounts = Dictionary(results.players.map { ($0.player ?? "", $0.count) }, uniquingKeysWith: +)
        #expect(serverCounts == Dictionary(uniqueKeysWithValues: zip(players.map(\.name), made.map(UInt64.init))), "made \(made)")

        // During the race.
        // A reading is the race's when it ended before the race did: one begun half a second before the
        // end reads the terminals last, and a run read them after it ("종료! 집계 중…", rightly).
        let race = readings.filter { $0.ms >= round.startsAtMs + Self.settledMs && $0.endMs < round.endsAtMs }
        try #require(race.count >= Self.roundSeconds - 4, "too few readings of the race")
        // The projector's race: what it showed from the settled start, but while it was (re)opening.
        if let opened = openedMidRace {
            let back = try #require(standingsBack, "the projector opened \(opened - round.startsAtMs) ms after the start never showed the standings")
            #expect(back - opened <= Self.risesWithinMs, "the projector's standings took \(back - opened) ms to come back")
        }
        func showsProjector(_ reading: Reading) -> Bool {
            guard reading.projector != nil, reading.ms >= round.startsAtMs + Self.settledMs else { return false }
            guard let opened = openedMidRace, let back = standingsBack else { return true }
            return !(opened..<back).contains(reading.ms)
        }
        for reading in race where showsProjector(reading) {
            let named = Set(reading.projectorCounts(of: players).keys)
            #expect(named == Set(players.map(\.name)),
                    "the projector at \(reading.ms - round.startsAtMs) ms names \(named.sorted()):\n\(reading.projector ?? "")")
        }
        let tapsEnd = round.endsAtMs - Self.tapsUntilMs + Self.tickMs
        expectRises("the projector", readings.filter { showsProjector($0) && $0.ms <= tapsEnd }, players: players.map(\.name)) { $0.projectorCounts(of: players) }
        for (name, _) in terminals {
            for reading in race {
                let line = Self.raceLine(language, in: reading.terminals[name] ?? "")
                #expect(line?.players == players.count && (1...players.count).contains(line?.place ?? 0),
                        "\(name)'s terminal at \(reading.ms - round.startsAtMs) ms:\n\(reading.terminals[name] ?? "")")
            }
            expectRises("\(name)'s terminal", readings.filter { $0.ms >= round.startsAtMs + Self.settledMs && $0.ms <= tapsEnd },
                        players: players.map(\.name)) {
                Self.raceLine(language, in: $0.terminals[name] ?? "").map { [name: $0.count] } ?? [:]
            }
        }
        for reading in race {
            let line = Self.phoneBar(language, in: reading.phoneRound)
            #expect(line?.players == players.count && (1...players.count).contains(line?.place ?? 0),
                    "the phone at \(reading.ms - round.startsAtMs) ms: \(reading.phoneRound)")
        }
        expectRises("the phone", readings.filter { $0.ms >= round.startsAtMs + Self.settledMs && $0.ms <= tapsEnd }, players: players.map(\.name)) {
            Self.phoneBar(language, in: $0.phoneRound).map { [language.webPlayer: $0.count] } ?? [:]
        }

        // Every screen's clock reads the seconds left as they were while it was read: a clock a
        // second behind, or one that skips a second, reads wrong to anyone who looks at it.
        for reading in race {
            let seconds = Set([reading.ms - Self.clockSlackMs, reading.endMs + Self.clockSlackMs].map { (round.endsAtMs - $0 + 999) / 1_000 })
            let allowed = Int(seconds.min()!)...Int(seconds.max()!)
            var clocks = terminals.map { ("\($0.0)'s terminal", Self.clock(language, in: reading.terminals[$0.0] ?? "")) }
            clocks.append(("the phone", Self.clock(language, in: reading.phoneRound)))
            if showsProjector(reading) { clocks.append(("the projector", Int(reading.projectorClock))) }
            for (screen, shown) in clocks {
                #expect(shown.map(allowed.contains) == true, """
                    \(screen) read between \(reading.ms - round.startsAtMs) and \(reading.endMs - round.startsAtMs) ms \
                    shows \(shown.map { "\($0) s" } ?? "no clock") left, not \(allowed)
                    """)
            }
        }

        // At the end, every screen's counts and places are the server's.
        let byName = Dictionary(results.players.map { ($0.player ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(final.projectorCounts(of: players) == serverCounts, "the projector at the end:\n\(final.projector ?? "")")
        #expect(final.projectorPlaces(of: players) == byName.mapValues(\.place), "the projector at the end:\n\(final.projector ?? "")")
        let schoolNames = Dictionary(uniqueKeysWithValues: TmuxSession.schools.map { ($0.id, $0.name) })
        #expect(final.projectorSchools(named: TmuxSession.schools.map(\.name))
                == Dictionary(uniqueKeysWithValues: results.schools.map { (schoolNames[$0.id] ?? $0.id, $0.count) }),
                "the projector's schools at the end:\n\(final.projector ?? "")")
        for (name, _) in terminals {
            let row = try #require(byName[name])
            let result = Self.result(language, in: final.terminals[name] ?? "")
            #expect(result == Standing(place: row.place, players: results.players.count, count: row.count),
                    "\(name)'s result, the server's \(row.place) with \(row.count):\n\(final.terminals[name] ?? "")")
        }
        let phoneRow = try #require(byName[language.webPlayer])
        #expect(Self.phoneResult(language, in: final.phoneRound) == Standing(place: phoneRow.place, players: results.players.count, count: phoneRow.count),
                "the phone's result, the server's \(phoneRow.place) with \(phoneRow.count): \(final.phoneRound)")

        // Every screen in the language, its words during the race, no other's then or at the end (names aside).
        let names = players.map(\.name) + Self.catalogNames + [language.title, server.baseURL, "127.0.0.1:\(server.port)"]
        let raceReading = try #require(race.last)
        for (reading, when, racing) in [(raceReading, "racing", true), (final, "at the end", false)] {
            var screens: [(String, String, [String])] = terminals.map { ($0.0, reading.terminals[$0.0] ?? "", language.terminalWords) }
            screens.append(("the phone", reading.phone, language.phoneWords))
            screens.append(("the projector", reading.projector ?? "", language.projectorWords))
            for (screen, text, words) in screens {
                for word in words where racing { #expect(text.contains(word), "\(screen) in \(language.code) lacks '\(word)':\n\(text)") }
                let foreign = language.foreignWords(in: text, names: names)
                #expect(foreign.isEmpty, "\(screen) in \(language.code) shows \(foreign) \(when):\n\(text)")
            }
        }

        for (_, session) in terminals {
            session.press("C-c")
            try session.waitFor("EXITED:0")
        }
    }

    /// Between each reading and the first one at least `risesWithinMs` later, a count rose.
    /// `players`: the names of `Reading.made`, in order. A pair of readings with no tap made for the
    /// screen's players between them, half the window before the later (the test itself held up:
    /// opening the projector again takes it a second or two under load), has nothing to show rising.
    func expectRises(_ screen: String, _ readings: [Reading], players: [String], counts: (Reading) -> [String: UInt64],
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(readings.count >= 4, "\(screen): too few readings", sourceLocation: sourceLocation)
        func made(_ reading: Reading) -> [String: Int] { Dictionary(uniqueKeysWithValues: zip(players, reading.made)) }
        for (index, reading) in readings.enumerated() {
            guard let later = readings[(index + 1)...].first(where: { $0.ms - reading.ms >= Self.risesWithinMs }) else { break }
            let before = counts(reading), after = counts(later)
            let shown = Set(before.keys).union(after.keys)
            let settled = readings.last { $0.ms <= later.ms - Self.risesWithinMs / 2 } ?? reading
            guard shown.isEmpty || shown.contains(where: { (made(settled)[$0] ?? 0) > (made(reading)[$0] ?? 0) }) else { continue }
            let rose = after.contains { name, count in count > before[name] ?? 0 }
            #expect(rose, "\(screen) shows no count rising between \(before) and \(after), \(later.ms - reading.ms) ms apart",
                    sourceLocation: sourceLocation)
        }
    }

    /// The names in the catalog the server plays with (its schools' and their regions'), and the
    /// product's (the game's title, "학교 대항전 TouchSchool", in either language): no language's words.
    static let catalogNames: [String] = {
        let catalog = (try? JSONSerialization.jsonObject(with: Data(TmuxSession.catalogJSON.utf8))) as? [String: Any]
        let schools = catalog?["schools"] as? [[String: Any]] ?? []
        return schools.flatMap { school in ["name", "province", "district"].compactMap { school[$0] as? String } }
            + ["학교 대항전 TouchSchool", "TouchSchool"]
    }()

    /// A tap on the phone's play area (a pointer event, as a finger's), at a place of its own.
    static func tapPhone(_ phone: Browser, at tap: Int) throws {
        try phone.script("""
            const play = document.getElementById('play'), r = play.getBoundingClientRect();
            play.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, cancelable: true, pointerId: 1, pointerType: 'touch',
              clientX: r.left + r.width * ((arguments[0] * 37) % 90 + 5) / 100, clientY: r.top + r.height * ((arguments[0] * 53) % 90 + 5) / 100 }));
            """, [tap])
    }

    // MARK: - Reading the screens

    /// Every screen's visible text at one moment.
    struct Reading {
        /// When the reading began and ended (it reads one screen after another).
        var ms: Int64
        var endMs: Int64 = 0
        /// The projector's whole text (nil: not open), its standings' rows (players, then schools).
        var projector: String?
        var projectorPlayers: [String] = []
        var projectorSchoolRows: [String] = []
        /// The projector's clock: the seconds left in the race.
        var projectorClock = ""
        /// The phone's whole text, and its round's (the bar over the play area, or the big text over it).
        var phone: String
        var phoneRound: String
        /// Each terminal's pane.
        var terminals: [String: String]
        /// For the timeline, when a reading is not what it should be: the taps each player had
        /// made when it was taken, and the batches the phone's outbox held (sent, not yet
        /// acknowledged, or not sent).
        var made: [Int] = []
        var phoneWaiting = 0

        /// The visible text of the elements a selector finds, each row's cells on one line.
        static let rows = """
            const rows = (selector) => [...document.querySelectorAll(selector)].filter((e) => e.checkVisibility())
              .map((e) => e.innerText.replace(/\\s+/g, ' ').trim());
            """

        init(at ms: Int64, projector: Browser?, phone: Browser, terminals: [(String, TmuxSession)]) throws {
            self.ms = ms
            if let projector {
                let read = try projector.script(Self.rows + """
                    return { text: document.body.innerText, players: rows('#round-screen .step, #round-players li'), schools: rows('#round-schools li'),
                             clock: rows('#round-clock').join(' ') };
                    """) as? [String: Any] ?? [:]
                projectorClock = read["clock"] as? String ?? ""
                self.projector = read["text"] as? String ?? ""
                projectorPlayers = read["players"] as? [String] ?? []
                projectorSchoolRows = read["schools"] as? [String] ?? []
            }
            let read = try phone.script(Self.rows + """
                const waiting = Object.keys(localStorage).filter((key) => key.startsWith('touchschool.outbox'))
                  .reduce((sum, key) => sum + (JSON.parse(localStorage.getItem(key)).batches || []).length, 0);
                return { text: document.body.innerText, round: rows('#round-bar, #round-big').join(' '), waiting };
                """) as? [String: Any] ?? [:]
            phoneWaiting = read["waiting"] as? Int ?? -1
            self.phone = read["text"] as? String ?? ""
            phoneRound = read["round"] as? String ?? ""
            self.terminals = Dictionary(uniqueKeysWithValues: terminals.map { ($0.0, $0.1.screen()) })
            endMs = RoundEndToEndTests.wallMs()
        }

        /// A projector's row: its place (its first number), the rest, its count (its last word):
        /// "1 alice 한빛고등학교 12", on the podium "1위 alice 한빛고등학교 12" or, tied, "공동 1위 alice 한빛고등학교 bob 푸른중학교 12".
        static func row(_ text: String) -> (place: Int, middle: String, count: UInt64)? {
            var words = text.split(separator: " ")
            guard words.count >= 3, let count = UInt64(words.removeLast().filter { $0 != "," }),
                  let first = words.firstIndex(where: { $0.first?.isNumber == true }), let place = Int(words[first].prefix(while: \.isNumber))
            else { return nil }
            return (place, words[(first + 1)...].joined(separator: " "), count)
        }

        /// The players the projector's standings name ("name school"), with their counts and places.
        func projectorRows(of players: [Player]) -> [String: (place: Int, count: UInt64)] {
            var found: [String: (place: Int, count: UInt64)] = [:]
            for text in projectorPlayers {
                guard let row = Self.row(text) else { continue }
                for player in players where " \(row.middle) ".contains(" \(player.name) \(player.school.name) ") {
                    found[player.name] = (row.place, row.count)
                }
            }
            return found
        }

        func projectorCounts(of players: [Player]) -> [String: UInt64] { projectorRows(of: players).mapValues(\.count) }
        func projectorPlaces(of players: [Player]) -> [String: Int] { projectorRows(of: players).mapValues(\.place) }

        func projectorSchools(named names: [String]) -> [String: UInt64] {
            var found: [String: UInt64] = [:]
            for text in projectorSchoolRows {
                guard let row = Self.row(text), names.contains(row.middle) else { continue }
                found[row.middle] = row.count
            }
            return found
        }

        /// Every screen shows its result: the terminals' boxes, the phone's place, the projector's final standings.
        func showsResults(on names: [String], in language: Language) -> Bool {
            names.allSatisfy { RoundScreensEndToEndTests.result(language, in: terminals[$0] ?? "") != nil }
                && RoundScreensEndToEndTests.phoneResult(language, in: phoneRound) != nil
                && (projector ?? "").contains(language.projectorFinal)
        }

        /// One line of the timeline: what each screen shows of the round.
        func line(players: [Player], language: Language, round: RoundAnswer.Summary) -> String {
            let projectorPart = projector == nil ? "-"
                : projectorRows(of: players).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.count)" }.joined(separator: ", ")
            let terminalsPart = terminals.keys.sorted().map { name in
                let screen = terminals[name] ?? ""
                let clock = RoundScreensEndToEndTests.clock(language, in: screen).map { "\($0)s " } ?? ""
                let shown = RoundScreensEndToEndTests.raceLine(language, in: screen).map { "\(clock)\($0.place)/\($0.players) \($0.count)" }
                    ?? RoundScreensEndToEndTests.result(language, in: screen).map { "result \($0.place)/\($0.players) \($0.count)" } ?? "?"
                return "\(name) \(shown)"
            }.joined(separator: "; ")
            let left = ms < round.endsAtMs ? " (\((round.endsAtMs - ms + 999) / 1_000)s left)" : ""
            return "\(ms - round.startsAtMs)\(left): made \(made) projector \(projectorClock) [\(projectorPart)] phone [\(phoneRound)] "
                + "(\(phoneWaiting) waiting) \(terminalsPart)"
        }
    }

    /// A place among the players, with the count: a round line's or a result's.
    struct Standing: Equatable {
        var place: Int
        var players: Int
        var count: UInt64
    }

    /// The groups of the first match of `pattern` in `text`.
    static func match(_ pattern: String, in text: String) -> [String]? {
        guard let regex = try? Regex(pattern), let match = text.firstMatch(of: regex) else { return nil }
        return (1..<match.output.count).map { match.output[$0].substring.map(String.init) ?? "" }
    }

    static func number(_ text: String) -> UInt64? { UInt64(text.filter { $0 != "," }) }

    /// A terminal's race line: its place among the players and its count.
    static func raceLine(_ language: Language, in screen: String) -> Standing? { standing(language.raceLine, in: screen) }

    /// The phone's round bar: its place among the players and its count.
    static func phoneBar(_ language: Language, in text: String) -> Standing? { standing(language.phoneBar, in: text) }

    /// The standing `pattern` (place, players, count) finds in `text`.
    static func standing(_ pattern: String, in text: String) -> Standing? {
        guard let parts = match(pattern, in: text), let place = Int(parts[0]), let players = Int(parts[1]), let count = number(parts[2]) else { return nil }
        return Standing(place: place, players: players, count: count)
    }

    /// The seconds left a terminal's or the phone's round line shows.
    static func clock(_ language: Language, in text: String) -> Int? { match(language.clock, in: text).flatMap { Int($0[0]) } }

    /// A terminal's result box, once drawn.
    static func result(_ language: Language, in screen: String) -> Standing? {
        guard screen.contains("+---"), let placed = match(language.resultPlace, in: screen), let counted = match(language.resultCount, in: screen),
              let place = Int(placed[0]), let players = Int(placed[1]), let count = number(counted[0]) else { return nil }
        return Standing(place: place, players: players, count: count)
    }

    /// The phone's result, once shown: its place, its count and how many played.
    static func phoneResult(_ language: Language, in text: String) -> Standing? {
        guard let parts = match(language.phoneResult, in: text), let place = Int(parts[0]), let count = number(parts[1]),
              let players = Int(parts[2]) else { return nil }
        return Standing(place: place, players: players, count: count)
    }

    // MARK: - The two languages

    /// What a language sets on each client, and how its screens read.
    struct Language: Sendable {
        /// The terminal games' `--lang`.
        var code: String
        /// The `LANG` the SSH client sends.
        var locale: String
        /// The browsers' language (`navigator.language`).
        var browser: String
        /// The round's title, as a teacher in that language names it.
        var title: String
        var tapsLabel: String
        /// The phone player's name: the page's default in its language.
        var webPlayer: String
        /// The seconds left on a terminal's race line or the phone's round bar.
        var clock: String
        /// Patterns of a terminal's race line (place, players, count) and result box ((place,
        /// players), (count)); of the phone's round bar (place, players, count) and result
        /// (place, count, players).
        var raceLine: String
        var resultPlace: String
        var resultCount: String
        var phoneBar: String
        var phoneResult: String
        /// The projector's heading of a final round.
        var projectorFinal: String
        /// Words each screen shows during the race.
        var terminalWords: [String]
        var phoneWords: [String]
        var projectorWords: [String]
        /// A word of the other language: a run of its letters.
        var foreignLetters: String

        /// A place, shared or not ("2위", "공동 2위"; "2nd", "tied 2nd"): its number.
        static let koreanPlace = #"(?:공동 )?(\d+)위"#, englishPlace = #"(?:tied )?(\d+)(?:st|nd|rd|th)"#

        static let korean = Language(
            code: "ko", locale: "ko_KR.UTF-8", browser: "ko-KR", title: "3반", tapsLabel: "내 터치", webPlayer: "웹 플레이어",
            clock: #"남은 시간 (\d+)초"#, raceLine: #"남은 시간 \d+초 · "# + koreanPlace + #" / (\d+)명 · ([\d,]+)번"#,
            resultPlace: #"\|\s*"# + koreanPlace + #" / (\d+)명\s*\|"#, resultCount: #"\|\s*([\d,]+)번\s*\|"#,
            phoneBar: #"남은 시간 \d+초 "# + koreanPlace + #" / (\d+)명 ([\d,]+)번"#, phoneResult: koreanPlace + #"! ([\d,]+)번 · (\d+)명 중"#,
            projectorFinal: "최종 결과",
            terminalWords: ["내 터치", "학교 합계", "남은 시간"], phoneWords: ["남은 시간"], projectorWords: ["선수", "학교", "명 참가"],
            foreignLetters: "[A-Za-z]+")

        // A count of one is "1 tap" (`NumberText.counted`): a player a second into the race has one.
        static let english = Language(
            code: "en", locale: "C.UTF-8", browser: "en-US", title: "Class 3", tapsLabel: "My taps", webPlayer: "web player",
            clock: #"(\d+) ?s left"#, raceLine: #"\d+s left · "# + englishPlace + #" of (\d+) · ([\d,]+) taps?"#,
            resultPlace: #"\|\s*"# + englishPlace + #" of (\d+)\s*\|"#, resultCount: #"\|\s*([\d,]+) taps?\s*\|"#,
            phoneBar: #"\d+ s left "# + englishPlace + #" of (\d+) ([\d,]+) taps?"#, phoneResult: englishPlace + #"! ([\d,]+) taps? · of (\d+)"#,
            projectorFinal: "Final results",
            terminalWords: ["My taps", "School total", "s left"], phoneWords: ["s left"], projectorWords: ["Players", "Schools", "playing"],
            foreignLetters: "[가-힣ㄱ-ㅎㅏ-ㅣ]+")

        /// The names of the keys the terminals' last line names, as on the keyboard.
        static let keyNames = ["Ctrl-C", "Tab", "Esc", "F1", "F2"]
        /// A word of the terminals' smoke puffs (`GameScreen`'s glyphs, an `o` among them): no language's.
        static let puff = #"^[@*o~+:.']+$"#

        /// The words of the other language in `text`, the names (players', schools', the title,
        /// the product's, the server's address) taken out first.
        func foreignWords(in text: String, names: [String]) -> [String] {
            var rest = text
            for name in (names + Self.keyNames).sorted(by: { $0.count > $1.count }) { rest = rest.replacingOccurrences(of: name, with: " ") }
            guard let regex = try? Regex(foreignLetters), let puff = try? Regex(Self.puff) else { return ["?"] }
            rest = rest.split(whereSeparator: \.isWhitespace).filter { $0.wholeMatch(of: puff) == nil }.joined(separator: " ")
            return rest.matches(of: regex).map { String(rest[$0.range]) }
        }
    }
}
