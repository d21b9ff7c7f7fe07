import Testing
import TouchSchoolCore
@testable import TouchSchoolNetworkCommands
@testable import TouchSchoolServer

/// `serve`'s activity line reads its counts as a person reads them: "1 player", "1 tap".
@Suite struct ServeCountWordsTests {
    @Test func oneIsSaidInTheSingular() {
        #expect(ServeGreeting.activity(ServerActivity(players: 1, taps: 1), language: .english) == "1 player connected · 1 tap in the last minute\n")
        #expect(ServeGreeting.activity(ServerActivity(players: 2, taps: 1_200), language: .english) == "2 players connected · 1,200 taps in the last minute\n")
        #expect(ServeGreeting.activity(ServerActivity(players: 1, taps: 1), language: .korean) == "접속 1명 · 최근 1분 터치 1번\n")
    }
}
