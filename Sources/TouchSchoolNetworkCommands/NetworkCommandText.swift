import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolServer
import TouchSchoolView

/// Every word the network side of the commands (`touchschool-network`: `serve`, `--server`,
/// `admin`, `round`) prints, in the commands' language (`commandLanguage`), as `CommandText` is for
/// the commands themselves. Where the client or the protocol already says it in English
/// (`ServerRequestError`, `ServerAddressError`), the English is theirs and is not repeated here.
enum NetworkCommandText {
    static func cannotReach(_ server: String, _ failure: ServerFailure, english: String) -> String {
        guard ko else { return english }
        let why: String = switch failure {
        case .refused: "연결이 거부되었습니다 (그 주소와 포트에서 `touchschool serve`가 실행 중인가요?)"
        case .unreachable: "그 컴퓨터에 닿을 수 없습니다 (주소와 네트워크를 확인하세요)"
        case .timedOut: "제때 응답이 없습니다"
        case .plainHTTP: "그 서버는 HTTPS가 아니라 일반 HTTP로 응답합니다: 주소를 http://로 주세요"
        case .sshServer: "그 포트는 SSH 포트입니다 (`ssh -p 포트 이름@주소`로 플레이합니다): --server에는 서버의 HTTP 포트를 주세요"
        case let .other(text): text
        }
        return "서버 \(server)에 연결할 수 없습니다: \(why)"
    }

    private static var ko: Bool { commandLanguage == .korean }

    /// A server's URL that cannot be read, named by where it came from (`--server`,
    /// `$TOUCHSCHOOL_SERVER`), and what is wrong with it.
    static func notAServerURL(_ source: String, _ error: ServerAddressError) -> String {
        guard ko else { return "\(source) is \(error)" }
        let problem = switch error.problem {
        case .empty: "비어 있습니다"
        case .scheme: "스킴은 http, https, ws, wss 중 하나여야 합니다"
        case .onlyHostAndPort: "스킴, 호스트, 포트만 주세요 (http://host:port)"
        case .unclosedIPv6: "IPv6 주소는 ]로 끝나야 합니다"
        case .portAfterAddress: "주소 뒤에는 :포트가 와야 합니다"
        case .notIPv6: "IPv6 주소가 아닙니다"
        case .ipv6InBrackets: "IPv6 주소는 괄호 안에 씁니다: http://[::1]:8080"
        case .missingHost: "호스트가 없습니다"
        case .hostCharacters: "호스트에는 글자, 숫자, 점, 줄표만 쓸 수 있습니다"
        case .port: "포트는 1부터 65535까지의 수여야 합니다"
        }
        return "\(source)이(가) 서버 URL이 아닙니다: \(problem) (예: http://192.168.0.10:8080)"
    }

    /// A 401 to a request with the admin token.
    static func tokenRefused(_ server: String) -> String {
        ko ? "이 서버의 토큰이 아닙니다 (\(server)가 401로 답했습니다): 그 서버의 데이터 폴더에 있는 admin.token이나, "
            + "서버의 --admin-token-file에 준 파일을 쓰세요"
            : "the token is not this server's (\(server) answered 401): use the admin.token of its data directory, or the file given to its --admin-token-file"
    }
    /// Any other refusal: the status, and the server's own words (`message`, escaped).
    static func serverAnswered(_ server: String, status: Int, _ message: String) -> String {
        ko ? "\(server)가 \(status)로 답했습니다: \(message)" : "\(server) answered \(status): \(message)"
    }
    /// A 404 to `admin ban` or `unban`.
    static func noSuchDevice(_ id: String, on server: String) -> String {
        ko ? "\(server)에 ID가 \(id)인 기기가 없습니다 (`admin devices`가 ID를 보여 줍니다)"
            : "\(server) has no device with the id \(id) (`admin devices` lists the ids)"
    }
    /// A 404 to `round show`.
    static func noSuchRound(_ id: Int64, on server: String) -> String {
        ko ? "\(server)에 \(id)번 라운드가 없습니다 (`round list`가 번호를 보여 줍니다)"
            : "\(server) has no round \(id) (`round list` lists the rounds)"
    }
    static func unreadableAnswer(_ reason: String) -> String {
        ko ? "이 버전은 서버의 답을 읽을 수 없습니다 (\(reason))" : "the server's answer cannot be read by this version (\(reason))"
    }

    // MARK: admin's answers

    static func banned(_ id: String) -> String { ko ? "\(id) 기기를 차단했습니다\n" : "Banned \(id)\n" }
    static func banned(_ id: String, removedTaps: UInt64, fromSchools schools: Int) -> String {
        let taps = NumberText.grouped(removedTaps), count = NumberText.grouped(schools)
        return ko ? "\(id) 기기를 차단했습니다: 학교 \(count)곳에서 터치 \(taps)번을 뺐습니다\n"
            : "Banned \(id): \(NumberText.counted(removedTaps, "tap", "taps")) taken off \(NumberText.counted(schools, "school", "schools"))\n"
    }
    static func liftedBan(_ id: String) -> String { ko ? "\(id) 기기의 차단을 풀었습니다\n" : "Lifted the ban of \(id)\n" }
    static func bannedAddress(_ address: String) -> String {
        ko ? "\(address) 주소를 차단했습니다: 그 주소에서 오는 새 연결은 거부됩니다\n"
            : "Banned the address \(address): new connections from it are refused\n"
    }
    static func liftedAddressBan(_ address: String) -> String {
        ko ? "\(address) 주소의 차단을 풀었습니다\n" : "Lifted the ban of the address \(address)\n"
    }
    /// `admin devices`' columns: id, plays on, the last hour's taps, all taps, banned, player, school, addresses.
    static var devicesHeadings: [String] {
        ko ? ["ID", "기기", "지난 한 시간", "전체", "차단", "플레이어", "학교", "주소"]
            : ["ID", "PLAYS ON", "LAST HOUR", "IN ALL", "BANNED", "PLAYER", "SCHOOL", "ADDRESSES"]
    }
    /// Under the table: what its counts are.
    static var devicesLegend: String {
        ko ? "터치 수: 받음/거부, 지난 한 시간(이번 정시부터)과 전체." : "Taps accepted/refused, in the last hour (this clock hour) and in all."
    }
    static func yesNo(_ yes: Bool) -> String { ko ? (yes ? "예" : "아니요") : (yes ? "yes" : "no") }
    /// What a device plays with, as its game said.
    static func playsOn(_ client: ClientKind) -> String {
        switch client {
        case .terminal: ko ? "터미널" : "terminal"
        case .web: ko ? "웹" : "web"
        case .ssh: "SSH"
        }
    }

    // MARK: serve, and a game or command on a server

    static func cannotUseDataDirectory(_ directory: String, _ reason: String) -> String {
        ko ? "데이터 폴더 \(directory)을(를) 쓸 수 없습니다: \(reason)" : "cannot use the data directory \(directory): \(reason)"
    }
    static func cannotMoveIntoPostgres(_ directory: String, _ reason: String) -> String {
        ko ? "\(directory)을(를) PostgreSQL로 옮길 수 없습니다: \(reason)" : "cannot move \(directory) into PostgreSQL: \(reason)"
    }
    static func catalogAnswered(_ server: String, path: String, status: Int) -> String {
        ko ? "\(server) 서버가 \(path)에 HTTP \(status)로 답했습니다" : "the server at \(server) answered \(path) with HTTP \(status)"
    }
    static func serversCatalogUnusable(_ server: String, _ reason: String) -> String {
        ko ? "\(server) 서버의 학교 목록을 쓸 수 없습니다: \(reason)" : "the catalog of the server at \(server) cannot be used: \(reason)"
    }
    /// No server answered and none was joined before. `waitingIn`: where an earlier version's taps wait, if any do.
    static func cannotReachServer(_ why: String, waitingIn folder: String?) -> String {
        if ko {
            return "서버에 연결할 수 없습니다: \(why). 거기서 `touchschool serve`가 실행 중인가요? "
                + (folder.map { "이전 버전이 그 서버를 위해 보관한 터치가 \($0)에서 기다리며, 서버가 답하면 전송됩니다." }
                    ?? "(한 번 서버에 들어간 게임은 서버가 꺼져 있어도 시작됩니다.)")
        }
        return "cannot reach the server: \(why). Is `touchschool serve` running there? "
            + (folder.map { "Taps an earlier version kept for it wait in \($0) and are sent once it answers." }
                ?? "(Once a game has joined a server, it also starts while the server is down.)")
    }
    /// Said as a game on a server ends with taps the server has not acknowledged.
    static func tapsWaiting(_ waiting: UInt64, for server: String, keptIn folder: String) -> String {
        let taps = NumberText.grouped(waiting)
        return ko ? "터치 \(taps)번이 \(server) 서버를 기다립니다; \(folder)에 보관되며 다음에 그 서버에서 플레이할 때 전송됩니다."
            : "\(NumberText.counted(waiting, "tap is", "taps are")) waiting for the server at \(server); \(waiting == 1 ? "it is" : "they are") kept in \(folder) "
            + "and sent the next time you play on it."
    }
    static func cannotCreate(_ path: String, _ reason: String) -> String {
        ko ? "\(path)을(를) 만들 수 없습니다: \(reason)" : "cannot create \(path): \(reason)"
    }
    static func alreadyPlayingThisBattle(from directory: String, at address: String) -> String {
        ko ? "\(directory)의 게임이 이미 이 대항전에서 플레이 중입니다 (\(address) 또는 그 대항전의 다른 주소): 데이터 폴더마다 "
            + "한 번에 하나입니다 (다른 플레이어는 자기 --data-dir로 플레이합니다)"
            : "a game from \(directory) is already playing this battle (at \(address) or another address of it); "
            + "one at a time per data directory (another player plays with their own --data-dir)"
    }
    static func cannotLock(_ path: String, _ reason: String) -> String {
        ko ? "\(path)을(를) 잠글 수 없습니다: \(reason)" : "cannot lock \(path): \(reason)"
    }
    static func cannotMoveKeptTaps(from old: String, into folder: String, _ reason: String) -> String {
        ko ? "\(old)에 보관된 터치를 \(folder)로 옮길 수 없습니다: \(reason)"
            : "cannot move the taps kept in \(old) into \(folder): \(reason)"
    }
    static func cannotGetCatalog(_ reason: String) -> String {
        ko ? "서버에서 학교 목록을 받을 수 없습니다: \(reason). 거기서 `touchschool serve`가 실행 중인가요? "
            + "(한 번 서버에 들어간 게임은 서버가 꺼져 있어도 시작됩니다.)"
            : "cannot get the school catalog from the server: \(reason). Is `touchschool serve` running there? "
            + "(Once a game has joined a server, it also starts while the server is down.)"
    }

    /// `serve`'s HTTP or SSH port that could not be listened on, and what to do about it.
    static func cannotListen(_ error: ListeningError) -> String {
        let option = error.listener == .ssh ? "--ssh-port" : "--port"
        if ko {
            let port = "\(error.listener == .ssh ? "SSH 포트" : "포트") \(error.port)"
            return switch error.reason {
            case .portInUse:
                "\(port)을(를) 이미 다른 프로그램이 쓰고 있습니다 (다른 서버가 아직 실행 중인가요?): 그 프로그램을 멈추거나 "
                    + "\(option)로 다른 포트를 고르세요 (0: 비어 있는 아무 포트)"
            case .permissionDenied: "\(port)에서 들을 권한이 없습니다 (1024보다 작은 포트는 관리자 권한이 필요합니다): \(option)로 다른 포트를 고르세요"
            case .noSuchAddress: "이 컴퓨터에는 \(error.host) 주소가 없습니다: 모든 네트워크에서 들으려면 --host 0.0.0.0을 쓰세요"
            case let .other(text): "\(error.host):\(error.port)에서 들을 수 없습니다: \(text)"
            }
        }
        let why = switch error.reason {
        case .portInUse: "the port is in use (another server still running?); stop it, or choose another with \(option) (0: any free port)"
        case .permissionDenied: "permission denied (ports below 1024 need privileges); choose another with \(option)"
        case .noSuchAddress: "this machine has no such address; use --host 0.0.0.0 for every interface"
        case let .other(text): text
        }
        return "cannot listen\(error.listener == .ssh ? " for SSH" : "") on \(error.host):\(error.port): \(why)"
    }

    /// `serve` on a data directory another server serves (`ServerLock`): who that is, and why not two.
    static func directoryServed(_ directory: String, pid: Int?, port: Int?) -> String {
        var who: [String] = []
        if let pid { who.append("pid \(pid)") }
        if let port { who.append(ko ? "포트 \(port)" : "port \(port)") }
        let named = who.isEmpty ? "" : " (\(who.joined(separator: ", ")))"
        return ko
            ? "다른 touchschool serve\(named)가 이미 데이터 디렉터리 \(directory)에서 서버를 열고 있습니다: 서버 두 개는 순위판을 둘로 나눕니다. 그 서버를 쓰거나, 멈춘 뒤 다시 시작하세요 (다른 대항전은 --data-dir로)"
            : "another touchschool serve\(named) already serves the data directory \(directory): two servers would split its live board. Use that one, or stop it first (another battle: --data-dir)"
    }
}
