import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolStore

/// Text from data (school names, player names, ids) never reaches a terminal raw: the real binary
/// on a catalog whose names carry escape sequences, C1 controls and bidi overrides.
@Suite(.onOwnThreads, .tags(.process), .serialized)
final class SafeOutputTests {
    let directory: String

    /// Each hostile name beside the same name as it must be shown: every control as `\u{…}`.
    static let schools: [(id: String, json: String, name: String, shown: String)] = [
        ("E1", #"Evil\u001b[2J School"#, "Evil\u{1B}[2J School", #"Evil\u{1B}[2J School"#),
        ("E2", #"Bidi\u202eloohcS"#, "Bidi\u{202E}loohcS", #"Bidi\u{202E}loohcS"#),
        ("E3", #"Csi\u009b31mSchool"#, "Csi\u{9B}31mSchool", #"Csi\u{9B}31mSchool"#),
        ("E4", #"Line\nBreak\u007f\u2066School"#, "Line\nBreak\u{7F}\u{2066}School", #"Line\u{A}Break\u{7F}\u{2066}School"#),
    ]

    init() throws {
        directory = TemporaryDirectory().path
        let entries = Self.schools.map { school in
            #"{"id": "\#(school.id)", "name": "\#(school.json)", "level": "high", "province": "서울특별시", "district": "종로구\u001b]0;pwned\u0007", "address": ""}"#
        }
        let catalog = """
            {"format": "touchschool-catalog", "version": 1, "source": "official", "edition": "2026-03-20", "schools": [
            \(entries.joined(separator: ",\n"))
            ]}

            """
        try FileSystem.live.replaceAtomically("\(directory)/catalog.json", with: Array(catalog.utf8))
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Scalars that act on a terminal instead of showing: C0 (but the line breaks of the output
    /// itself), DEL, C1, and the bidi overrides and isolates.
    static func unsafeScalars(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            let value = scalar.value
            return (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value)
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        }.map { String(format: "U+%04X", $0.value) }
    }

    func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        DataCommandsBinary.run(arguments + ["--data-dir", directory])
    }

    @Test func rankShowsControlsInNamesVisibly() {
        let rank = run(["rank"])
        #expect(rank.status == 0, "\(rank.error)")
        #expect(Self.unsafeScalars(in: rank.output + rank.error) == [])
        for school in Self.schools { #expect(rank.output.contains(school.shown), "\(rank.output)") }
        #expect(rank.output.contains(#"종로구\u{1B}]0;pwned\u{7}"#))
    }

    @Test(arguments: ["Evil", "Bidi", "Csi", "Line"])
    func searchShowsControlsInNamesVisibly(_ query: String) throws {
        let search = run(["search", query])
        #expect(search.status == 0, "\(search.error)")
        #expect(Self.unsafeScalars(in: search.output + search.error) == [])
        let school = try #require(Self.schools.first { $0.name.hasPrefix(query) })
        #expect(search.output.contains(school.shown), "\(search.output)")
    }

    @Test func aQueryThatMatchesNothingIsEchoedVisibly() {
        let search = run(["search", "\u{1B}[2Jnothing"])
        #expect(Self.unsafeScalars(in: search.output + search.error) == [])
        #expect((search.output + search.error).contains(#"\u{1B}[2Jnothing"#))
    }

    @Test func jsonKeepsTheNamesAndEscapesTheControls() throws {
        for arguments in [["rank", "--json"], ["search", "Evil", "--json"]] {
            let result = run(arguments)
            #expect(result.status == 0, "\(result.error)")
            #expect(Self.unsafeScalars(in: result.output) == [], "\(arguments)")
            let parsed = try JSONValue.parse(result.output)
            let rows = try #require(arguments[0] == "search" ? parsed["schools"]?.arrayValue : parsed.arrayValue)
            for row in rows {
                let name = try #require(row["name"]?.stringValue)
                #expect(Self.schools.contains { $0.name == name }, "\(name.debugDescription)")
                #expect(row["district"]?.stringValue == "종로구\u{1B}]0;pwned\u{7}")
            }
        }
    }

    @Test func statsShowsAPlayerAndTheirSchoolVisibly() throws {
        let player = "\u{1B}[2J\u{202E}kim"
        _ = try StateStore(directory: directory).sync(
            PendingChanges(player: player, scoreDeltas: ["E1": 5], playerTaps: 5, switchedToSchool: "E1"))
        let stats = run(["stats", "--player", player])
        #expect(stats.status == 0, "\(stats.error)")
        #expect(Self.unsafeScalars(in: stats.output + stats.error) == [])
        #expect(stats.output.contains(#"\u{1B}[2J\u{202E}kim"#), "\(stats.output)")
        #expect(stats.output.contains(Self.schools[0].shown), "\(stats.output)")

        let unknown = run(["stats", "--player", "\u{1B}[2Jnobody"])
        #expect(Self.unsafeScalars(in: unknown.output + unknown.error) == [])
        #expect(unknown.output.contains(#"\u{1B}[2Jnobody has not chosen a school yet"#), "\(unknown.output)")

        let json = run(["stats", "--player", player, "--json"])
        #expect(Self.unsafeScalars(in: json.output) == [])
        #expect(try JSONValue.parse(json.output)["player"]?.stringValue == player)
    }

    @Test func theImportReportShowsRenamedSchoolsVisibly() throws {
        let importDirectory = "\(directory)/import"
        let first = "\(directory)/first.csv", second = "\(directory)/second.csv"
        try FileSystem.live.replaceAtomically(first, with: Array([ImportCommandTests.header, ImportCommandTests.row("B1", "일신\u{1B}[2J중학교", edition: "2025-03-25"),
                                                         ImportCommandTests.row("B\u{1B}[2J", "폐교중학교", edition: "2025-03-25")].joined(separator: "\n").utf8))
        try FileSystem.live.replaceAtomically(second, with: Array([ImportCommandTests.header, ImportCommandTests.row("B1", "잠실\u{9B}중학교", edition: "2026-03-20")]
            .joined(separator: "\n").utf8))
        #expect(DataCommandsBinary.run(["import", first, "--data-dir", importDirectory]).status == 0)
        let report = DataCommandsBinary.run(["import", second, "--data-dir", importDirectory])
        #expect(report.status == 0, "\(report.error)")
        #expect(Self.unsafeScalars(in: report.output + report.error) == [])
        #expect(report.output.contains(#"일신\u{1B}[2J중학교 → 잠실\u{9B}중학교 (B1)"#), "\(report.output)")
        #expect(report.output.contains(#"(B\u{1B}[2J)"#), "\(report.output)")
    }

    @Test func anImportErrorNamingAnIDShowsItVisibly() throws {
        let bad = "\(directory)/bad.csv"
        try FileSystem.live.replaceAtomically(bad, with: Array([ImportCommandTests.header, ImportCommandTests.row("B\u{1B}[2J", "", edition: "2026-03-20")]
            .joined(separator: "\n").utf8))
        let failure = DataCommandsBinary.run(["import", bad, "--data-dir", "\(directory)/import-bad"])
        #expect(failure.status != 0)
        #expect(Self.unsafeScalars(in: failure.output + failure.error) == [])
        #expect(failure.error.contains(#"B\u{1B}[2J"#), "\(failure.error)")
    }

    @Test func aBadOptionValueIsEchoedVisibly() {
        let result = run(["rank", "--level", "\u{1B}[2J"])
        #expect(result.status != 0)
        #expect(Self.unsafeScalars(in: result.output + result.error) == [])
        #expect(result.error.contains(#"\u{1B}[2J"#), "\(result.error)")
    }
}
