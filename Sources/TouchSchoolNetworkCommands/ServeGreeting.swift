import Foundation
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

    /// The columns the greeting is laid out for: the smallest usual terminal, or fewer when the
    /// terminal is narrower (`Serving` measures it).
    static let width = 80

    /// Where `touchschool round link` finds the admin token this server reads, so that the
    /// greeting's command works as printed (`teacherNote`).
    enum TokenPlace: Sendable, Equatable {
        /// The `admin.token` of the data directory every command uses without `--data-dir`.
        case defaultDataDirectory
        /// The `admin.token` of another data directory (an absolute path): `--data-dir DIR`.
        case dataDirectory(String)
        /// The file given to `--admin-token-file` (an absolute path): `--token-file FILE`.
        case file(String)
        /// `$TOUCHSCHOOL_ADMIN_TOKEN`, which the teacher's shell sets as the server's did.
        case environment
    }

    /// A note of the greeting: `pieces` each on lines of their own beside the code, run together
    /// below it; then `command`, words on a line of their own, never broken inside a word (a
    /// line too long is continued with ` \`, as a shell reads it).
    struct Note {
        var pieces: [String]
        var command: [String] = []
    }

    /// The lines printed once the server listens on `hosts` (`LANAddresses.hosts`) and `port`
    /// (and SSH, when `ssh` is given), the code in its own colours, laid out for `width` columns.
    static func text(hosts: [String], port: Int, ssh: SSHListening? = nil, token: TokenPlace = .defaultDataDirectory,
                     language: Language, width: Int = width) -> ColouredText {
        let ko = language == .korean
        guard !hosts.isEmpty else {
            return ColouredText(DisplayWidth.wrap(ko ? "이 컴퓨터에 네트워크 주소가 없습니다: 네트워크에 연결한 뒤 다시 시작하세요."
                : "This machine has no network address: connect it to a network, then start again.", toWidth: width)
                .map { $0 + "\n" }.joined())
        }
        let labels = ko
            ? (phone: "휴대폰·브라우저", board: "프로젝터 (순위판)", terminal: "터미널", ssh: "SSH (설치 없이)")
            : (phone: "phone or browser", board: "projector (ranking)", terminal: "terminal", ssh: "SSH, no install")
        let labelWidth = [labels.phone, labels.board, labels.terminal, labels.ssh].map(DisplayWidth.of).max()!
        // A value beside its label where the line has room, else under it (a command continued
        // as `commandLines` does): a terminal never wraps it in the middle.
        func row(_ label: String, _ words: [String]) -> String {
            let value = words.joined(separator: " ")
            guard 2 + labelWidth + 2 + DisplayWidth.of(value) > width else { return "  \(DisplayWidth.pad(label, toWidth: labelWidth))  \(value)\n" }
            return "  \(label)\n" + commandLines(words, width: width - 4).map { "    \($0)\n" }.joined()
        }

        var top = ko ? "학생들이 접속할 주소:\n" : "Students join at:\n"
        for host in hosts {
            let base = baseURL(host: host, port: port)
            top += row(labels.phone, ["\(base)/"])
            top += row(labels.board, ["\(base)/?board"])
            top += row(labels.terminal, ["touchschool", "--server", base])
            if let ssh {
                top += row(labels.ssh, ["ssh", "-p", "\(ssh.port)", "\(ko ? "이름" : "NAME")@\(ServerAddress(secure: false, host: host, port: ssh.port).hostInURL)"])
            }
        }
        let first = hosts[0]
        let phone = "\(baseURL(host: first, port: port))/"
        let teacher = teacherNote(baseURL(host: first, port: port), token: token, language: language)
        // A phone cannot reach this machine's loopback: no code to scan, and the way out.
        guard !isLoopback(first), let code = QRCode(phone) else {
            let loopback = Note(pieces: [ko ? "이 컴퓨터에서만 접속할 수 있습니다. 다른 기기도 들어오게 하려면:"
                                         : "Only this machine can join. To let other devices in:"],
                                command: ["touchschool", "serve", "--host", "0.0.0.0"])
            return ColouredText(top + stacked([loopback] + (ssh.map { sshNotes($0, language: language) } ?? []) + [teacher],
                                              width: width, indent: 0))
        }
        let scan = Note(pieces: ko ? ["휴대폰 카메라로 찍으면 열립니다: ", phone] : ["Scan with a phone's camera to open ", phone])
        let notes = [scan] + (ssh.map { sshNotes($0, language: language) } ?? []) + [teacher]
        let drawing = terminalLines(code)
        var text = ColouredText(top + "\n")
        // Beside the code when every note fits there (a command on lines of its own), else below it.
        let besideWidth = width - 2 - DisplayWidth.of(drawing[0]) - 2
        let beside = notes.enumerated().flatMap { index, note in
            (index == 0 ? [] : [""]) + note.pieces.flatMap { DisplayWidth.wrap($0, toWidth: besideWidth) }
                + (note.command.isEmpty ? [] : commandLines(note.command, width: besideWidth))
        }
        let fits = besideWidth > 0 && beside.count <= drawing.count && beside.allSatisfy { DisplayWidth.of($0) <= besideWidth }
            && notes.flatMap(\.pieces).allSatisfy { line in line.split(separator: " ").allSatisfy { DisplayWidth.of(String($0)) <= besideWidth } }
        for (index, line) in drawing.enumerated() {
            text.append("  ")
            text.append(line, in: .lightOnBlack)
            text.append(fits && index < beside.count && !beside[index].isEmpty ? "  \(beside[index])\n" : "\n")
        }
        if !fits { text.append(stacked(notes, width: width)) }
        return text
    }

    /// Where the teacher finds the projector's link with the round controls: a command to run in
    /// the teacher's own terminal, since the link holds the admin token and this greeting is often
    /// on the projector itself. It names where the server's token is (`TokenPlace`), so that it
    /// works as printed.
    static func teacherNote(_ base: String, token: TokenPlace, language: Language) -> Note {
        let place: [String] = switch token {
        case .defaultDataDirectory, .environment: []
        case let .dataDirectory(directory): ["--data-dir", shellWord(directory)]
        case let .file(file): ["--token-file", shellWord(file)]
        }
        return Note(pieces: [language == .korean ? "라운드 조작 화면 (선생님):" : "Round controls (teacher):"],
                    command: ["touchschool", "round", "link", "--server", base] + place)
    }

    /// `text` as one word for a POSIX shell: as it is when it holds nothing a shell reads
    /// otherwise, else in single quotes.
    static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x7F || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "/._-+,:@%=".unicodeScalars.contains(scalar)
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A command's words in lines of at most `width` columns where the words allow, each line but
    /// the last ending in ` \` and the next indented: a shell reads them as the one command.
    static func commandLines(_ words: [String], width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for (index, word) in words.enumerated() {
            let candidate = line.isEmpty ? word : line + " " + word
            // Room for the ` \` that continues it, unless it is the last word.
            let room = index == words.count - 1 ? width : width - 2
            if line.isEmpty || DisplayWidth.of(candidate) <= room {
                line = candidate
            } else {
                lines.append(line + " \\")
                line = "    " + word
            }
        }
        return lines + [line]
    }

    /// What a player without a key types at the password prompt (OpenSSH shows only
    /// `NAME@HOST's password:`, and NIOSSH sends a banner only after the password), and the host
    /// key's fingerprint for the players to compare with what their client shows at the first
    /// connection: notes of pieces, each piece on lines of its own beside the code and the
    /// pieces run together below it. The fingerprint's `SHA256:` stays with its label, so that
    /// the rest fits beside the code.
    static func sshNotes(_ ssh: SSHListening, language: Language) -> [Note] {
        let label = language == .korean ? "SSH 호스트 키 지문: " : "SSH host key fingerprint: "
        let algorithm = ssh.fingerprint.prefix { $0 != ":" } + ":"
        let fingerprint = ssh.fingerprint.hasPrefix(algorithm) ? [label + algorithm, String(ssh.fingerprint.dropFirst(algorithm.count))]
            : [label, ssh.fingerprint]
        return [Note(pieces: [language == .korean
                 ? "SSH 키가 없으면 비밀번호는 아무거나 (그냥 Enter도): 그 접속의 기기는 끝나면 잊힙니다. 키가 있으면 (ssh-keygen) 학교와 터치가 이어집니다."
                 : "No SSH key? Any password, or just Enter: that session's device is forgotten when it ends; with a key (ssh-keygen), the school and taps come back."]),
                Note(pieces: fingerprint)]
    }

    /// Notes one under another, `indent` columns in, wrapped by words to `width`, each command on
    /// lines of its own two columns further in, under the words that say what it is for.
    static func stacked(_ notes: [Note], width: Int, indent: Int = 2) -> String {
        let words = String(repeating: " ", count: indent), command = String(repeating: " ", count: indent + 2)
        return notes.map { note in
            DisplayWidth.wrap(note.pieces.joined(), toWidth: width - indent).map { "\(words)\($0)\n" }.joined()
                + (note.command.isEmpty ? "" : commandLines(note.command, width: width - indent - 2).map { "\(command)\($0)\n" }.joined())
        }.joined()
    }

    /// The line for a period's activity (`ServerActivity`), with its slow save when it had one.
    static func activity(_ activity: ServerActivity, language: Language) -> String {
        let players = NumberText.grouped(activity.players), taps = NumberText.grouped(activity.taps)
        var line = language == .korean ? "접속 \(players)명 · 최근 1분 터치 \(taps)번"
            : "\(NumberText.counted(activity.players, "player", "players")) connected · \(NumberText.counted(activity.taps, "tap", "taps")) in the last minute"
        if let slow = activity.slowestSave {
            let seconds = tenths(slow)
            line += language == .korean ? " · 저장 한 번에 \(seconds)초: 그동안 터치 확인이 늦어졌습니다"
                : " · one save took \(seconds) s: taps waited that long to be confirmed"
        }
        return line + "\n"
    }

    /// A device that tried `https://` (`HTTPSAttempts`): what happened and what to tell the class,
    /// in place of the error its refused handshake made once a second.
    static func httpsAttempt(from address: String, language: Language) -> String {
        language == .korean
            ? "\(address) 기기가 https://로 접속하려 했습니다: 이 서버는 http://만 받습니다. 학생들에게 주소를 위에 나온 대로 http://로 입력하라고 알려 주세요.\n"
            : "A device at \(address) tried https://, but this server speaks http:// only: tell the students to type the address with http://, as printed above.\n"
    }

    /// A line of `serve`'s laid out for a terminal `width` columns wide (nil: not a terminal, left
    /// as it is, one line for a script or a log): broken between words, its next lines indented,
    /// so that the terminal never breaks one in the middle ("학\n생들에게").
    static func fitted(_ line: String, width: Int?) -> String {
        guard let width, width > 20 else { return line }
        let text = line.hasSuffix("\n") ? String(line.dropLast()) : line
        let first = DisplayWidth.wrap(text, toWidth: width)
        guard first.count > 1 else { return line }
        // The lines after the first, two columns in, wrapped again to the narrower width.
        let rest = DisplayWidth.wrap(first.dropFirst().joined(separator: " "), toWidth: width - 2)
        return ([first[0]] + rest.map { "  " + $0 }).joined(separator: "\n") + "\n"
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
