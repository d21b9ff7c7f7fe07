import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
@testable import TouchSchoolView

@Suite(.onOwnThreads) struct TextLayoutTests {
    @Test func numbersGetThousandsSeparators() {
        #expect(NumberText.grouped(UInt64(0)) == "0")
        #expect(NumberText.grouped(UInt64(999)) == "999")
        #expect(NumberText.grouped(UInt64(1_000)) == "1,000")
        #expect(NumberText.grouped(UInt64(123_456)) == "123,456")
        #expect(NumberText.grouped(UInt64(1_234_567)) == "1,234,567")
        #expect(NumberText.grouped(UInt64.max) == "18,446,744,073,709,551,615")
        #expect(NumberText.grouped(-1_234) == "-1,234")
        #expect(NumberText.grouped(Int.min) == "-9,223,372,036,854,775,808")
    }

    @Test func wrappingBreaksAtSpacesAndKeepsEveryLineWithinTheWidth() {
        #expect(DisplayWidth.wrap("학교를 바꾸면 내 터치 수가", toWidth: 14) == ["학교를 바꾸면", "내 터치 수가"])
        #expect(DisplayWidth.wrap("abc def", toWidth: 3) == ["abc", "def"])
        #expect(DisplayWidth.wrap("", toWidth: 5) == [""])
        #expect(DisplayWidth.wrap("  indented text", toWidth: 40) == ["  indented text"])
        // A word longer than a line is broken between characters, never inside a Hangul syllable.
        #expect(DisplayWidth.wrap("전국초중등학교위치표준데이터", toWidth: 9) == ["전국초중", "등학교위", "치표준데", "이터"])
        #expect(DisplayWidth.wrap("anything", toWidth: 0).isEmpty)
        let text = Strings(.english).dataCredit
        for width in 1...60 {
            for line in DisplayWidth.wrap(text, toWidth: width) where width >= 2 {
                #expect(TerminalWidth.of(line) <= width)
            }
        }
        // Where no word is wider than a line, the lines joined again are the text.
        #expect(DisplayWidth.wrap(text, toWidth: 40).joined(separator: " ") == text)
    }

    @Test func cuttingFromEitherEndMarksTheCut() {
        #expect(DisplayWidth.truncate("서울고등학교", toWidth: 12) == "서울고등학교")
        #expect(DisplayWidth.truncate("서울고등학교", toWidth: 8) == "서울고…")
        #expect(DisplayWidth.truncate("서울고등학교", toWidth: 6) == "서울…")
        #expect(DisplayWidth.truncateLeading("서울고등학교", toWidth: 12) == "서울고등학교")
        #expect(DisplayWidth.truncateLeading("서울고등학교", toWidth: 8) == "…등학교")
        #expect(DisplayWidth.truncateLeading("abcdef", toWidth: 4) == "…def")
        #expect(DisplayWidth.truncateLeading("abc", toWidth: 0) == "")
        // Emoji take two cells like Hangul.
        #expect(DisplayWidth.truncate("합격✅🎉", toWidth: 7) == "합격✅…")
        #expect(DisplayWidth.pad("✅", toWidth: 4) == "✅  ")
    }

    @Test func putPiecesDropsWholePiecesThatDoNotFit() {
        var grid = CellGrid(width: 20, height: 1)
        grid.putPieces([("내 터치 5", .normal), ("학교 합계 9", .normal)], column: 1, row: 0, endColumn: 19)
        #expect(grid.text == " 내 터치 5          ")
        var cut = CellGrid(width: 8, height: 1)
        cut.putPieces([("서울고등학교까지", .normal)], column: 0, row: 0, endColumn: 8)
        #expect(cut.text == "서울고… ")
    }

    @Test(arguments: Language.allCases)
    func leagueAndProvinceNames(language: Language) {
        let s = Strings(language)
        let ko = language == .korean
        #expect(s.leagueName(.national) == (ko ? "전국" : "National"))
        #expect(s.leagueName(.level(.middle)) == (ko ? "중학교" : "Middle schools"))
        #expect(s.leagueName(.province("부산광역시")) == (ko ? "부산광역시" : "Busan"))
        #expect(s.leagueName(.levelInProvince(.elementary, "제주특별자치도")) == (ko ? "제주특별자치도 초등학교" : "Elementary schools in Jeju"))
        #expect(s.provinceName("어딘가") == "어딘가")
        for province in Province.all where !ko {
            #expect(!containsHangul(s.provinceName(province)), "\(province) has an English name")
        }
    }
}
