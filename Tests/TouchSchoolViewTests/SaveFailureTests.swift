import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

@Suite(.onOwnThreads) struct SaveFailureTests {
    /// The store's message ends with the system's words: those are what the player needs to see.
    static let reason = "Cannot write /home/someone/.local/share/touchschool/state.json: write /home/someone/.local/share/touchschool/state.json.tmp-12345: No space left on device"

    @Test(arguments: Language.allCases)
    func theCauseOfAFailingSaveShowsAt80Columns(language: Language) {
        var state = Fixture.game(language, columns: 80, rows: 24)
        _ = update(&state, .syncFailed(PendingChanges(player: "tester"), reason: Self.reason), now: Fixture.start)
        let status = view(state, now: Fixture.start).lines.last!
        #expect(status.contains("No space left on device"), "\(status)")
        #expect(status.contains(language == .korean ? "점수가 저장되지 않고 있습니다" : "Scores are not being saved"), "\(status)")
    }

    @Test func whereItFailedFollowsTheCause() {
        #expect(Strings(.english).saveFailure(Self.reason)
                == "Scores are not being saved: No space left on device (Cannot write /home/someone/.local/share/touchschool/state.json: write /home/someone/.local/share/touchschool/state.json.tmp-12345)")
        #expect(Strings(.english).saveFailure("disk full") == "Scores are not being saved: disk full")
    }
}
