import Synchronization
import Testing
import TouchSchoolCore
import TouchSchoolLocalBattle
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
        func rankBy(_ period: RankingPeriod) {}
        func showMap(_ shows: Bool) {}
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

    /// A clock the test moves: a terminal's read that waits moves it by the wait. (Unchecked:
    /// read and moved on the test's thread only.)
    final class VirtualClock: @unchecked Sendable {
        var now = MonotonicClock.now()
        func advance(milliseconds: Int) { now = now.adding(milliseconds: Int64(milliseconds)) }
    }

    /// A terminal with nothing typed whose reads wait their whole timeout on `clock`; it keeps
    /// when each frame was drawn, and asks the game to end after `iterations` reads.
    final class WaitingTerminal: GameTerminal {
        let clock: VirtualClock
        let iterations: Int
        var draws: [Instant] = []
        private var timeout = 0
        private var reads = 0

        init(clock: VirtualClock, iterations: Int) {
            self.clock = clock
            self.iterations = iterations
        }

        func setReadTimeout(milliseconds: Int) { timeout = milliseconds }
        func read() -> TerminalInput? {
            reads += 1
            clock.advance(milliseconds: timeout)
            return nil
        }
        func draw(_ grid: CellGrid) { draws.append(clock.now) }
        func beep() {}
        func takeEndRequest() -> Bool { reads >= iterations }
        var wakeUp: @Sendable () -> Void { {} }
    }

    /// Tells a round at the loop's second look, by `clock`, whose countdown's digit changes
    /// `changeAfterMs` later. (Unchecked: the loop is its only caller, on the test's thread.)
    final class RoundBattle: BattleConnection, @unchecked Sendable {
        let clock: VirtualClock
        let changeAfterMs: Int64
        private var looks = 0
        init(clock: VirtualClock, changeAfterMs: Int64) {
            self.clock = clock
            self.changeAfterMs = changeAfterMs
        }
        func submit(_ changes: PendingChanges) {}
        func takeEvents() -> [GameEvent] {
            looks += 1
            guard looks == 2 else { return [] }
            let startsAtMs = 1_000_000 + 2_000 + changeAfterMs
            let standing = RoundStanding(id: 1, place: nil, count: 0, players: 0, final: false)
            return [.roundTold(RoundNews(id: 1, title: nil, startsAtMs: startsAtMs, endsAtMs: startsAtMs + 10_000, graceMs: 5_000,
                                         serverNowMs: 1_000_000, standing: standing, toldAt: clock.now))]
        }
        func finish(timeoutNanoseconds: Int64) -> Bool { true }
        func whenEventsArrive(_ wake: @escaping @Sendable () -> Void) {}
        func watch(_ page: PageWatch?) {}
        func rankBy(_ period: RankingPeriod) {}
        func showMap(_ shows: Bool) {}
    }

    /// A round's digit that changes by the clock less than a frame after a frame was drawn (here
    /// the frame of the round's news) is drawn a frame later. It was drawn only at the round's next
    /// change, a second later: the loop woke for the change, found the last frame too recent to
    /// draw another, and forgot the change.
    @Test func aRoundsChangeJustAfterAFrameIsDrawnAFrameLater() {
        let clock = VirtualClock()
        let terminal = WaitingTerminal(clock: clock, iterations: 8)
        let changeAfterMs: Int64 = 8
        var runner = GameRunner(screen: terminal, battle: RoundBattle(clock: clock, changeAfterMs: changeAfterMs),
                                state: Self.state(), clock: { clock.now })
        let start = clock.now
        runner.run()
        let drawn = terminal.draws.map { $0.nanoseconds(since: start) / 1_000_000 }
        // The news came at the second look, after the first wait (idle): drawn then. Its digit
        // changes 8 ms later: drawn within a frame of that.
        let told = try? #require(drawn.count >= 2 ? drawn[1] : nil, "frames drawn at \(drawn) ms")
        guard let told else { return }
        let change = told + changeAfterMs
        let frame = GameRunner<WaitingTerminal>.localFrameNanoseconds / 1_000_000
        #expect(drawn.contains { $0 >= change && $0 <= change + frame }, "the change at \(change) ms; frames drawn at \(drawn) ms")
    }

    /// A terminal with nothing typed whose reads wait on `clock` their timeout or `wokenAfterMs`,
    /// whichever is shorter (the battle's news wakes a read, `whenEventsArrive`); it keeps every
    /// frame's text, and asks the game to end after `iterations` reads.
    final class RecordingTerminal: GameTerminal {
        let clock: VirtualClock
        let iterations: Int
        let wokenAfterMs = 40
        var frames: [String] = []
        private var timeout = 0
        private var reads = 0

        init(clock: VirtualClock, iterations: Int) {
            self.clock = clock
            self.iterations = iterations
        }

        func setReadTimeout(milliseconds: Int) { timeout = milliseconds }
        func read() -> TerminalInput? {
            reads += 1
            clock.advance(milliseconds: min(timeout, wokenAfterMs))
            return nil
        }
        func draw(_ grid: CellGrid) { frames.append(grid.text) }
        func beep() {}
        func takeEndRequest() -> Bool { reads >= iterations }
        var wakeUp: @Sendable () -> Void { {} }
    }

    /// A round racing since a second ago, told at the loop's second look; at every later look my
    /// count in it is one more (the server's `roundPlace`, each waking the loop's read).
    final class RaceBattle: BattleConnection, @unchecked Sendable {
        let clock: VirtualClock
        private var looks = 0
        init(clock: VirtualClock) { self.clock = clock }
        func submit(_ changes: PendingChanges) {}
        func takeEvents() -> [GameEvent] {
            looks += 1
            if looks == 2 {
                return [.roundTold(RoundNews(id: 1, title: nil, startsAtMs: 999_000, endsAtMs: 1_009_000, graceMs: 5_000, serverNowMs: 1_000_000,
                                             standing: RoundStanding(id: 1, place: 1, count: 0, players: 2, final: false), toldAt: clock.now))]
            }
            return looks > 2 ? [.roundPlaceTold(RoundStanding(id: 1, place: 1, count: UInt64(looks), players: 2, final: false))] : []
        }
        func finish(timeoutNanoseconds: Int64) -> Bool { true }
        func whenEventsArrive(_ wake: @escaping @Sendable () -> Void) {}
        func watch(_ page: PageWatch?) {}
        func rankBy(_ period: RankingPeriod) {}
        func showMap(_ shows: Bool) {}
    }

    /// The round line is drawn again for new standings alone: counts told within one second (the
    /// phase and the seconds left unchanged) each reach the screen within a frame. (The
    /// projector's line froze when its page took only a new second for a change.)
    @Test func newStandingsWithinOneSecondAreDrawn() {
        let clock = VirtualClock()
        let terminal = RecordingTerminal(clock: clock, iterations: 21)
        var runner = GameRunner(screen: terminal, battle: RaceBattle(clock: clock), state: Self.state(), clock: { clock.now })
        let start = clock.now
        runner.run()
        #expect(clock.now.nanoseconds(since: start) < 900_000_000, "within the race's same second")
        let lines = terminal.frames.compactMap { frame in frame.split(separator: "\n").first { $0.contains("s left") } }
        #expect(Set(lines.map { $0.contains("9s left") }) == [true], "\(lines)")
        let counts = lines.compactMap { line in line.split(separator: "·").last.flatMap { Int($0.split(separator: " ").first ?? "") } }
        #expect(counts == counts.sorted() && Set(counts).count >= 15, "\(lines)")
        #expect(counts.last == 20, "the last told is on the screen: \(lines)")
    }

    /// A player's terminal at the end of an SSH channel: `packets` of bytes, one a read, decoded
    /// by the SSH game's reader; then nothing, and after `limit` reads the game is asked to end.
    final class ScriptedTerminal: GameTerminal {
        var packets: [String]
        let limit: Int
        private(set) var reads = 0
        private var reader = EscapeSequenceReader()
        private var decoded: [TerminalInput] = []

        init(packets: [String], limit: Int) {
            self.packets = packets
            self.limit = limit
        }

        func setReadTimeout(milliseconds: Int) {}
        func read() -> TerminalInput? {
            reads += 1
            if decoded.isEmpty, !packets.isEmpty { decoded = reader.read(Array(packets.removeFirst().utf8)) }
            return decoded.isEmpty ? nil : decoded.removeFirst()
        }
        func draw(_ grid: CellGrid) {}
        func beep() {}
        func takeEndRequest() -> Bool { reads >= limit }
        var wakeUp: @Sendable () -> Void { {} }
    }

    /// The SSH game's first screen, the notice of a session without a key over the search: Esc,
    /// Esc quits, as the footer's "Esc quit" says, whether the two come in one packet or two.
    @Test(arguments: [["\u{1B}", "\u{1B}"], ["\u{1B}\u{1B}"]])
    func escEscQuitsTheFirstScreenUnderItsNotice(packets: [String]) {
        let catalog = Catalog(schools: [School(id: "S1", name: "가", level: .high, province: "서울특별시", district: "", address: "")], source: .starter)
        let state = GameState(catalog: catalog, saved: SavedState(), player: "guest", language: .english, now: MonotonicClock.now(),
                              columns: 80, rows: 24, seed: 1, notices: [.sessionWithoutKey])
        let terminal = ScriptedTerminal(packets: packets, limit: 50)
        var runner = GameRunner(screen: terminal, battle: Battle(news: []), state: state)
        runner.run()
        #expect(runner.state.isQuitting && terminal.reads < terminal.limit, "quit by the keys, after \(terminal.reads) reads")
    }
}
