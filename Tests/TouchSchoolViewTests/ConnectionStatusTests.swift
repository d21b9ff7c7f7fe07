import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

/// Playing on a server: the status line says when the game is not connected, how many taps wait,
/// and when the server speaks another protocol; online, it shows the keys as locally.
@Suite(.onOwnThreads) struct ConnectionStatusTests {
    func statusLine(_ language: Language, _ status: ConnectionStatus?) -> String {
        var state = Fixture.game(language, columns: 100, rows: 24)
        if let status { _ = update(&state, .connectionChanged(status), now: Fixture.start) }
        return view(state, now: Fixture.start).lines.last!
    }

    @Test(arguments: Language.allCases)
    func offlineSaysSoWithTheTapsWaiting(language: Language) {
        let status = statusLine(language, .offline(waitingTaps: 1234))
        #expect(status.contains(language == .korean ? "오프라인" : "Offline"), "\(status)")
        #expect(status.contains("1,234"), "\(status)")
    }

    /// A wrong address (`https://` for the plain-HTTP server) is named with the taps waiting, not
    /// "offline": retrying would never mend it.
    @Test func aWrongAddressIsNamedWithTheTapsWaiting() {
        var state = Fixture.game(.english, columns: 160, rows: 24)
        _ = update(&state, .connectionChanged(.wrongAddress(.plainHTTP, waitingTaps: 1234)), now: Fixture.start)
        let english = view(state, now: Fixture.start).lines.last!
        #expect(english.contains("Give the address with http://: the server there speaks plain HTTP, not HTTPS. 1,234 taps waiting"), "\(english)")
        #expect(!english.contains("Offline"), "\(english)")
        state = Fixture.game(.korean, columns: 160, rows: 24)
        _ = update(&state, .connectionChanged(.wrongAddress(.sshServer, waitingTaps: 5)), now: Fixture.start)
        let korean = view(state, now: Fixture.start).lines.last!
        #expect(korean.contains("그 포트는 SSH 포트입니다") && korean.contains("터치 5번 대기 중"), "\(korean)")
    }

    @Test(arguments: Language.allCases)
    func connectingAndAnUnsupportedProtocolAreSaid(language: Language) {
        let connecting = statusLine(language, .connecting(waitingTaps: 3))
        #expect(connecting.contains(language == .korean ? "연결하는 중" : "Connecting"), "\(connecting)")
        let unsupported = statusLine(language, .unsupportedProtocol(waitingTaps: 3))
        #expect(unsupported.contains(language == .korean ? "프로토콜" : "protocol"), "\(unsupported)")
    }

    /// Online, the keys as locally; the local game says it plays on this computer only.
    @Test(arguments: Language.allCases)
    func onlineShowsTheKeysAsLocally(language: Language) {
        let keys = language == .korean ? "Tab 순위  F1 도움말  F2 학교 바꾸기  Esc/Ctrl-C 종료" : "Tab ranking  F1 help  F2 change school  Esc/Ctrl-C quit"
        let online = statusLine(language, .online), local = statusLine(language, nil)
        #expect(online.trimmingCharacters(in: .whitespaces) == keys, "\(online)")
        #expect(local.hasPrefix(" " + keys) && local.hasSuffix((language == .korean ? "이 컴퓨터만" : "this computer only") + " "), "\(local)")
    }

    /// In an 80-column terminal the keys are whole (they were cut to `Esc/Ctrl-C qu…` beside the
    /// server), and the server is named as much as fits.
    @Test(arguments: Language.allCases)
    func eightyColumnsKeepTheKeysWholeBesideTheServer(language: Language) {
        var state = Fixture.game(language, columns: 80, rows: 24)
        state.server = "192.168.0.10:8080"
        _ = update(&state, .connectionChanged(.online), now: Fixture.start)
        let line = view(state, now: Fixture.start).lines.last!
        #expect(line.contains(language == .korean ? "Esc/Ctrl-C 종료" : "Esc/Ctrl-C quit"), "\(line)")
        #expect(line.contains("192.168.0.10:8080"), "\(line)")
    }

    @Test(arguments: Language.allCases)
    func theStatusLineNamesTheServerBesideTheKeysAndTheTrouble(language: Language) {
        let ko = language == .korean
        var state = Fixture.game(language, columns: 100, rows: 24)
        state.server = "192.168.0.10:8080"
        _ = update(&state, .connectionChanged(.online), now: Fixture.start)
        var line = view(state, now: Fixture.start).lines.last!
        #expect(line.hasSuffix(ko ? "서버 192.168.0.10:8080 " : "server 192.168.0.10:8080 "), "\(line)")
        #expect(line.contains(ko ? "Tab 순위" : "Tab ranking"), "\(line)")
        _ = update(&state, .connectionChanged(.offline(waitingTaps: 7)), now: Fixture.start)
        line = view(state, now: Fixture.start).lines.last!
        #expect(line.contains(ko ? "오프라인" : "Offline") && line.contains("192.168.0.10:8080"), "\(line)")
    }

    @Test func aNarrowTerminalKeepsTheKeysBeforeTheServer() {
        var state = Fixture.game(.english, columns: 40, rows: 12)
        state.server = "a-very-long-host-name.school.example:8080"
        let line = view(state, now: Fixture.start).lines.last!
        #expect(line.contains("Tab"), "\(line)")
        #expect(!line.contains("example"), "\(line)")
    }

    @Test(arguments: Language.allCases)
    func escInTheGameAsksOnTheStatusLine(language: Language) {
        var state = Fixture.game(language, columns: 100, rows: 24)
        _ = update(&state, .key(.escape), now: Fixture.start)
        let line = view(state, now: Fixture.start).lines.last!
        #expect(line.contains(language == .korean ? "종료할까요? Esc/y: 종료" : "Quit? Esc/y: quit"), "\(line)")
    }

    @Test func theServersRefusalIsTheOriginalsWarning() {
        var state = Fixture.game(.korean, columns: 100, rows: 24)
        _ = update(&state, .tapsRefusedByServer(40), now: Fixture.start)
        let status = view(state, now: Fixture.start).lines.last!
        #expect(status.contains("비정상적인 터치 수가 감지되었습니다."), "\(status)")
        #expect(status.contains("40"), "\(status)")
    }

    /// A device the operator banned is told so, not that it tapped too fast (the issue's "Abnormal
    /// tapping detected" for a banned player).
    @Test(arguments: Language.allCases)
    func theOperatorsBanIsSaidAsSuch(language: Language) {
        var state = Fixture.game(language, columns: 100, rows: 24)
        _ = update(&state, .tapsRefusedByOperator(7), now: Fixture.start)
        let status = view(state, now: Fixture.start).lines.last!
        let banned = language == .korean ? "차단된 기기라 터치가 세지 않습니다" : "this device is banned"
        #expect(status.contains(banned) && status.contains("7"), "\(status)")
        #expect(!status.contains("비정상") && !status.contains("Abnormal"), "\(status)")
    }
}
