public enum Screen: Equatable, Sendable {
    case picker
    /// Asking whether to switch to the school at this catalog position.
    case confirmSwitch(Int)
    case game
    case ranking
    case help
    case about
}

/// The school search screen.
public struct PickerState: Equatable, Sendable {
    public var query: String = ""
    public var results: [SearchHit] = []
    /// The query found nothing and `results` are the names closest to it (a typo's guesses).
    public var resultsAreGuesses = false
    /// The search stopped at its limit: more schools match than `results` holds (said as "more
    /// than N", never as an exact count).
    public var moreResults = false
    public var selection: Int = 0
    /// First result shown, so the selection stays visible.
    public var scroll: Int = 0

    public init() {}
}

/// The ranking screen's two faces: the table of places, and the map of the schools.
public enum RankingTab: Equatable, Sendable {
    case table, map
}

/// The full ranking screen.
public struct RankingState: Equatable, Sendable {
    public var league: League = .national
    /// The first place shown.
    public var scroll: Int = 0
    public var tab: RankingTab = .table

    public init() {}
}

/// A refused burst being shown to the player.
public struct TapWarning: Equatable, Sendable {
    public var reason: TapRefusal
    public var since: Instant
    public var refusedTaps: UInt64
}

/// Timings of the game loop, each with the reason for its value.
public enum GameTiming {
    /// The promise: a tap reaches the file within one second, and others' taps show up within one.
    public static let syncIntervalNanoseconds: Int64 = 500_000_000
    /// Playing on a server, a tap is handed over at once when none was in this long, and the
    /// taps made within it when it ends: the other players see a tap after a pause as fast as the
    /// wire allows (a key in one terminal on another's screen within half a second), while a
    /// player mashing makes at most four batches a second, each kept in the outbox before it is
    /// sent. Four acknowledgements of ~100 bytes a second beside four views of ~315 keep a player
    /// under 2 KiB/s; ten (every 0.1 s, as before) made ~2.2 KiB/s (issue 25). The page's rule
    /// too (`SEAL_ONLINE_MS`).
    public static let serverSyncIntervalNanoseconds: Int64 = 250_000_000
    /// "A moment ago" for rank movement arrows.
    public static let movementBaselineNanoseconds: Int64 = 10_000_000_000
    /// A save unanswered this long is shown as delayed: four times the usual interval.
    public static let saveDelayedNanoseconds: Int64 = 2_000_000_000
    /// How long the burst warning stays up after the last refused tap.
    public static let warningNanoseconds: Int64 = 2_000_000_000
    /// How many search results the picker keeps: more than any screen shows.
    public static let pickerResultLimit = 100
    /// How many guesses the picker offers for a query that found nothing: the few closest, enough
    /// for same-named schools (금성초등학교) to come up together.
    public static let pickerGuessLimit = 5
    /// The longest search the picker takes: longer than any school's name with its region, short
    /// enough that a pasted novel costs a few searches, not one per character.
    public static let pickerQueryLimit = 40
}

/// The one state value of a running game.
public struct GameState: Sendable {
    public internal(set) var catalog: Catalog
    /// Which catalog this is: 0 for the one the game started with, then as the store numbers
    /// the catalogs it replaces it with.
    public internal(set) var catalogGeneration = 0
    public internal(set) var search: SchoolSearch
    public var leaderboard: Leaderboard
    public var counter: TapCounter
    public var puffs: PuffRing
    public var tapGuard: TapGuard
    public var random: RandomSource
    public var language: Language
    /// Ring the bell on a refused burst (`--quiet` turns it off).
    public var bellEnabled: Bool
    public var player: String
    /// Catalog position of my school, once chosen.
    public var mySchool: Int?

    public var screen: Screen
    /// Screens to go back to with Esc; empty means Esc asks whether to quit.
    public var history: [Screen] = []
    public var picker = PickerState()
    public var ranking = RankingState()
    public var layout: GameLayout

    public var warning: TapWarning?
    /// Why scores are not being saved right now, if they aren't.
    public var saveFailure: String?
    /// Shown until a key is pressed: problems met with the saved state, and the like.
    public var notices: [Notice]
    /// Playing on a server: how the connection stands (nil: the local battle).
    public var connection: ConnectionStatus?
    /// Playing on a server: the views it sent (`isOnServer`).
    public internal(set) var served = ServedViews()
    /// Playing on a server: the operator's round last told (nil: none).
    public internal(set) var round: RoundOnScreen?
    /// Playing on a server: the page asked for last, nil for none.
    public internal(set) var watchedPage: PageWatch?
    /// Playing on a server: which one, as the player gave it (host:port), to show where taps go.
    public var server: String?
    /// Playing on a server: the season it ranks by (nil: none runs, every rank is all time's).
    public internal(set) var season: Season?
    /// Which numbers the views and pages asked for carry: the season's (the default, as the
    /// server's) or all time's (`a` on the ranking). Only ever `.allTime` while a season runs.
    public internal(set) var period: RankingPeriod = .season

    /// The taps of the last few seconds, by school: what the map glows with.
    public internal(set) var recentTaps = RecentTaps()
    /// The catalog's schools placed on a map: made when the map is first shown, again after the
    /// catalog changed (`refreshMap`).
    public internal(set) var schoolMap: SchoolMap?
    /// The map drawn for the terminal's size and the league shown (`refreshMap`).
    public internal(set) var mapCanvas: MapCanvas?
    /// Playing on a server: the map's glow as the server tells it, on the catalog's grid made
    /// when the map first shows (`refreshMap`), again after the catalog changed.
    public internal(set) var servedMap: ServedMap?
    /// Where the grid's cells are on `mapCanvas`, made with it.
    public internal(set) var gridOnCanvas: GridOnCanvas?
    /// Playing on a server: whether the server was asked for the map last (`.showMap`).
    public internal(set) var mapAsked = false

    /// Taps not yet handed to the store, by catalog position.
    public internal(set) var pendingScores: [Int: UInt64] = [:]
    /// Taps not yet handed to the store for schools the current catalog does not have (kept
    /// through a catalog replacement that dropped them; the store keeps every id).
    public internal(set) var pendingScoresByID: [String: UInt64] = [:]
    public internal(set) var pendingPlayerTaps: UInt64 = 0
    /// When the first tap pending was made.
    var pendingFirstTapAt: Instant?
    public internal(set) var pendingSwitch: String?
    /// Changes handed to the store and not yet answered: at most one save at a time, so that an
    /// answer always covers everything handed over before it.
    public internal(set) var syncInFlight: PendingChanges?
    public internal(set) var lastSyncRequest: Instant
    /// When taps were last handed to the store (`serverSyncIntervalNanoseconds`).
    public internal(set) var lastHandOver: Instant
    public internal(set) var lastMovementBaseline: Instant
    public internal(set) var isQuitting = false
    /// Esc was pressed with no screen to go back to: the next key answers whether to quit.
    public internal(set) var isAskingToQuit = false

    public init(
        catalog: Catalog, saved: SavedState, player: String, language: Language, now: Instant,
        columns: Int, rows: Int, seed: UInt64, bellEnabled: Bool = true, notices: [Notice] = [],
        startingSchool: Int? = nil
    ) {
        self.catalog = catalog
        self.search = SchoolSearch(catalog: catalog)
        self.leaderboard = Leaderboard(catalog: catalog, counts: saved.counts(in: catalog))
        let record = saved.players[player] ?? PlayerRecord()
        self.counter = TapCounter(myTaps: record.taps, bestTapsPerSecond: record.bestTapsPerSecond)
        self.puffs = PuffRing()
        self.tapGuard = TapGuard()
        self.random = RandomSource(seed: seed)
        self.language = language
        self.bellEnabled = bellEnabled
        self.player = player
        self.mySchool = record.schoolID.flatMap { catalog.position(ofID: $0) }
        self.layout = GameLayout(columns: columns, rows: rows)
        self.notices = notices
        // The first tick syncs at once: it repairs the file if it needs it and shows others' taps.
        self.lastSyncRequest = Instant(nanoseconds: now.nanoseconds &- GameTiming.syncIntervalNanoseconds)
        self.lastHandOver = Instant(nanoseconds: now.nanoseconds &- GameTiming.serverSyncIntervalNanoseconds)
        self.lastMovementBaseline = now
        self.screen = mySchool == nil ? .picker : .game
        leaderboard.markMovementBaseline()
        if let startingSchool, startingSchool != mySchool { choose(school: startingSchool) }
    }

    /// The changes the next sync must carry.
    public var pendingChanges: PendingChanges {
        var deltas = pendingScoresByID
        for (position, taps) in pendingScores { deltas[catalog[position].id] = taps }
        return PendingChanges(
            player: player, scoreDeltas: deltas, playerTaps: pendingPlayerTaps,
            bestTapsPerSecond: counter.bestTapsPerSecond, switchedToSchool: pendingSwitch, firstTapAt: pendingFirstTapAt
        )
    }

    /// Changes not yet saved: in flight and pending.
    public var unsavedChanges: PendingChanges {
        syncInFlight.map { $0.merged(with: pendingChanges) } ?? pendingChanges
    }

    /// Whether the save handed over has gone unanswered for long (a stuck lock, a slow disk).
    public func isSaveDelayed(at now: Instant) -> Bool {
        syncInFlight != nil && now.nanoseconds(since: lastSyncRequest) >= GameTiming.saveDelayedNanoseconds
    }

    /// The period the ranks shown are of, when a season runs (screens name it); nil when none
    /// does: every rank is all time's, and screens look as they did before seasons.
    public var shownPeriod: RankingPeriod? { season == nil ? nil : period }

    /// Whether anything moves on screen, so the front end knows it may sleep.
    public func isAnimating(at now: Instant) -> Bool {
        puffs.hasVisiblePuffs(at: now) || warning != nil
    }
}
