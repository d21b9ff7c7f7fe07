import Synchronization
import Testing
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolTerminal
import TouchSchoolTestSupport
import TouchSchoolView

/// The frame loop with a terminal and a battle standing in for the real ones: what it waits for
/// and when it draws.
@Suite(.onOwnThreads) struct GameRunnerTests {
    /// A terminal with nothing typed: each read returns at once and says how long the loop asked
    /// it to wait; after `iterations` reads it asks the game to end.
    final class QuietTerminal: GameTerminal {
        var timeouts: [Int] = []
        var draws: [Int] = []
        private var timeout = 0
        let iterations: Int

        init(iterations: Int) { self.iterations = iterations }

        func setReadTimeout(milliseconds: Int) { timeout = milliseconds }
        func read() -> TerminalInput? {
            timeouts.append(timeout)
            return nil
        }
        func draw(_ grid: CellGrid) { draws.append(timeouts.count) }
        func beep() {}
        func takeEndRequest() -> Bool { timeouts.count >= iterations }
        var wakeUp: @Sendable () -> Void { {} }
    }

    /// Answers every sync at once, and hands `news` over at the loop's second look.
    final class Battle: BattleConnection {
        private let looks = Mutex(0)
        let news: [GameEvent]
        init(news: [GameEvent]) { self.news = news }
        func submit(_ changes: PendingChanges) {}
        func takeEvents() -> [GameEvent] {
            looks.withLock { looks in
                looks += 1
                return looks == 2 ? news : []
            }
        }
        func finish(timeoutNanoseconds: Int64) -> Bool { true }
        func whenEventsArrive(_ wake: @escaping @Sendable () -> Void) {}
        func watch(_ page: PageWatch?) {}
    }

    static func state() -> GameState {
        let catalog = Catalog(schools: [School(id: "S1", name: "가", level: .high, province: "서울특별시", district: "", address: "")], source: .starter)
        return GameState(catalog: catalog, saved: SavedState(players: ["p": PlayerRecord(schoolID: "S1", taps: 0, bestTapsPerSecond: 0)]),
                         player: "p", language: .english, now: MonotonicClock.now(), columns: 80, rows: 24, seed: 1)
    }

    /// An answer taken just after a frame (too soon for another) is drawn a frame later, not at
    /// the next idle tick half a second away.
    @Test func theBattlesNewsIsDrawnWithinAFrameNotAtTheNextIdleTick() {
        let terminal = QuietTerminal(iterations: 3)
        let news: [GameEvent] = [.connectionChanged(.offline(waitingTaps: 0))]
        var runner = GameRunner(screen: terminal, battle: Battle(news: news), state: Self.state())
        runner.run()
        // Look 1 draws the first frame; look 2 takes the news. Either it was drawn then (the
        // machine took a frame's time between the two), or the loop waits at most a frame.
        let frame = Int(GameRunner<QuietTerminal>.localFrameNanoseconds / 1_000_000) + 1
        #expect(terminal.draws.contains(2) || terminal.timeouts[2] <= frame, "timeouts \(terminal.timeouts), draws after reads \(terminal.draws)")
    }
}
