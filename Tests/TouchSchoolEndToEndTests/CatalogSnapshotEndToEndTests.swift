import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolStore

/// The real binary with a real `catalog.snapshot`: written by `import`, used by `search`, and when
/// it is cut short or stale, reported on stderr, not used, rebuilt, and the answers unchanged.
@Suite(.onOwnThreads, .tags(.process)) struct CatalogSnapshotEndToEndTests {
    static func row(_ id: String, _ name: String) -> String { ImportCommandTests.row(id, name) }

    @Test func searchAnswersTheSameThroughADamagedOrStaleSnapshotAndRebuildsIt() throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let list = "\(directory)/list.csv"
        try ImportCommandTests.write([ImportCommandTests.header, Self.row("B1", "가람중학교"), Self.row("B2", "나래중학교"),
                                      Self.row("B3", "다온중학교")].joined(separator: "\n"), to: list)
        let imported = DataCommandsBinary.run(["import", list, "--data-dir", directory])
        try #require(imported.status == 0, "\(imported.error)")
        let snapshotPath = "\(directory)/catalog.snapshot"
        #expect(FileIO.exists(snapshotPath), "import writes the snapshot")

        let search = ["search", "중학교", "--json", "--data-dir", directory]
        let expected = DataCommandsBinary.run(search)
        #expect(expected.status == 0 && expected.error.isEmpty, "\(expected.error)")
        #expect(expected.output.contains("가람중학교") && expected.output.contains("다온중학교"))

        // Cut short, as by a full disk or a kill in the middle of a copy.
        let whole = try FileIO.read(snapshotPath)
        try FileSystem.live.replaceAtomically(snapshotPath, with: Array(whole.prefix(whole.count / 3)))
        let cut = DataCommandsBinary.run(search)
        #expect(cut.status == 0 && cut.output == expected.output)
        #expect(cut.error.contains("catalog snapshot") && cut.error.contains("cut short") && cut.error.contains("rebuilt"), "\(cut.error)")
        #expect(try FileIO.read(snapshotPath) == whole, "rebuilt byte for byte")
        let again = DataCommandsBinary.run(search)
        #expect(again.output == expected.output && again.error.isEmpty, "\(again.error)")

        // catalog.json changed after the snapshot was made: the snapshot is stale.
        let catalogPath = "\(directory)/catalog.json"
        let edited = String(decoding: try FileIO.read(catalogPath), as: UTF8.self).replacingOccurrences(of: "나래중학교", with: "새나래중학교")
        try FileSystem.live.replaceAtomically(catalogPath, with: Array(edited.utf8))
        let stale = DataCommandsBinary.run(search)
        #expect(stale.status == 0 && stale.output.contains("새나래중학교"), "\(stale.output)")
        #expect(stale.error.contains("older or another catalog.json"), "\(stale.error)")
        let fresh = DataCommandsBinary.run(search)
        #expect(fresh.output == stale.output && fresh.error.isEmpty, "\(fresh.error)")
    }
}
