import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

/// Every refusal a player can meet on the game's status line says what to do first, then why: in
/// an 80×24 terminal, beside the server's address, the whole instruction is on the screen in both
/// languages (an old game refused for its protocol read "The server speaks a protocol version
/// this game does n…", the instruction cut off).
@Suite(.onOwnThreads) struct RefusalInstructionTests {
    /// A refusal as the game meets it, and the instruction it must show whole, in Korean and English.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var event: GameEvent
        var korean: String
        var english: String
        var testDescription: String { name }
    }

    static let refusals = [
        Refusal(name: "protocol version", event: .connectionChanged(.unsupportedProtocol(waitingTaps: 1_234)),
                korean: "touchschool을 업데이트하세요:", english: "Update touchschool:"),
        Refusal(name: "https:// to the plain-HTTP server", event: .connectionChanged(.wrongAddress(.plainHTTP, waitingTaps: 1_234)),
                korean: "주소를 http://로 주세요:", english: "Give the address with http://:"),
        Refusal(name: "the SSH port as --server", event: .connectionChanged(.wrongAddress(.sshServer, waitingTaps: 1_234)),
                korean: "--server에는 서버의 HTTP 포트를 주세요:", english: "Give --server the server's HTTP port:"),
        Refusal(name: "the address banned", event: .connectionChanged(.refused(.bannedAddress, waitingTaps: 1_234)),
                korean: "운영자에게 문의하세요:", english: "Ask the operator:"),
        Refusal(name: "the battle full", event: .connectionChanged(.refused(.battleFull, waitingTaps: 1_234)),
                korean: "운영자에게 자리를 요청하세요:", english: "Ask the operator for room:"),
        Refusal(name: "too many from the address", event: .connectionChanged(.refused(.tooManyFromAddress, waitingTaps: 1_234)),
                korean: "운영자에게 문의하세요:", english: "Ask the operator:"),
        Refusal(name: "another battle at the address", event: .connectionChanged(.otherBattle(waitingTaps: 1_234)),
                korean: "새 대항전은 게임을 다시 시작하세요:", english: "Restart the game to join the new battle:"),
        Refusal(name: "the waiting taps not saved", event: .connectionChanged(.cannotSaveOutbox(waitingTaps: 1_234)),
                korean: "디스크를 확인하세요:", english: "Check the disk:"),
        Refusal(name: "the device banned", event: .tapsRefusedByOperator(1_234),
                korean: "운영자에게 문의하세요: 차단된 기기", english: "Ask the operator: this device is banned"),
    ]

    @Test(arguments: Language.allCases, refusals)
    func theInstructionIsWholeAtEightyColumns(language: Language, refusal: Refusal) {
        for server in ["192.168.0.10:8080", "touchschool.example-school.kr:8080"] {
            var state = Fixture.game(language, columns: 80, rows: 24)
            state.server = server
            _ = update(&state, refusal.event, now: Fixture.start)
            let line = view(state, now: Fixture.start).lines.last!
            let instruction = language == .korean ? refusal.korean : refusal.english
            #expect(line.hasPrefix(" " + instruction), "\(line)")
        }
    }

    /// The refusals the server says at the connection (its close codes) are said as such, not as
    /// the server out of reach: "Offline" would send the player to check the network.
    @Test(arguments: [(ServerRefusal.bannedAddress, "차단", "banned"), (.battleFull, "가득", "full"),
                      (.tooManyFromAddress, "많이 접속", "too many devices")])
    func aRefusalIsSaidNotOffline(refusal: ServerRefusal, korean: String, english: String) {
        for language in Language.allCases {
            var state = Fixture.game(language, columns: 160, rows: 24)
            _ = update(&state, .connectionChanged(.refused(refusal, waitingTaps: 5)), now: Fixture.start)
            let line = view(state, now: Fixture.start).lines.last!
            #expect(line.contains(language == .korean ? korean : english), "\(line)")
            #expect(!line.contains("오프라인") && !line.contains("Offline"), "\(line)")
            #expect(line.contains(language == .korean ? "터치 5번 대기 중" : "5 taps waiting"), "\(line)")
        }
    }
}
