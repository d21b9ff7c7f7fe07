import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore

/// The rules of the game, driven only through `update` with hand-written timelines.
@Suite(.onOwnThreads) struct GameTests {
    static let catalog = Catalog(schools: [
        School(id: "S1", name: "서울고등학교", level: .high, province: "서울특별시", district: "서초구", address: "서울특별시 서초구"),
        School(id: "S2", name: "휘문고등학교", level: .high, province: "서울특별시", district: "강남구", address: "서울특별시 강남구"),
        School(id: "S3", name: "부산금성초등학교", level: .elementary, province: "부산광역시", district: "금정구", address: "부산광역시 금정구"),
        School(id: "S4", name: "경기고등학교", level: .high, province: "서울특별시", district: "강남구", address: "서울특별시 강남구"),
    ], source: .starter)

    func makeGame(saved: SavedState = SavedState(), school: Int? = nil) -> GameState {
        GameState(catalog: Self.catalog, saved: saved, player: "tester", language: .korean, now: .milliseconds(0),
                  columns: 100, rows: 30, seed: 7, startingSchool: school)
    }

    /// Presses keys one after another, `interval` ms apart, cycling through `keys`.
    @discardableResult
    func press(_ keys: String, times: Int, every interval: Int64, from start: Int64, into game: inout GameState) -> [GameCommand] {
        var commands: [GameCommand] = []
        let characters = Array(keys)
        for i in 0..<times {
            commands += update(&game, .key(.character(characters[i % characters.count])), now: .milliseconds(start + Int64(i) * interval))
        }
        return commands
    }

    @Test func startsOnThePickerWithoutASchoolAndInTheGameWithOne() {
        #expect(makeGame().screen == .picker)
        let saved = SavedState(players: ["tester": PlayerRecord(schoolID: "S2", taps: 5)])
        let game = makeGame(saved: saved)
        #expect(game.screen == .game)
        #expect(game.mySchool == 1)
        #expect(game.counter.myTaps == 5)
    }

    @Test func typingANameAndEnterChoosesTheSchool() {
        var game = makeGame()
        for character in "휘문고" { _ = update(&game, .key(.character(character)), now: .milliseconds(0)) }
        #expect(game.picker.results.first?.position == 1)
        _ = update(&game, .key(.enter), now: .milliseconds(0))
        #expect(game.screen == .game)
        #expect(game.mySchool == 1)
        #expect(game.pendingChanges.switchedToSchool == "S2")
    }

    @Test func aTypoInThePickerOffersTheClosestNamesToChooseFrom() {
        var game = makeGame()
        for character in "휘뮨고" { _ = update(&game, .key(.character(character)), now: .milliseconds(0)) }
        #expect(game.picker.resultsAreGuesses)
        #expect(game.picker.results.map(\.position) == [1])
        _ = update(&game, .key(.enter), now: .milliseconds(0))
        #expect(game.mySchool == 1)

        // A query that finds schools is no guess, and one close to nothing guesses nothing.
        var other = makeGame()
        for character in "휘문" { _ = update(&other, .key(.character(character)), now: .milliseconds(0)) }
        #expect(!other.picker.resultsAreGuesses)
        for character in "ㅋㅋㅋㅋㅋ" { _ = update(&other, .key(.character(character)), now: .milliseconds(0)) }
        #expect(other.picker.results.isEmpty)
        #expect(!other.picker.resultsAreGuesses)
    }

    /// A search that matches more schools than the picker lists says so: the list holds the
    /// limit's 100, and `moreResults` is set only while more than that match.
    @Test func aSearchThatStopsAtItsLimitSaysThereAreMore() {
        let schools = (1...130).map { School(id: "L\($0)", name: "한빛\($0)학교", level: .high, province: "서울특별시", district: "", address: "") }
        var game = GameState(catalog: Catalog(schools: schools, source: .starter), saved: SavedState(), player: "tester", language: .korean,
                             now: .milliseconds(0), columns: 100, rows: 30, seed: 7, startingSchool: nil)
        for character in "한빛" { _ = update(&game, .key(.character(character)), now: .milliseconds(0)) }
        #expect(game.picker.results.count == 100 && game.picker.moreResults)
        // Narrowed below the limit: every match listed, none hidden.
        _ = update(&game, .key(.character("1")), now: .milliseconds(0))
        _ = update(&game, .key(.character("2")), now: .milliseconds(0))
        #expect((1..<100).contains(game.picker.results.count) && !game.picker.moreResults, "\(game.picker.results.count) results")
    }

    @Test func humanTapsCountEverywhere() {
        var game = makeGame(school: 0)
        press("asdfjkl;", times: 100, every: 70, from: 1000, into: &game)
        #expect(game.counter.myTaps == 100)
        #expect(game.counter.sessionTaps == 100)
        #expect(game.leaderboard.count(of: 0) == 100)
        #expect(game.pendingChanges.scoreDeltas == ["S1": 100])
        #expect(game.pendingChanges.playerTaps == 100)
        #expect(game.puffs.count == PuffRing.capacity)
        #expect(game.warning == nil)
    }

    @Test func aHeldKeyIsRefusedWarnedAndRingsOnce() {
        var game = makeGame(school: 0)
        var commands = update(&game, .key(.character("a")), now: .milliseconds(1000))
        for i in 0..<60 {
            commands += update(&game, .key(.character("a")), now: .milliseconds(1500 + Int64(i) * 33))
        }
        #expect(game.counter.myTaps <= 3)
        #expect(game.warning?.reason == .heldKey)
        #expect(commands.filter { $0 == .bell }.count == 1)
    }

    @Test func quietGamesDoNotRing() {
        var game = makeGame(school: 0)
        game.bellEnabled = false
        let commands = press("a", times: 40, every: 5, from: 0, into: &game)
        #expect(game.warning != nil)
        #expect(!commands.contains(.bell))
    }

    @Test func aPasteNeverCounts() {
        var game = makeGame(school: 0)
        _ = update(&game, .paste("hello world"), now: .milliseconds(10))
        #expect(game.counter.myTaps == 0)
        #expect(game.warning?.reason == .paste)
    }

    @Test func aClickInThePlayAreaTapsWhereItLanded() {
        var game = makeGame(school: 0)
        let area = game.layout.playArea
        _ = update(&game, .click(column: area.x + area.width - 1, row: area.y), now: .milliseconds(10))
        #expect(game.counter.myTaps == 1)
        let puff = try! #require(game.puffs.puffs.last)
        #expect(puff.x > 0.9)
        #expect(puff.y < 0.2)
        _ = update(&game, .click(column: 0, row: 0), now: .milliseconds(500))
        #expect(game.counter.myTaps == 1, "a click on the header is not a tap")
    }

    @Test func keysLandWhereTheySitOnTheKeyboard() {
        var game = makeGame(school: 0)
        _ = update(&game, .key(.character("q")), now: .milliseconds(0))
        _ = update(&game, .key(.character("m")), now: .milliseconds(200))
        _ = update(&game, .key(.character("ㅔ")), now: .milliseconds(400))
        let puffs = game.puffs.puffs
        #expect(puffs[0].x < puffs[2].x, "q is left of p (ㅔ)")
        #expect(puffs[0].y < puffs[1].y, "the top row is high")
    }

    @Test func theFirstTickSyncsThenEveryHalfSecondAfterTheAnswer() {
        var game = makeGame(school: 0)
        #expect(update(&game, .tick, now: .milliseconds(0)) == [.sync(PendingChanges(player: "tester", switchedToSchool: "S1"))])
        press("ab", times: 10, every: 80, from: 0, into: &game)
        #expect(update(&game, .tick, now: .milliseconds(600)).isEmpty, "no second save while one is unanswered")
        _ = update(&game, .synced(nil), now: .milliseconds(610))
        #expect(update(&game, .tick, now: .milliseconds(300)).isEmpty)
        let commands = update(&game, .tick, now: .milliseconds(900))
        guard case let .sync(changes) = commands.first else {
            Issue.record("expected a sync, got \(commands)")
            return
        }
        #expect(changes.scoreDeltas == ["S1": 10])
        #expect(changes.switchedToSchool == nil)
        #expect(game.pendingChanges.isEmpty)
    }

    @Test func aFailedSyncLosesNothing() {
        var game = makeGame(school: 0)
        press("ab", times: 10, every: 80, from: 0, into: &game)
        guard case let .sync(changes) = update(&game, .tick, now: .milliseconds(1000)).first else {
            Issue.record("expected a sync")
            return
        }
        press("ab", times: 4, every: 80, from: 1100, into: &game)
        _ = update(&game, .syncFailed(changes, reason: "disk full"), now: .milliseconds(1500))
        #expect(game.saveFailure == "disk full")
        #expect(game.pendingChanges.scoreDeltas == ["S1": 14])
        #expect(game.pendingChanges.playerTaps == 14)
        _ = update(&game, .synced(SyncedBoard(SavedState(scores: ["S1": 14]), catalog: game.catalog, generation: game.catalogGeneration, player: game.player)), now: .milliseconds(1600))
        #expect(game.saveFailure == nil)
    }

    @Test func othersTapsArriveWithASync() {
        var game = makeGame(school: 0)
        press("ab", times: 3, every: 80, from: 0, into: &game)
        _ = update(&game, .tick, now: .milliseconds(1000))
        _ = update(&game, .synced(SyncedBoard(SavedState(scores: ["S1": 3, "S2": 50]), catalog: game.catalog, generation: game.catalogGeneration, player: game.player)), now: .milliseconds(1001))
        #expect(game.leaderboard.count(of: 1) == 50)
        #expect(game.leaderboard.rank(of: 0, in: .national) == 2)
        #expect(game.leaderboard.schoolAbove(0, in: .national)?.position == 1)
    }

    @Test func switchingSchoolAsksFirstAndRestartsOnlyMyCount() {
        var game = makeGame(school: 0)
        press("ab", times: 20, every: 80, from: 0, into: &game)
        _ = update(&game, .key(.chooseSchool), now: .milliseconds(3000))
        #expect(game.screen == .picker)
        for character in "경기고" { _ = update(&game, .key(.character(character)), now: .milliseconds(3000)) }
        _ = update(&game, .key(.enter), now: .milliseconds(3000))
        #expect(game.screen == .confirmSwitch(3))
        _ = update(&game, .key(.character("n")), now: .milliseconds(3000))
        #expect(game.screen == .picker)
        #expect(game.mySchool == 0)
        _ = update(&game, .key(.enter), now: .milliseconds(3000))
        _ = update(&game, .key(.enter), now: .milliseconds(3000))
        #expect(game.screen == .game)
        #expect(game.mySchool == 3)
        #expect(game.counter.myTaps == 0)
        #expect(game.leaderboard.count(of: 0) == 20, "the old school keeps every tap")
        press("cd", times: 5, every: 80, from: 4000, into: &game)
        let changes = game.pendingChanges
        #expect(changes.scoreDeltas == ["S1": 20, "S4": 5])
        #expect(changes.switchedToSchool == "S4")
        #expect(changes.playerTaps == 5)
    }

    @Test func tabEscAndHelpNavigate() {
        var game = makeGame(school: 0)
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        #expect(game.screen == .ranking)
        _ = update(&game, .key(.help), now: .milliseconds(0))
        #expect(game.screen == .help)
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        #expect(game.screen == .about)
        _ = update(&game, .key(.escape), now: .milliseconds(0))
        #expect(game.screen == .ranking)
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        #expect(game.screen == .game)
    }

    @Test func escOnTheRankingGoesBackToTheGame() {
        var game = makeGame(school: 0)
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        #expect(update(&game, .key(.escape), now: .milliseconds(0)) == [])
        #expect(game.screen == .game)
        #expect(!game.isAskingToQuit)
        _ = update(&game, .key(.help), now: .milliseconds(0))
        _ = update(&game, .key(.escape), now: .milliseconds(0))
        #expect(game.screen == .game, "Esc on help goes back to the game it was opened from")
    }

    @Test func escInTheGameAsksBeforeQuittingAndASecondEscQuits() {
        var game = makeGame(school: 0)
        #expect(update(&game, .key(.escape), now: .milliseconds(0)) == [])
        #expect(game.isAskingToQuit)
        #expect(!game.isQuitting)
        let commands = update(&game, .key(.escape), now: .milliseconds(100))
        #expect(commands.last == .quit)
        #expect(commands.count == 2, "after saving the choice of school")
    }

    @Test func yQuitsAndAnyOtherKeyKeepsPlayingWithoutATap() {
        var game = makeGame(school: 0)
        _ = update(&game, .key(.escape), now: .milliseconds(0))
        #expect(update(&game, .key(.character("n")), now: .milliseconds(100)) == [])
        #expect(!game.isAskingToQuit)
        #expect(game.counter.myTaps == 0, "the answer is not a tap")
        press("a", times: 1, every: 0, from: 200, into: &game)
        #expect(game.counter.myTaps == 1)
        _ = update(&game, .key(.escape), now: .milliseconds(300))
        _ = update(&game, .key(.tab), now: .milliseconds(400))
        #expect(!game.isAskingToQuit)
        #expect(game.screen == .game, "the key that cancels does nothing else")
        _ = update(&game, .key(.escape), now: .milliseconds(500))
        #expect(update(&game, .key(.character("y")), now: .milliseconds(600)).last == .quit)
    }

    @Test func escOnTheFirstPickerAsksToo() {
        var game = makeGame()
        _ = update(&game, .key(.escape), now: .milliseconds(0))
        #expect(game.isAskingToQuit)
        #expect(update(&game, .key(.escape), now: .milliseconds(0)) == [.quit])
    }

    /// A notice (the SSH game's "joined without a key", a score file repaired) is closed by any
    /// key, and Esc still means Esc: Esc, Esc quits the first screen as its footer says, notice or
    /// not. (Esc only closed it: the SSH game's first screen took three.)
    @Test func escOnANoticeClosesItAndStillAsksToQuit() {
        func noticed() -> GameState {
            GameState(catalog: Self.catalog, saved: SavedState(), player: "tester", language: .korean, now: .milliseconds(0),
                      columns: 100, rows: 30, seed: 7, notices: [.sessionWithoutKey])
        }
        var game = noticed()
        #expect(update(&game, .key(.escape), now: .milliseconds(0)) == [])
        #expect(game.notices.isEmpty && game.isAskingToQuit)
        #expect(update(&game, .key(.escape), now: .milliseconds(100)) == [.quit])
        // Any other key only closes it: not typed into the search.
        var other = noticed()
        #expect(update(&other, .key(.character("a")), now: .milliseconds(0)) == [])
        #expect(other.notices.isEmpty && other.picker.query.isEmpty && !other.isAskingToQuit)
    }

    @Test func quittingSavesFirst() {
        var game = makeGame(school: 0)
        press("ab", times: 7, every: 80, from: 0, into: &game)
        let commands = update(&game, .key(.interrupt), now: .milliseconds(700))
        #expect(commands.count == 2)
        #expect(commands.last == .quit)
        guard case let .sync(changes) = commands.first else {
            Issue.record("expected a sync before quitting")
            return
        }
        #expect(changes.scoreDeltas == ["S1": 7])
        #expect(update(&game, .terminate, now: .milliseconds(800)) == [.quit])
    }

    @Test func rankingLeaguesCycleAndFollowMySchool() {
        var game = makeGame(school: 2)
        _ = update(&game, .key(.tab), now: .milliseconds(0))
        #expect(game.ranking.league == .national)
        _ = update(&game, .key(.right), now: .milliseconds(0))
        #expect(game.ranking.league == .level(.elementary))
        _ = update(&game, .key(.right), now: .milliseconds(0))
        #expect(game.ranking.league == .province("부산광역시"))
        _ = update(&game, .key(.left), now: .milliseconds(0))
        _ = update(&game, .key(.left), now: .milliseconds(0))
        _ = update(&game, .key(.left), now: .milliseconds(0))
        #expect(game.ranking.league == .levelInProvince(.elementary, "부산광역시"))
    }

    @Test func aMillionTapsKeepThirtyPuffs() {
        var game = makeGame(school: 0)
        let keys = Array("qwertyuiopasdfghjklzxcvbnm")
        for i in 0..<20_000 {
            _ = update(&game, .key(.character(keys[i % keys.count])), now: .milliseconds(Int64(i) * 30))
        }
        #expect(game.puffs.count == PuffRing.capacity)
        #expect(game.counter.myTaps == 20_000)
    }
}

/// The store is the single source of truth: its answers replace what a game shows.
@Suite(.onOwnThreads) struct GameSyncTests {
    let game = GameTests()

    func board(_ saved: SavedState, _ state: GameState) -> SyncedBoard {
        SyncedBoard(saved, catalog: state.catalog, generation: state.catalogGeneration, player: state.player)
    }

    @Test func aResetElsewhereShowsAtTheNextAnswerWithMyTapsSinceAdded() {
        var state = game.makeGame(saved: SavedState(scores: ["S1": 47, "S2": 9], players: ["tester": PlayerRecord(schoolID: "S1", taps: 47)]))
        #expect(state.counter.myTaps == 47)
        guard case let .sync(first) = update(&state, .tick, now: .milliseconds(0)).first else { Issue.record("expected a sync"); return }
        game.press("ab", times: 7, every: 100, from: 10, into: &state)
        // The store was reset before this save: it answers with the in-flight changes only.
        let afterReset = SavedState(scores: first.scoreDeltas, players: ["tester": PlayerRecord(schoolID: "S1", taps: 0)])
        _ = update(&state, .synced(board(afterReset, state)), now: .milliseconds(800))
        #expect(state.leaderboard.count(of: 0) == 7, "the reset total (0) plus the 7 taps not yet saved")
        #expect(state.leaderboard.count(of: 1) == 0, "a school missing from the store is at 0")
        #expect(state.counter.myTaps == 7)
    }

    @Test func aFailedSaveComesBackBeforeLaterTapsAndALaterSwitchWins() {
        var state = game.makeGame(school: 0)
        game.press("ab", times: 3, every: 100, from: 0, into: &state)
        guard case let .sync(first) = update(&state, .tick, now: .milliseconds(500)).first else { Issue.record("expected a sync"); return }
        #expect(first.switchedToSchool == "S1" && first.playerTaps == 3)
        // Switch to S2 while the save is out, tap twice there.
        _ = update(&state, .key(.chooseSchool), now: .milliseconds(600))
        for character in "휘문고" { _ = update(&state, .key(.character(character)), now: .milliseconds(600)) }
        _ = update(&state, .key(.enter), now: .milliseconds(600))
        _ = update(&state, .key(.enter), now: .milliseconds(600))
        game.press("cd", times: 2, every: 100, from: 700, into: &state)
        _ = update(&state, .syncFailed(first, reason: "No space left on device"), now: .milliseconds(900))
        let pending = state.pendingChanges
        #expect(pending.scoreDeltas == ["S1": 3, "S2": 2])
        #expect(pending.switchedToSchool == "S2")
        #expect(pending.playerTaps == 2)
        #expect(state.unsavedChanges == pending)
    }

    @Test func anotherCatalogKeepsMySchoolThroughItsOfficialIDAndMyUnsavedTaps() {
        var state = game.makeGame(school: 0)
        game.press("ab", times: 5, every: 100, from: 0, into: &state)
        let official = Catalog(schools: [
            School(id: "B000000001", name: "서울고등학교", level: .high, province: "서울특별시", district: "서초구", address: "서울특별시 서초구"),
            School(id: "B000000002", name: "휘문고등학교", level: .high, province: "서울특별시", district: "강남구", address: "서울특별시 강남구"),
            School(id: "B000000009", name: "대원외국어고등학교", level: .high, province: "서울특별시", district: "광진구", address: "서울특별시 광진구"),
        ], aliases: ["S1": "B000000001", "S2": "B000000002"], source: .official(edition: "2026-03-20"))
        let saved = SavedState(scores: ["B000000001": 100, "B000000009": 30, "S4": 8])
        _ = update(&state, .catalogReplaced(CatalogReplacement(generation: 1, catalog: official, saved: saved)), now: .milliseconds(600))
        #expect(state.catalogGeneration == 1)
        #expect(state.mySchool == 0 && state.catalog[0].id == "B000000001")
        #expect(state.screen == .game)
        #expect(state.leaderboard.count(of: 0) == 105, "the saved 100 and my 5 unsaved taps")
        #expect(state.leaderboard.count(of: 2) == 30)
        let pending = state.pendingChanges
        #expect(pending.scoreDeltas == ["B000000001": 5])
        #expect(pending.switchedToSchool == "B000000001")
        // An answer about the old catalog is ignored; one about the new one applies.
        _ = update(&state, .synced(SyncedBoard(catalogGeneration: 0, counts: [1, 2, 3, 4], player: nil)), now: .milliseconds(700))
        #expect(state.leaderboard.count(of: 2) == 30)
    }

    @Test func taptsForASchoolTheNewCatalogLacksAreStillSaved() {
        var state = game.makeGame(school: 3)
        game.press("ab", times: 4, every: 100, from: 0, into: &state)
        let smaller = Catalog(schools: [GameTests.catalog[0]], source: .starter)
        _ = update(&state, .catalogReplaced(CatalogReplacement(generation: 1, catalog: smaller, saved: SavedState())), now: .milliseconds(500))
        #expect(state.mySchool == nil)
        #expect(state.screen == .picker)
        #expect(state.pendingChanges.scoreDeltas == ["S4": 4])
    }

    @Test func aPastedNovelInTheSearchCostsAFewSearches() {
        var state = game.makeGame()
        let novel = String(repeating: "서울고등학교", count: 4_000)
        _ = update(&state, .paste(novel), now: .milliseconds(0))
        #expect(state.picker.query.count == GameTiming.pickerQueryLimit)
        let results = state.picker.results
        for character in novel.prefix(20_000) { _ = update(&state, .key(.character(character)), now: .milliseconds(1)) }
        #expect(state.picker.query.count == GameTiming.pickerQueryLimit)
        #expect(state.picker.results == results)
        _ = update(&state, .key(.backspace), now: .milliseconds(2))
        #expect(state.picker.query.count == GameTiming.pickerQueryLimit - 1)
    }
}
