import TouchSchoolClient
import TouchSchoolCore
import TouchSchoolServer
import TouchSchoolView

/// What `serve` tells the teacher, in the user's language: at start, what to hand out to the
/// class (the phone page, the projector's board, the terminal's `--server` line, a QR code of
/// the phone page), then now and then who is playing.
enum ServeGreeting {
    /// The lines printed once the server listens on `hosts` (`LANAddresses.hosts`) and `port`.
    static func text(hosts: [String], port: Int, language: Language) -> String {
        let ko = language == .korean
        let labels = ko
            ? (phone: "휴대폰·브라우저", board: "프로젝터 (순위판)", terminal: "터미널")
            : (phone: "phone or browser", board: "projector (ranking)", terminal: "terminal")
        let labelWidth = [labels.phone, labels.board, labels.terminal].map(DisplayWidth.of).max()!
        func row(_ label: String, _ value: String) -> String { "  \(DisplayWidth.pad(label, toWidth: labelWidth))  \(value)\n" }

        guard !hosts.isEmpty else {
            return ko ? "이 컴퓨터에 네트워크 주소가 없습니다: 네트워크에 연결한 뒤 다시 시작하세요.\n"
                : "This machine has no network address: connect it to a network, then start again.\n"
        }
        var text = ko ? "학생들이 접속할 주소:\n" : "Students join at:\n"
        for host in hosts {
            let base = baseURL(host: host, port: port)
            text += row(labels.phone, "\(base)/")
            text += row(labels.board, "\(base)/?board")
            text += row(labels.terminal, "touchschool --server \(base)")
        }
        let first = hosts[0]
        guard !isLoopback(first) else {
            // A phone cannot reach this machine's loopback: no code to scan, and the way out.
            text += ko ? "이 컴퓨터에서만 접속할 수 있습니다. 다른 기기도 들어오게 하려면: touchschool serve --host 0.0.0.0\n"
                : "Only this machine can join. To let other devices in: touchschool serve --host 0.0.0.0\n"
            return text
        }
        let phone = "\(baseURL(host: first, port: port))/"
        if let code = QRCode(phone) {
            text += "\n" + terminalLines(code).map { "  \($0)\n" }.joined()
            text += ko ? "  휴대폰 카메라로 찍으면 \(phone) 이 열립니다\n" : "  Scan with a phone's camera to open \(phone)\n"
        }
        return text
    }

    /// The lines printed once the game is served over SSH on `port` too: the command for each
    /// address, what a player without a key types at the password prompt (OpenSSH shows only
    /// `NAME@HOST's password:`, and NIOSSH sends a banner only after the password), and the host
    /// key's fingerprint for the players to compare with what their client shows at the first
    /// connection.
    static func ssh(hosts: [String], port: Int, fingerprint: String, language: Language) -> String {
        let ko = language == .korean
        var text = ko ? "설치 없이 터미널에서 (SSH):\n" : "From any terminal, nothing installed (SSH):\n"
        for host in hosts {
            let shown = ServerAddress(secure: false, host: host, port: port).hostInURL
            text += "  ssh -p \(port) \(ko ? "이름" : "NAME")@\(shown)\n"
        }
        text += ko ? "  SSH 키가 없으면 비밀번호는 아무거나 (그냥 Enter도): 그 접속의 기기는 끝나면\n  잊힙니다. 키가 있으면 (ssh-keygen) 학교와 터치가 이어집니다.\n"
            : "  No SSH key? Any password, or just Enter: that session's device is forgotten\n  when it ends; with a key (ssh-keygen), the school and taps come back.\n"
        text += ko ? "  호스트 키 지문: \(fingerprint)\n" : "  host key fingerprint: \(fingerprint)\n"
        return text
    }

    /// The line for a period's activity (`ServerActivity`).
    static func activity(_ activity: ServerActivity, language: Language) -> String {
        let players = NumberText.grouped(activity.players), taps = NumberText.grouped(activity.taps)
        return language == .korean ? "접속 \(players)명 · 최근 1분 터치 \(taps)번\n"
            : "\(players) \(activity.players == 1 ? "player" : "players") connected · \(taps) taps in the last minute\n"
    }

    static func baseURL(host: String, port: Int) -> String {
        ServerAddress(secure: false, host: host, port: port).httpBase
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The code in half blocks, two modules a character row, with a quiet zone of two modules.
    /// Light modules are drawn (█) and dark ones left blank, as `qrencode -t UTF8` does: on the
    /// usual dark terminal that is dark on light, as cameras expect; a light terminal shows it
    /// inverted, which phone cameras read too.
    static func terminalLines(_ code: QRCode) -> [String] {
        let quiet = 2
        let span = code.size + 2 * quiet
        func light(_ x: Int, _ y: Int) -> Bool {
            let column = x - quiet, row = y - quiet
            guard (0..<code.size).contains(column), (0..<code.size).contains(row) else { return true }
            return !code[column, row]
        }
        return stride(from: 0, to: span, by: 2).map { y in
            String((0..<span).map { x -> Character in
                switch (light(x, y), y + 1 < span && light(x, y + 1)) {
                case (true, true): "█"
                case (true, false): "▀"
                case (false, true): "▄"
                case (false, false): " "
                }
            })
        }
    }
}
