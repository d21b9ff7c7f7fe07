import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolView

/// Why the battle let an SSH player go, to be said in the player's language (`SSHText`).
enum SSHParting: Equatable, Sendable {
    /// The battle refused or closed the connection, by its code (`CloseCode`).
    case error(ProtocolError)
    case welcomeUnreadable
    /// The battle's messages ended without a word.
    case endedByServer
    /// Every game ends with the server.
    case serverShuttingDown
}

/// Every line the SSH server says: to a player (on the client's standard error, after
/// "touchschool: "), in the player's language: Korean when the client sends a Korean `LANG`
/// (`LC_ALL`, `LC_MESSAGES`), as the game's screens choose it, else English; and to the teacher
/// starting `serve` about its host key, in `serve`'s language.
struct SSHText {
    let language: Language

    init(language: Language) { self.language = language }
    init(environment: [String: String]) { language = Language.fromLocale(environment: environment) }

    private var ko: Bool { language == .korean }

    private func said(_ text: String) -> String { "touchschool: \(text)" }

    var runsNoCommands: String {
        said(ko ? "이 서버는 게임만 합니다; 명령은 실행하지 않습니다 (명령 없이 접속하세요)"
            : "this server plays the game only; it runs no commands (connect without one)")
    }
    func noSubsystem(_ name: String) -> String {
        said(ko ? "이 서버는 게임만 합니다 (\(name) 없음)" : "this server plays the game only (no \(name))")
    }
    var needsATerminal: String {
        said(ko ? "게임에는 터미널이 필요합니다: -T 없이 (또는 -t로) 접속하세요" : "the game needs a terminal: connect without -T (or with -t)")
    }
    var cannotPlaceTheCursor: String {
        said(ko ? "이 터미널 종류(TERM)는 커서를 옮길 수 없어 게임을 보여 줄 수 없습니다: TERM을 쓰는 터미널로 정하세요 (예: xterm-256color)"
            : "this terminal type (TERM) cannot place the cursor, so the game cannot be shown: set TERM to your terminal (e.g. xterm-256color)")
    }
    var serverFull: String { said(ko ? "서버가 꽉 찼습니다; 잠시 뒤에 다시 해 보세요" : "the server is full; try again in a while") }
    func closedIdle(seconds: Int64) -> String {
        if ko { return said((seconds >= 60 ? "\(seconds / 60)분" : "\(seconds)초") + " 동안 키가 없어 닫았습니다") }
        let time = seconds >= 60 ? NumberText.counted(seconds / 60, "minute", "minutes") : NumberText.counted(seconds, "second", "seconds")
        return said("closed after \(time) without a key")
    }

    // MARK: The host key, to the teacher

    func cannotReadHostKey(_ path: String, reason: String?) -> String {
        ko ? "SSH 호스트 키 \(path)을(를) 읽을 수 없습니다" + (reason.map { ": \($0)" } ?? "")
            : "cannot read the SSH host key \(path)" + (reason.map { ": \($0)" } ?? "")
    }
    func hostKeyReadableByOthers(_ path: String) -> String {
        ko ? "SSH 호스트 키 \(path)을(를) 주인 말고도 읽을 수 있습니다: `chmod 600 \(path)`"
            : "the SSH host key \(path) may be read by others than its owner: `chmod 600 \(path)`"
    }
    func notAHostKey(_ path: String) -> String {
        ko ? "\(path)은(는) touchschool의 SSH 호스트 키가 아닙니다; 치우면 새로 만듭니다 (그러면 플레이어의 클라이언트가 서버의 키가 바뀌었다고 경고합니다)"
            : "\(path) is not an SSH host key of touchschool; move it away to make a new one (players' clients will then warn that the server's key changed)"
    }
    func cannotCreate(_ path: String, reason: String) -> String {
        ko ? "\(path)을(를) 만들 수 없습니다: \(reason)" : "cannot create \(path): \(reason)"
    }
    func cannotWrite(_ path: String) -> String { ko ? "\(path)에 쓸 수 없습니다" : "cannot write \(path)" }

    // MARK: To the player

    func parting(_ parting: SSHParting) -> String {
        switch parting {
        case .serverShuttingDown:
            return said(ko ? "서버가 종료되는 중입니다; 서버가 돌아오면 다시 플레이하세요" : "the server is shutting down; play again once it is back")
        case .welcomeUnreadable: return said(ko ? "서버의 환영 메시지를 읽을 수 없습니다" : "the server's welcome cannot be read")
        case .endedByServer: return said(ko ? "서버가 게임을 끝냈습니다" : "the server ended the game")
        case let .error(error):
            // A refusal in the terminal game's words, what to do first (`Strings.refusal`).
            if let refusal = ServerRefusal(closeCode: error.code) { return said(Strings(language).refusal(refusal)) }
            guard ko else { return said(error.message) }
            switch error.code {
            case CloseCode.goingAway: return self.parting(.serverShuttingDown)
            // The rest are a client's mistakes (a bad message), which the SSH game, the server's own, does not make.
            default: return said(error.message)
            }
        }
    }
}
