import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolStore

/// The map of a game on a server (issue 50), in a real 80×24 terminal: another player's school,
/// of which the game's own views say nothing, glows on it as the server's map tells, in a game
/// with `--server` and over SSH, in both languages.
enum ServedMapScene {
    /// Seven schools far apart. The viewer plays for 부산고 (4th); 강릉고, the northmost school,
    /// is 7th and tapped by another player: neither the viewer's view (the first three, the two
    /// above and the two below its school) nor any page it watches on the map names it.
    static let catalog = Catalog(schools: [
        school("M1", "한강고등학교", "서울특별시", 37.55, 126.99), school("M2", "대전고등학교", "대전광역시", 36.35, 127.38),
        school("M3", "광주고등학교", "광주광역시", 35.16, 126.85), school("M4", "부산고등학교", "부산광역시", 35.18, 129.07),
        school("M5", "제주고등학교", "제주특별자치도", 33.50, 126.53), school("M6", "포항고등학교", "경상북도", 36.02, 129.34),
        school("M7", "강릉고등학교", "강원특별자치도", 37.75, 128.90),
    ], source: .official(edition: "2026-03-20"))
    static let scores: [String: UInt64] = ["M1": 1_000, "M2": 900, "M3": 800, "M4": 500, "M5": 400, "M6": 300]

    static func school(_ id: String, _ name: String, _ province: String, _ latitude: Double, _ longitude: Double) -> School {
        School(id: id, name: name, level: .high, province: province, district: "", address: "", latitude: latitude, longitude: longitude)
    }

    static func server(arguments: [String] = []) throws -> ServerProcess {
        try ServerProcess.forGames(catalog: String(decoding: CatalogFile.encode(catalog), as: UTF8.self), scores: scores, arguments: arguments)
    }

    /// A player tapping 강릉고 through the server, in a game of its own.
    static func tapper(on server: ServerProcess) throws -> TmuxSession {
        let session = try TmuxSession(arguments: ["--lang", "en", "--server", server.baseURL, "--school", "M7"], user: "tapper")
        try session.waitFor("My taps 0")
        return session
    }

    /// The words the viewer waits for, by language.
    static func words(_ language: String) -> (play: String, ranking: String, myTaps: String) {
        language == "ko" ? ("Tab 순위", "순위 · 전국", "내 터치") : ("Tab ranking", "Ranking · National", "My taps")
    }

    /// From the ranking, the map; returns the screen with its legend.
    static func openMap(_ viewer: TmuxSession, _ language: String) throws -> String {
        viewer.press("Tab")
        try viewer.waitFor(words(language).ranking)
        viewer.type("v")
        return try viewer.waitFor(MapEndToEndTests.words(language).glow)
    }

    /// The cells of the map (left of its legend, on its rows) drawn in a glow's colours (warm:
    /// yellow; hot: red; blazing: on red), read from the screen with its escapes, with their
    /// characters: (row, column, character).
    static func glowingCells(in viewer: TmuxSession, _ language: String) throws -> [(row: Int, column: Int, character: Character)] {
        let plain = viewer.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let legend = try MapEndToEndTests.legendColumn(in: plain, language)
        let lines = viewer.screen(escapes: true).split(separator: "\n", omittingEmptySubsequences: false)
        var found: [(row: Int, column: Int, character: Character)] = []
        for (row, line) in lines.enumerated() where row >= 2 && row < 23 {
            var foreground = 39, background = 49, column = 0
            var characters = line.makeIterator()
            while let character = characters.next() {
                if character == "\u{1B}" {
                    guard characters.next() == "[" else { continue }
                    var parameters = ""
                    while let next = characters.next(), next != "m" { parameters.append(next) }
                    let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                    var index = 0
                    while index < numbers.count {
                        switch numbers[index] {
                        case 0: (foreground, background) = (39, 49)
                        case 30...37, 39, 90...97: foreground = numbers[index]
                        case 40...47, 49, 100...107: background = numbers[index]
                        case 38, 48:
                            // 38;5;N and 48;5;N: the first eight of the palette are the eight colours.
                            if index + 2 < numbers.count, numbers[index + 1] == 5 {
                                let colour = numbers[index + 2]
                                if numbers[index] == 38 { foreground = colour < 8 ? 30 + colour : 0 } else { background = colour < 8 ? 40 + colour : 0 }
                                index += 2
                            }
                        default: break
                        }
                        index += 1
                    }
                    continue
                }
                if column < legend - 1, foreground == 33 || foreground == 31 || background == 41 {
                    found.append((row, column, character))
                }
                column += 1
            }
        }
        return found
    }

    /// On the viewer's map nothing glows; 강릉고 taps through the server; then its dot, on the
    /// map's first row (the northmost school), glows, and only it, though no view of the viewer
    /// names it.
    static func seeTheTapperGlow(viewer: TmuxSession, on server: ServerProcess, _ language: String) throws {
        let screen = try openMap(viewer, language)
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        let legend = try MapEndToEndTests.legendColumn(in: lines.map { String($0) }, language)
        let firstMapRow = try #require((2..<23).first { row in lines[row].prefix(legend - 1).contains(where: MapEndToEndTests.isDot) })
        func glowingOnTheFirstRow() throws -> [(row: Int, column: Int, character: Character)] {
            try glowingCells(in: viewer, language).filter { $0.row == firstMapRow }
        }
        #expect(try glowingCells(in: viewer, language).isEmpty, "nothing taps yet:\n\(screen)")
        let tapper = try tapper(on: server)
        defer { tapper.close() }
        try GameEndToEndTests.tapLikeAPerson(tapper, count: 12)
        var glowing: [(row: Int, column: Int, character: Character)] = []
        let glowed = Wait.untilBlocking(timeout: 10, every: .milliseconds(100)) {
            glowing = try glowingOnTheFirstRow()
            return !glowing.isEmpty
        }
        #expect(glowed, "강릉고's taps never glowed on the map:\n\(viewer.screen())")
        #expect(glowing.count == 1 && glowing.allSatisfy { MapEndToEndTests.isDot($0.character) }, "\(glowing):\n\(viewer.screen())")
        #expect(try glowingCells(in: viewer, language).count == 1, "\(viewer.screen())")
        // The legend names the leaders as the nation's, from the viewer's view.
        #expect(viewer.screen().contains("1 한강고등학교  1,000"), "\(viewer.screen())")
    }
}

@Suite(.onOwnThreads, .tags(.process, .tmux), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux not found: skipped"))
struct ServedMapEndToEndTests {
    @Test(arguments: ["ko", "en"])
    func aGameOnAServerGlowsWithAnotherPlayersTaps(language: String) throws {
        let server = try ServedMapScene.server()
        defer { server.stop() }
        let viewer = try TmuxSession(columns: 80, rows: 24, arguments: ["--lang", language, "--server", server.baseURL, "--school", "M4"],
                                     user: "viewer")
        defer { viewer.close() }
        try viewer.waitFor(ServedMapScene.words(language).play)
        try ServedMapScene.seeTheTapperGlow(viewer: viewer, on: server, language)
    }
}

@Suite(.onOwnThreads, .tags(.process, .tmux, .ssh),
       .enabled(if: ["/usr/bin/tmux", "/usr/bin/ssh", "/usr/bin/ssh-keygen"].allSatisfy(FileManager.default.isExecutableFile(atPath:)),
                "tmux or OpenSSH's client not found: skipped"))
struct ServedMapOverSSHEndToEndTests {
    @Test(arguments: ["ko", "en"])
    func aGameOverSSHGlowsWithAnotherPlayersTaps(language: String) throws {
        let keys = TemporaryDirectory()
        defer { keys.remove() }
        let key = try SSHPlayEndToEndTests.makeKey("viewer", in: keys)
        let server = try ServedMapScene.server(arguments: ["--ssh-port", "0"])
        defer { server.stop() }
        let viewer = try SSHPlayEndToEndTests.player("viewer", key: key, on: server, language: language == "ko" ? "ko_KR.UTF-8" : "C.UTF-8",
                                                     columns: 80, rows: 24)
        defer { viewer.close() }
        try viewer.chooseSchool(named: "부산고", tapsLabel: ServedMapScene.words(language).myTaps)
        try ServedMapScene.seeTheTapperGlow(viewer: viewer, on: server, language)
    }
}
