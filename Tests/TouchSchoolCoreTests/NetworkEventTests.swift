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
