import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// `touchschool round` end to end: the real binary against the server in process, in English and
/// Korean; and what the players connected meanwhile are told: the round right away (a round
/// started through this server is read at once), then their place, with the server's clock in
/// every pong.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct RoundCommandTests {
    static func round(_ arguments: [String], korean: Bool = false, environment extra: [String: String] = [:]) -> (status: Int32, output: String, error: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["TOUCHSCHOOL_ADMIN_TOKEN"] = nil
        environment["LC_ALL"] = korean ? "ko_KR.UTF-8" : "C"
        environment["LANG"] = korean ? "ko_KR.UTF-8" : "C"
        environment["TZ"] = "UTC"
        environment.merge(extra) { $1 }
        return Subprocess.run(ServerProcess.binary, ["round"] + arguments, environment: environment)
    }

    /// `ms` since 1970 as the time of day in UTC, worked out here rather than by a formatter.
    static func clock(_ ms: Int64) -> String {
        let seconds = ms / 1000 % 86_400
        return String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    @Test func theOperatorStartsListsShowsAndStopsARoundAndThePlayersAreToldAtOnce() async throws {
        try await InProcessServer.with(store: .sqlite) { server in
            let (alice, _) = try await TestPlayer.join(server, device: TestDevice(name: "alice <b>"))
            let (bob, _) = try await TestPlayer.join(server, device: TestDevice(name: "bob"))
            let admin = ["--server", server.baseURL, "--data-dir", server.dataDirectory]

            // Refused before anything is sent: a length out of range, a title with a control.
            let short = Self.round(["start", "--seconds", "4"] + admin)
            #expect(short.status != 0 && short.error.contains("--seconds"), "\(short.error)")
            let bell = Self.round(["start", "--seconds", "10", "--title", "ring\u{07}"] + admin)
            #expect(bell.status != 0 && bell.error.contains("--title"), "\(bell.error)")
            #expect(try await HTTP.get("\(server.baseURL)/v1/rounds").body == "[]", "nothing was started")
            let none = Self.round(["list", "--server", server.baseURL])
            #expect(none.status == 0 && none.output == "No round yet.\n", "\(none)")

            let asked = Self.nowMs()
            let started = Self.round(["start", "--seconds", "60", "--title", "3반 + 4반"] + admin)
            #expect(started.status == 0, "\(started.error)")
            let listed = try JSONDecoder().decode([RoundAnswer.Summary].self, from: Data(try await HTTP.get("\(server.baseURL)/v1/rounds").body.utf8))
            let round = try #require(listed.first)
            #expect(listed.count == 1 && round.title == "3반 + 4반" && round.endsAtMs - round.startsAtMs == 60_000)
            #expect(started.output == "Round \(round.id) \u{201C}3반 + 4반\u{201D}: starts at \(Self.clock(round.startsAtMs)) (a 3 s countdown), "
                    + "lasts 60 s, ends at \(Self.clock(round.endsAtMs)).\n")

            // Told at once (within a read), before the window opens, with the server's clock.
            let told = try await alice.next("the round", timeout: 2) { if case let .round(told) = $0 { told } else { nil } }
            #expect(told.id == round.id && told.startsAtMs == round.startsAtMs && told.endsAtMs == round.endsAtMs && told.title == "3반 + 4반")
            #expect(told.place == nil && told.count == 0 && !told.final)
            #expect(told.nowMs >= asked && told.nowMs < round.startsAtMs, "told in its countdown")
            let sent = Self.nowMs()
            try await bob.send(.ping)
            let pong = try await bob.next("a pong") { if case let .pong(nowMs) = $0 { nowMs } else { nil } }
            #expect(pong >= sent && pong <= Self.nowMs(), "the server's clock: \(pong)")

            // Alice taps inside the window, Bob in its countdown only.
            let now = Self.nowMs()
            try await bob.send(.taps(TapBatch(seq: 1, taps: ["S0002": 5], playerTaps: 5, switchedToSchool: "S0002", bestTapsPerSecond: 8,
                                              startMs: now - 200, endMs: now)))
            _ = try await bob.ack(1)
            let wait = round.startsAtMs + 300 - Self.nowMs()
            if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
            try await alice.send(.taps(TapBatch(seq: 1, taps: ["S0001": 7], playerTaps: 7, switchedToSchool: "S0001", bestTapsPerSecond: 8,
                                                startMs: round.startsAtMs + 20, endMs: round.startsAtMs + 250)))
            _ = try await alice.ack(1)
            let placed = try await alice.next("alice's place", timeout: 3) { message -> RoundStanding? in
                if case let .roundPlace(place) = message, place.place != nil { place } else { nil }
            }
            #expect(placed == RoundStanding(id: round.id, place: 1, count: 7, players: 1, final: false))

            // While it runs (a minute long): still counting.
            let show = Self.round(["show", String(round.id), "--server", server.baseURL])
            #expect(show.status == 0, "\(show.error)")
            #expect(show.output == "Round \(round.id) \u{201C}3반 + 4반\u{201D}: \(Self.dateAndClock(round.startsAtMs))–\(Self.clock(round.endsAtMs)) (counting…)\n\n"
                    + "PLACE  PLAYER     SCHOOL        TAPS\n"
                    + "    1  alice <b>  서울고등학교     7\n", "\(show.output)")
            let korean = Self.round(["show", String(round.id), "--server", server.baseURL], korean: true)
            #expect(korean.output.contains("순위  선수       학교          터치\n") && korean.output.contains("(집계 중…)"), "\(korean.output)")
            // For a spreadsheet: the round on every row, times in the local zone (UTC here).
            let csvRound = "\(round.id),3반 + 4반,\(Self.dateAndClock(round.startsAtMs)),\(Self.dateAndClock(round.endsAtMs)),"
            let csv = Self.round(["show", String(round.id), "--csv", "--server", server.baseURL])
            #expect(csv.status == 0 && csv.output == "\u{FEFF}round,title,starts (UTC),ends (UTC),place,player,school,taps\r\n"
                    + csvRound + "1,alice <b>,서울고등학교,7\r\n", "\(csv)")
            let koreanCSV = Self.round(["show", String(round.id), "--csv", "--server", server.baseURL], korean: true)
            #expect(koreanCSV.output == "\u{FEFF}라운드,제목,시작 (UTC),끝 (UTC),순위,선수,학교,터치\r\n" + csvRound + "1,alice <b>,서울고등학교,7\r\n",
                    "\(koreanCSV)")
            let both = Self.round(["show", String(round.id), "--csv", "--json", "--server", server.baseURL])
            #expect(both.status != 0 && both.error.contains("--json or --csv"), "\(both.error)")
            let stopped = Self.round(["stop"] + admin, korean: true)
            #expect(stopped.status == 0, "\(stopped.error)")
            let after = try JSONDecoder().decode([RoundAnswer.Summary].self, from: Data(try await HTTP.get("\(server.baseURL)/v1/rounds").body.utf8))
            let ended = try #require(after.first)
            #expect(ended.endsAtMs < round.endsAtMs, "stopped early")
            #expect(stopped.output == "라운드 \(round.id) \u{201C}3반 + 4반\u{201D}: \(Self.clock(ended.endsAtMs))에 끝났습니다.\n")
            let retold = try await bob.next("the round stopped") { message -> RoundMessage? in
                if case let .round(told) = message, told.endsAtMs == ended.endsAtMs { told } else { nil }
            }
            #expect(retold.id == round.id)

            let list = Self.round(["list", "--server", server.baseURL])
            #expect(list.output == "ID  STARTS               SECONDS  TITLE\n"
                    + " \(round.id)  \(Self.dateAndClock(round.startsAtMs))  \(String((ended.endsAtMs - round.startsAtMs) / 1000).leftPadded(7))  3반 + 4반\n",
                    "\(list)")
            let json = Self.round(["list", "--json", "--server", server.baseURL])
            #expect(try JSONDecoder().decode([RoundAnswer.Summary].self, from: Data(json.output.utf8)) == after)

            let missing = Self.round(["show", "99", "--server", server.baseURL])
            #expect(missing.status != 0 && missing.error.contains("has no round 99"), "\(missing.error)")

            let token = try AdminAPI.token(of: server)
            let link = Self.round(["link"] + admin)
            #expect(link.status == 0 && link.output == "\(server.baseURL)/?board#admin=\(token)\n", "\(link)")
            let wrongFile = TemporaryDirectory().path + "-token"
            try Data("not-the-token-not-the-token-not-the-token\n".utf8).write(to: URL(fileURLWithPath: wrongFile))
            defer { try? FileManager.default.removeItem(atPath: wrongFile) }
            let wrong = Self.round(["stop", "--server", server.baseURL, "--token-file", wrongFile])
            #expect(wrong.status != 0 && wrong.error.contains("the token is not this server's"), "\(wrong.error)")
            await alice.close()
            await bob.close()
        }
    }

    static func dateAndClock(_ ms: Int64) -> String {
        // Days since 1970 to a civil date (Howard Hinnant's algorithm), independent of Foundation's formatter.
        let days = ms / 86_400_000 + 719_468
        let era = days / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(format: "%04d-%02d-%02d ", year, month, day) + clock(ms)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
