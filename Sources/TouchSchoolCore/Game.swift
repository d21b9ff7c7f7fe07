/// The language the UI speaks.
public enum Language: String, CaseIterable, Sendable {
    case korean = "ko"
    case english = "en"

    /// Korean when the locale says so (`LC_ALL`, then `LC_MESSAGES`, then `LANG`), else English.
    public static func fromLocale(environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                return value.lowercased().hasPrefix("ko") ? .korean : .english
            }
        }
        return .english
    }
}

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
    /// Time passes: fades effects, refreshes the ranking baseline, asks for a sync when due.
    case tick
    /// SIGTERM or SIGHUP: save and quit.
    case terminate
    /// The store merged our changes; this is the shared state now (everyone's taps).
    case synced(SavedState)
    /// Saving failed; the changes come back so nothing is lost, and the reason is shown.
    case syncFailed(PendingChanges, reason: String)
}

/// What `update` asks the outside world to do.
public enum GameCommand: Equatable, Sendable {
    case bell
    /// Add these changes to the state file and answer with `.synced` or `.syncFailed`.
    case sync(PendingChanges)
    case quit
}

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
    public var selection: Int = 0
    /// First result shown, so the selection stays visible.
    public var scroll: Int = 0

    public init() {}
}

/// The full ranking screen.
public struct RankingState: Equatable, Sendable {
    public var league: League = .national
    /// The first place shown.
    public var scroll: Int = 0

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
    /// "A moment ago" for rank movement arrows.
    public static let movementBaselineNanoseconds: Int64 = 10_000_000_000
    /// How long the burst warning stays up after the last refused tap.
    public static let warningNanoseconds: Int64 = 2_000_000_000
    /// How many search results the picker keeps: more than any screen shows.
    public static let pickerResultLimit = 100
}

/// The one state value of a running game.
public struct GameState: Sendable {
    public var catalog: Catalog
    public var search: SchoolSearch
    public var leaderboard: Leaderboard
    public var counter: TapCounter
    public var effects: EffectRing
    public var tapGuard: TapGuard
    public var random: RandomSource
    public var language: Language
    /// Ring the bell on a refused burst (`--quiet` turns it off).
    public var bellEnabled: Bool
    public var player: String
    /// Catalog position of my school, once chosen.
    public var mySchool: Int?

    public var screen: Screen
    /// Screens to go back to with Esc; empty means Esc quits.
    public var history: [Screen] = []
    public var picker = PickerState()
    public var ranking = RankingState()
    public var layout: GameLayout

    public var warning: TapWarning?
    /// Why scores are not being saved right now, if they aren't.
    public var saveFailure: String?
    /// Messages from loading (a state file set aside, values reset), shown until a key is pressed.
    public var notices: [String]

    /// Taps not yet in the state file, by catalog position.
    public private(set) var pendingScores: [Int: UInt64] = [:]
    public private(set) var pendingPlayerTaps: UInt64 = 0
    public private(set) var pendingSwitch: String?
    public private(set) var lastSyncRequest: Instant
    public private(set) var lastMovementBaseline: Instant
    public private(set) var isQuitting = false

    public init(
        catalog: Catalog, saved: SavedState, player: String, language: Language, now: Instant,
        columns: Int, rows: Int, seed: UInt64, bellEnabled: Bool = true, notices: [String] = [],
        startingSchool: Int? = nil
    ) {
        self.catalog = catalog
        self.search = SchoolSearch(catalog: catalog)
        var counts = [UInt64](repeating: 0, count: catalog.count)
        for (id, count) in saved.scores {
            if let position = catalog.position(ofID: id) { counts[position] = counts[position].addingSaturating(count) }
        }
        self.leaderboard = Leaderboard(catalog: catalog, counts: counts)
        let record = saved.players[player] ?? PlayerRecord()
        self.counter = TapCounter(myTaps: record.taps, bestTapsPerSecond: record.bestTapsPerSecond)
        self.effects = EffectRing()
        self.tapGuard = TapGuard()
        self.random = RandomSource(seed: seed)
        self.language = language
        self.bellEnabled = bellEnabled
        self.player = player
        self.mySchool = record.schoolID.flatMap { catalog.position(ofID: $0) }
        self.layout = GameLayout(columns: columns, rows: rows)
        self.notices = notices
        self.lastSyncRequest = now
        self.lastMovementBaseline = now
        self.screen = mySchool == nil ? .picker : .game
        leaderboard.markMovementBaseline()
        if let startingSchool, startingSchool != mySchool { choose(school: startingSchool) }
    }

    /// The changes a sync must carry.
    public var pendingChanges: PendingChanges {
        var deltas: [String: UInt64] = [:]
        for (position, taps) in pendingScores { deltas[catalog[position].id] = taps }
        return PendingChanges(
            player: player, scoreDeltas: deltas, playerTaps: pendingPlayerTaps,
            bestTapsPerSecond: counter.bestTapsPerSecond, switchedToSchool: pendingSwitch
        )
    }

    /// Whether anything moves on screen, so the front end knows it may sleep.
    public func isAnimating(at now: Instant) -> Bool {
        effects.hasVisibleEffects(at: now) || warning != nil
    }
}

extension UInt64 {
    func addingSaturating(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}

/// The rules of the game: the only way the state changes.
public func update(_ state: inout GameState, _ event: GameEvent, now: Instant) -> [GameCommand] {
    state.handle(event, now: now)
}

extension GameState {
    mutating func handle(_ event: GameEvent, now: Instant) -> [GameCommand] {
        switch event {
        case let .key(key):
            if !notices.isEmpty, key != .interrupt {
                notices.removeAll()
                return []
            }
            return handle(key, now: now)
        case let .click(column, row):
            guard screen == .game, let mySchool, layout.playArea.contains(column: column, row: row) else { return [] }
            let area = layout.playArea
            let x = (Float(column - area.x) + 0.5) / Float(max(1, area.width))
            let y = (Float(row - area.y) + 0.5) / Float(max(1, area.height))
            return tap(key: Self.mouseKey, at: (x, y), school: mySchool, now: now)
        case .paste:
            guard screen == .game else { return [] }
            return refuse(.paste, now: now)
        case let .resize(columns, rows):
            layout = GameLayout(columns: columns, rows: rows)
            keepPickerSelectionVisible()
            return []
        case .tick:
            return tick(now: now)
        case .terminate:
            return quit(now: now)
        case let .synced(saved):
            apply(saved)
            saveFailure = nil
            return []
        case let .syncFailed(changes, reason):
            restore(changes)
            saveFailure = reason
            return []
        }
    }

    /// The mouse button counts as one more key for the tap guard.
    static let mouseKey: UInt32 = 0x11_0000

    private mutating func handle(_ key: Key, now: Instant) -> [GameCommand] {
        switch key {
        case .interrupt: return quit(now: now)
        case .help:
            if screen != .help { push(.help) }
            return []
        case .chooseSchool:
            if screen != .picker { push(.picker); resetPicker() }
            return []
        case .escape:
            return back(now: now)
        default:
            break
        }
        switch screen {
        case .picker: return pickerKey(key)
        case let .confirmSwitch(position): return confirmKey(key, position: position)
        case .game: return gameKey(key, now: now)
        case .ranking: return rankingKey(key)
        case .help, .about:
            if key == .tab { screen = screen == .help ? .about : .help }
            return []
        }
    }

    private mutating func push(_ next: Screen) {
        history.append(screen)
        screen = next
    }

    private mutating func back(now: Instant) -> [GameCommand] {
        guard let previous = history.popLast() else { return quit(now: now) }
        screen = previous
        return []
    }

    private mutating func quit(now: Instant) -> [GameCommand] {
        isQuitting = true
        var commands: [GameCommand] = []
        let changes = pendingChanges
        if !changes.isEmpty {
            commands.append(.sync(changes))
            clearPending()
            lastSyncRequest = now
        }
        commands.append(.quit)
        return commands
    }

    // MARK: Choosing a school

    private mutating func resetPicker() {
        picker = PickerState()
    }

    private mutating func pickerKey(_ key: Key) -> [GameCommand] {
        switch key {
        case let .character(character):
            picker.query.append(character)
            runSearch()
        case .backspace:
            if !picker.query.isEmpty { picker.query.removeLast() }
            runSearch()
        case .up:
            picker.selection = max(0, picker.selection - 1)
        case .down:
            picker.selection = min(max(0, picker.results.count - 1), picker.selection + 1)
        case .pageUp:
            picker.selection = max(0, picker.selection - max(1, layout.pickerResults.height))
        case .pageDown:
            picker.selection = min(max(0, picker.results.count - 1), picker.selection + max(1, layout.pickerResults.height))
        case .home:
            picker.selection = 0
        case .end:
            picker.selection = max(0, picker.results.count - 1)
        case .enter:
            guard picker.selection < picker.results.count else { return [] }
            let position = picker.results[picker.selection].position
            if let mySchool, mySchool != position, counter.myTaps > 0 {
                screen = .confirmSwitch(position)
            } else {
                choose(school: position)
            }
        default:
            break
        }
        keepPickerSelectionVisible()
        return []
    }

    private mutating func runSearch() {
        picker.results = search.search(SearchQuery(text: picker.query, limit: GameTiming.pickerResultLimit))
        picker.selection = 0
        picker.scroll = 0
    }

    private mutating func keepPickerSelectionVisible() {
        let visible = max(1, layout.pickerResults.height)
        if picker.selection < picker.scroll { picker.scroll = picker.selection }
        if picker.selection >= picker.scroll + visible { picker.scroll = picker.selection - visible + 1 }
    }

    private mutating func confirmKey(_ key: Key, position: Int) -> [GameCommand] {
        switch key {
        case .enter, .character("y"), .character("Y"), .character("예"), .character("네"):
            choose(school: position)
        case .character("n"), .character("N"), .character("아"):
            screen = .picker
        default:
            break
        }
        return []
    }

    /// Makes `position` my school. My personal count restarts from 0 (as in the original); the old
    /// school keeps every tap it got.
    mutating func choose(school position: Int) {
        if mySchool != position {
            if mySchool != nil { counter.restartMyCount() }
            pendingPlayerTaps = 0
            pendingSwitch = catalog[position].id
            mySchool = position
        }
        history.removeAll()
        screen = .game
        ranking = RankingState()
    }

    // MARK: Playing

    private mutating func gameKey(_ key: Key, now: Instant) -> [GameCommand] {
        switch key {
        case let .character(character):
            guard let mySchool else { return [] }
            let landing = KeyboardLayout.position(of: character) ?? (Float.random(in: 0...1, using: &random), Float.random(in: 0...1, using: &random))
            return tap(key: character.unicodeScalars.first!.value, at: landing, school: mySchool, now: now)
        case .tab:
            screen = .ranking
            followMySchool()
        default:
            break
        }
        return []
    }

    private mutating func tap(key: UInt32, at landing: (x: Float, y: Float), school: Int, now: Instant) -> [GameCommand] {
        switch tapGuard.judge(key: key, at: now) {
        case .counted:
            counter.record(at: now)
            leaderboard.add(1, to: school)
            pendingScores[school, default: 0] = pendingScores[school, default: 0].addingSaturating(1)
            pendingPlayerTaps = pendingPlayerTaps.addingSaturating(1)
            // A little scatter, so that mashing one key still looks like smoke, not a stamp.
            let jitterX = Float.random(in: -0.03...0.03, using: &random)
            let jitterY = Float.random(in: -0.08...0.08, using: &random)
            effects.add(Effect(
                x: min(1, max(0, landing.x + jitterX)), y: min(1, max(0, landing.y + jitterY)), born: now,
                variant: UInt8.random(in: 0..<4, using: &random), angle: UInt8.random(in: 0..<8, using: &random)
            ))
            return []
        case let .refused(reason):
            return refuse(reason, now: now)
        }
    }

    private mutating func refuse(_ reason: TapRefusal, now: Instant) -> [GameCommand] {
        let isNewBurst = warning == nil
        if var current = warning {
            current.reason = reason
            current.since = now
            current.refusedTaps = current.refusedTaps.addingSaturating(1)
            warning = current
        } else {
            warning = TapWarning(reason: reason, since: now, refusedTaps: 1)
        }
        return isNewBurst && bellEnabled ? [.bell] : []
    }

    // MARK: Ranking

    private mutating func rankingKey(_ key: Key) -> [GameCommand] {
        let size = leaderboard.size(of: ranking.league)
        let page = max(1, layout.rankingList.height)
        let lastTop = max(0, size - page)
        switch key {
        case .tab: screen = .game
        case .up: ranking.scroll = max(0, ranking.scroll - 1)
        case .down: ranking.scroll = min(lastTop, ranking.scroll + 1)
        case .pageUp: ranking.scroll = max(0, ranking.scroll - page)
        case .pageDown: ranking.scroll = min(lastTop, ranking.scroll + page)
        case .home: ranking.scroll = 0
        case .end: ranking.scroll = lastTop
        case .enter, .character("m"), .character("M"), .character("ㅡ"): followMySchool()
        case .right: switchLeague(by: 1)
        case .left: switchLeague(by: -1)
        default: break
        }
        return []
    }

    /// National, my level, my province, my level in my province: the leagues that matter to me.
    public var leagues: [League] {
        guard let mySchool else { return [.national] }
        let school = catalog[mySchool]
        return [.national, .level(school.level), .province(school.province), .levelInProvince(school.level, school.province)]
    }

    private mutating func switchLeague(by step: Int) {
        let all = leagues
        let current = all.firstIndex(of: ranking.league) ?? 0
        ranking.league = all[(current + step + all.count) % all.count]
        followMySchool()
    }

    private mutating func followMySchool() {
        guard let mySchool, ranking.league.contains(catalog[mySchool]) else {
            ranking.scroll = 0
            return
        }
        let page = max(1, layout.rankingList.height)
        let place = leaderboard.place(of: mySchool, in: ranking.league)
        let size = leaderboard.size(of: ranking.league)
        ranking.scroll = max(0, min(place - page / 2, size - page))
    }

    // MARK: Time and the store

    private mutating func tick(now: Instant) -> [GameCommand] {
        if let current = warning, now.nanoseconds(since: current.since) >= GameTiming.warningNanoseconds {
            warning = nil
        }
        if now.nanoseconds(since: lastMovementBaseline) >= GameTiming.movementBaselineNanoseconds {
            leaderboard.markMovementBaseline()
            lastMovementBaseline = now
        }
        guard now.nanoseconds(since: lastSyncRequest) >= GameTiming.syncIntervalNanoseconds else { return [] }
        lastSyncRequest = now
        let changes = pendingChanges
        clearPending()
        return [.sync(changes)]
    }

    private mutating func clearPending() {
        pendingScores.removeAll(keepingCapacity: true)
        pendingPlayerTaps = 0
        pendingSwitch = nil
    }

    /// Puts back changes whose sync failed, so that the next sync carries them.
    private mutating func restore(_ changes: PendingChanges) {
        for (id, taps) in changes.scoreDeltas {
            guard let position = catalog.position(ofID: id) else { continue }
            pendingScores[position] = pendingScores[position, default: 0].addingSaturating(taps)
        }
        pendingPlayerTaps = pendingPlayerTaps.addingSaturating(changes.playerTaps)
        if pendingSwitch == nil { pendingSwitch = changes.switchedToSchool }
    }

    /// Takes the shared totals as truth, plus whatever was tapped here since the sync was asked for.
    private mutating func apply(_ saved: SavedState) {
        for (id, count) in saved.scores {
            guard let position = catalog.position(ofID: id) else { continue }
            let total = count.addingSaturating(pendingScores[position] ?? 0)
            if leaderboard.count(of: position) != total { leaderboard.setCount(total, of: position) }
        }
    }
}
