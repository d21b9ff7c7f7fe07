import ArgumentParser
import Foundation
import TouchSchoolCore
import TouchSchoolStarterCatalog

/// `touchschool play`: the game itself, and what `touchschool` alone runs.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Choose your school and mash keys for it (the default command)."
    )

    @Option(name: .long, help: ArgumentHelp("Play for the school with this id, skipping the search.", valueName: "ID"))
    var school: String?

    @Option(name: .long, help: ArgumentHelp("Language of the game (default: from the locale).", valueName: "lang"))
    var lang: Language?

    @Flag(name: .long, help: "Never ring the terminal bell.")
    var quiet = false

    @Flag(name: .customLong("no-mouse"), help: "Don't take mouse clicks as taps (leaves the mouse to the terminal).")
    var noMouse = false

    @Option(name: .long, help: ArgumentHelp("Whose taps these are, when several people share a data directory (default: the login name).", valueName: "NAME"))
    var player: String?

    @OptionGroup var data: DataDirectoryOptions

    func run() throws {
        // Before anything slow: a script that runs the game without a terminal learns it at once.
        try TerminalScreen.checkIsTerminal()
        let environment = ProcessInfo.processInfo.environment
        let language = lang ?? Language.fromLocale(environment: environment)
        let directory = data.directory
        let catalog = try CatalogFile.loadCurrent(dataDirectory: directory, starterPath: StarterCatalog.path)
        var startingSchool: Int?
        if let school {
            guard let position = catalog.position(ofID: school) else {
                throw CommandError("no school has the id '\(quoted(school))' (find ids with `touchschool search NAME`)")
            }
            startingSchool = position
        }
        var notices: [String] = []
        do {
            try DataDirectory.prepare(directory)
        } catch {
            notices.append(error.message) // the game still runs; each save will say why it fails
        }
        let store = StateStore(directory: directory)
        let (saved, problems) = try store.load(catalog: catalog)
        notices += problems.map { $0.notice(in: language) }

        ExitSignals.install()
        let screen = try TerminalScreen(
            colors: (environment["NO_COLOR"] ?? "").isEmpty, mouse: !noMouse, environment: environment
        )
        defer { screen.restore() }
        let size = screen.size
        let state = GameState(
            catalog: catalog, saved: saved, player: player ?? PlayerRecord.defaultName(environment: environment),
            language: language, now: MonotonicClock.now(), columns: size.columns, rows: size.rows,
            seed: UInt64(truncatingIfNeeded: MonotonicClock.now().nanoseconds), bellEnabled: !quiet,
            notices: notices, startingSchool: startingSchool
        )
        var runner = GameRunner(screen: screen, store: store, state: state)
        runner.run()
        screen.restore()
        let unsaved = runner.state.pendingChanges
        if !unsaved.isEmpty, let reason = runner.state.saveFailure {
            throw CommandError("\(unsaved.playerTaps) taps could not be saved: \(reason)")
        }
    }
}

extension StateProblem {
    /// What the player is told about a state file that needed repair.
    func notice(in language: Language) -> String {
        switch (self, language) {
        case let (.setAside(keptAs, reason), .korean):
            "점수 파일을 쓸 수 없어 \(keptAs)에 보관하고 새로 시작합니다 (\(reason))."
        case let (.setAside(keptAs, reason), .english):
            "The score file could not be used; it was kept as \(keptAs) and scores start over (\(reason))."
        case let (.valuesReset(backup, details), .korean):
            "비정상적인 값을 초기화했습니다: \(details.joined(separator: ", ")). 원래 파일은 \(backup)에 있습니다."
        case let (.valuesReset(backup, details), .english):
            "Abnormal values were reset: \(details.joined(separator: ", ")). The file as it was is kept as \(backup)."
        }
    }
}
