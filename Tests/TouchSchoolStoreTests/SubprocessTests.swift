import Foundation
import Testing
import TouchSchoolTestSupport

/// The tests' way to start programs (`Subprocess`) hands a program nothing of the test process
/// but its standard input, output and error. Swift NIO opens its sockets without close-on-exec,
/// so a program started while another test's connection is open would otherwise hold that
/// connection open after the test closes it: the server never learns that its client left (a
/// board stream's place in the address limit was kept for 10 s this way, in CI).
@Suite(.onOwnThreads, .tags(.process)) struct SubprocessTests {
    /// A socket and a file the test process holds open, neither close-on-exec.
    static func openDescriptors() -> (socket: Int32, file: Int32) {
        (socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0), open("/dev/null", O_RDONLY))
    }

    /// The descriptors a program started these ways has open, as it lists them itself.
    @Test func aProgramGetsOnlyItsStandardDescriptors() throws {
        let (held, file) = Self.openDescriptors()
        defer {
            close(held)
            close(file)
        }
        #expect(held > 2 && file > 2)
        // `ls` lists its own descriptors: 0, 1 and 2, and the one it reads the folder with.
        let listing = "/bin/ls /proc/self/fd | sort -n | tr '\\n' ' '"
        let run = Subprocess.run("/bin/sh", ["-c", listing])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "0 1 2 3 ", "inherited: \(run.output)")
        let first = Subprocess.firstLine("/bin/sh", ["-c", listing])
        #expect(first.line == "0 1 2 3 ", "inherited: \(first.line)")

        let folder = NSTemporaryDirectory() + "touchschool-subprocess-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let started = Subprocess.start("/bin/sh", ["-c", listing], outputPath: "\(folder)/out", errorPath: "\(folder)/err")
        guard case let .success(pid) = started else { Issue.record("cannot start: \(started)"); return }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(try String(contentsOfFile: "\(folder)/out", encoding: .utf8) == "0 1 2 3 ")
    }
}
