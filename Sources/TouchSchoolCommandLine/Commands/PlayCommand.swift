import ArgumentParser
import TouchSchoolCore
import TouchSchoolCurses
import TouchSchoolLocalBattle
import TouchSchoolStore
import TouchSchoolTerminal

/// `touchschool play`: the game itself, and what `touchschool` alone runs.
struct PlayCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: CommandText.playAbstract
    )

    @Option(name: .long, help: ArgumentHelp(CommandText.schoolIDHelp, valueName: "ID"))
    var school: String?

    @Option(name: .long, help: ArgumentHelp(CommandText.langHelp, valueName: "lang"))
    var lang: Language?

    @Flag(name: .long, help: ArgumentHelp(CommandText.quietHelp))
    var quiet = false

    @Flag(name: .customLong("no-mouse"), help: ArgumentHelp(CommandText.noMouseHelp))
    var noMouse = false

    @Option(name: .long, help: ArgumentHelp(CommandText.playerHelp, valueName: "NAME"))
    var player: String?

    @OptionGroup var data: DataDirectoryOptions

    @OptionGroup var server: ServerOptions

    func run(in context: CommandContext) throws {
        // Before anything slow: a script that runs the game without a terminal learns it at once.
        let environment = ProcessEnvironment.current
        do { try TerminalScreen.checkIsTerminal() } catch { throw CommandError(error, environment: environment) }
        let language = lang ?? Language.fromLocale(environment: environment)
        let directory = data.directory
        let playerName = player ?? DataDirectory.defaultPlayerName(environment: environment)
        if let servers = server.urls(environment: environment) {
            return try playOnServer(servers, directory: directory, playerName: playerName, language: language, environment: environment, context: context)
        }
        // Taken before the catalog is read, so that an import in between is noticed at once.
        let catalogStamp = FileSystem.live.stamp(CatalogFile.importedCatalogPath(inDataDirectory: directory))
        let catalog = try loadCatalog(dataDirectory: directory, output: context.output)
        let startingSchool = try startingPosition(in: catalog)
        var notices: [Notice] = []
        do {
            try DataDirectory.prepare(directory)
        } catch {
            notices.append(.message(error.message)) // the game still runs; each save will say why it fails
        }
        var playerLock: HeldLock?
        switch PlayerLock.claim(player: playerName, dataDirectory: directory) {
        case let .held(lock): playerLock = lock
        case .taken:
            throw CommandError(CommandText.alreadyPlaying(playerName, in: directory))
        case .unavailable: break // a directory where nothing is written: nothing to mix
        }
        defer { playerLock?.release() }
        let store = StateStore(directory: directory)
        // Reading never waits for a lock or writes; the first save repairs what needs it.
        let (saved, problems) = try store.read()
        notices += problems.map(Notice.stateProblem)
        let lastServers = LastServerFile.read(dataDirectory: directory)
        if !lastServers.isEmpty { notices.append(.playingLocally(lastServers: lastServers.map(VisibleText.escaping))) }
        let battle = LocalBattle(store: store, player: playerName, catalog: catalog, catalogStamp: catalogStamp)
        try play(catalog: catalog, saved: saved, battle: battle, connection: nil, server: nil, notices: notices, startingSchool: startingSchool,
                 playerName: playerName, language: language, environment: environment)
    }

    /// `touchschool play --server URL`: the same game, on a server's battle. The data directory's
    /// own scores are not touched: what is kept for the server (its catalog, the last board seen,
    /// the outbox of taps not yet acknowledged) lives in `servers/<host>_<port>/`.
    private func playOnServer(_ servers: ServerURLs, directory: String, playerName: String, language: Language,
                              environment: [String: String], context: CommandContext) throws {
        let join = { try context.network.joinServer(servers, dataDirectory: directory, player: playerName) }
        var screen: TerminalScreen?
        let game: ServerGame
        do {
            game = try join()
        } catch let notAnswering as ServerNotAnswering {
            // The terminal opens now, for the waiting screen, and stays open for the game.
            ExitSignals.install()
            let opened = try TerminalScreen.open(colors: (environment["NO_COLOR"] ?? "").isEmpty, mouse: !noMouse, environment: environment)
            screen = opened
            guard let joined = try ServerWaiting(screen: opened, language: language).wait(for: notAnswering, join: join) else {
                opened.restore()
                return
            }
            game = joined
        }
        defer { game.leave() }
        let startingSchool = try startingPosition(in: game.catalog)
        let saved = game.connect()
        try play(catalog: game.catalog, saved: saved, battle: game.battle,
                 connection: .connecting(waitingTaps: game.waitingTaps()), server: game.server, notices: game.notices,
                 startingSchool: startingSchool,
                 playerName: playerName, language: language, environment: environment, screen: screen)
        let waiting = game.waitingTaps()
        if waiting > 0 { context.output.writeError("touchschool: \(game.waitingTapsNotice(waiting))\n") }
    }

    /// The game on the terminal until the player quits; an error if taps could not be saved.
    private func play(catalog: Catalog, saved: SavedState, battle: any BattleConnection, connection: ConnectionStatus?, server: String?,
                      notices: [Notice], startingSchool: Int?, playerName: String, language: Language,
                      environment: [String: String], screen opened: TerminalScreen? = nil) throws {
        ExitSignals.install()
        let screen = try opened ?? TerminalScreen.open(
            colors: (environment["NO_COLOR"] ?? "").isEmpty, mouse: !noMouse, environment: environment
        )
        defer { screen.restore() }
        let size = screen.size
        var state = GameState(
            catalog: catalog, saved: saved, player: playerName,
            language: language, now: MonotonicClock.now(), columns: size.columns, rows: size.rows,
            seed: UInt64(truncatingIfNeeded: MonotonicClock.now().nanoseconds), bellEnabled: !quiet,
            notices: notices, startingSchool: startingSchool
        )
        state.connection = connection
        state.server = server
        var runner = GameRunner(screen: screen, battle: battle, state: state)
        runner.run()
        screen.restore()
        let unsaved = runner.state.unsavedChanges
        if !unsaved.isEmpty {
            let reason = runner.lastSaveFinished ? runner.state.saveFailure ?? CommandText.unknownReason : CommandText.lastSaveUnfinished
            throw CommandError(CommandText.tapsNotSaved(unsaved.playerTaps, reason: reason))
        }
    }

    /// The catalog position of `--school`, if given.
    func startingPosition(in catalog: Catalog) throws -> Int? {
        guard let school else { return nil }
        guard let position = catalog.position(ofID: school) else {
            throw CommandError(CommandText.noSchoolWithID(quoted(school)))
        }
        return position
    }
}
