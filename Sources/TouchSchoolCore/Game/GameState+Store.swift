/// The game's side of saving: when to sync, and how the store's answers become the game's view.
/// The store is the single source of truth: an answer replaces what the game shows, and the game
/// adds only what it has not handed over yet.
extension GameState {
    mutating func tick(now: Instant) -> [GameCommand] {
        if let current = warning, now.nanoseconds(since: current.since) >= GameTiming.warningNanoseconds {
            warning = nil
        }
        if now.nanoseconds(since: lastMovementBaseline) >= GameTiming.movementBaselineNanoseconds {
            leaderboard.markMovementBaseline()
            served.markMovementBaseline()
            lastMovementBaseline = now
        }
        // On a server, taps waiting go out once their interval since the last hand-over has
        // passed; otherwise (and with nothing waiting) the sync only brings the others' taps and
        // a reset, every half second or at once when the battle changed.
        let waiting = !pendingScores.isEmpty || !pendingScoresByID.isEmpty || pendingPlayerTaps > 0 || pendingSwitch != nil
        let onServer = connection != nil && waiting
        let handOverDue = onServer && now.nanoseconds(since: lastHandOver) >= GameTiming.serverSyncIntervalNanoseconds
        guard syncInFlight == nil, handOverDue || now.nanoseconds(since: lastSyncRequest) >= GameTiming.syncIntervalNanoseconds else { return [] }
        lastSyncRequest = now
        // Even with nothing of ours to add: the answer brings everyone else's taps, and a reset.
        // On a server within the interval, ours wait for its end.
        let changes: PendingChanges
        if onServer && !handOverDue {
            changes = PendingChanges(player: player)
        } else {
            changes = pendingChanges
            clearPending()
            if waiting { lastHandOver = now }
        }
        syncInFlight = changes
        return [.sync(changes)]
    }

    mutating func clearPending() {
        pendingScores.removeAll(keepingCapacity: true)
        pendingScoresByID.removeAll()
        pendingPlayerTaps = 0
        pendingSwitch = nil
        pendingFirstTapAt = nil
    }

    mutating func countPendingTap(for school: Int, at now: Instant) {
        if pendingFirstTapAt == nil { pendingFirstTapAt = now }
        pendingScores[school, default: 0] = pendingScores[school, default: 0].addingSaturating(1)
        pendingPlayerTaps = pendingPlayerTaps.addingSaturating(1)
    }

    mutating func markSwitch(to school: Int) {
        pendingPlayerTaps = 0
        pendingSwitch = catalog[school].id
    }

    /// Puts back changes whose save failed, before whatever was tapped since, so that the next
    /// sync carries both.
    mutating func restore(_ failed: PendingChanges) {
        setPending(failed.merged(with: pendingChanges))
    }

    /// Pending changes by id, placed by position in the current catalog.
    private mutating func setPending(_ changes: PendingChanges) {
        clearPending()
        for (id, taps) in changes.scoreDeltas where taps > 0 {
            if let position = catalog.position(ofID: id) {
                pendingScores[position] = pendingScores[position, default: 0].addingSaturating(taps)
            } else {
                pendingScoresByID[id] = pendingScoresByID[id, default: 0].addingSaturating(taps)
            }
        }
        pendingPlayerTaps = changes.playerTaps
        pendingFirstTapAt = changes.firstTapAt
        pendingSwitch = changes.switchedToSchool.map { id in catalog.position(ofID: id).map { catalog[$0].id } ?? id }
    }

    /// The store's totals plus what this game has not handed over yet; a school the store does
    /// not have is at 0 (a reset). My taps likewise, unless a switch of school is still unsaved.
    /// What a total grew by is the school's recent taps, for the map (a reset, a drop, is none);
    /// not on a server, whose own map tells who taps (`servedMap`): there a total grows also when
    /// a view first names the school, taps of any time.
    mutating func apply(_ board: SyncedBoard, now: Instant) {
        guard board.catalogGeneration == catalogGeneration, board.counts.count == catalog.count else { return }
        func set(_ total: UInt64, of position: Int) {
            let before = leaderboard.count(of: position)
            guard before != total else { return }
            if total > before, !isOnServer { recentTaps.record(total - before, school: position, at: now) }
            leaderboard.setCount(total, of: position)
        }
        for position in board.counts.indices where pendingScores[position] == nil {
            set(board.counts[position], of: position)
        }
        for (position, taps) in pendingScores {
            set(board.counts[position].addingSaturating(taps), of: position)
        }
        if let mySchool, pendingSwitch == nil {
            let saved = board.player.flatMap { record in
                record.schoolID.flatMap { catalog.position(ofID: $0) } == mySchool ? record.taps : nil
            } ?? 0
            counter.setMyTaps(saved.addingSaturating(pendingPlayerTaps))
        }
    }

    /// Carries on with another catalog: my school, the pending taps and the screens follow the
    /// schools by id (a starter school by its official id), and the ranking restarts from the
    /// store's totals plus the pending taps.
    mutating func replaceCatalog(with replacement: CatalogReplacement) {
        let unsaved = pendingChanges
        let myID = mySchool.map { catalog[$0].id }
        catalog = replacement.catalog
        catalogGeneration = replacement.generation
        search = replacement.search
        leaderboard = replacement.leaderboard
        recentTaps.removeAll()
        schoolMap = nil
        mapCanvas = nil
        servedMap = nil
        gridOnCanvas = nil
        // The views name schools by position in the old catalog; the server's come again in the new one.
        served = ServedViews()
        setPending(unsaved)
        for (position, taps) in pendingScores { leaderboard.add(taps, to: position) }
        leaderboard.markMovementBaseline()
        mySchool = myID.flatMap { catalog.position(ofID: $0) }
        switch screen {
        case .confirmSwitch:
            screen = .picker
        case .game, .ranking:
            if mySchool == nil {
                history.removeAll()
                screen = .picker
            }
        default:
            break
        }
        if screen == .picker || !picker.results.isEmpty { runSearch() }
        if let mySchool, !ranking.league.contains(catalog[mySchool]) { ranking = RankingState() }
    }
}
