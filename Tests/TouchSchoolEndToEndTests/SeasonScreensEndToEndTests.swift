import Foundation
import Testing
import TouchSchoolTestSupport

/// Issue 50's proof that the terminal ranks by the season and can show all time, read as a person
/// reads it: a real `touchschool serve --season week` whose clock is moved (`--clock-offset-ms`,
/// hidden) to `lead` before a Monday 00:00 in Korea, two terminal games (tmux, 80×24), one in
/// Korean for 한빛고등학교 and one in English for 푸른중학교, tapping before that boundary, and an
/// SSH game in Korean (OpenSSH's client under tmux, 80×24) watching. Their ranking screens say
/// "this week" with its days and show the week's totals (the taps made); past the boundary, the
/// next week's days and 0 for both, and with `a` (ㅁ on the Korean layout) all time, the whole
/// totals. `touchschool rank --server` and `stats --server` say the week they rank by and its
/// totals, with `--all-time` all time's. Every expectation is from what the test tapped and
/// Korea's calendar as Foundation counts it. Every process it starts is gone when it ends.
@Suite(.onOwnThreads, .tags(.process, .tmux, .ssh), .serialized,
       .enabled(if: ["/usr/bin/tmux", "/usr/bin/ssh", "/usr/bin/ssh-keygen"].allSatisfy(FileManager.default.isExecutableFile(atPath:)),
                "tmux or OpenSSH's client not found: skipped"))
struct SeasonScreensEndToEndTests {
    /// From the server's start to the boundary: time for three games to start, choose, tap and be
    /// read before it on a loaded two-core machine (each step waits for the screen, none sleeps).
    /// Alone that takes about 6 s. Run beside two hundred other cases at once (not `scripts/test`'s
    /// eight) it took 36 s: the first `#require` below says so rather than reading the wrong week.
    static let leadMs: Int64 = 30_000
    static let hanbit = TmuxSession.schools[0], pureun = TmuxSession.schools[1], maple = TmuxSession.schools[2]
    /// The taps of each game before the boundary.
    static let hanbitTaps = 5, pureunTaps = 3

    static var korea: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 9 * 3_600)!
        return calendar
    }

    /// The next Monday 00:00 in Korea after `ms`, in ms since 1970.
    static func nextKoreanMonday(after ms: Int64) -> Int64 {
        let now = Date(timeIntervalSince1970: Double(ms) / 1_000)
        let monday = korea.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0, second: 0, weekday: 2),
                                    matchingPolicy: .strict)!
        return Int64(monday.timeIntervalSince1970 * 1_000)
    }

    /// The week from `start` (a Monday 00:00 in Korea), as each screen names it.
    static func week(from start: Int64) -> (korean: String, english: String, id: String) {
        let first = Date(timeIntervalSince1970: Double(start) / 1_000)
        let last = korea.date(byAdding: .day, value: 6, to: first)!
        let (a, b) = (korea.dateComponents([.month, .day], from: first), korea.dateComponents([.month, .day], from: last))
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        // Weeks are numbered from Monday 5 January 1970 (docs/protocol.md, "Seasons").
        let number = ((start + 9 * 3_600_000) / 86_400_000 - 4) / 7
        return ("이번 주 (\(a.month!)월 \(a.day!)일–\(b.month!)월 \(b.day!)일)",
                "This week (\(months[a.month! - 1]) \(a.day!) – \(months[b.month! - 1]) \(b.day!))", "week-\(number)")
    }

    /// The count at the end of the ranking row naming `school` (nil: no such row).
    static func count(of school: String, in screen: String) -> String? {
        screen.split(separator: "\n").first { $0.contains(school) }?.split(separator: " ").last.map(String.init)
    }

    /// The ranking shows `title` first and `counts` for the two schools.
    static func shows(_ screen: String, title: String, counts: (hanbit: Int, pureun: Int)) -> Bool {
        screen.split(separator: "\n").first?.hasPrefix(" " + title) == true
            && count(of: hanbit.name, in: screen) == "\(counts.hanbit)" && count(of: pureun.name, in: screen) == "\(counts.pureun)"
    }

    @Test func theRankingShowsTheWeekThenTheNextAtZeroAndAllTimeTheWhole() throws {
        let local = Int64(Date().timeIntervalSince1970 * 1_000)
        let boundary = Self.nextKoreanMonday(after: local + Self.leadMs)
        let offset = boundary - Self.leadMs - local
        let serverNow = { Int64(Date().timeIntervalSince1970 * 1_000) + offset }
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let carolKey = try SSHPlayEndToEndTests.makeKey("carol", in: keys)
        let server = try ServerProcess.forGames(arguments: ["--season", "week", "--clock-offset-ms", String(offset), "--ssh-port", "0"])
        defer { server.stop() }
        let korean = try TmuxSession(columns: 80, rows: 24, arguments: ["--lang", "ko", "--server", server.baseURL], user: "alice")
        defer { korean.close() }
        let english = try TmuxSession(columns: 80, rows: 24, arguments: ["--lang", "en", "--server", server.baseURL], user: "bob")
        defer { english.close() }
        let ssh = try SSHPlayEndToEndTests.player("carol", key: carolKey, on: server, language: "ko_KR.UTF-8", columns: 80, rows: 24)
        defer { ssh.close() }

        let (ended, next) = (Self.week(from: boundary - 7 * 86_400_000), Self.week(from: boundary))
        try korean.chooseSchool(named: "한빛고", tapsLabel: "내 터치")
        try english.chooseSchool(named: "푸른중", tapsLabel: "My taps")
        try ssh.chooseSchool(named: "Maple", tapsLabel: "내 터치")
        // The week is told on joining: the game's rank line names it once the first tap ranks.
        try GameEndToEndTests.tapLikeAPerson(korean, count: Self.hanbitTaps, label: "내 터치")
        try GameEndToEndTests.tapLikeAPerson(english, count: Self.pureunTaps)
        try korean.waitFor("전국 1위 · 이번 주")
        try english.waitFor("#2 nationally · This week")
        try #require(serverNow() < boundary - 2_000, "the taps took too long: \(boundary - serverNow()) ms before the boundary")

        korean.press("Tab")
        english.press("Tab")
        ssh.press("Tab")
        try korean.waitFor("the week's totals in Korean") {
            Self.shows($0, title: "\(ended.korean) 순위 · 전국 (1/4)", counts: (Self.hanbitTaps, Self.pureunTaps))
        }
        try ssh.waitFor("the week's totals over SSH") {
            Self.shows($0, title: "\(ended.korean) 순위 · 전국 (1/4)", counts: (Self.hanbitTaps, Self.pureunTaps))
        }
        try english.waitFor("the week's totals in English") {
            Self.shows($0, title: "Ranking · National (1/4) · \(ended.english)", counts: (Self.hanbitTaps, Self.pureunTaps))
        }
        #expect(korean.screen().contains("v 지도  a 전체") && english.screen().contains("v map  a all time"))
        try #require(serverNow() < boundary, "read after the boundary: \(serverNow() - boundary) ms")

        // Past the boundary: the next week, in which no one has tapped.
        try korean.waitFor("the next week at 0 in Korean", timeout: Double(boundary - serverNow()) / 1_000 + 10) {
            Self.shows($0, title: "\(next.korean) 순위 · 전국 (1/4)", counts: (0, 0))
        }
        try english.waitFor("the next week at 0 in English") {
            Self.shows($0, title: "Ranking · National (1/4) · \(next.english)", counts: (0, 0))
        }
        try ssh.waitFor("the next week at 0 over SSH") {
            Self.shows($0, title: "\(next.korean) 순위 · 전국 (1/4)", counts: (0, 0))
        }
        // All time: the whole totals, and the key back to the week.
        korean.type("ㅁ")
        english.type("a")
        ssh.type("a")
        try ssh.waitFor("all time over SSH") {
            Self.shows($0, title: "전체 순위 · 전국 (1/4)", counts: (Self.hanbitTaps, Self.pureunTaps))
        }
        let koreanAllTime = try korean.waitFor("all time in Korean") {
            Self.shows($0, title: "전체 순위 · 전국 (1/4)", counts: (Self.hanbitTaps, Self.pureunTaps))
        }
        let englishAllTime = try english.waitFor("all time in English") {
            Self.shows($0, title: "Ranking · National (1/4) · All time", counts: (Self.hanbitTaps, Self.pureunTaps))
        }
        #expect(koreanAllTime.contains("a 이번 주") && englishAllTime.contains("a this week"))
        korean.press("Tab")
        try korean.waitFor("전국 1위 · 전체")

        // The commands: the week by default, said with its id; all time when asked.
        let reader = "\(server.folder)/reader"
        let week = DataCommandsBinary.run(["rank", "--server", server.baseURL, "--data-dir", reader], locale: ["LANG": "ko_KR.UTF-8"])
        #expect(week.status == 0, "\(week.error)")
        let weekLines = week.output.split(separator: "\n").map(String.init)
        #expect(weekLines.first == "이번 주 (\(next.id))", "\(week.output)")
        #expect(Self.count(ofRow: Self.hanbit.name, in: week.output) == "0" && Self.count(ofRow: Self.pureun.name, in: week.output) == "0",
                "\(week.output)")
        let allTime = DataCommandsBinary.run(["rank", "--all-time", "--server", server.baseURL, "--data-dir", reader])
        #expect(allTime.status == 0, "\(allTime.error)")
        #expect(allTime.output.hasPrefix("All time\nAll schools: 3 schools\n"), "\(allTime.output)")
        #expect(Self.count(ofRow: Self.hanbit.name, in: allTime.output) == "\(Self.hanbitTaps)"
                && Self.count(ofRow: Self.pureun.name, in: allTime.output) == "\(Self.pureunTaps)", "\(allTime.output)")

        try NetworkPlayEndToEndTests.quit(korean)
        try NetworkPlayEndToEndTests.quit(english)
        ssh.press("C-c")

        // `stats` of the Korean game's device and player: its school's taps this week (none
        // yet) and all time's.
        let stats = DataCommandsBinary.run(["stats", "--server", server.baseURL, "--player", "alice", "--data-dir", korean.dataDirectory],
                                           locale: ["LANG": "ko_KR.UTF-8"])
        #expect(stats.status == 0, "\(stats.error)")
        #expect(Self.value(of: "학교 터치 수:", in: stats.output) == "0" && Self.value(of: "기간:", in: stats.output) == "이번 주 (\(next.id))",
                "\(stats.output)")
        let allTimeStats = DataCommandsBinary.run(["stats", "--all-time", "--server", server.baseURL, "--player", "alice",
                                                   "--data-dir", korean.dataDirectory])
        #expect(allTimeStats.status == 0, "\(allTimeStats.error)")
        #expect(Self.value(of: "School's taps:", in: allTimeStats.output) == "\(Self.hanbitTaps)"
                && Self.value(of: "Period:", in: allTimeStats.output) == "All time", "\(allTimeStats.output)")
    }

    /// What `stats` prints after `label`.
    static func value(of label: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix(label) }.map { $0.dropFirst(label.count).trimmingCharacters(in: .whitespaces) }
    }

    /// The count of `rank`'s row naming `school`: its second column (rank, count, school).
    static func count(ofRow school: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.contains(school) }?.split(separator: " ").dropFirst().first.map(String.init)
    }
}
