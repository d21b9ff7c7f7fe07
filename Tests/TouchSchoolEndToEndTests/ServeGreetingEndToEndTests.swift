import Foundation
import Testing
import TouchSchoolTestSupport

/// `touchschool serve` started by a teacher in the smallest usual terminal, 80×24, under tmux: the
/// whole greeting stays on the screen (28 lines scrolled its first lines off), and the QR code is
/// drawn in colours of its own, light on black, so a light theme does not invert it.
@Suite(.onOwnThreads, .tags(.tmux), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux not found: skipped"))
struct ServeGreetingEndToEndTests {
    @Test func theWholeGreetingWithSSHFitsAnEightyByTwentyFourTerminal() throws {
        let data = TemporaryDirectory()
        defer { data.remove() }
        let session = try TmuxSession(columns: 80, rows: 24, arguments: [],
                                      program: [DataCommandsBinary.path, "serve", "--host", "0.0.0.0", "--port", "0", "--ssh-port", "0",
                                                "--data-dir", data.path])
        defer { session.close() }
        let screen = try session.waitFor("the SSH host key's fingerprint", timeout: 30) { $0.contains("SHA256:") }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("touchschool serve: listening on every interface, port ") == true, "\(screen)")
        #expect(screen.contains("Students join at:") && screen.contains("ssh -p ") && screen.contains("ssh-keygen"), "\(screen)")
        guard screen.contains("█") else {
            // A machine with no network address but the loopback: no code to draw.
            #expect(screen.contains("This machine has no network address"), "\(screen)")
            return
        }
        #expect(screen.contains("Scan with a phone's camera to open"), "\(screen)")
        // Every row of the code is drawn bright white (97) on black (40); tmux reports the
        // colours it was given (capture-pane -e).
        let coloured = session.screen(escapes: true).split(separator: "\n").filter { $0.contains("█") || $0.contains("▀") }
        #expect(!coloured.isEmpty)
        for row in coloured {
            #expect(row.contains("\u{1B}[97;40m") || row.contains("\u{1B}[40;97m") || row.contains("\u{1B}[97m\u{1B}[40m"),
                    "a row of the code without its colours: \(row.debugDescription)")
        }
    }
}
