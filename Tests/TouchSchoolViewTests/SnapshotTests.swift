import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

/// Whole screens, cell for cell, at the smallest playable size. Each line is framed in `|` so
/// that trailing spaces are visible; a wide character fills two columns of the frame.
@Suite(.onOwnThreads) struct SnapshotTests {
    func expectScreen(_ grid: CellGrid, _ framed: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = framed.split(separator: "\n").map { String($0.dropFirst().dropLast()) }
        #expect(grid.lines == expected, "got:\n\(grid.lines.map { "|\($0)|" }.joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    @Test func englishPickerWithTwoSchoolsOfOneName() {
        var state = Fixture.game(.english, columns: 40, rows: 12, chosen: false)
        Fixture.type("금성초", into: &state)
        expectScreen(view(state, now: Fixture.start), """
            | 학교 대항전 TouchSchool  player tester |
            | Search for your school                 |
            | > 금성초_                              |
            | 2 schools                              |
            |>  금성초등학교  부산광역시 금정구…  15 |
            |   금성초등학교  전라남도 담양군 · …  0 |
            |                                        |
            |                                        |
            |                                        |
            |                                        |
            |                                        |
            | ↑↓ move  Enter choose  Esc quit  F1 h… |
            """)
    }

    @Test func koreanGameBeforeTheFirstTap() {
        let state = Fixture.game(.korean, columns: 40, rows: 12)
        expectScreen(view(state, now: Fixture.start), """
            | 학교 대항전 TouchSchool 플레이어 test… |
            | 서울고등학교  서울특별시 서…  전국 2위 |
            | 내 터치 5   학교 합계 1,234,567        |
            | 휘문고등학교까지 765,434번             |
            |                                        |
            |                                        |
            |        아무 키나 마구 누르세요!        |
            |                                        |
            | 전국 순위 ---------------------------- |
            | 2 -    경기고등학교          1,234,567 |
            | 2 -    서울고등학교          1,234,567 |
            | Tab 순위  F1 도움말  F2 학교 바꾸기  … |
            """)
    }
}
