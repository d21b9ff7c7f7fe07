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

    /// On a server a tap goes out a tenth of a second after the last save was asked for, so that
    /// the others see it as soon as the wire allows; locally, and with nothing waiting, the half
    /// second stays.
    @Test func onAServerWaitingTapsGoOutATenthOfASecondAfterTheLastSave() {
        for online in [true, false] {
            var game = makeGame()
            if online { _ = update(&game, .connectionChanged(.online), now: .milliseconds(0)) }
            guard case .sync = update(&game, .tick, now: .milliseconds(0)).first else {
                Issue.record("the first tick syncs")
                return
            }
            _ = update(&game, .synced(nil), now: .milliseconds(20))
            #expect(update(&game, .tick, now: .milliseconds(150)).isEmpty, "nothing waits: no sync before half a second")
            _ = GameTests().press("a", times: 1, every: 0, from: 160, into: &game)
            let commands = update(&game, .tick, now: .milliseconds(160))
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
