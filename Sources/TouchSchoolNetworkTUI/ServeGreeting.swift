import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolQRCode
import TouchSchoolServer
import TouchSchoolView

/// What `serve` tells the teacher, in the user's language: at start, what to hand out to the
/// class (the phone page, the projector's board, the terminal's `--server` line, the SSH command,
/// a QR code of the phone page), then now and then who is playing. The start fits an 80×24
/// terminal: the code's notes (what to scan, SSH without a key, the host key) sit beside it.
enum ServeGreeting {
    /// The SSH listener, when `serve` has one.
    struct SSHListening: Sendable {
        let port: Int
        let fingerprint: String
    }

    /// The columns the greeting is laid out for: the smallest usual terminal.
    static let width = 80

    /// The lines printed once the server listens on `hosts` (`LANAddresses.hosts`) and `port`
    /// (and SSH, when `ssh` is given), the code in its own colours.
    static func text(hosts: [String], port: Int, ssh: SSHListening? = nil, language: Language) -> ColouredText {
        let ko = language == .korean
        guard !hosts.isEmpty else {
            return ColouredText(ko ? "이 컴퓨터에 네트워크 주소가 없습니다: 네트워크에 연결한 뒤 다시 시작하세요.\n"
                : "This machine has no network address: connect it to a network, then start again.\n")
        }
        let labels = ko
            ? (phone: "휴대폰·브라우저", board: "프로젝터 (순위판)", terminal: "터미널", ssh: "SSH (설치 없이)")
            : (phone: "phone or browser", board: "projector (ranking)", terminal: "terminal", ssh: "SSH, no install")
        let labelWidth = [labels.phone, labels.board, labels.terminal, labels.ssh].map(DisplayWidth.of).max()!
        func row(_ label: String, _ value: String) -> String { "  \(DisplayWidth.pad(label, toWidth: labelWidth))  \(value)\n" }

        var top = ko ? "학생들이 접속할 주소:\n" : "Students join at:\n"
        for host in hosts {
            let base = baseURL(host: host, port: port)
            top += row(labels.phone, "\(base)/")
            top += row(labels.board, "\(base)/?board")
            top += row(labels.terminal, "touchschool --server \(base)")
            if let ssh {
                top += row(labels.ssh, "ssh -p \(ssh.port) \(ko ? "이름" : "NAME")@\(ServerAddress(secure: false, host: host, port: ssh.port).hostInURL)")
            }
        }
        let first = hosts[0]
        let phone = "\(baseURL(host: first, port: port))/"
        // A phone cannot reach this machine's loopback: no code to scan, and the way out.
        guard !isLoopback(first), let code = QRCode(phone) else {
            var notes = ko ? "이 컴퓨터에서만 접속할 수 있습니다. 다른 기기도 들어오게 하려면: touchschool serve --host 0.0.0.0\n"
                : "Only this machine can join. To let other devices in: touchschool serve --host 0.0.0.0\n"
            if let ssh { notes += stacked(sshNotes(ssh, language: language)) }
            // The command on a line of its own: wrapped after its label, it would break in two.
            notes += teacherNote(baseURL(host: first, port: port), language: language).map { "  \($0)\n" }.joined()
            return ColouredText(top + notes)
        }
        let scan = ko ? ["휴대폰 카메라로 찍으면 열립니다: ", phone] : ["Scan with a phone's camera to open ", phone]
        let notes = [scan] + (ssh.map { sshNotes($0, language: language) } ?? []) + [teacherNote(baseURL(host: first, port: port), language: language)]
        let drawing = terminalLines(code)
        var text = ColouredText(top + "\n")
        // Beside the code when every note fits there, else below it.
        let besideWidth = width - 2 - DisplayWidth.of(drawing[0]) - 2
        let beside = notes.enumerated().flatMap { index, note in
            (index == 0 ? [] : [""]) + note.flatMap { DisplayWidth.wrap($0, toWidth: besideWidth) }
        }
        let fits = beside.count <= drawing.count && notes.joined().allSatisfy { line in
            line.split(separator: " ").allSatisfy { DisplayWidth.of(String($0)) <= besideWidth }
        }
        for (index, line) in drawing.enumerated() {
            text.append("  ")
            text.append(line, in: .lightOnBlack)
            text.append(fits && index < beside.count && !beside[index].isEmpty ? "  \(beside[index])\n" : "\n")
        }
        if !fits { text.append(stacked(notes)) }
        return text
    }

    /// Where the teacher finds the projector's link with the round controls: a command to run in
    /// the teacher's own terminal, since the link holds the admin token and this greeting is often
    /// on the projector itself. A note of pieces, as `sshNotes`: the command apart from its label.
    static func teacherNote(_ base: String, language: Language) -> [String] {
        [language == .korean ? "라운드 조작 화면 (선생님):" : "Round controls (teacher):", "touchschool round link --server \(base)"]
    }

    /// What a player without a key types at the password prompt (OpenSSH shows only
    /// `NAME@HOST's password:`, and NIOSSH sends a banner only after the password), and the host
    /// key's fingerprint for the players to compare with what their client shows at the first
    /// connection: notes of pieces, each piece on lines of its own beside the code and the
    /// pieces run together below it. The fingerprint's `SHA256:` stays with its label, so that
    /// the rest fits beside the code.
    static func sshNotes(_ ssh: SSHListening, language: Language) -> [[String]] {
        let label = language == .korean ? "SSH 호스트 키 지문: " : "SSH host key fingerprint: "
        let algorithm = ssh.fingerprint.prefix { $0 != ":" } + ":"
        let fingerprint = ssh.fingerprint.hasPrefix(algorithm) ? [label + algorithm, String(ssh.fingerprint.dropFirst(algorithm.count))]
            : [label, ssh.fingerprint]
        return [[language == .korean
                 ? "SSH 키가 없으면 비밀번호는 아무거나 (그냥 Enter도): 그 접속의 기기는 끝나면 잊힙니다. 키가 있으면 (ssh-keygen) 학교와 터치가 이어집니다."
                 : "No SSH key? Any password, or just Enter: that session's device is forgotten when it ends; with a key (ssh-keygen), the school and taps come back."],
                fingerprint]
    }

    /// Notes one under another at the left margin, wrapped to the greeting's width.
    static func stacked(_ notes: [[String]]) -> String {
        notes.map { DisplayWidth.wrap($0.joined(), toWidth: width - 2).map { "  \($0)\n" }.joined() }.joined()
    }

    /// The line for a period's activity (`ServerActivity`), with its slow save when it had one.
    static func activity(_ activity: ServerActivity, language: Language) -> String {
        let players = NumberText.grouped(activity.players), taps = NumberText.grouped(activity.taps)
        var line = language == .korean ? "접속 \(players)명 · 최근 1분 터치 \(taps)번"
            : "\(players) \(activity.players == 1 ? "player" : "players") connected · \(taps) taps in the last minute"
        if let slow = activity.slowestSave {
            let seconds = tenths(slow)
            line += language == .korean ? " · 저장 한 번에 \(seconds)초: 그동안 터치 확인이 늦어졌습니다"
                : " · one save took \(seconds) s: taps waited that long to be confirmed"
        }
        return line + "\n"
    }

    /// Seconds to one decimal, rounded: "1.4".
    private static func tenths(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10 + (attoseconds + 50_000_000_000_000_000) / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    static func baseURL(host: String, port: Int) -> String {
        ServerAddress(secure: false, host: host, port: port).httpBase
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The code in half blocks, two modules a character row, with a quiet zone of two modules.
    /// Light modules are drawn (█) and dark ones left blank, as `qrencode -t UTF8` does; on a
    /// terminal the lines are drawn light on black (`ColouredText`), so a light theme shows the
    /// code as a dark one does.
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
