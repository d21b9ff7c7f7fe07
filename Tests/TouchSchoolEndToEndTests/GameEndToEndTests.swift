import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolStore
@testable import TouchSchoolCommandLine
import TouchSchoolTerminal

/// The real `touchschool` game in a real terminal (tmux), driven by keys like a player. Serialized:
/// the tests measure human-paced typing, which parallel tmux servers on two cores would disturb.
@Suite(.onOwnThreads, .tags(.process, .tmux), .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux not found: skipped"))
struct GameEndToEndTests {
    /// Keys a fast player cycles through: each key comes back only after 29 others (far slower
    /// than 100 ms), Hangul jamo included, each of which must be one tap, not three bytes.
    static let playerKeys = Array("qwertyuiopasdfghjklzxcvbnmㅁㄴㅇ")

    /// Taps `count` keys one at a time like a person: the next key only once the last one shows,
    /// and never less than 20 ms apart. `after` taps were counted already.
    static func tapLikeAPerson(_ session: TmuxSession, count: Int, after: Int = 0, label: String = "My taps") throws {
        for tap in (after + 1)...(after + count) {
            let sent = Date()
            session.type(String(playerKeys[(tap - 1) % playerKeys.count]))
            try session.waitFor("\(label) \(tap)") { TmuxSession.number(after: label, in: $0) == UInt64(tap) }
            let elapsed = Date().timeIntervalSince(sent)
            if elapsed < 0.02 { Thread.sleep(forTimeInterval: 0.02 - elapsed) }
        }
    }

    static func saved(in session: TmuxSession) throws -> SavedState {
        return try StateStore(directory: session.dataDirectory).read().state
    }

    @Test func choosesASchoolByTypingItsName() throws {
        let session = try TmuxSession(arguments: ["--lang", "en"])
        defer { session.close() }
        try session.chooseSchool(named: "푸른중", tapsLabel: "My taps")
        // The header's second line names my school; the ranking beside lists the others too.
        let header = session.screen().split(separator: "\n", omittingEmptySubsequences: false)[1]
        #expect(header.contains("푸른중학교"), "\(header)")
        #expect(!header.contains("한빛고등학교"), "\(header)")
        session.press("C-c")
        try session.waitFor("EXITED:0")
        #expect(try Self.saved(in: session).players["tester"]?.schoolID == "T0002")
    }

    /// Esc on the ranking and on help goes back to the game; only the game's own Esc quits, and
    /// only after asking: any other key keeps playing, a second Esc quits (and saves).
    @Test func escGoesBackToTheGameAndQuitsOnlyAfterAsking() throws {
        let session = try TmuxSession(arguments: ["--lang", "en"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        try Self.tapLikeAPerson(session, count: 2)
        session.press("Tab")
        try session.waitFor("Ranking · National")
        session.press("Escape")
        try session.waitFor("the game again") { $0.contains("My taps 2") && !$0.contains("Ranking · National") }
        session.press("F1")
        try session.waitFor("Tab about  Esc back")
        session.press("Escape")
        try session.waitFor("the game after help") { $0.contains("My taps 2") && !$0.contains("Tab about") }
        session.press("Escape")
        try session.waitFor("Quit? Esc/y: quit")
        session.type("n")
        let kept = try session.waitFor("the game, not quit") { !$0.contains("Quit?") }
        #expect(kept.contains("My taps 2"), "the n that answered was not a tap:\n\(kept)")
        session.press("Escape")
        try session.waitFor("Quit? Esc/y: quit")
        session.press("Escape")
        try session.waitFor("EXITED:0")
        #expect(try Self.saved(in: session).players["tester"]?.taps == 2)
    }

    /// The About screen (F1, then Tab) names the release `--version` prints: one version number.
    @Test func theAboutScreenShowsTheVersionTheCommandPrints() throws {
        let printed = Subprocess.run(DataCommandsBinary.path, ["--version"])
        let version = printed.output.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(printed.status == 0 && !version.isEmpty, "\(printed)")
        let session = try TmuxSession(arguments: ["--lang", "en"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        session.press("F1")
        try session.waitFor("Tab about  Esc back")
        session.press("Tab")
        let about = try session.waitFor("the About screen") { $0.contains("Tab help  Esc back") }
        #expect(about.contains("version \(version)"), "--version printed \(version); the About screen:\n\(about)")
        session.press("C-c")
        try session.waitFor("EXITED:0")
    }

    /// A typo finds nothing, but the closest name is offered and Enter takes it.
    @Test func aTypoIsForgivenInThePicker() throws {
        let session = try TmuxSession(arguments: ["--lang", "ko"])
        defer { session.close() }
        _ = try session.waitFor("the game to start") { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        session.type("푸륜중학교")
        try session.waitFor("혹시 푸른중학교?")
        session.press("Enter")
        try session.waitFor("내 터치 0")
        session.press("C-c")
        try session.waitFor("EXITED:0")
        #expect(try Self.saved(in: session).players["tester"]?.schoolID == "T0002")
    }

    @Test func schoolOptionSkipsTheSearch() throws {
        let session = try TmuxSession(arguments: ["--lang", "en", "--school", "T0003"])
        defer { session.close() }
        try session.waitFor("My taps 0")
        try session.waitFor("Maple Elementary")
    }

    @Test func unknownSchoolIDIsAnError() throws {
        let session = try TmuxSession(columns: 200, arguments: ["--school", "NOPE"])
        defer { session.close() }
        let screen = try session.waitFor("EXITED:1")
        #expect(screen.contains("no school has the id 'NOPE'"))
    }

    @Test func aLongUnknownSchoolIDIsShownCutAndVisibly() throws {
        let session = try TmuxSession(columns: 200, arguments: ["--school", "\u{1B}[2J" + String(repeating: "x", count: 10_000)])
        defer { session.close() }
        let screen = try session.waitFor("EXITED:1")
        #expect(screen.contains(#"no school has the id '\u{1B}[2J"# + String(repeating: "x", count: 30) + "…'"), "\(screen)")
    }

    @Test func hundredHumanTapsAreCountedShownAndSaved() throws {
        let session = try TmuxSession(arguments: ["--lang", "en"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        try Self.tapLikeAPerson(session, count: 100)
        let screen = session.screen()
        #expect(!screen.contains("Abnormal tapping"), "a human pace was refused:\n\(screen)")
        session.press("C-c")
        try session.waitFor("EXITED:0")

        let stats = DataCommandsBinary.run(["stats", "--json", "--player", "tester", "--data-dir", session.dataDirectory])
        #expect(stats.status == 0, "\(stats.error)")
        let object = try JSONValue.parse(stats.output)
        #expect(object["id"]?.stringValue == "T0001")
        #expect(object["myTaps"]?.uint64Value == 100)
        #expect(object["count"]?.uint64Value == 100)
    }

    @Test func aHeldKeyIsRefusedWithTheWarning() throws {
        let session = try TmuxSession(arguments: ["--lang", "ko", "--quiet"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "내 터치")
        // 60 presses of one key in one write: faster than any finger, like auto-repeat.
        session.type(String(repeating: "k", count: 60))
        let screen = try session.waitFor("all 60 presses judged") { screen in
            guard screen.contains("비정상적인 터치 수가 감지되었습니다."),
                  let counted = TmuxSession.number(after: "내 터치", in: screen),
                  let refused = Self.refusedCount(in: screen) else { return false }
            return counted + refused == 60
        }
        let counted = try #require(TmuxSession.number(after: "내 터치", in: screen))
        #expect(counted <= 3)
        session.press("C-c")
        try session.waitFor("EXITED:0")
        #expect(try Self.saved(in: session).scores["T0001"] == counted)
    }

    /// `… · 57번 무시됨)` in the Korean warning.
    static func refusedCount(in screen: String) -> UInt64? {
        guard let end = screen.range(of: "번 무시됨") else { return nil }
        let digits = screen[..<end.lowerBound].reversed().prefix(while: { $0.isNumber || $0 == "," })
        return UInt64(String(digits.reversed()).filter { $0 != "," })
    }

    @Test func pastedTextIsNeverATap() throws {
        let session = try TmuxSession(arguments: ["--lang", "en", "--quiet"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        session.paste("hello, this is pasted text")
        let screen = try session.waitFor("Abnormal tapping detected")
        #expect(screen.contains("pasted text"))
        #expect(TmuxSession.number(after: "My taps", in: screen) == 0)
        try Self.tapLikeAPerson(session, count: 1)
    }

    /// Reproduced on the old main: 20,000 characters into the search froze the game at 100 % CPU
    /// (each key searched the whole query again), and Ctrl-C waited behind them.
    @Test func twentyThousandCharactersInTheSearchLeaveTheGameResponsive() throws {
        let novel = String(repeating: "한빛고등학교서울", count: 2_500)
        for paste in [false, true] {
            let session = try TmuxSession(arguments: ["--lang", "en"])
            defer { session.close() }
            _ = try session.waitFor("the picker") { $0.contains("Search for your school") }
            let started = Date()
            if paste { session.paste(novel) } else { session.type(novel) }
            try session.waitFor("the search to take the text", timeout: 10) { $0.contains("한빛고등학교서울한빛") }
            session.press("C-c")
            try session.waitFor("EXITED:0", timeout: 10)
            #expect(Date().timeIntervalSince(started) < 5, "\(paste ? "pasted" : "typed"): took \(Date().timeIntervalSince(started)) s")
        }
    }

    @Test func tinyTerminalAsksForMoreRoomAndRecovers() throws {
        let session = try TmuxSession(arguments: ["--lang", "en"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        session.resize(columns: 20, rows: 5)
        let tiny = try session.waitFor("20x5")
        #expect(tiny.contains("Too small"))
        #expect(!tiny.contains("My taps"))
        session.resize(columns: 100, rows: 30)
        try session.waitFor("My taps 0")
        try Self.tapLikeAPerson(session, count: 3)
    }

    enum WayOut: String, CaseIterable, Sendable {
        case controlC, sigterm, sighup, sigint
    }

    @Test(arguments: WayOut.allCases)
    func everyWayOutSavesAndRestoresTheTerminal(_ way: WayOut) throws {
        let session = try TmuxSession(arguments: ["--lang", "en"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        try Self.tapLikeAPerson(session, count: 5)
        #expect(session.paneFormat("#{alternate_on}") == "1")
        #expect(session.paneFormat("#{cursor_flag}") == "0")
        switch way {
        case .controlC: session.press("C-c")
        case .sigterm: kill(try session.gamePID(), SIGTERM)
        case .sighup: kill(try session.gamePID(), SIGHUP)
        case .sigint: kill(try session.gamePID(), SIGINT)
        }
        let screen = try session.waitFor("EXITED:0")
        #expect(!screen.contains("My taps"), "the game's screen was left behind:\n\(screen)")
        #expect(session.paneFormat("#{alternate_on}") == "0")
        #expect(session.paneFormat("#{cursor_flag}") == "1")
        #expect(session.paneFormat("#{mouse_any_flag}") == "0")
        let saved = try Self.saved(in: session)
        #expect(saved.scores["T0001"] == 5)
        #expect(saved.players["tester"]?.taps == 5)
    }

    /// SIGPIPE is what a write to a connection the server's side closed raises: a game on a server
    /// whose Wi-Fi drops mid-write plays on offline, every tap kept (it once quit the game).
    @Test func aSIGPIPEIsNoWayOut() throws {
        let session = try TmuxSession(arguments: ["--lang", "en"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        try Self.tapLikeAPerson(session, count: 2)
        kill(try session.gamePID(), SIGPIPE)
        try Self.tapLikeAPerson(session, count: 3, after: 2)
        #expect(!session.screen().contains("EXITED"))
        session.press("C-c")
        try session.waitFor("EXITED:0")
        #expect(try Self.saved(in: session).scores["T0001"] == 5)
    }

    @Test func aClosedSessionLeavesNothingRunning() throws {
        let session = try TmuxSession(arguments: ["--lang", "en"])
        defer { session.close() }
        try session.waitFor("the game to start") { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        let processes = session.processes()
        #expect(processes.count >= 3, "the server, the pane's shell and the game: \(processes)")
        #expect(processes.contains(try session.gamePID()))
        session.close()
        for pid in processes { #expect(!TmuxSession.isRunning(pid), "process \(pid) outlived its session") }
    }

    /// Ctrl-Z and `fg`, as in any terminal program: the shell gets the terminal back as it was,
    /// lists the game as stopped, and `fg` brings it back whole, still counting.
    @Test func controlZSuspendsTheGameAndFgResumesIt() throws {
        let session = try TmuxSession(arguments: ["--lang", "en"], inShell: true)
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        try Self.tapLikeAPerson(session, count: 3)
        #expect(session.paneFormat("#{alternate_on}") == "1")
        #expect(session.paneFormat("#{mouse_any_flag}") == "1")

        session.press("C-z")
        let stopped = try session.waitFor("the shell's prompt after Ctrl-Z") { $0.contains("Stopped") && $0.hasPromptLast }
        #expect(!stopped.contains("My taps"), "the game's screen was left behind:\n\(stopped)")
        #expect(session.paneFormat("#{alternate_on}") == "0")
        #expect(session.paneFormat("#{cursor_flag}") == "1")
        #expect(session.paneFormat("#{mouse_any_flag}") == "0")
        session.type("jobs")
        session.press("Enter")
        // "Stopped" twice: the shell's notice at Ctrl-Z, then the job in the list.
        try session.waitFor("the game listed as stopped") { $0.components(separatedBy: "Stopped").count == 3 && $0.hasPromptLast }

        session.type("fg")
        session.press("Enter")
        let resumed = try session.waitFor("My taps 3")
        #expect(resumed.contains("School total 3"), "\(resumed)")
        #expect(session.paneFormat("#{alternate_on}") == "1")
        #expect(session.paneFormat("#{mouse_any_flag}") == "1")
        try Self.tapLikeAPerson(session, count: 2, after: 3)

        session.press("C-c")
        try session.waitFor("the prompt after the game") { $0.hasPromptLast && !$0.contains("My taps") }
        #expect(try Self.saved(in: session).scores["T0001"] == 5)
    }

    @Test func aTerminalThatCannotPlaceTheCursorIsAOneLineError() throws {
        let session = try TmuxSession(columns: 200, arguments: [], term: "dumb")
        defer { session.close() }
        let screen = try session.waitFor("EXITED:1")
        let lines = screen.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.count == 2, "\(screen)")
        #expect(lines.first?.contains("terminal type 'dumb'") == true, "\(screen)")
    }

    /// A bracketed paste whose end marker never comes: Ctrl-C still saves and quits.
    @Test func aPasteThatNeverEndsGivesWayToControlC() throws {
        let session = try TmuxSession(arguments: ["--lang", "en", "--quiet"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "My taps")
        try Self.tapLikeAPerson(session, count: 2)
        session.type("\u{1B}[200~pasted, and no end marker")
        session.type("asdf")
        session.press("C-c")
        let screen = try session.waitFor("EXITED:0")
        #expect(!screen.contains("My taps"))
        #expect(try Self.saved(in: session).scores["T0001"] == 2)
    }

    /// A bracketed paste whose end marker never comes ends once no input has come for the quiet
    /// gap: its text is refused as a paste, and keys typed after it count as taps again (before,
    /// every later key was swallowed into the paste until Ctrl-C).
    @Test func aPasteThatNeverEndsEndsAfterAQuietGap() throws {
        let session = try TmuxSession(arguments: ["--lang", "ko", "--quiet"])
        defer { session.close() }
        try session.chooseSchool(named: "한빛", tapsLabel: "내 터치")
        try Self.tapLikeAPerson(session, count: 2, label: "내 터치")
        let sent = Date()
        session.type("\u{1B}[200~붙여넣은 글, 끝 표시 없음")
        let refused = try session.waitFor("the paste refused after the gap") {
            $0.contains("비정상적인 터치 수가 감지되었습니다.") && $0.contains("붙여넣기")
        }
        let ended = Date().timeIntervalSince(sent)
        #expect(ended >= Double(InputDecoder.pasteQuietNanoseconds) / 1e9, "the paste ended \(ended) s after it was sent")
        #expect(TmuxSession.number(after: "내 터치", in: refused) == 2)
        try Self.tapLikeAPerson(session, count: 3, after: 2, label: "내 터치")
        session.press("C-c")
        try session.waitFor("EXITED:0")
        #expect(try Self.saved(in: session).scores["T0001"] == 5)
    }

    @Test func unknownTerminalTypeIsAOneLineError() throws {
        let session = try TmuxSession(columns: 200, arguments: [], term: "unknown-terminal-xyz")
        defer { session.close() }
        let screen = try session.waitFor("EXITED:1")
        let lines = screen.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.count == 2, "\(screen)")
        #expect(lines.first?.contains("unknown terminal type 'unknown-terminal-xyz'") == true)
    }
}

/// Without a terminal the game refuses at once, in one line, instead of garbling a pipe.
@Suite(.onOwnThreads, .tags(.process)) struct NotATerminalTests {
    @Test(arguments: [["play"], []])
    func refusesWithoutATerminal(_ arguments: [String]) {
        let result = DataCommandsBinary.run(arguments + ["--data-dir", "/nonexistent/touchschool-test"])
        #expect(result.status == 1)
        let message = result.error.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!message.contains("\n"), "\(message)")
        #expect(message.contains("needs a terminal"))
        #expect(result.output.isEmpty)
    }
}

private extension String {
    /// Whether the last non-blank line of a screen is the interactive shell's prompt, waiting.
    var hasPromptLast: Bool {
        split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
            .trimmingCharacters(in: .whitespaces) == TmuxSession.prompt
    }
}
