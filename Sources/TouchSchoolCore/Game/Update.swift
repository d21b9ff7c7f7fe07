/// The rules of the game: the only way the state changes.
public func update(_ state: inout GameState, _ event: GameEvent, now: Instant) -> [GameCommand] {
    state.handle(event, now: now)
}

extension GameState {
    mutating func handle(_ event: GameEvent, now: Instant) -> [GameCommand] {
        var commands = handleEvent(event, now: now)
        refreshMap()
        // Whatever moved the ranking screen (a key, a resize, a switch of school): the server is
        // asked for the page it now shows, once; then for the map, or no longer (after the
        // watch: the server takes any watch to mean the map is not shown).
        if wantedPage != watchedPage {
            watchedPage = wantedPage
            commands.append(.watch(watchedPage))
        }
        if wantsMap != mapAsked {
            mapAsked = wantsMap
            if !mapAsked { servedMap?.forgetGlow() }
            commands.append(.showMap(mapAsked))
        }
        return commands
    }

    private mutating func handleEvent(_ event: GameEvent, now: Instant) -> [GameCommand] {
        switch event {
        case let .key(key):
            // Any key closes the notices and is used up by it, but for the keys that leave: Esc
            // goes on to mean Esc (the footer beneath says what it does: on the first screen Esc,
            // Esc quits, notice or not), Ctrl-C to quit.
            if !notices.isEmpty {
                notices.removeAll()
                if key != .interrupt, key != .escape { return [] }
            }
            return handle(key, now: now)
        case let .click(column, row):
            guard screen == .game, let mySchool, layout.playArea.contains(column: column, row: row) else { return [] }
            let area = layout.playArea
            let x = (Float(column - area.x) + 0.5) / Float(max(1, area.width))
            let y = (Float(row - area.y) + 0.5) / Float(max(1, area.height))
            return tap(key: Self.mouseKey, at: (x, y), school: mySchool, now: now)
        case let .paste(text):
            switch screen {
            case .game: return refuse(.paste, now: now)
            case .picker: typeIntoSearch(text)
            default: break
            }
            return []
        case let .resize(columns, rows):
            layout = GameLayout(columns: columns, rows: rows)
            keepPickerSelectionVisible()
            return []
        case .tick:
            return tick(now: now)
        case .terminate:
            return quit(now: now)
        case let .synced(board):
            syncInFlight = nil
            saveFailure = nil
            if let board { apply(board, now: now) }
            return []
        case let .syncFailed(changes, reason):
            syncInFlight = nil
            restore(changes)
            saveFailure = reason
            return []
        case let .catalogReplaced(replacement):
            replaceCatalog(with: replacement)
            return []
        case let .stateProblems(problems):
            notices += problems.map(Notice.stateProblem)
            return []
        case let .connectionChanged(status):
            connection = status
            return []
        case .battleChanged:
            // Due at once: the tick after this event asks, or the one after the answer of a sync
            // under way (which may have been answered before the change).
            lastSyncRequest = Instant(nanoseconds: now.nanoseconds &- GameTiming.syncIntervalNanoseconds)
            return []
        case let .tapsRefusedByServer(taps):
            guard taps > 0 else { return [] }
            return refuse(.tooManyTaps, taps: taps, now: now)
        case let .tapsRefusedByOperator(taps):
            guard taps > 0 else { return [] }
            return refuse(.banned, taps: taps, now: now)
        case let .viewed(view, generation):
            // Positions of another catalog name other schools; the network sends the views again in the new one.
            guard generation == catalogGeneration else { return [] }
            switch view {
            case let .school(school):
                if served.earlierSchool == nil { served.earlierSchool = school }
                served.school = school
            case let .page(page):
                // The first page of another league is its own baseline: no arrows from another's ranks.
                if served.earlierPage?.league != page.league { served.earlierPage = page }
                served.page = page
            }
            return []
        case let .roundTold(round):
            return tell(round, now: now)
        case let .roundPlaceTold(standing):
            return tell(standing, now: now)
        case let .seasonTold(told):
            return tell(season: told)
        case let .mapReported(report, generation):
            // A map of another catalog's grid, or one no longer asked for, is of nothing drawn.
            guard generation == catalogGeneration, mapAsked else { return [] }
            servedMap?.apply(report)
            return []
        }
    }

    /// A season told. Ranking by the season, the views that follow a new one count from its
    /// start: they are their own baseline (no arrows from the last season's ranks). With none,
    /// the season's ranks are all time's: the period goes back to the default, which the server
    /// takes for the next season too.
    private mutating func tell(season told: Season?) -> [GameCommand] {
        guard told != season else { return [] }
        season = told
        if period == .season { served.forgetMovementBaseline() }
        guard told == nil, period == .allTime else { return [] }
        period = .season
        return [.rankBy(.season)]
    }

    /// The mouse button counts as one more key for the tap guard.
    static let mouseKey: UInt32 = 0x11_0000

    private mutating func handle(_ key: Key, now: Instant) -> [GameCommand] {
        if isAskingToQuit { return answerQuit(key, now: now) }
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

    /// Esc: one screen back. The ranking is the game's other face (Tab), so its way back is the
    /// game; with nowhere left to go back to, Esc asks before quitting, since one stray press of
    /// the key next to the keys being mashed must not end a game.
    private mutating func back(now: Instant) -> [GameCommand] {
        if let previous = history.popLast() {
            screen = previous
        } else if screen == .ranking {
            screen = .game
        } else {
            isAskingToQuit = true
        }
        return []
    }

    /// The answer to "quit?": a second Esc or yes quits (Ctrl-C quits before it gets here); any
    /// other key keeps playing and does nothing else, so the n or the tap that meant "no" is not
    /// counted.
    private mutating func answerQuit(_ key: Key, now: Instant) -> [GameCommand] {
        isAskingToQuit = false
        switch key {
        case .escape, .interrupt, .character("y"), .character("Y"), .character("ㅛ"), .character("예"):
            return quit(now: now)
        default:
            return []
        }
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
            typeIntoSearch(String(character))
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

    /// Adds typed or pasted text to the search, up to `pickerQueryLimit` characters, and searches
    /// once: the work per key or paste is bounded however much text arrives.
    private mutating func typeIntoSearch(_ text: String) {
        let room = GameTiming.pickerQueryLimit - picker.query.count
        guard room > 0 else { return }
        let typed = text.filter { !$0.isNewline && $0 != "\t" }.prefix(room)
        guard !typed.isEmpty else { return }
        picker.query += typed
        runSearch()
    }

    mutating func runSearch() {
        // One more than is shown: whether the list holds every match or stops at its limit.
        let found = search.search(SearchQuery(text: picker.query, limit: GameTiming.pickerResultLimit + 1))
        picker.moreResults = found.count > GameTiming.pickerResultLimit
        picker.results = Array(found.prefix(GameTiming.pickerResultLimit))
        // Only when nothing matched: the guesses cost a pass over the names of their own.
        picker.resultsAreGuesses = false
        if picker.results.isEmpty {
            picker.results = search.closestNames(SearchQuery(text: picker.query, limit: GameTiming.pickerGuessLimit))
            picker.resultsAreGuesses = !picker.results.isEmpty
        }
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
            markSwitch(to: position)
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
            recentTaps.record(1, school: school, at: now)
            countPendingTap(for: school, at: now)
            // A little scatter, so that mashing one key still looks like smoke, not a stamp.
            let jitterX = Float.random(in: -0.03...0.03, using: &random)
            let jitterY = Float.random(in: -0.08...0.08, using: &random)
            puffs.add(Puff(
                x: min(1, max(0, landing.x + jitterX)), y: min(1, max(0, landing.y + jitterY)), born: now,
                variant: UInt8.random(in: 0..<4, using: &random), angle: UInt8.random(in: 0..<8, using: &random)
            ))
            return []
        case let .refused(reason):
            return refuse(reason, now: now)
        }
    }

    private mutating func refuse(_ reason: TapRefusal, taps: UInt64 = 1, now: Instant) -> [GameCommand] {
        let isNewBurst = warning == nil
        if var current = warning {
            current.reason = reason
            current.since = now
            current.refusedTaps = current.refusedTaps.addingSaturating(taps)
            warning = current
        } else {
            warning = TapWarning(reason: reason, since: now, refusedTaps: taps)
        }
        return isNewBurst && bellEnabled ? [.bell] : []
    }

    // MARK: Ranking

    private mutating func rankingKey(_ key: Key) -> [GameCommand] {
        let size = size(of: ranking.league)
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
        // v, or ㅍ where the Korean layout has it.
        case .character("v"), .character("V"), .character("ㅍ"): ranking.tab = ranking.tab == .table ? .map : .table
        // a, or ㅁ where the Korean layout has it: the season's ranks or all time's, while a season
        // runs; on the table only (a watch, which the period is sent with, hides the server's map).
        case .character("a"), .character("A"), .character("ㅁ"):
            guard season != nil, ranking.tab == .table else { break }
            period = period == .season ? .allTime : .season
            // The views that come now are of the other period: their own baseline.
            served.forgetMovementBaseline()
            return [.rankBy(period)]
        case .right: switchLeague(by: 1)
        case .left: switchLeague(by: -1)
        default: break
        }
        return []
    }

    /// Makes the map the ranking screen shows when it is not made yet for this catalog, size and
    /// league: the catalog's schools placed once, the canvas once per size and league. Any other
    /// event costs a comparison.
    private mutating func refreshMap() {
        guard screen == .ranking, ranking.tab == .map else { return }
        let map = schoolMap ?? SchoolMap(catalog: catalog)
        schoolMap = map
        let pane = layout.rankingMap
        if mapCanvas?.isDrawn(for: ranking.league, in: pane) != true {
            mapCanvas = MapCanvas(map: map, league: ranking.league, pane: pane)
            gridOnCanvas = nil
        }
        guard isOnServer, let canvas = mapCanvas else { return }
        let served = servedMap ?? ServedMap(grid: MapGrid(map: map))
        servedMap = served
        if gridOnCanvas == nil { gridOnCanvas = GridOnCanvas(grid: served.grid, canvas: canvas) }
    }

    /// Whether the server is to send the map: a game on a server showing it.
    var wantsMap: Bool { isOnServer && screen == .ranking && ranking.tab == .map }

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
        // On a server the rank stands for the place (ties put it at the first of theirs).
        let place = isOnServer ? (myRank(in: ranking.league) ?? 1) - 1 : leaderboard.place(of: mySchool, in: ranking.league)
        ranking.scroll = max(0, min(place - page / 2, size(of: ranking.league) - page))
    }
}
