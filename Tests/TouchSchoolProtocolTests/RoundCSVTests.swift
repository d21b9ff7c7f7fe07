import Foundation
import Testing
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// A round's results as CSV, the one function behind `round show --csv` and
/// `GET /v1/rounds/ID/results.csv`: a byte order mark, RFC 4180 quoting, the round on every row,
/// and names that a spreadsheet would run as formulas kept text.
@Suite(.onOwnThreads) struct RoundCSVTests {
    static let round = RoundAnswer.Summary(id: 7, title: "=HYPERLINK(\"x\"), 3반", startsAtMs: 1_795_000_000_000,
                                           endsAtMs: 1_795_000_060_000, graceMs: 5_000)

    static func results(_ players: [RoundAnswer.Place]) -> RoundAnswer.Results {
        RoundAnswer.Results(round: round, nowMs: 1_795_000_100_000, players: players, schools: [])
    }

    @Test func trickyNamesAreQuotedAndKeptText() {
        let players = [
            RoundAnswer.Place(place: 1, tied: true, id: "p1", count: 150, player: "Kim, Minsu", school: "S1"),
            RoundAnswer.Place(place: 1, tied: true, id: "p2", count: 150, player: "say \"hi\"", school: "S2"),
            RoundAnswer.Place(place: 3, id: "p3", count: 90, player: "two\nlines", school: "S9"),
            RoundAnswer.Place(place: 4, id: "p4", count: 80, player: "=cmd|' /C calc'!A0", school: nil),
            RoundAnswer.Place(place: 5, id: "p5", count: 70, player: "-2+3", school: "S1"),
            RoundAnswer.Place(place: 6, id: "p6", count: 60, player: "@SUM(1)", school: "S1"),
            RoundAnswer.Place(place: 7, id: "p7", count: 50, player: "+82", school: "S1"),
            RoundAnswer.Place(place: 8, id: "p8", count: 40, player: "\u{1B}[2Jevil\ttab", school: "S1"),
            RoundAnswer.Place(place: 9, id: "p9", count: 30, player: nil, school: "S1"),
        ]
        let csv = RoundCSV.text(Self.results(players), schoolNames: ["S1": "서울고등학교", "S2": "Seoul \"Science\" High"],
                                language: .english, timeZone: TimeZone(identifier: "Asia/Seoul")!)
        let round = #"7,"'=HYPERLINK(""x""), 3반",2026-11-18 20:06:40,2026-11-18 20:07:40,"#
        #expect(csv == "\u{FEFF}round,title,starts (UTC+09:00),ends (UTC+09:00),place,player,school,taps\r\n"
            + round + #"1,"Kim, Minsu",서울고등학교,150"# + "\r\n"
            + round + #"1,"say ""hi""","Seoul ""Science"" High",150"# + "\r\n"
            + round + "3,\"two\nlines\",S9,90\r\n"
            + round + #"4,'=cmd|' /C calc'!A0,,80"# + "\r\n"
            + round + "5,'-2+3,서울고등학교,70\r\n"
            + round + "6,'@SUM(1),서울고등학교,60\r\n"
            + round + "7,'+82,서울고등학교,50\r\n"
            + round + #"8,\u{1B}[2Jevil\u{9}tab,서울고등학교,40"# + "\r\n"
            + round + "9,p9,서울고등학교,30\r\n")
        #expect(!csv.unicodeScalars.contains("\u{1B}"))
    }

    @Test func koreanHeadersAndAnUntitledRoundInUTC() {
        let untitled = RoundAnswer.Results(round: RoundAnswer.Summary(id: 2, title: nil, startsAtMs: 0, endsAtMs: 5_000, graceMs: 5_000),
                                           nowMs: 20_000, players: [RoundAnswer.Place(place: 1, id: "p1", count: 3, player: "민수", school: "S1")],
                                           schools: [])
        #expect(RoundCSV.text(untitled, schoolNames: [:], language: .korean, timeZone: TimeZone(identifier: "UTC")!)
            == "\u{FEFF}라운드,제목,시작 (UTC),끝 (UTC),순위,선수,학교,터치\r\n2,,1970-01-01 00:00:00,1970-01-01 00:00:05,1,민수,S1,3\r\n")
        #expect(RoundCSV.fileName(round: 2) == "round-2.csv")
    }
}
