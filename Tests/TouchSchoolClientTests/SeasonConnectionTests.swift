import Synchronization
import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolClient
import TouchSchoolCore
import TouchSchoolProtocol

/// A server running seasons (issue 50), as the game's connection sees it: the `season` message
/// becomes an event, and the period the game ranks by goes with its watch, on every connection.
extension ScriptedServerTests {
    @Test func theSeasonIsToldAndThePeriodWatchedAgainOnEveryConnection() async throws {
        let week = try #require(Season.numbered(.week, 2969))
        let watches = Mutex(0)
        let server = try await ScriptedServer { message in
            switch message {
            case .hello:
                return [.send(.welcome(Welcome(battle: Self.battleID, lastSeq: 0, player: Self.me, catalog: "\"c\""))),
                        .send(.season(SeasonAnswer.Summary(week))), .send(Self.view(total: 5))]
            case .watch:
                // The first watch (all time, no page) ends the first connection; the second is
                // told that seasons have ended.
                let count = watches.withLock { count in count += 1; return count }
                return count == 1 ? [.close(CloseCode.goingAway)] : [.send(.season(nil))]
            case .taps, .ping, .showMap:
                return []
            }
        }
        defer { server.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (battle, _) = battle(on: server.port, in: directory)
        battle.start()
        var events = try await collect(battle) { $0.contains { if case .viewed(.school, _) = $0 { true } else { false } } }
        // Told before the first view, as the server sends it.
        let told = events.firstIndex(of: .seasonTold(week))
        let viewed = events.firstIndex { if case .viewed(.school, _) = $0 { true } else { false } }
        #expect(told != nil && viewed != nil && told! < viewed!, "\(events)")
        #expect(server.received.all.allSatisfy { if case .watch = $0 { false } else { true } }, "the season is the server's default: nothing to say")

        battle.rankBy(.allTime)
        events = try await collect(battle) { $0.contains(.seasonTold(nil)) }
        #expect(events.contains(.seasonTold(nil)), "\(events)")
        let sent = server.received.all.compactMap { if case let .watch(watch) = $0 { watch } else { nil } }
        #expect(sent == [Watch(league: nil, period: .allTime), Watch(league: nil, period: .allTime)], "\(server.received.all)")
        _ = battle.finish(timeoutNanoseconds: 1_000_000_000)
    }
}
