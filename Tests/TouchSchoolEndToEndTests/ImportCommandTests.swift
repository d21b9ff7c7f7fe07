import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolStore
@testable import TouchSchoolCommandLine

@Suite(.onOwnThreads) struct ImportCommandTests {
    static let header = "학교ID,학교명,학교급구분,설립일자,설립형태,본교분교구분,운영상태,소재지지번주소,소재지도로명주소,시도교육청명,위도,경도,데이터기준일자"

    static func row(_ id: String, _ name: String, edition: String = "2026-03-20") -> String {
        "\(id),\(name),중학교,1981-10-14,공립,본교,운영,부산광역시 금정구 부곡동 717-1,부산광역시 금정구 가마실로 56,부산광역시교육청,35.2,129.1,\(edition)"
    }

    static func write(_ text: String, to path: String) throws { try FileSystem.live.replaceAtomically(path, with: Array(text.utf8)) }

    @Test func importsThenUpdatesTheCatalogInTheDataDirectory() throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let dataDirectory = "\(directory)/data/touchschool"
        let first = "\(directory)/2025.csv"
        try Self.write([Self.header, Self.row("B1", "일신여자중학교", edition: "2025-03-25"), Self.row("B2", "폐교중학교", edition: "2025-03-25")]
            .joined(separator: "\n"), to: first)
        let firstSummary = try ImportCommand.parse([first, "--data-dir", dataDirectory]).importList(output: .standardStreams)
        #expect(firstSummary.contains("Imported 2 schools of the official list of 2025-03-25 (UTF-8)."))
        #expect(firstSummary.contains("data.go.kr"))

        let second = "\(directory)/2026.csv"
        try Self.write([Self.header, Self.row("B1", "잠실여자중학교"), Self.row("B3", "새중학교")].joined(separator: "\n"), to: second)
        let summary = try ImportCommand.parse([second, "--data-dir", dataDirectory]).importList(output: .standardStreams)
        #expect(summary.contains("1  renamed"))
        #expect(summary.contains("일신여자중학교 → 잠실여자중학교 (B1)"))
        #expect(summary.contains("폐교중학교, 부산광역시 금정구 (B2)"))

        let catalog = try CatalogFile.load(path: "\(dataDirectory)/catalog.json")
        #expect(catalog.source == .official(edition: "2026-03-20"))
        #expect(catalog.schools.map(\.id) == ["B1", "B2", "B3"])
        #expect(catalog.schools.map { $0.isListed } == [true, false, true])
    }

    @Test func aBadFileChangesNothing() throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let good = "\(directory)/good.csv"
        try Self.write([Self.header, Self.row("B1", "가중학교")].joined(separator: "\n"), to: good)
        _ = try ImportCommand.parse([good, "--data-dir", directory]).importList(output: .standardStreams)
        let before = try FileIO.read("\(directory)/catalog.json")

        let bad = "\(directory)/bad.csv"
        try Self.write([Self.header, Self.row("B1", "가중학교"), "B2,나중학교"].joined(separator: "\n"), to: bad)
        let command = try ImportCommand.parse([bad, "--data-dir", directory])
        let failure = #expect(throws: ImportFailure.self) { try command.importList(output: .standardStreams) }
        #expect(failure?.message.contains("line 3") == true)
        let refused = InProcessCommand.run(["import", bad, "--data-dir", directory], network: NoNetwork())
        #expect(refused.status == 1)
        #expect(refused.error.contains("line 3"), "\(refused.error)")
        #expect(try FileIO.read("\(directory)/catalog.json") == before)
    }

    /// A generated list of `count` schools, the first `kept` of which are written to `path`.
    static func writeList(_ count: Int, keeping kept: Int? = nil, to path: String) throws {
        let rows = (1...count).prefix(kept ?? count).map { row("B\(100_000_000 + $0)", "생성\($0)중학교") }
        try write(([header] + rows).joined(separator: "\n"), to: path)
    }

    /// A list cut short (the same edition, most of its rows gone) would mark most schools as no
    /// longer listed: refused, saying how many, and nothing changed; --force imports it.
    @Test func aListThatLeavesOutMostSchoolsIsRefusedUnlessForced() throws {
        let directory = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let whole = "\(directory)/whole.csv", cut = "\(directory)/cut.csv"
        try Self.writeList(2_000, to: whole)
        try Self.writeList(2_000, keeping: 500, to: cut)
        #expect(InProcessCommand.run(["import", whole, "--data-dir", directory], network: NoNetwork()).status == 0)
        let before = try FileIO.read("\(directory)/catalog.json")

        let refused = InProcessCommand.run(["import", cut, "--data-dir", directory], network: NoNetwork())
        #expect(refused.status == 1)
        #expect(refused.error.hasPrefix("Error: this list leaves out 1,500 of the 2,000 schools the catalog lists now: it looks cut short"),
                "\(refused.error)")
        #expect(refused.error.contains("import it anyway with --force.\nNothing was changed.\n"), "\(refused.error)")
        #expect(try FileIO.read("\(directory)/catalog.json") == before)

        let forced = InProcessCommand.run(["import", cut, "--force", "--data-dir", directory], network: NoNetwork())
        #expect(forced.status == 0, "\(forced.error)")
        #expect(forced.output.contains("  1,500  no longer listed (kept, with their scores)\n"), "\(forced.output)")
        #expect(forced.output.contains("  … and 1,480 more\n"), "\(forced.output)")
        #expect(try CatalogFile.load(path: "\(directory)/catalog.json").schools.count(where: \.isListed) == 500)
    }

    @Test func helpIsTheManual() {
        let help = ImportCommand.helpMessage()
        #expect(help.contains("15021148"))
        #expect(help.contains("한국교육시설안전원"))
        #expect(help.contains("--data-dir <dir>"))
    }
}
