import Foundation
import TouchSchoolTestSupport
import Testing
import TouchSchoolStore
import TouchSchoolView

/// The commands under a Korean locale speak Korean (help, tables, summaries, their errors), and
/// English under any other: the real program, as a user runs it.
@Suite(.onOwnThreads, .tags(.process)) struct KoreanCommandsTests {
    static let korean = ["LANG": "ko_KR.UTF-8"]
    /// A terminal wide enough for every paragraph of the help on one line: the help's texts whole.
    static let wide = ["COLUMNS": "100000"]

    @Test func helpIsKoreanUnderAKoreanLocaleAndEnglishOtherwise() {
        let root = DataCommandsBinary.run(["--help"], locale: Self.korean.merging(Self.wide) { $1 })
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
    /// Korean one, argument-parser's own (help, version, defaults, the pointer to `help`) neither.
    @Test(arguments: everyCommand)
    func everyCommandsHelpIsKorean(_ command: [String]) {
        let english = DataCommandsBinary.run(command + ["--help"], locale: ["LANG": "C.UTF-8"].merging(Self.wide) { $1 })
        let korean = DataCommandsBinary.run(command + ["--help"], locale: Self.korean.merging(Self.wide) { $1 })
        #expect(english.status == 0 && korean.status == 0)
        // The texts of the English help, a paragraph a line: what follows an option's or a
        // subcommand's name, and the overview's paragraphs, each long enough to be a text and not a value.
        let sentences = english.output.split(separator: "\n").map { line -> String in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix(" "), let gap = text.range(of: "  ") else { return text }
            return text[gap.upperBound...].trimmingCharacters(in: .whitespaces)
        }.filter { $0.count > 16 && $0.contains(" ") && !$0.hasPrefix("USAGE:") && !$0.hasPrefix("-") && !$0.hasPrefix("<") && !$0.hasPrefix("touchschool") }
        #expect(!sentences.isEmpty)
        // Prose (the unindented lines) is joined as written, never with the source's indentation
        // inside a sentence.
        for output in [english.output, korean.output] {
            let gaps = output.split(separator: "\n").filter { !$0.hasPrefix(" ") && $0.contains("   ") }
            #expect(gaps.isEmpty, "\(gaps)")
        }
        let left = sentences.filter { korean.output.contains($0) }
        #expect(left.isEmpty, "English left in `\(command.joined(separator: " ")) --help`: \(left)")
    }

    static let everyCommand: [[String]] = [[], ["play"], ["search"], ["rank"], ["stats"], ["import"], ["reset"], ["serve"], ["admin"],
                                           ["admin", "devices"], ["admin", "ban"], ["admin", "unban"], ["admin", "ban-address"],
                                           ["admin", "unban-address"], ["round"], ["round", "start"], ["round", "stop"], ["round", "list"],
                                           ["round", "show"], ["round", "link"]]

    /// The lines a terminal `columns` wide shows of `text`: a line wider than it goes on at the
    /// next line from the column where it no longer fits, wherever that falls.
    static func onATerminal(_ text: String, columns: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            var rows = [""], used = 0
            for character in line {
                let width = DisplayWidth.of(character)
                if used + width > columns { rows.append(""); used = 0 }
                rows[rows.count - 1].append(character)
                used += width
            }
            return rows
        }
    }

    /// Every command's help in 80 columns, in Korean and English: no line wider (the terminal
    /// broke the Korean help's lines, laid out by character count, inside words: "들\n어오게"),
    /// and broken only between words: the same words as the help on a terminal wide enough for
    /// every paragraph.
    @Test(arguments: everyCommand)
    func everyCommandsHelpFitsEightyColumnsBetweenWords(_ command: [String]) {
        for locale in [Self.korean, ["LANG": "C.UTF-8"]] {
            let help = DataCommandsBinary.run(command + ["--help"], locale: locale.merging(["COLUMNS": "80"]) { $1 })
            #expect(help.status == 0)
            let wide = help.output.split(separator: "\n").filter { DisplayWidth.of(String($0)) > 80 }
            #expect(wide.isEmpty, "`\(command.joined(separator: " ")) --help` under \(locale): \(wide)")
            let unwrapped = DataCommandsBinary.run(command + ["--help"], locale: locale.merging(["COLUMNS": "100000"]) { $1 })
            #expect(help.output.split(whereSeparator: \.isWhitespace) == unwrapped.output.split(whereSeparator: \.isWhitespace),
                    "`\(command.joined(separator: " ")) --help` under \(locale)")
        }
    }

    /// What the issue saw on an 80-column terminal, now whole; and argument-parser's own words in Korean too.
    @Test func theKoreanHelpReadsWholeOnAnEightyColumnTerminal() {
        let serve = DataCommandsBinary.run(["serve", "--help"], locale: Self.korean.merging(["COLUMNS": "80"]) { $1 })
        let shown = Self.onATerminal(serve.output, columns: 80)
        #expect(shown.contains { $0.contains("들어오게).") }, "\(shown)")
        #expect(shown.contains("  --port <port>           들을 포트 (0: 비어 있는 아무 포트). (기본값: 8080)"), "\(shown)")
        #expect(shown.contains("  -h, --help              도움말을 보여 줍니다."), "\(shown)")
        // A command in backquotes is not broken: it is typed as one.
        #expect(shown.contains { $0.contains("`ssh -p PORT NAME@HOST`로") }, "\(shown)")
        let root = DataCommandsBinary.run(["--help"], locale: Self.korean.merging(["COLUMNS": "80"]) { $1 })
        #expect(root.output.contains("  자세한 도움말: 'touchschool help <하위 명령>'"), "\(root.output)")
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
        // A usage error: ours in Korean, argument-parser's pointer to the help too, the usage in 80 columns.
        let port = DataCommandsBinary.run(["serve", "--port", "99999"], locale: Self.korean.merging(["COLUMNS": "80"]) { $1 })
        #expect(port.status == 64)
        // serve has more than 12 options: argument-parser's usage names them `<options>`.
        #expect(port.error.hasPrefix("오류: --port는 0부터 65535까지여야 합니다\n사용법: touchschool serve <options>\n"), "\(port.error)")
        #expect(port.error.hasSuffix("\n  자세한 설명: 'touchschool serve --help'\n"), "\(port.error)")
        #expect(port.error.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 80 }, "\(port.error)")
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

        // The refusals, with their numbers grouped as everywhere else.
        let oldEdition = "\(folder.path)/2025.csv"
        try FileSystem.live.replaceAtomically(oldEdition, with: Array([ImportCommandTests.header, ImportCommandTests.row("B1", "가중학교", edition: "2025-03-25")]
            .joined(separator: "\n").utf8))
        let older = DataCommandsBinary.run(["import", oldEdition, "--data-dir", "\(folder.path)/data"], locale: Self.korean)
        #expect(older.status == 1)
        #expect(older.error.hasPrefix("오류: 이 목록은 2025-03-25 판으로, 이미 가져온 판(2026-03-20)보다 오래되었습니다: "), "\(older.error)")
        #expect(older.error.hasSuffix("그래도 가져오려면 --force를 주세요.\n아무것도 바꾸지 않았습니다.\n"), "\(older.error)")
        let whole = "\(folder.path)/whole.csv", cut = "\(folder.path)/cut.csv"
        try ImportCommandTests.writeList(2_000, to: whole)
        try ImportCommandTests.writeList(2_000, keeping: 500, to: cut)
        #expect(DataCommandsBinary.run(["import", whole, "--force", "--data-dir", "\(folder.path)/data"], locale: Self.korean).status == 0)
        let refused = DataCommandsBinary.run(["import", cut, "--data-dir", "\(folder.path)/data"], locale: Self.korean)
        #expect(refused.status == 1)
        #expect(refused.error.hasPrefix("오류: 이 목록은 지금 카탈로그의 2,000개 학교 중 1,500개를 뺍니다: "), "\(refused.error)")
        #expect(refused.error.hasSuffix("그래도 가져오려면 --force를 주세요.\n아무것도 바꾸지 않았습니다.\n"), "\(refused.error)")
        let forced = DataCommandsBinary.run(["import", cut, "--force", "--data-dir", "\(folder.path)/data"], locale: Self.korean)
        #expect(forced.status == 0, "\(forced.error)")
        #expect(forced.output.contains("  … 외 1,480개\n"), "\(forced.output)")

        let missing = DataCommandsBinary.run(["import", "\(folder.path)/missing.csv", "--data-dir", "\(folder.path)/data"], locale: Self.korean)
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("오류: ") && missing.error.hasSuffix("아무것도 바꾸지 않았습니다.\n"), "\(missing.error)")
    }

    /// The list's own faults, as the Store's reader finds them, in Korean under a Korean locale
    /// (they were English after "오류:"), and in English otherwise, as they were.
    @Test func theImportsFileErrorsAreKorean() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        func importing(_ name: String, _ text: [UInt8]?, locale: [String: String] = Self.korean) throws -> String {
            let path = "\(folder.path)/\(name)"
            if let text { try FileSystem.live.replaceAtomically(path, with: text) }
            let result = DataCommandsBinary.run(["import", path, "--data-dir", "\(folder.path)/data"], locale: locale)
            #expect(result.status == 1, "\(name): \(result.output)")
            return result.error
        }
        let rows = [ImportCommandTests.header, ImportCommandTests.row("B1", "가중학교")]
        let missing = try importing("missing.csv", nil)
        #expect(missing == "오류: \(folder.path)/missing.csv: 읽을 수 없습니다: 그런 파일이나 디렉터리가 없습니다\n아무것도 바꾸지 않았습니다.\n",
                "\(missing)")
        let short = try importing("short.csv", Array((rows + ["B2,나중학교", ""]).joined(separator: "\n").utf8))
        #expect(short == "오류: \(folder.path)/short.csv: 3번째 줄: 필드가 2개입니다 (머리글은 13개)\n아무것도 바꾸지 않았습니다.\n", "\(short)")
        let encoding = try importing("encoding.csv", Array((rows.joined(separator: "\n") + "\n").utf8) + [0xFF, 0xFF, 0x0A])
        #expect(encoding.hasPrefix("오류: \(folder.path)/encoding.csv: 3번째 줄: 파일이 UTF-8도 CP949(포털의 인코딩)도 아닙니다; 여기까지는 "),
                "\(encoding)")
        let header = try importing("header.csv", Array("학교ID,학교명\nB1,가\n".utf8))
        #expect(header.hasPrefix("오류: \(folder.path)/header.csv: 1번째 줄: 전국 학교 목록(표준데이터 15021148)이 아닙니다: "
            + "학교급구분, 시도교육청명, 소재지도로명주소, 소재지지번주소, 데이터기준일자 열이 없습니다\n"), "\(header)")
        // The same from `touchschool-network`, for an import into PostgreSQL (the file is read first).
        let postgres = DataCommandsBinary.run(["import", "--postgres", "postgres://nobody@127.0.0.1:9/none", "\(folder.path)/missing.csv"],
                                              locale: Self.korean)
        #expect(postgres.status == 1 && postgres.error == missing, "\(postgres.error)")
        for error in [missing, short, encoding, header] {
            #expect(!error.contains("line") && !error.contains("No such") && !error.contains("UTF-8 nor") && !error.contains("missing the"), "\(error)")
        }

        let english = try importing("short.csv", nil, locale: ["LANG": "C.UTF-8"])
        #expect(english == "Error: \(folder.path)/short.csv: line 3: 2 fields where the header has 13\nNothing was changed.\n", "\(english)")
        let missingInEnglish = try importing("missing.csv", nil, locale: ["LANG": "C.UTF-8"])
        #expect(missingInEnglish.hasPrefix("Error: \(folder.path)/missing.csv: No such file or directory (open "), "\(missingInEnglish)")
    }

    /// argument-parser's own words under a Korean locale: the help's headings, and its usage
    /// errors (an unknown option, a missing argument, a value it cannot read) with their usage
    /// laid out under the Korean heading. English under any other locale, as the parser says it.
    @Test func argumentParsersOwnWordsAreKorean() throws {
        let eighty = Self.korean.merging(["COLUMNS": "80"]) { $1 }
        let root = DataCommandsBinary.run(["--help"], locale: eighty)
        #expect(root.output.hasPrefix("개요: 학교 대항전: 학교끼리 겨루는 연타 게임\n"), "\(root.output)")
        #expect(root.output.contains("\n사용법: touchschool <하위 명령>\n\n옵션:\n"), "\(root.output)")
        #expect(root.output.contains("\n하위 명령:\n  play (기본)  "), "\(root.output)")
        // The subcommands' texts still start in one column, the default one's too.
        let lines = root.output.split(separator: "\n").map(String.init)
        func column(_ text: String) -> Int? {
            lines.first { $0.contains(text) }.map { line in DisplayWidth.of(String(line[..<line.range(of: text)!.lowerBound])) }
        }
        #expect(column("학교를 고르고 그 학교를") != nil && column("학교를 고르고 그 학교를") == column("순위표: 저장된"), "\(root.output)")
        let importHelp = DataCommandsBinary.run(["import", "--help"], locale: eighty)
        #expect(importHelp.output.contains("\n인자:\n  <FILE>"), "\(importHelp.output)")
        for help in [root.output, importHelp.output] {
            for english in ["OVERVIEW:", "USAGE:", "OPTIONS:", "ARGUMENTS:", "SUBCOMMANDS:", "(default)", "See '", "subcommand"] {
                #expect(!help.contains(english), "\(english) in \(help)")
            }
        }
        // The usage's lines go on under its first option, past the wider heading (rank's, in 40
        // columns: serve's, of more than 12 options, is argument-parser's `<options>`).
        let rank = DataCommandsBinary.run(["rank", "--help"], locale: Self.korean.merging(["COLUMNS": "40"]) { $1 })
        let usage = rank.output.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("사용법: ") }.prefix { !$0.isEmpty }
        #expect(usage.first?.hasPrefix("사용법: touchschool rank [--top <n>]") == true, "\(rank.output)")
        #expect(usage.count > 2 && usage.dropFirst().allSatisfy { $0.hasPrefix("        [") }, "\(usage)")

        let errors: [(arguments: [String], start: String)] = [
            (["serve", "--port", "x"], "오류: '--port <port>'의 값 'x'이(가) 올바르지 않습니다\n도움말:  --port <port>  들을 포트 (0: 비어 있는 아무 포트).\n"
                + "사용법: touchschool serve <options>\n"),
            (["play", "--lang", "fr"], "오류: '--lang <lang>'의 값 'fr'이(가) 올바르지 않습니다: 'ko', 'en' 중 하나를 주세요.\n"),
            (["import"], "오류: 필요한 인자가 없습니다: '<FILE>'\n도움말:  <FILE>  전국 학교 목록: data.go.kr에서 내려받은 CSV 파일.\n사용법: touchschool import <FILE>"),
            (["rank", "--levle", "고"], "오류: 알 수 없는 옵션: '--levle'. 혹시 '--level'?\n사용법: touchschool rank [--top <n>]"),
            (["rank", "extra"], "오류: 예상하지 못한 인자: 'extra'\n사용법: touchschool rank"),
            (["rank", "a", "b"], "오류: 예상하지 못한 인자 2개: 'a', 'b'\n사용법: touchschool rank"),
            // Not an option of any command: the parser answers with the root's usage.
            (["rank", "---x"], "오류: 잘못된 옵션: ---x\n사용법: touchschool <하위 명령>\n"),
            (["rank", "--region", "atlantis"], "오류: '--region <region>'의 값 'atlantis'이(가) 올바르지 않습니다: 다음 중 하나를 주세요:\n  - 서울\n"),
            (["rank", "--top"], "오류: 값이 없습니다: '--top <n>'\n"),
            (["rank", "--json=yes"], "오류: '--json'에는 값을 줄 수 없습니다: 'yes'\n"),
            // An option's help wider than the terminal is laid out too, between words.
            (["serve", "--ssh-port", "x"], "오류: '--ssh-port <port>'의 값 'x'이(가) 올바르지 않습니다\n도움말:  --ssh-port <port>  이 포트에서 SSH로도"),
        ]
        for (arguments, start) in errors {
            let result = DataCommandsBinary.run(arguments, locale: eighty)
            #expect(result.status == 64, "\(arguments): \(result.error)")
            #expect(result.error.hasPrefix(start), "\(arguments): \(result.error)")
            let command = arguments == ["rank", "---x"] ? "" : "\(arguments[0]) "
            #expect(result.error.hasSuffix("\n  자세한 설명: 'touchschool \(command)--help'\n"), "\(arguments): \(result.error)")
            #expect(!result.error.contains("Error") && !result.error.contains("Usage") && !result.error.contains("Help:"), "\(result.error)")
            // The help and the usage in 80 columns (the message names what was typed, which may be wider).
            #expect(result.error.split(separator: "\n").dropFirst().allSatisfy { DisplayWidth.of(String($0)) <= 80 }, "\(result.error)")
        }

        let english = DataCommandsBinary.run(["rank", "--levle", "고"], locale: ["LANG": "C.UTF-8", "COLUMNS": "80"])
        #expect(english.error.hasPrefix("Error: Unknown option '--levle'. Did you mean '--level'?\nUsage: touchschool rank [--top <n>]"), "\(english.error)")
        #expect(english.error.hasSuffix("\n  See 'touchschool rank --help' for more information.\n"), "\(english.error)")
        let englishHelp = DataCommandsBinary.run(["--help"], locale: ["LANG": "C.UTF-8", "COLUMNS": "80"])
        #expect(englishHelp.output.hasPrefix("OVERVIEW: 학교 대항전: a school-vs-school tap battle\n"), "\(englishHelp.output)")
        #expect(englishHelp.output.contains("\nUSAGE: touchschool <subcommand>\n\nOPTIONS:\n") && englishHelp.output.contains("\nSUBCOMMANDS:\n  play (default)  "))
    }

    /// `serve` on a port another program holds, its HTTP port or its SSH port: why, and what to
    /// do, in Korean (the server's words were English).
    @Test func serveSaysABusyPortInKorean() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let held = try HeldPort()
        defer { held.close() }
        let http = DataCommandsBinary.run(["serve", "--port", "\(held.port)", "--data-dir", folder.path], locale: Self.korean)
        #expect(http.status == 1)
        #expect(http.error.hasSuffix("오류: 포트 \(held.port)을(를) 이미 다른 프로그램이 쓰고 있습니다 (다른 서버가 아직 실행 중인가요?): "
            + "그 프로그램을 멈추거나 --port로 다른 포트를 고르세요 (0: 비어 있는 아무 포트)\n"), "\(http.error)")
        let ssh = DataCommandsBinary.run(["serve", "--port", "0", "--ssh-port", "\(held.port)", "--data-dir", folder.path], locale: Self.korean)
        #expect(ssh.status == 1)
        #expect(ssh.error.hasSuffix("오류: SSH 포트 \(held.port)을(를) 이미 다른 프로그램이 쓰고 있습니다 (다른 서버가 아직 실행 중인가요?): "
            + "그 프로그램을 멈추거나 --ssh-port로 다른 포트를 고르세요 (0: 비어 있는 아무 포트)\n"), "\(ssh.error)")
        // An address this machine does not have (TEST-NET-1, documentation's own).
        let address = DataCommandsBinary.run(["serve", "--host", "192.0.2.1", "--port", "0", "--data-dir", folder.path], locale: Self.korean)
        #expect(address.status == 1)
        #expect(address.error.hasSuffix("오류: 이 컴퓨터에는 192.0.2.1 주소가 없습니다: 모든 네트워크에서 들으려면 --host 0.0.0.0을 쓰세요\n"),
                "\(address.error)")
        let english = DataCommandsBinary.run(["serve", "--port", "0", "--ssh-port", "\(held.port)", "--data-dir", folder.path])
        #expect(english.error.hasSuffix("Error: cannot listen for SSH on 127.0.0.1:\(held.port): the port is in use (another server still running?); "
            + "stop it, or choose another with --ssh-port (0: any free port)\n"), "\(english.error)")
    }

    /// A port on loopback that this process listens on and never answers: another program's, to `serve`.
    struct HeldPort {
        let port: Int
        private let socket: Int32

        init() throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let socket = socket
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, length) == 0 && listen(socket, 1) == 0 && getsockname(socket, $0, &length) == 0
                }
            }
            if !bound { Glibc.close(socket) }
            try #require(bound, "cannot listen on loopback: errno \(errno)")
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        func close() { Glibc.close(socket) }
    }
}
