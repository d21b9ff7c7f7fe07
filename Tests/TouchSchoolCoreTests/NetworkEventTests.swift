import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore

/// What playing on a server adds to the game: the connection's status, taps the server refused.
@Suite(.onOwnThreads) struct NetworkEventTests {
    func makeGame() -> GameState {
        GameTests().makeGame(school: 0)
    }

    @Test func theConnectionStatusIsKeptAsSaidAndChangesNothingElse() {
        var game = makeGame()
        #expect(game.connection == nil)
        GameTests().press("asdf", times: 10, every: 100, from: 0, into: &game)
        let before = game.pendingChanges
        for status: ConnectionStatus in [.connecting(waitingTaps: 0), .offline(waitingTaps: 10), .online,
                                         .unsupportedProtocol(waitingTaps: 3)] {
            let commands = update(&game, .connectionChanged(status), now: .milliseconds(1100))
            #expect(commands.isEmpty)
            #expect(game.connection == status)
        }
        #expect(game.pendingChanges == before)
        #expect(game.counter.myTaps == 10)
    }

    /// On a server a tap after a pause goes out at once, so that the others see it as soon as the
    /// wire allows; locally, and with nothing waiting, the half second stays.
    @Test func onAServerATapAfterAPauseGoesOutAtOnce() {
        for online in [true, false] {
            var game = makeGame()
            if online { _ = update(&game, .connectionChanged(.online), now: .milliseconds(0)) }
            guard case .sync = update(&game, .tick, now: .milliseconds(0)).first else {
                Issue.record("the first tick syncs")
                return
            }
            _ = update(&game, .synced(nil), now: .milliseconds(20))
            #expect(update(&game, .tick, now: .milliseconds(150)).isEmpty, "nothing waits: no sync before half a second")
            // The first sync handed over the choice of school: a quarter second after it.
            _ = GameTests().press("a", times: 1, every: 0, from: 260, into: &game)
            let commands = update(&game, .tick, now: .milliseconds(260))
            if online {
                guard case let .sync(changes) = commands.first else {
                    Issue.record("a tap waiting on a server goes out at once: \(commands)")
                    return
                }
                #expect(changes.scoreDeltas == ["S1": 1])
            } else {
                #expect(commands.isEmpty, "locally the tap waits for the half second")
                #expect(update(&game, .tick, now: .milliseconds(500)).count == 1)
            }
        }
    }

    /// A player mashing on a server hands taps over at most every quarter second, however often
    /// views arrive: four acknowledgements a second beside four views stay under 2 KiB/s, where
    /// ten would not (issue 25). A view still brings a sync at once (the board with my taps
    /// waiting added), without them while their quarter second runs. No tap is lost.
    @Test func onAServerAPlayerMashingHandsTapsOverFourTimesASecond() {
        var game = makeGame()
        _ = update(&game, .connectionChanged(.online), now: .milliseconds(0))
        _ = update(&game, .tick, now: .milliseconds(0))
        _ = update(&game, .synced(nil), now: .milliseconds(5))
        var handedOver: [Int64] = []
        var boardSyncs = 0
        var taps: UInt64 = 0
        var pressed: UInt64 = 0
        // Ten keys a second for two seconds, a view every 250 ms, a tick every 10 ms; each save
        // answered 5 ms after it was asked for.
        var answerAt: Int64?
        // The first sync handed over the choice of school: the keys start a quarter second after.
        for now in stride(from: Int64(250), to: 2_300, by: 10) {
            if now % 100 == 0, now <= 2_200 {
                _ = GameTests().press("a", times: 1, every: 0, from: now, into: &game)
                pressed += 1
            }
            if now % 250 == 30 { _ = update(&game, .battleChanged, now: .milliseconds(now)) }
            if let at = answerAt, now >= at {
                _ = update(&game, .synced(nil), now: .milliseconds(now))
                answerAt = nil
            }
            for case let .sync(changes) in update(&game, .tick, now: .milliseconds(now)) {
                answerAt = now + 5
                if changes.isEmpty {
                    boardSyncs += 1
                } else {
                    handedOver.append(now)
                    taps += changes.playerTaps
                }
            }
        }
        #expect(handedOver == [300, 550, 800, 1_050, 1_300, 1_550, 1_800, 2_050])
        #expect(boardSyncs >= 6, "the views' syncs, without the taps: \(boardSyncs)")
        #expect(game.counter.myTaps == pressed, "none refused")
        #expect(taps + game.pendingPlayerTaps == pressed)
    }

    /// Others' taps reached the server's board: the game asks for them at once, not at the half
    /// second; with a sync under way, right after its answer.
    @Test func whenTheBattleChangesTheNextSyncIsDueAtOnce() {
        var game = makeGame()
        _ = update(&game, .connectionChanged(.online), now: .milliseconds(0))
        _ = update(&game, .tick, now: .milliseconds(0))
        _ = update(&game, .synced(nil), now: .milliseconds(10))
        #expect(update(&game, .tick, now: .milliseconds(100)).isEmpty)
        _ = update(&game, .battleChanged, now: .milliseconds(120))
        #expect(update(&game, .tick, now: .milliseconds(120)) == [.sync(PendingChanges(player: "tester"))])
        // A change while that sync is under way: due again once it is answered.
        _ = update(&game, .battleChanged, now: .milliseconds(130))
        #expect(update(&game, .tick, now: .milliseconds(130)).isEmpty, "one sync at a time")
        _ = update(&game, .synced(nil), now: .milliseconds(140))
        #expect(update(&game, .tick, now: .milliseconds(140)) == [.sync(PendingChanges(player: "tester"))])
    }

    @Test func tapsTheServerRefusedShowTheWarningAndRingOnce() {
        var game = makeGame()
        var commands = update(&game, .tapsRefusedByServer(12), now: .milliseconds(1000))
        #expect(game.warning?.reason == .tooManyTaps)
        #expect(game.warning?.refusedTaps == 12)
        #expect(commands == [.bell])
        commands = update(&game, .tapsRefusedByServer(3), now: .milliseconds(1200))
        #expect(game.warning?.refusedTaps == 15)
        #expect(commands.isEmpty)
        // The warning goes after the usual time, like the game's own.
        _ = update(&game, .tick, now: .milliseconds(1200 + GameTiming.warningNanoseconds / 1_000_000))
        #expect(game.warning == nil)
    }

    @Test func noRefusedTapsNoWarning() {
        var game = makeGame()
        #expect(update(&game, .tapsRefusedByServer(0), now: .milliseconds(1000)).isEmpty)
        #expect(game.warning == nil)
    }

    @Test func aQuietGameDoesNotRingForTheServer() {
        var game = makeGame()
        game.bellEnabled = false
        #expect(update(&game, .tapsRefusedByServer(5), now: .milliseconds(1000)).isEmpty)
        #expect(game.warning?.refusedTaps == 5)
    }
}
