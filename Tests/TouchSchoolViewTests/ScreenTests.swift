import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

/// Every screen, in both languages, at the smallest playable size and a large one.
@Suite(.onOwnThreads) struct ScreenTests {
    /// Text each screen must show at every size (found even when wrapped), and more it must show
    /// when there is room.
    static func expected(on screen: Fixture.ScreenName, _ language: Language) -> (everywhere: [String], large: [String]) {
        let ko = language == .korean
        switch screen {
        case .picker:
            return ko
                ? (["학교 대항전 TouchSchool", "학교를 검색해주세요", "> _", "ㅅㅇㄱ", "서울고", "↑↓ 이동  Enter 선택  Esc 종료"],
                   ["부산 해운대초", "F1 도움말"])
                : (["학교 대항전 TouchSchool", "Search for your school", "> _", "ㅅㅇㄱ", "↑↓ move  Enter choose  Esc quit"],
                   ["부산 해운대초", "F1 help"])
        case .confirmSwitch:
            return ko
                ? (["학교를 바꾸면 내 터치 수가 0부터 다시 시작합니다. 바꿀까요? (Enter/y: 예, n/Esc: 아니오)",
                    "지금 학교: 서울고등학교", "바꿀 학교: 휘문고등학교", "Enter/y 예  n/Esc 아니오"],
                   ["서울특별시 서초구", "서울특별시 강남구", "내 터치 수 5번은"])
                : (["If you change school, your own tap count starts again from 0. Change? (Enter/y: yes, n/Esc: no)",
                    "Current school: 서울고등학교", "휘문고등학교", "Enter/y yes  n/Esc no"],
                   ["서울특별시 서초구", "Your 5 taps stay"])
        case .game:
            return ko
                ? (["서울고등학교", "전국 2위", "내 터치 5", "학교 합계 1,234,567", "휘문고등학교까지 765,434번", "전국 순위",
                    "아무 키나 마구 누르세요!", "Tab 순위  F1 도움말  F2 학교 바꾸기"],
                   ["서울특별시 서초구", "이번 판 0", "초당 0번 · 최고 9번", "Esc/Ctrl-C 종료"])
                : (["서울고등학교", "#2 nationally", "My taps 5", "School total 1,234,567", "765,434 taps to overtake 휘문고등학교",
                    "National ranking", "Mash any key!", "Tab ranking  F1 help"],
                   ["서울특별시 서초구", "This session 0", "0 taps/s · best 9", "Esc/Ctrl-C quit"])
        case .ranking:
            return ko
                ? (["순위 · 전국 (1/4)", "내 학교 2위 / 8", "←/→ 리그 바꾸기  Enter/m 내 학교", "순위", "변동", "터치 수",
                    "휘문고등학교", "2,000,000", "1,234,567", "대전중학교"],
                   ["시도", "시군구", "서울특별시", "서초구", "PgUp/PgDn Home/End 이동"])
                : (["Ranking · National (1/4)", "mine #2 of 8", "←/→ league  Enter/m my school", "Rank", "Move", "Taps",
                    "휘문고등학교", "2,000,000", "1,234,567", "대전중학교"],
                   ["Province", "District", "서울특별시", "서초구", "PgUp/PgDn Home/End scroll"])
        case .help:
            return ko
                ? (["도움말", "학교를 고르고 아무 키나 마구 누르세요.", "Tab 정보  Esc 뒤로"],
                   ["Ctrl-C", "저장하고 종료", "F2", "학교 바꾸기", "↑↓ PgUp/PgDn", "Home/End", "←/→", "Enter",
                    "5초 안에 230번이 넘는 터치", "1초에 16번보다", "6개가 넘는 키", "붙여넣기는 세지 않습니다",
                    "비정상적인 터치 수가 감지되었습니다."])
                : (["Help", "Choose your school, then mash any key.", "Tab about  Esc back"],
                   ["Ctrl-C", "save and quit", "F2", "change school", "↑↓ PgUp/PgDn", "Home/End", "←/→", "Enter",
                    "more than 230 taps within 5 seconds", "faster than 16 times a second", "more than 6 keys at once",
                    "pasted text do not count", "Abnormal tapping detected."])
        case .about:
            return ko
                ? (["정보", "버전 \(TouchSchoolVersion.release)", "Tab 도움말  Esc 뒤로",
                    "학교 데이터: 공공데이터포털(data.go.kr) 전국초중등학교위치표준데이터 (제공: 한국교육시설안전원)"],
                   ["기본 목록 (8개 학교)", "touchschool import FILE"])
                : (["About", "version \(TouchSchoolVersion.release)", "Tab help  Esc back", "School data: Public Data Portal (data.go.kr)"],
                   ["전국초중등학교위치표준데이터", "Korea Education Facilities Safety Agency (한국교육시설안전원)",
                    "the starter list (8 schools)", "touchschool import FILE"])
        }
    }

    @Test(arguments: Fixture.ScreenName.allCases, Language.allCases)
    func everyScreenShowsItsTextAndKeepsColumnsWhole(screen: Fixture.ScreenName, language: Language) {
        let expected = Self.expected(on: screen, language)
        for size in [Fixture.small, Fixture.large] {
            let state = Fixture.state(on: screen, language, columns: size.columns, rows: size.rows)
            let grid = view(state, now: Fixture.start)
            #expect(grid.width == size.columns && grid.height == size.rows)
            expectWholeColumns(grid, "\(screen) \(language) \(size)")
            let wanted = size == Fixture.large ? expected.everywhere + expected.large : expected.everywhere
            for text in wanted {
                #expect(grid.containsWrapped(text), "\(screen) \(language) \(size.columns)x\(size.rows) lacks \(text):\n\(grid.text)")
            }
        }
    }

    @Test(arguments: Fixture.ScreenName.allCases)
    func theKeyLineSpeaksTheGamesLanguage(screen: Fixture.ScreenName) {
        let korean = view(Fixture.state(on: screen, .korean, columns: 120, rows: 40), now: Fixture.start)
        let english = view(Fixture.state(on: screen, .english, columns: 120, rows: 40), now: Fixture.start)
        // The bottom line is UI text only: Hangul in Korean, none in English.
        #expect(containsHangul(korean.lines.last!))
        #expect(!containsHangul(english.lines.last!))
        #expect(korean.lines.last != english.lines.last)
    }

    @Test(arguments: Language.allCases)
    func tooSmallTerminalsAskForMoreRoomWithTheSizes(language: Language) {
        let ko = language == .korean
        let message = ko ? "터미널 창을 더 크게 해주세요" : "Please make the terminal bigger"
        let keys = ko ? "Tab 순위  F1 도움말" : "Tab ranking  F1 help"
        var state = Fixture.game(language, columns: 39, rows: 12)
        var grid = view(state, now: Fixture.start)
        #expect(grid.contains(message))
        #expect(grid.contains("39x12") && grid.contains("40x12"))
        #expect(!grid.contains(keys))
        expectWholeColumns(grid)

        _ = update(&state, .resize(columns: 10, rows: 3), now: Fixture.start)
        grid = view(state, now: Fixture.start)
        #expect(grid.width == 10 && grid.height == 3)
        #expect(grid.lines.contains("10x3<40x12"))
        #expect(grid.contains(ko ? "창이 작아요" : "Too small") || grid.contains("…"))
        expectWholeColumns(grid)

        _ = update(&state, .resize(columns: 1, rows: 1), now: Fixture.start)
        grid = view(state, now: Fixture.start)
        #expect(grid.width == 1 && grid.height == 1)
        expectWholeColumns(grid)

        _ = update(&state, .resize(columns: 0, rows: 0), now: Fixture.start)
        #expect(view(state, now: Fixture.start).cells.isEmpty)

        _ = update(&state, .resize(columns: 40, rows: 12), now: Fixture.start)
        #expect(view(state, now: Fixture.start).contains(keys))
    }

    @Test(arguments: [(40, 12), (41, 13), (71, 20), (72, 20), (80, 24), (200, 60), (300, 100)])
    func oddSizesKeepColumnsWholeOnEveryScreen(columns: Int, rows: Int) {
        for screen in Fixture.ScreenName.allCases {
            for language in Language.allCases {
                let grid = view(Fixture.state(on: screen, language, columns: columns, rows: rows), now: Fixture.start)
                #expect(grid.width == columns && grid.height == rows)
                expectWholeColumns(grid, "\(screen) \(language) \(columns)x\(rows)")
            }
        }
    }

    @Test(arguments: Language.allCases)
    func noticesShowInABoxUntilAKeyIsPressed(language: Language) {
        let notice = "상태 파일을 읽을 수 없어 state.json.broken-1 로 옮겨 두었습니다"
        let pressAnyKey = language == .korean ? "아무 키나 누르세요" : "Press any key"
        for size in [Fixture.small, Fixture.large] {
            var state = Fixture.game(language, columns: size.columns, rows: size.rows, notices: [notice])
            var grid = view(state, now: Fixture.start)
            #expect(boxedText(in: grid).filter { $0 != " " }.contains(notice.filter { $0 != " " }))
            #expect(grid.contains(pressAnyKey))
            #expect(grid.text.contains("+---"))
            expectWholeColumns(grid)

            _ = update(&state, .key(.character("a")), now: Fixture.start)
            grid = view(state, now: Fixture.start)
            #expect(!grid.containsWrapped(notice))
            #expect(!grid.contains(pressAnyKey))
        }
    }

    /// A game over SSH without a key is told what OpenSSH's password prompt could not say: any
    /// password works, and the session's school and own count last as long as the session.
    @Test(arguments: Language.allCases)
    func aSessionWithoutAKeyIsToldItIsForgotten(language: Language) {
        var state = Fixture.game(language, columns: 80, rows: 24)
        state.notices = [.sessionWithoutKey]
        let boxed = boxedText(in: view(state, now: Fixture.start)).filter { $0 != " " }
        let wanted = language == .korean ? ["SSH키없이접속했습니다", "비밀번호는아무거나", "접속이끝나면잊힙니다", "ssh-keygen"]
            : ["YoujoinedwithoutanSSHkey", "anypasswordworks", "forgottenwhenitends", "ssh-keygen"]
        for text in wanted { #expect(boxed.contains(text), "\(text) in \(boxed)") }
    }

    /// The text inside the "+---+" box, row after row.
    func boxedText(in grid: CellGrid) -> String {
        var corners: [(column: Int, row: Int)] = []
        for row in 0..<grid.height {
            for column in 0..<grid.width where grid[column, row].character == "+" && grid[column, row].style == .accent {
                corners.append((column, row))
            }
        }
        guard let first = corners.first, let last = corners.last else { return "" }
        var text = ""
        for row in (first.row + 1)..<last.row {
            for column in (first.column + 1)..<last.column where !grid[column, row].isContinuation {
                text.append(grid[column, row].character)
            }
        }
        return text
    }

    /// The frame depends on the state and the time given, and nothing else: a frame drawn for
    /// another moment in between (the puffs have faded by then) leaves nothing behind.
    @Test func theViewIsPureSameStateSameFrame() {
        var state = Fixture.game(.korean, columns: 80, rows: 24)
        let end = Fixture.tap(10, into: &state, from: Fixture.start)
        let first = view(state, now: end)
        let later = view(state, now: end.adding(milliseconds: 2_000))
        #expect(later != first)
        #expect(view(state, now: end) == first)
    }
}
