import TouchSchoolCore
import TouchSchoolLocalBattle
import TouchSchoolStore
import TouchSchoolView

/// The frame loop: reads input, runs it through `update`, carries out the commands, and draws
/// `view` when the frame changed. Sleeps in the terminal read, so an idle game uses no CPU.
/// Saving happens elsewhere (`BattleConnection`): the loop hands changes over and takes the
/// answers as events, and never waits on a disk, a lock or a network. It plays on any
/// `GameTerminal`: the player's own, or an SSH player's on the server, by `clock` (the
/// monotonic clock; a test's own). (Its timings are computed properties: a generic type has no
/// stored static ones.)
public struct GameRunner<Terminal: GameTerminal> {
    /// At most 60 frames a second while anything moves (≥ 30 fps promised), none while nothing
    /// does. It also bounds how long a key waits for its frame: well within the 33 ms of one frame
    /// at 30 fps, even with the drawing on a busy machine.
    public static var localFrameNanoseconds: Int64 { 16_000_000 }
    /// The promised 30 frames a second, for a game the server draws for a remote terminal (SSH):
    /// the drawing is the server's cost per player (BENCHMARKS.md, "The game over SSH"), and half
    /// the frames halve it, while a key still shows within one frame at 30 fps.
    public static var remoteFrameNanoseconds: Int64 { 33_000_000 }
    /// An idle game still wakes this often: `.tick` saves taps and shows others' within a second.
    static var idleWaitMilliseconds: Int { Int(GameTiming.syncIntervalNanoseconds / 1_000_000) }
    /// Input is drained for at most this long before the next frame is drawn, so that a flood of
    /// keys is all counted without the screen freezing.
    static var drainNanoseconds: Int64 { 8_000_000 }

    private let screen: Terminal
    private let frameNanoseconds: Int64
    private let battle: any BattleConnection
    private let clock: () -> Instant
    public private(set) var state: GameState
    private var decoder = InputDecoder()
    private var isFinished = false
    /// False when quitting stopped waiting for the last save (it may still land, or not).
    public private(set) var lastSaveFinished = true
    private var lastFrame: Instant?
    /// Input or the battle's answers came since the last frame, so the next frame is due even if
    /// nothing animates (an answer that came just after a frame would otherwise wait for the next
    /// idle tick, half a second, to be drawn).
    private var hasUndrawnChanges = false

    /// How long quitting waits for the last save: long enough for a slow disk or a lock held
    /// for a moment, short enough that a stuck one does not hold the player's terminal.
    static var finalSaveNanoseconds: Int64 { 10_000_000_000 }

    public init(screen: Terminal, battle: any BattleConnection, state: GameState, frameNanoseconds: Int64 = localFrameNanoseconds,
                clock: @escaping () -> Instant = MonotonicClock.now) {
        self.screen = screen
        self.clock = clock
        self.frameNanoseconds = frameNanoseconds
        self.battle = battle
        self.state = state
        battle.whenEventsArrive(screen.wakeUp)
    }

    /// Runs until the player quits or a signal asks to; the last sync has been tried by then.
    public mutating func run() {
        var waitMilliseconds = 0
        defer { finishSaving() }
        while !isFinished {
            readInput(waitingUpTo: waitMilliseconds)
            if !isFinished, screen.takeEndRequest() { feed(.terminate, at: clock()) }
            if isFinished { break }
            let now = clock()
            if let pasteEnded = decoder.tick(now: now) { feed(pasteEnded, at: now) }
            for event in battle.takeEvents() {
                feed(event, at: now)
                hasUndrawnChanges = true
            }
            feed(.tick, at: now)
            if isFinished { break }
            // A round's digit or seconds left changed by the clock since the last frame: drawn
            // like news, a frame later if the last frame is too recent (not at its next change).
            if let lastFrame, let change = state.round?.nextChange(after: lastFrame), change <= now { hasUndrawnChanges = true }
            if lastFrame.map({ now.nanoseconds(since: $0) >= frameNanoseconds }) ?? true {
                screen.draw(view(state, now: now))
                lastFrame = now
                hasUndrawnChanges = false
            }
            waitMilliseconds = nextWait(now: now)
        }
    }

    /// Until the next frame while something moves or waits to be drawn, else until the next tick;
    /// sooner if an open paste's quiet gap ends first, so that it ends on time.
    private func nextWait(now: Instant) -> Int {
        var wait = Self.idleWaitMilliseconds
        if hasUndrawnChanges || state.isAnimating(at: now), let lastFrame {
            wait = Self.milliseconds(from: now, until: Instant(nanoseconds: lastFrame.nanoseconds + frameNanoseconds))
        }
        // A round's countdown and seconds left change by the clock: drawn when they change, not
        // at the next idle tick (up to half a second late, so every screen would start apart).
        if let change = state.round?.nextChange(after: now) {
            wait = min(wait, Self.milliseconds(from: now, until: change))
        }
        if let pasteDeadline = decoder.pasteDeadline {
            wait = min(wait, Self.milliseconds(from: now, until: pasteDeadline))
        }
        return wait
    }

    /// Rounded up, and at least 1: a wait of 0 would not wait at all.
    private static func milliseconds(from now: Instant, until deadline: Instant) -> Int {
        max(1, Int((deadline.nanoseconds(since: now) + 999_999) / 1_000_000))
    }

    /// Waits for the first input, then takes whatever else is pending without waiting.
    private mutating func readInput(waitingUpTo milliseconds: Int) {
        screen.setReadTimeout(milliseconds: milliseconds)
        guard var input = screen.read() else { return }
        screen.setReadTimeout(milliseconds: 0)
        let deadline = clock().nanoseconds + Self.drainNanoseconds
        while true {
            hasUndrawnChanges = true
            let now = clock()
            if let pasteEnded = decoder.tick(now: now) { feed(pasteEnded, at: now) }
            if let event = decoder.decode(input, now: now) { feed(event, at: now) }
            if isFinished || clock().nanoseconds >= deadline { return }
            guard let next = screen.read() else { return }
            input = next
        }
    }

    private mutating func feed(_ event: GameEvent, at now: Instant) {
        for command in update(&state, event, now: now) {
            switch command {
            case .bell:
                screen.beep()
            case let .sync(changes):
                battle.submit(changes)
            case let .watch(page):
                battle.watch(page)
            case let .showMap(shows):
                battle.showMap(shows)
            case let .rankBy(period):
                battle.rankBy(period)
            case .quit:
                isFinished = true
            }
        }
    }

    /// After the last frame: waits for the saves handed over, and takes their answers, so that
    /// `state.unsavedChanges` says what could not be saved.
    private mutating func finishSaving() {
        lastSaveFinished = battle.finish(timeoutNanoseconds: Self.finalSaveNanoseconds)
        for event in battle.takeEvents() { _ = update(&state, event, now: clock()) }
    }
}
