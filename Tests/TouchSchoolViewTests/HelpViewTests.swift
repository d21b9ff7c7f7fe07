import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

/// F1 says how the game being played works: on this computer alone, on a server (`--server`: the
/// taps sent there, kept while it cannot be reached), or over SSH in the game the server runs;
/// the rounds wherever a server runs them.
@Suite(.onOwnThreads) struct HelpViewTests {
    enum Mode: CaseIterable { case local, server, ssh }

    static func help(_ mode: Mode, _ language: Language, columns: Int, rows: Int) -> CellGrid {
        var state = Fixture.state(on: .help, language, columns: columns, rows: rows)
        switch mode {
        case .local: break
        case .server:
            state.connection = .online
            state.server = "10.0.0.5:8080"
        case .ssh:
            state.connection = .online
        }
        return view(state, now: Fixture.start)
    }

    @Test(arguments: Mode.allCases, Language.allCases)
    func theHelpDescribesTheGameBeingPlayed(mode: Mode, language: Language) {
        let ko = language == .korean
        let local = ko ? "같은 컴퓨터에서 함께 하는 모든 사람의 터치가 합쳐집니다" : "everyone playing on this computer adds to the same totals"
        let server = ko ? "10.0.0.5:8080 서버의 대항전" : "the battle on the server 10.0.0.5:8080"
        let offline = ko ? "다시 연결되면 보내집니다" : "sent when it is back"
        let ssh = ko ? "SSH로 서버에서 돌아가는 게임" : "over SSH in the game the server runs"
        let rounds = ko ? "3, 2, 1 카운트다운" : "a 3-2-1 countdown"
        let wanted: [String] = switch mode {
        case .local: [local]
        case .server: [server, offline, rounds]
        case .ssh: [ssh, rounds]
        }
        for size in [(80, 24), (120, 40)] {
            let grid = Self.help(mode, language, columns: size.0, rows: size.1)
            for text in wanted { #expect(grid.containsWrapped(text), "\(mode) \(size) lacks \(text):\n\(grid.text)") }
            for text in [local, server, offline, ssh, rounds] where !wanted.contains(text) {
                #expect(!grid.containsWrapped(text), "\(mode) \(size) says \(text):\n\(grid.text)")
            }
            // The keys and the fair-play rule still fit beside it.
            #expect(grid.containsWrapped(ko ? "붙여넣기는 세지 않습니다" : "pasted text do not count"), "\(mode) \(size):\n\(grid.text)")
            expectWholeColumns(grid)
        }
    }
}
