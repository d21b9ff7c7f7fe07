import Foundation
import TouchSchoolTestSupport
import Testing
import TouchSchoolCore
import TouchSchoolStore

/// What the commands print is checked: output that cannot be written is an error, a reader that
/// stops early (`| head`) ends the command quietly.
@Suite(.onOwnThreads, .tags(.process), .serialized)
final class OutputTests {
    let directory: String
    static let schoolCount = 3000

    init() throws {
        directory = TemporaryDirectory().path
        // Enough schools that `rank` prints far more than a pipe holds.
        let entries = (1...Self.schoolCount).map { index in
            #"{"id": "P\#(index)", "name": "서울시험고등학교 \#(index)", "level": "high", "province": "서울특별시", "district": "종로구", "address": "서울특별시 종로구 \#(index)"}"#
        }
        let catalog = """
            {"format": "touchschool-catalog", "version": 1, "source": "official", "edition": "2026-03-20", "schools": [
            \(entries.joined(separator: ",\n"))
            ]}

            """
        try FileSystem.live.replaceAtomically("\(directory)/catalog.json", with: Array(catalog.utf8))
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    @Test(arguments: [["rank"], ["rank", "--json"], ["search", "서울"], ["search", "서울", "--json"], ["stats"], ["stats", "--json"],
                      ["reset", "--yes"], ["--help"], ["search", "--help"]])
    func outputThatCannotBeWrittenIsAnError(_ arguments: [String]) {
        let result = Subprocess.run(DataCommandsBinary.path, arguments + ["--data-dir", directory], standardOutput: "/dev/full")
        #expect(result.status == 1, "\(arguments): \(result.error)")
        #expect(result.error.hasSuffix("\n") && result.error.dropLast().split(separator: "\n").count == 1, "\(result.error)")
        #expect(result.error.contains("cannot write the output: No space left on device"), "\(result.error)")
    }

    @Test func anImportReportThatCannotBeWrittenIsAnError() throws {
        let csv = "\(directory)/list.csv"
        try FileSystem.live.replaceAtomically(csv, with: Array([ImportCommandTests.header, ImportCommandTests.row("B1", "가중학교")]
            .joined(separator: "\n").utf8))
        let result = Subprocess.run(DataCommandsBinary.path, ["import", csv, "--data-dir", "\(directory)/import"], standardOutput: "/dev/full")
        #expect(result.status == 1)
        #expect(result.error.contains("cannot write the output: No space left on device"), "\(result.error)")
    }

    /// `touchschool rank | head -1`, whether SIGPIPE kills the command or (ignored, as some parents
    /// leave it) makes its write fail: the first line, and not a word on standard error.
    @Test(arguments: [false, true])
    func aReaderThatStopsEarlyEndsTheCommandQuietly(ignoringSIGPIPE: Bool) {
        let command = [DataCommandsBinary.path, "rank", "--top", "\(Self.schoolCount)", "--data-dir", directory]
        let result = ignoringSIGPIPE
            ? Subprocess.firstLine("/bin/sh", ["-c", #"trap '' PIPE; exec "$@""#, "sh"] + command)
            : Subprocess.firstLine(command[0], Array(command.dropFirst()))
        #expect(result.line == "All schools: 3,000 schools\n")
        #expect(result.error == "")
        #expect(result.status == 128 + SIGPIPE)
    }
}
