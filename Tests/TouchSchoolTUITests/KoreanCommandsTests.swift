import Foundation
import TouchSchoolTestSupport
import Testing
import TouchSchoolStore

/// The commands under a Korean locale speak Korean (help, tables, summaries, their errors), and
/// English under any other: the real program, as a user runs it.
@Suite(.onOwnThreads) struct KoreanCommandsTests {
    static let korean = ["LANG": "ko_KR.UTF-8"]

    @Test func helpIsKoreanUnderAKoreanLocaleAndEnglishOtherwise() {
        let root = DataCommandsBinary.run(["--help"], locale: Self.korean)
        #expect(root.status == 0)
        #expect(root.output.contains("학교 대항전: 학교끼리 겨루는 연타 게임"), "\(root.output)")
        #expect(root.output.contains("게임 중 키:"))
        #expect(root.output.contains("학교를 이름, 줄임말(서울고), 초성(ㅎㅁㄱ)"))  // the subcommands' abstracts
        #expect(root.output.contains("실행 중인 서버의 관리자 도구: 기기 목록, 차단과 차단 해제."))
        #expect(!root.output.contains("a school-vs-school tap battle"))

        let search = DataCommandsBinary.run(["search", "--help"], locale: Self.korean)
        #expect(search.status == 0)
        #expect(search.output.contains("검색어는 따로따로 주거나"), "\(search.output)")
        #expect(search.output.contains("결과를 최대 이만큼: 양의 정수."))
        #expect(search.output.contains("점수와 가져온 학교 목록을 두는 곳."))
        #expect(search.output.contains("한 시도만, 어떤 이름으로든"))

        for locale in [["LANG": "C"], ["LANG": "en_US.UTF-8"], ["LANG": "ko_KR.UTF-8", "LC_ALL": "C.UTF-8"]] {
            let english = DataCommandsBinary.run(["--help"], locale: locale)
            #expect(english.output.contains("학교 대항전: a school-vs-school tap battle"), "\(locale)")
            #expect(english.output.contains("Keys while playing:"))
            let searchHelp = DataCommandsBinary.run(["search", "--help"], locale: locale)
            #expect(searchHelp.output.contains("At most this many results: a positive whole number."), "\(locale)")
            #expect(!searchHelp.output.contains("결과를 최대"))
        }
        // LC_MESSAGES decides over LANG, as the game reads it.
        let messages = DataCommandsBinary.run(["rank", "--help"], locale: ["LANG": "C", "LC_MESSAGES": "ko_KR.UTF-8"])
        #expect(messages.output.contains("순위표: 저장된 터치 수가 많은 학교부터."), "\(messages.output)")
    }

    /// Every command's help, nested ones too: no sentence of the English help is left in the
    /// Korean one but argument-parser's own (help, version).
    @Test(arguments: [[], ["play"], ["search"], ["rank"], ["stats"], ["import"], ["reset"], ["serve"], ["admin"],
                      ["admin", "devices"], ["admin", "ban"], ["admin", "unban"], ["admin", "ban-address"], ["admin", "unban-address"]])
    func everyCommandsHelpIsKorean(_ command: [String]) {
        let english = DataCommandsBinary.run(command + ["--help"], locale: ["LANG": "C.UTF-8"])
        let korean = DataCommandsBinary.run(command + ["--help"], locale: Self.korean)
        #expect(english.status == 0 && korean.status == 0)
        // argument-parser's own words: its help and version flags, its pointer to `help`.
        let parsersOwn = ["Show help information.", "Show the version."]
        // The descriptions of the English help: what follows an option's name, and the
        // overview's sentences, each long enough to be a text and not a value.
        let sentences = english.output.split(separator: "\n").map { line in
            line.trimmingCharacters(in: .whitespaces)
        }.filter { $0.count > 24 && $0.contains(" ") && !$0.hasPrefix("USAGE:") && !$0.hasPrefix("-") && !$0.hasPrefix("<") && !$0.hasPrefix("touchschool") }
        // Prose (the unindented lines) is joined as written, never with the source's indentation
        // inside a sentence.
        for output in [english.output, korean.output] {
            let gaps = output.split(separator: "\n").filter { !$0.hasPrefix(" ") && $0.contains("   ") }
            #expect(gaps.isEmpty, "\(gaps)")
        }
        let left = sentences.filter { korean.output.contains($0) && !parsersOwn.contains($0) && !$0.hasPrefix("See 'touchschool help") }
        #expect(left.isEmpty, "English left in `\(command.joined(separator: " ")) --help`: \(left)")
    }

    @Test func searchRankAndStatsPrintKorean() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let data = ["--data-dir", folder.path]

        let found = DataCommandsBinary.run(["search", "휘문고"] + data, locale: Self.korean)
        #expect(found.status == 0, "\(found.error)")
        let lines = found.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("#  학교") == true, "\(found.output)")
        #expect(lines.first?.contains("학교급") == true && lines.first?.contains("시군구") == true)
        #expect(lines.dropFirst().first?.contains("휘문고등학교") == true)

        let typo = DataCommandsBinary.run(["search", "휘뮨고"] + data, locale: Self.korean)
        #expect(typo.status == 0)
        #expect(typo.output.hasPrefix("\"휘뮨고\"에 맞는 학교가 없습니다.\n혹시 휘문고등학교?\n#  학교"), "\(typo.output)")
        #expect(typo.output.contains("기본 학교 목록에는 621개 학교만 있습니다."))

        let rank = DataCommandsBinary.run(["rank", "--top", "2"] + data, locale: Self.korean)
        #expect(rank.status == 0)
        #expect(rank.output.hasPrefix("전체 학교: 621개 학교\n순위  터치 수  학교\n"), "\(rank.output)")
        let high = DataCommandsBinary.run(["rank", "--level", "고", "--region", "부산"] + data, locale: Self.korean)
        #expect(high.output.hasPrefix("부산광역시 고등학교: "), "\(high.output)")

        let stats = DataCommandsBinary.run(["stats", "--player", "민지"] + data, locale: Self.korean)
        #expect(stats.output == "민지은(는) 아직 학교를 고르지 않았습니다. `touchschool`을 실행해 고르세요.\n", "\(stats.output)")

        let nothing = DataCommandsBinary.run(["search"] + data, locale: Self.korean)
        #expect(nothing.status == 1)
        #expect(nothing.error == "오류: 찾을 말이 없습니다: 이름을 주거나 (touchschool search 서울고), --level / --region을 주세요.\n", "\(nothing.error)")
    }

    @Test func playAndResetSpeakKoreanToo() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let play = DataCommandsBinary.run(["play", "--data-dir", folder.path], locale: Self.korean)
        #expect(play.status == 1)
        #expect(play.error.hasPrefix("오류: touchschool play에는 터미널이 필요합니다: 표준 입력이 터미널이 아닙니다"), "\(play.error)")
        let reset = DataCommandsBinary.run(["reset", "--data-dir", folder.path], locale: Self.korean)
        #expect(reset.status == 0)
        #expect(reset.output == "초기화할 것이 없습니다: \(folder.path)에 저장된 점수가 없습니다.\n", "\(reset.output)")
        let help = DataCommandsBinary.run(["reset", "--help"], locale: Self.korean)
        #expect(help.output.contains("묻지 않고 초기화합니다."), "\(help.output)")
    }

    @Test func aTypoIsAnsweredWithTheClosestNamesInEnglishToo() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let typo = DataCommandsBinary.run(["search", "휘문고등하교", "--data-dir", folder.path])
        #expect(typo.status == 0)
        #expect(typo.output.hasPrefix("No school matches \"휘문고등하교\".\nDid you mean 휘문고등학교?\n#  School"), "\(typo.output)")
        // The JSON carries the suggestions too, as GET /v1/search does (it was `[]`).
        let json = DataCommandsBinary.run(["search", "휘뮨고", "--json", "--data-dir", folder.path])
        let answer = try JSONValue.parse(json.output)
        #expect(answer["query"]?.stringValue == "휘뮨고" && answer["schools"]?.arrayValue?.isEmpty == true, "\(json.output)")
        #expect(answer["suggestions"]?.arrayValue?.first?["name"]?.stringValue == "휘문고등학교", "\(json.output)")
    }

    /// The level column in the command's language, as the game names it: High in English
    /// (it printed 고등학교 there), 고등학교 in Korean.
    @Test func searchNamesTheLevelInTheCommandsLanguage() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        /// The cells of 휘문고등학교's row: rank, name, level, province, district, score.
        func row(_ result: (status: Int32, output: String, error: String)) -> [String] {
            let line = result.output.split(separator: "\n").first { $0.contains("휘문고등학교") } ?? ""
            return line.split(separator: " ").map(String.init)
        }
        let english = DataCommandsBinary.run(["search", "휘문고", "--data-dir", folder.path])
        #expect(english.status == 0 && row(english).dropFirst().prefix(3) == ["휘문고등학교", "High", "서울특별시"], "\(english.output)")
        let korean = DataCommandsBinary.run(["search", "휘문고", "--data-dir", folder.path], locale: Self.korean)
        #expect(korean.status == 0 && row(korean).dropFirst().prefix(3) == ["휘문고등학교", "고등학교", "서울특별시"], "\(korean.output)")
    }

    @Test func theImportSummaryIsKorean() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let csv = "\(folder.path)/list.csv"
        try FileSystem.live.replaceAtomically(csv, with: Array([ImportCommandTests.header, ImportCommandTests.row("B1", "가중학교")]
            .joined(separator: "\n").utf8))
        let result = DataCommandsBinary.run(["import", csv, "--data-dir", "\(folder.path)/data"], locale: Self.korean)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("2026-03-20 기준 전국 학교 목록에서 1개 학교를 가져왔습니다 (UTF-8).\n출처: "), "\(result.output)")
        #expect(result.output.contains("  1  추가\n"))
        #expect(result.output.contains("에 저장했습니다."))

        let older = DataCommandsBinary.run(["import", "\(folder.path)/missing.csv", "--data-dir", "\(folder.path)/data"], locale: Self.korean)
        #expect(older.status == 1)
        #expect(older.error.hasPrefix("오류: ") && older.error.hasSuffix("아무것도 바꾸지 않았습니다.\n"), "\(older.error)")
    }
}
