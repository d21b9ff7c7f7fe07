/// A key as the game understands it. The terminal adapter decodes raw input into these.
public enum Key: Equatable, Hashable, Sendable {
    /// A printable character, Hangul included (one character, not its bytes).
    case character(Character)
    case enter, tab, escape, backspace
    case up, down, left, right, pageUp, pageDown, home, end
    /// F1: help.
    case help
    /// F2: choose another school.
    case chooseSchool
    /// Ctrl-C.
    case interrupt
}

/// Everything that can happen to a game.
public enum GameEvent: Equatable, Sendable {
    case key(Key)
    /// A mouse click on a cell.
    case click(column: Int, row: Int)
    /// Text the terminal marked as pasted (bracketed paste): never taps.
    case paste(String)
    case resize(columns: Int, rows: Int)
    /// Time passes: fades puffs, refreshes the ranking baseline, asks for a sync when due.
    case tick
    /// SIGTERM, SIGHUP or SIGPIPE: save and quit.
    case terminate
    /// The store saved the changes of the last `.sync` and answers with the battle as it now is
    /// (everyone's taps); nil when nothing changed anywhere since the previous answer.
    case synced(SyncedBoard?)
    /// Saving failed; the changes come back so nothing is lost, and the reason is shown.
    case syncFailed(PendingChanges, reason: String)
    /// Another catalog is in use now (an import while the game runs), prepared off the game loop.
    case catalogReplaced(CatalogReplacement)
    /// Something the player must be told about the saved state (a file set aside, values reset).
    case stateProblems([StateProblem])
    /// Playing on a server: how the connection stands now.
    case connectionChanged(ConnectionStatus)
    /// Playing on a server: others' taps changed the battle. The next sync is asked for now
    /// rather than at the half second, so that the screen shows them as soon as they come.
    case battleChanged
    /// Playing on a server: it judged this many of the taps handed over beyond what a human makes
    /// and did not count them (the server's side of the tap guard).
    case tapsRefusedByServer(UInt64)
    /// Playing on a server: the operator banned this device, and the server counted none of this
    /// many taps for that (not for their speed).
    case tapsRefusedByOperator(UInt64)
    /// Playing on a server (protocol 2): a view of my school or the page watched, by position in
    /// the catalog of that generation (`GameState.catalogGeneration`).
    case viewed(BoardView, catalogGeneration: Int)
    /// Playing on a server: the operator's round, as it is or as it changed.
    case roundTold(RoundNews)
    /// Playing on a server: my place in the round, when it changed.
    case roundPlaceTold(RoundStanding)
    /// Playing on a server, while the game shows the map: what the server tells of it, in the
    /// grid of the catalog of that generation (`GameState.catalogGeneration`).
    case mapReported(MapReport, catalogGeneration: Int)
    /// Playing on a server: the season its views and pages are of while the game ranks by the
    /// season (nil: the battle has none, and every rank is all time's); after the welcome, and
    /// again when the season turns.
    case seasonTold(Season?)
}

/// How a game playing on a server is connected to it. The game plays on whatever this is: taps
/// wait in a durable outbox until the server has them.
public enum ConnectionStatus: Equatable, Sendable {
    /// Connected and greeted: taps reach the server within a second.
    case online
    /// Trying to connect (the first time, or again after a drop); `waitingTaps` not yet sent.
    case connecting(waitingTaps: UInt64)
    /// The server cannot be reached; retrying. `waitingTaps` are kept and sent when it is back.
    case offline(waitingTaps: UInt64)
    /// What answers at the address is no TouchSchool server, for a mistake the player can fix
    /// (`.plainHTTP`: `https://` for the plain-HTTP server; `.sshServer`: the SSH port): retrying
    /// changes nothing, so the status names it. The taps wait, as offline.
    case wrongAddress(ServerFailure, waitingTaps: UInt64)
    /// The server speaks a protocol version this game does not: the game plays on offline, and
    /// the taps wait for a game that speaks it.
    case unsupportedProtocol(waitingTaps: UInt64)
    /// The server refuses this game for now (`ServerRefusal`): the taps wait, and the game tries
    /// again as when offline.
    case refused(ServerRefusal, waitingTaps: UInt64)
    /// The server's welcome renumbered the waiting taps and the renumbered outbox cannot be
    /// saved: nothing is sent until it can be (sending it unsaved could count it twice after a
    /// crash). Tried again at every reconnection.
    case cannotSaveOutbox(waitingTaps: UInt64)
    /// The address now serves another battle than the one this game plays: nothing is sent there;
    /// the taps wait for their own battle.
    case otherBattle(waitingTaps: UInt64)
}

/// What `update` asks the outside world to do.
public enum GameCommand: Equatable, Sendable {
    case bell
    /// Save these changes and answer with `.synced` or `.syncFailed`.
    case sync(PendingChanges)
    /// Playing on a server: send the rows of this page of a league, as they change, instead of
    /// those asked for before; nil: no page (the ranking screen closed).
    case watch(PageWatch?)
    /// Playing on a server: send the map's glow (`.mapReported`) from now, or no longer. Comes
    /// after a `.watch` of the same turn: the server takes a watch to mean the map is not shown.
    case showMap(Bool)
    /// Playing on a server: rank my school's view and the page watched by this period from now
    /// (sent with the next `watch`, which carries both). Comes before a `.watch` of the same turn.
    case rankBy(RankingPeriod)
    case quit
}

/// The battle as the store holds it after a save, by position in one catalog: what a game shows,
/// computed where the save happened, so that the game loop only compares numbers.
public struct SyncedBoard: Equatable, Sendable {
    /// Which catalog the positions refer to (`GameState.catalogGeneration`).
    public var catalogGeneration: Int
    /// Every school's total, by catalog position.
    public var counts: [UInt64]
    /// The player's record as saved, nil when the store has none.
    public var player: PlayerRecord?

    public init(catalogGeneration: Int, counts: [UInt64], player: PlayerRecord?) {
        self.catalogGeneration = catalogGeneration
        self.counts = counts
        self.player = player
    }

    /// The board of `saved` for the player `player`, in `catalog`.
    public init(_ saved: SavedState, catalog: Catalog, generation: Int, player: String) {
        self.init(catalogGeneration: generation, counts: saved.counts(in: catalog), player: saved.players[player])
    }
}

/// A new catalog with what a game needs of it, built off the game loop (twelve thousand schools
/// take tens of milliseconds to index and rank).
public struct CatalogReplacement: Equatable, Sendable {
    public var generation: Int
    public var catalog: Catalog
    public var search: SchoolSearch
    /// Ranked with the saved totals; the game adds what it has not saved yet.
    public var leaderboard: Leaderboard

    public init(generation: Int, catalog: Catalog, saved: SavedState) {
        self.generation = generation
        self.catalog = catalog
        self.search = SchoolSearch(catalog: catalog)
        self.leaderboard = Leaderboard(catalog: catalog, counts: saved.counts(in: catalog))
    }

    public static func == (lhs: CatalogReplacement, rhs: CatalogReplacement) -> Bool {
        lhs.generation == rhs.generation && lhs.catalog.schools == rhs.catalog.schools
    }
}

/// Something shown to the player in a box until a key is pressed.
public enum Notice: Equatable, Sendable {
    case stateProblem(StateProblem)
    /// A message already in words (a data directory that cannot be created).
    case message(String)
    /// The game plays on this computer only, and a game from this data directory joined these
    /// servers before: a student who forgot `--server` is shown how to join them again.
    case playingLocally(lastServers: [String])
    /// A game over SSH without a key (any password let the player in): its school and own count
    /// last as long as the session; OpenSSH's password prompt could not say so.
    case sessionWithoutKey
}
