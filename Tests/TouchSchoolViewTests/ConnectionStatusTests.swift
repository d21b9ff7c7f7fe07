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

    @Test(arguments: Language.allCases)
    func connectingAndAnUnsupportedProtocolAreSaid(language: Language) {
        let connecting = statusLine(language, .connecting(waitingTaps: 3))
        #expect(connecting.contains(language == .korean ? "연결하는 중" : "Connecting"), "\(connecting)")
        let unsupported = statusLine(language, .unsupportedProtocol(waitingTaps: 3))
        #expect(unsupported.contains(language == .korean ? "프로토콜" : "protocol"), "\(unsupported)")
    }

    @Test(arguments: Language.allCases)
    func onlineShowsTheKeysAsLocally(language: Language) {
        #expect(statusLine(language, .online) == statusLine(language, nil))
    }

    @Test func theServersRefusalIsTheOriginalsWarning() {
        var state = Fixture.game(.korean, columns: 100, rows: 24)
        _ = update(&state, .tapsRefusedByServer(40), now: Fixture.start)
        let status = view(state, now: Fixture.start).lines.last!
        #expect(status.contains("비정상적인 터치 수가 감지되었습니다."), "\(status)")
        #expect(status.contains("40"), "\(status)")
    }
}
