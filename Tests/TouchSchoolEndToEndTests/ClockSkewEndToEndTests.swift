import Foundation
import Testing
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// Issue 48's proof that a client whose clock is off counts its race as its screen showed it: one
/// `touchschool serve`, a phone page in Chromium whose clock (`Date.now`) is shifted 9 s and a
/// terminal game under tmux whose wall clock is shifted 11 s (`ShiftedWallClock`), both the same
/// way, and one round of 10 s. Each taps just after its screen shows GO (within 8 s of the start)
/// and again from 5 s before the end. Claimed on its own clock, a slow clock's first taps would lie
/// before the start and a fast one's last taps after the end (8 s and 5 s are less than either
/// client is off). The round counts every one of them, for each client. The taps have that long to
/// be made and seen: with 2.8 s (and shifts of 3 s and 5 s), a run of every browser suite at once
/// on two cores took 2.7–3.7 s to make and confirm the last; with 5 s (and shifts of 6 s and 8 s),
/// `scripts/test`'s eight suites at once once took 5.6 s to make and confirm the first six. Every process it starts is gone when it ends, but
/// the suite's browser, which ends with the suite.
@Suite(.onOwnThreads, .tags(.process, .tmux, .browser), .sharedBrowsers(), .serialized, .enabled(if: Browser.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"),
                                            "chromium, chromedriver or tmux not found (scripts/test installs them): skipped"))
struct ClockSkewEndToEndTests {
    typealias Page = WebPageEndToEndTests
    typealias Rounds = RoundEndToEndTests
    /// The taps each client makes in the window: just after GO, then shortly before the end.
    static let first = 3, last = 2

    /// The phone's clock shifted by `shift` ms in every document it opens, before the page's
    /// scripts: what the page reads as now (it times everything by `Date.now`).
    static func shiftClock(of browser: Browser, by shift: Int64) throws {
        try browser.runBeforeEveryPage("(() => { const real = Date.now.bind(Date); Date.now = () => real() + (\(shift)); })();")
    }

    @Test(arguments: [Int64(1), -1])
    func clientsWhoseClocksAreOffCountEveryTapOfTheRaceTheirScreensShowed(_ direction: Int64) throws {
        let phoneShift = 9_000 * direction, terminalShift = 11_000 * direction
        let server = try ServerProcess.forGames()
        defer { server.stop() }
        let game = try TmuxSession(arguments: ["--lang", "en", "--server", server.baseURL], user: "alice",
                                   under: try ShiftedWallClock.command(shiftedBy: terminalShift))
        defer { game.close() }
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        try Self.shiftClock(of: phone, by: phoneShift)

        try game.chooseSchool(named: "한빛고", tapsLabel: "My taps")
        try game.waitFor("server 127.0.0.1:\(server.port)")
        try phone.open("\(server.baseURL)/?school=\(Rounds.hanbit)")
        try phone.waitFor("the game") { Page.text(phone, "school-name") == "한빛고등학교" }
        let phoneClock = try #require(try phone.script("return Date.now()") as? NSNumber).int64Value
        #expect(abs(phoneClock - Rounds.wallMs() - phoneShift) < 1_000, "the phone's clock is shifted")
        try Page.waitUntilDelivered(phone)
        try Rounds.watchRound(phone, element: "round-big")

        let started = DataCommandsBinary.run(["round", "start", "--server", server.baseURL, "--seconds", "10", "--json",
                                              "--data-dir", server.dataDirectory])
        try #require(started.status == 0, "round start: \(started.error)")
        let round = try JSONDecoder().decode(RoundAnswer.Summary.self, from: Data(started.output.utf8))

        // GO on both screens, then the first taps.
        try game.waitFor("the game's race", timeout: 6) { Rounds.showsRace($0) }
        try phone.waitFor("the phone's GO", timeout: 6) { try Rounds.seen(phone)["go"] != nil }
        try NetworkPlayEndToEndTests.tap(game, Self.first)
        try Page.touch(phone, Self.first, after: 0)
        // Made within 8 s of the start, they are less than either client is off after it.
        try #require(Rounds.wallMs() < round.startsAtMs + 8_000, "the first taps took too long: \(Rounds.wallMs() - round.startsAtMs) ms after the start")
        // The last taps, from 5 s before the end by the server's clock (this machine's).
        Thread.sleep(until: Date(timeIntervalSince1970: Double(round.endsAtMs - 5_000) / 1_000))
        #expect(Rounds.showsRace(game.screen()), "the game shows the race before its last taps")
        try NetworkPlayEndToEndTests.tap(game, Self.last, after: Self.first)
        try Page.touch(phone, Self.last, after: Self.first)
        try #require(Rounds.wallMs() < round.endsAtMs - 200, "the last taps took too long: \(round.endsAtMs - Rounds.wallMs()) ms before the end")
        try Page.waitUntilDelivered(phone)

        // The standings once final: a second after the grace (docs/protocol.md, "The round on the screens").
        Thread.sleep(until: Date(timeIntervalSince1970: Double(round.endsAtMs + round.graceMs + 1_000) / 1_000))
        let results = try Rounds.results(round.id, on: server)
        let counts = Dictionary(results.players.map { ($0.player == "alice" ? "game" : "phone", $0.count) }, uniquingKeysWith: +)
        #expect(counts == ["game": UInt64(Self.first + Self.last), "phone": UInt64(Self.first + Self.last)],
                "the phone \(phoneShift) ms, the game \(terminalShift) ms off: \(results.players)")
        #expect(try NetworkPlayEndToEndTests.total(Rounds.hanbit, on: server) == UInt64(2 * (Self.first + Self.last)))
        try NetworkPlayEndToEndTests.quit(game)
    }
}

/// A program's wall clock shifted, as a device's set wrong is: a library preloaded into it
/// (`LD_PRELOAD`) adds the shift to what `clock_gettime` answers for the real-time clocks, and
/// to nothing else (the monotonic clocks, the waits, the timers run as they do). The game reads
/// the wall clock as it always does; only the machine's answer is wrong. (`faketime` shifts the
/// waits too, and a Swift program's `Task.sleep` hangs behind a clock shifted back.)
enum ShiftedWallClock {
    static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdlib.h>
        #include <time.h>

        int clock_gettime(clockid_t id, struct timespec *ts) {
            static int (*real)(clockid_t, struct timespec *);
            if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
            int result = real(id, ts);
            const char *shift = getenv("TOUCHSCHOOL_TEST_CLOCK_SHIFT_MS");
            if (result == 0 && shift && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) {
                long long ns = (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec + atoll(shift) * 1000000LL;
                ts->tv_sec = ns / 1000000000LL;
                ts->tv_nsec = ns % 1000000000LL;
            }
            return result;
        }
        """

    /// The library, built once per test process with the toolchain's C compiler.
    static let library: Result<String, Browser.Failure> = {
        let folder = TemporaryDirectory().path
        do {
            try source.write(toFile: "\(folder)/shift.c", atomically: true, encoding: .utf8)
        } catch {
            return .failure(Browser.Failure(description: "cannot write the clock shift's source: \(error)"))
        }
        let built = Subprocess.run("/usr/bin/env", ["clang", "-shared", "-fPIC", "-O2", "-o", "\(folder)/shift.so", "\(folder)/shift.c", "-ldl"],
                                   environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        guard built.status == 0 else { return .failure(Browser.Failure(description: "cannot build the clock shift: \(built.error)")) }
        return .success("\(folder)/shift.so")
    }()

    /// The command to run a program under, its wall clock `shift` ms off (`TmuxSession(under:)`).
    static func command(shiftedBy shift: Int64) throws -> [String] {
        ["env", "LD_PRELOAD=\(try library.get())", "TOUCHSCHOOL_TEST_CLOCK_SHIFT_MS=\(shift)"]
    }
}
