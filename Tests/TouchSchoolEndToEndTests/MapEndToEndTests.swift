import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolCore

/// The ranking screen's map in a real 80×24 terminal (tmux), in both languages: with the starter
/// list (its schools at their provinces' seats, and the line that says so), and after importing
/// the official list (the peninsula's shape, read back from the screen).
@Suite(.onOwnThreads, .tags(.process, .tmux), .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux not found: skipped"))
struct MapEndToEndTests {
    /// The official list in `../shared/data`, beside the checkout (never copied into it).
    static let officialList = URL(fileURLWithPath: InstallLayoutTests.repository).deletingLastPathComponent()
        .appendingPathComponent("shared/data/korea-schools-2026-03-20.utf8.csv").path

    /// The words of the map's legend, by language, as the player sees them.
    static func words(_ language: String) -> (glow: String, starter: String, keys: String) {
        language == "ko"
            ? ("최근 5초에 터치한 학교", "기본 목록에는 좌표가 없어", "Tab 게임  Esc 뒤로")
            : ("tapped in the last 5 s", "The starter list has no coordinates", "Tab game  Esc back")
    }

    /// Opens the map of the ranking in a game of 서울고등학교 (the starter list's S0001, which an
    /// import matches to its official entry) on `dataDirectory`, and returns the screen.
    static func openMap(_ language: String, dataDirectory: String) throws -> (TmuxSession, String) {
        let session = try TmuxSession(columns: 80, rows: 24, arguments: ["--lang", language, "--school", "S0001"],
                                      sharedDataDirectory: dataDirectory)
        try session.waitFor(language == "ko" ? "Tab 순위" : "Tab ranking")
        session.press("Tab")
        try session.waitFor(language == "ko" ? "순위 · 전국" : "Ranking · National")
        session.type("v")
        let screen = try session.waitFor(words(language).glow)
        return (session, screen)
    }

    /// Where the legend starts: at its glow line's samples. The map is what lies left of it, one
    /// column per character there (dots, digits, a star and spaces).
    static func legendColumn(in lines: [String], _ language: String) throws -> Int {
        let sampleAndWords = "⣿⣿⣿ " + words(language).glow
        let line = try #require(lines.first { $0.contains(sampleAndWords) })
        return line[..<line.range(of: sampleAndWords)!.lowerBound].count
    }

    static func isDot(_ character: Character) -> Bool {
        character.unicodeScalars.first.map { (0x2801...0x28FF).contains($0.value) } ?? false
    }

    @Test(arguments: ["ko", "en"])
    func theStarterListsMapAt80x24(language: String) throws {
        let data = TemporaryDirectory()
        defer { data.remove() }
        let (session, screen) = try Self.openMap(language, dataDirectory: "\(data.path)/data")
        defer { session.close() }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(screen.filter { $0 != " " && $0 != "\n" }.contains(Self.words(language).starter.filter { $0 != " " }), "\(screen)")
        #expect(screen.contains("touchschool import"), "\(screen)")
        #expect(lines[23].contains(Self.words(language).keys), "\(screen)")
        // The 17 provinces' seats, a few sharing a cell (Seoul and Incheon and Suwon, Sejong and
        // Daejeon), my school's marked: a dozen dots or so on the left of the legend.
        let legendColumn = try Self.legendColumn(in: lines, language)
        let dots = lines[2..<23].reduce(0) { $0 + $1.prefix(legendColumn - 1).filter(Self.isDot).count }
        #expect((10...17).contains(dots), "\(screen)")
        session.type("v")
        try session.waitFor(language == "ko" ? "v 지도" : "v map")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: MapEndToEndTests.officialList), "../shared/data not found: skipped"),
          arguments: ["ko", "en"])
    func theOfficialListsMapHasThePeninsulasShape(language: String) throws {
        let data = TemporaryDirectory()
        defer { data.remove() }
        let imported = DataCommandsBinary.run(["import", Self.officialList, "--data-dir", "\(data.path)/data"])
        try #require(imported.status == 0, "\(imported.error)")
        let (session, screen) = try Self.openMap(language, dataDirectory: "\(data.path)/data")
        defer { session.close() }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        #expect(!screen.contains("touchschool import"), "\(screen)")

        let legendColumn = try Self.legendColumn(in: lines.map { String($0) }, language)
        func shown(_ row: Int, _ column: Int) -> Bool {
            row >= 2 && row < 23 && column >= 0 && column < legendColumn - 1 && column < lines[row].count && lines[row][column] != " "
        }
        let cells = (2..<23).flatMap { row in (0..<(legendColumn - 1)).filter { shown(row, $0) }.map { (row, $0) } }
        let top = try #require(cells.map(\.0).min()), bottom = try #require(cells.map(\.0).max())
        let left = try #require(cells.map(\.1).min()), right = try #require(cells.map(\.1).max())

        // The map's extremes are the list's own: read from the file, not from the game.
        let (south, north, west, east) = try Self.extremes(of: Self.officialList)
        func cell(latitude: Double, longitude: Double) -> (row: Int, column: Int) {
            let row = Double(top) + (north - latitude) / (north - south) * Double(bottom - top)
            let column = Double(left) + (longitude - west) / (east - west) * Double(right - left)
            return (Int(row.rounded()), Int(column.rounded()))
        }
        func anyShown(near place: (row: Int, column: Int)) -> Bool {
            (-1...1).contains { dy in (-1...1).contains { dx in shown(place.row + dy, place.column + dx) } }
        }
        // Seoul's city hall, Busan's, Jeju's: schools all round.
        for (name, latitude, longitude) in [("Seoul", 37.5665, 126.9780), ("Busan", 35.1796, 129.0756), ("Jeju", 33.4996, 126.5312)] {
            #expect(anyShown(near: cell(latitude: latitude, longitude: longitude)), "nothing where \(name) is:\n\(screen)")
        }
        // The seas, far (over half a degree) from any island with a school: the Yellow Sea west of
        // Incheon and Taean, the sea east of Jeju off the south coast, the East Sea off Pohang.
        for (name, latitude, longitude) in [("Yellow Sea", 36.2, 125.2), ("South Sea", 33.6, 127.8), ("East Sea", 36.0, 130.2)] {
            #expect(!anyShown(near: cell(latitude: latitude, longitude: longitude)), "dots in the \(name):\n\(screen)")
        }
        // About as tall as the screen allows, and the shape kept: 5.3° by 6.2° (× cos 36°), in
        // cells of 2 × 4 dots.
        #expect(bottom - top >= 19)
        let across = Double(right - left + 1) * 2, down = Double(bottom - top + 1) * 4
        #expect(abs(across / down - (east - west) * 0.81 / (north - south)) < 0.15, "\(across)×\(down)")
    }

    /// The southmost, northmost, westmost and eastmost school of the list (위도, 경도).
    static func extremes(of file: String) throws -> (south: Double, north: Double, west: Double, east: Double) {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var rows = text.split(whereSeparator: \.isNewline).makeIterator()
        let first = rows.next()
        let header = try #require(first).split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let latitude = try #require(header.firstIndex { $0.hasSuffix("위도") }), longitude = try #require(header.firstIndex(of: "경도"))
        var south = 90.0, north = -90.0, west = 180.0, east = -180.0
        while let row = rows.next() {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > max(latitude, longitude), let lat = Double(fields[latitude]), let lon = Double(fields[longitude]) else { continue }
            south = min(south, lat); north = max(north, lat); west = min(west, lon); east = max(east, lon)
        }
        return (south, north, west, east)
    }
}

/// The map over SSH, where the server draws the game: the same map at 80×24, its leaders from the
/// league's top the server sends.
@Suite(.onOwnThreads, .tags(.process, .tmux, .ssh),
       .enabled(if: ["/usr/bin/tmux", "/usr/bin/ssh", "/usr/bin/ssh-keygen"].allSatisfy(FileManager.default.isExecutableFile(atPath:)),
                "tmux or OpenSSH's client not found: skipped"))
struct MapOverSSHEndToEndTests {
    @Test func theMapOverSSHMarksTheLeaderTheServerRanks() throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let key = try SSHPlayEndToEndTests.makeKey("mapper", in: keys)
        let server = try ServerProcess.forGames(catalog: nil, arguments: ["--ssh-port", "0"])
        defer { server.stop() }
        let player = try SSHPlayEndToEndTests.player("mapper", key: key, on: server, columns: 80, rows: 24)
        defer { player.close() }
        try player.chooseSchool(named: "민사고", tapsLabel: "My taps")
        try GameEndToEndTests.tapLikeAPerson(player, count: 10)
        player.press("Tab")
        try player.waitFor("Ranking · National")
        player.type("v")
        // The server's top of the league names 민족사관고등학교 first, with its 10 taps.
        let screen = try player.waitFor("the map with its leader") { $0.contains("1 민족사관고등학교  10") }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let legendColumn = try MapEndToEndTests.legendColumn(in: lines, "en")
        #expect(lines[2..<23].contains { $0.prefix(legendColumn - 1).contains("1") }, "the leader marked on the map:\n\(screen)")
        #expect(lines[2..<23].reduce(0) { $0 + $1.prefix(legendColumn - 1).filter(MapEndToEndTests.isDot).count } >= 10, "\(screen)")
        #expect(screen.contains("touchschool import"), "\(screen)")
        player.press("C-c")
        try player.waitFor("EXITED:0")
    }
}
