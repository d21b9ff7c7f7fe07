import Foundation
import TouchSchoolTestSupport
import Testing
import TouchSchoolCore
import TouchSchoolStore

/// A private tmux server running one `touchschool` in a pane of a given size: keys go in with
/// `send-keys`, the screen comes out with `capture-pane`. Each session has its own socket, data
/// directory and scratch folder, all removed by `close()`.
final class TmuxSession {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Schools of the catalog every session plays with: distinct names, so typing one finds it first.
    static let schools: [(id: String, name: String)] = [
        ("T0001", "한빛고등학교"), ("T0002", "푸른중학교"), ("T0003", "Maple Elementary"),
    ]

    /// The scratch folder: the tmux socket and (unless given one) the data directory live in it.
    let folder: String
    let dataDirectory: String
    private var socket: String { "\(folder)/tmux.sock" }

    /// The prompt of the interactive shell of `inShell` sessions (followed by a space).
    static let prompt = "PROMPT$"

    /// Starts `touchschool arguments` in a pane of `columns` × `rows`. The pane's shell prints
    /// `EXITED:<status>` when the game ends and stays open, so that the screen after the game can
    /// be read. `inShell` starts an interactive bash instead, with job control, and types the
    /// command at its prompt, as a person would.
    /// With `sharedDataDirectory`, the game plays on that directory as it is (several sessions
    /// may share one, as players on one machine do) instead of a fresh one with the test catalog.
    /// With `program`, the pane runs that command line instead of `touchschool` (an SSH client).
    /// With `under`, `touchschool` runs under that command (`ShiftedWallClock`: its clock shifted).
    init(columns: Int = 100, rows: Int = 30, arguments: [String], term: String = "tmux-256color", inShell: Bool = false,
         sharedDataDirectory: String? = nil, user: String = "tester", program: [String]? = nil, under wrapper: [String] = []) throws {
        folder = TemporaryDirectory().path
        dataDirectory = sharedDataDirectory ?? "\(folder)/data"
        if sharedDataDirectory == nil {
            try FileIO.createDirectory(dataDirectory)
            try FileSystem.live.replaceAtomically("\(dataDirectory)/catalog.json", with: Array(Self.catalogJSON.utf8))
        }
        let command = (program ?? wrapper + [DataCommandsBinary.path] + arguments + ["--data-dir", dataDirectory])
            .map(Self.shellQuoted).joined(separator: " ")
        let shell = inShell ? ["PS1=\(Self.prompt) ", "bash", "--norc", "--noprofile", "-i"]
                            : ["sh", "-c", "\(command); echo EXITED:$?; sleep 600"]
        let started = tmux([
            "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "--",
            "env", "-i", "PATH=/usr/bin:/bin", "HOME=\(folder)", "USER=\(user)", "LANG=C.UTF-8", "TERM=\(term)",
        ] + shell)
        guard started.status == 0 else {
            close()
            throw Failure(description: "tmux new-session failed: \(started.output)")
        }
        if inShell {
            try waitFor(Self.prompt)
            type(command)
            press("Enter")
        }
    }

    deinit { close() }

    /// Ends the tmux server and with it the game (which gets SIGHUP, and saves), waits until every
    /// process of the session is gone, killing any that still runs after a few seconds, and removes
    /// the scratch folder with the socket. Safe to call more than once.
    func close() {
        if FileManager.default.fileExists(atPath: socket) {
            let processes = processes()
            _ = tmux(["kill-server"])
            _ = Wait.untilBlocking(timeout: 5, every: .milliseconds(20)) { !processes.contains(where: Self.isRunning) }
            for pid in processes where Self.isRunning(pid) { kill(pid, SIGKILL) }
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Types `text` literally (no key names): in one write to the terminal up to 500 characters.
    func type(_ text: String) {
        // In pieces: tmux refuses a long command line.
        var rest = Substring(text)
        while !rest.isEmpty {
            _ = tmux(["send-keys", "-l", String(rest.prefix(500))])
            rest = rest.dropFirst(500)
        }
    }

    /// Presses keys by tmux name: `Enter`, `C-c`, `Escape`, `F1`, `Tab`.
    func press(_ keys: String...) {
        _ = tmux(["send-keys"] + keys)
    }

    /// Pastes `text` as a terminal does: bracketed when the program asked for it.
    /// Through a file, since tmux refuses a long command line.
    func paste(_ text: String) {
        let file = "\(folder)/paste-buffer"
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        _ = tmux(["load-buffer", file])
        _ = tmux(["paste-buffer", "-p"])
    }

    func resize(columns: Int, rows: Int) {
        _ = tmux(["resize-window", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// What the pane shows now, one line per row; with `escapes`, with the SGR sequences of
    /// its colours and attributes.
    func screen(escapes: Bool = false) -> String {
        tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : [])).output
    }

    /// Copies everything the program writes to the pane from now on to the end of `file`, as tmux
    /// reads it (`pipe-pane`, through a `cat` that ends with the tmux server).
    func pipeOutput(to file: String) {
        _ = tmux(["pipe-pane", "-O", "exec cat >> \(Self.shellQuoted(file))"])
    }

    /// A tmux format about the pane, e.g. `#{cursor_flag}`.
    func paneFormat(_ format: String) -> String {
        tmux(["display-message", "-p", format]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The process id of the running game (the pane's shell's child).
    func gamePID() throws -> pid_t {
        let shell = paneFormat("#{pane_pid}")
        let children = run("/usr/bin/pgrep", ["-P", shell])
        guard let pid = children.output.split(separator: "\n").first.flatMap({ pid_t($0) }) else {
            throw Failure(description: "no game process under the pane's shell \(shell)")
        }
        return pid
    }

    /// The tmux server and every process of the pane's session (its shell, the game, what they started).
    func processes() -> [pid_t] {
        let server = pid_t(paneFormat("#{pid}"))
        let pane = paneFormat("#{pane_pid}")
        let inPane = run("/usr/bin/pgrep", ["-s", pane]).output.split(separator: "\n").compactMap { pid_t($0) }
        return (server.map { [$0] } ?? []) + inPane
    }

    /// Whether `pid` is a live process: neither gone nor a zombie waiting to be reaped.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0,
              let stat = try? FileIO.read("/proc/\(pid)/stat"),
              let end = stat.lastIndex(of: UInt8(ascii: ")")), end + 2 < stat.count else { return false }
        return stat[end + 2] != UInt8(ascii: "Z")
    }

    /// Polls the screen every 50 ms until `condition` holds; returns that screen, or fails with the last one.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 20, _ condition: (String) -> Bool) throws -> String {
        var shown = ""
        guard Wait.untilBlocking(timeout: timeout, { shown = screen(); return condition(shown) }) else {
            throw Failure(description: "timed out after \(timeout)s waiting for \(what); the screen:\n\(shown)")
        }
        return shown
    }

    @discardableResult
    func waitFor(_ text: String, timeout: Double = 20) throws -> String {
        try waitFor("'\(text)'", timeout: timeout) { $0.contains(text) }
    }

    /// The number shown after `label` (e.g. "My taps 12" → 12), if the screen shows it.
    static func number(after label: String, in screen: String) -> UInt64? {
        guard let range = screen.range(of: label) else { return nil }
        let digits = screen[range.upperBound...].drop(while: { $0 == " " }).prefix(while: { $0.isNumber || $0 == "," })
        return UInt64(digits.filter { $0 != "," })
    }

    /// Types a school's name in the search, waits for it, and chooses it with Enter.
    func chooseSchool(named name: String, tapsLabel: String) throws {
        _ = try waitFor("the game to start") { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        type(name)
        try waitFor(name)
        press("Enter")
        try waitFor("\(tapsLabel) 0")
    }

    private func tmux(_ arguments: [String]) -> (status: Int32, output: String) {
        run("/usr/bin/tmux", ["-S", socket, "-f", "/dev/null"] + arguments)
    }

    private func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let result = Subprocess.run(executable, arguments, environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        return (result.status, result.output + result.error)
    }

    private static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static var catalogJSON: String {
        let entries = schools.map { school in
            #"{"id": "\#(school.id)", "name": "\#(school.name)", "level": "high", "province": "서울특별시", "district": "종로구", "address": "서울특별시 종로구 1"}"#
        }
        return """
            {"format": "touchschool-catalog", "version": 1, "source": "official", "edition": "2026-03-20", "schools": [
            \(entries.joined(separator: ",\n"))
            ]}

            """
    }
}
