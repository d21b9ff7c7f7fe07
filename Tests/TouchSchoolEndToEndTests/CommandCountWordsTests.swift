import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolStore
@testable import TouchSchoolCommandLine

/// The commands' English counts read as a person reads them: "1 school", "1 tap/s", grouped from the thousands.
@Suite(.onOwnThreads) struct CommandCountWordsTests {
    @Test func importingOneSchoolSaysOneSchool() throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let list = "\(directory)/one.csv"
        try ImportCommandTests.write([ImportCommandTests.header, ImportCommandTests.row("B1", "일신여자중학교")].joined(separator: "\n"), to: list)
        let summary = try ImportCommand.parse([list, "--data-dir", "\(directory)/data"]).importList(output: .standardStreams)
        #expect(summary.contains("Imported 1 school of the official list of 2026-03-20 (UTF-8)."), "\(summary)")
    }

    @Test func everyCountSaysOneInTheSingular() {
        #expect(CommandText.leagueTitle(.national, size: 1) == "All schools: 1 school")
        #expect(CommandText.leagueTitle(.national, size: 12_011) == "All schools: 12,011 schools")
        #expect(CommandText.tapsPerSecond(1) == "1 tap/s")
        #expect(CommandText.tapsNotSaved(1, reason: "disk full") == "1 tap could not be saved: disk full")
        #expect(CommandText.starterCatalogHint(schoolCount: 1).hasPrefix("The starter catalog lists only 1 school."))
    }
}
