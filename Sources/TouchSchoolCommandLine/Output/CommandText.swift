#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolView

/// The language the commands speak: Korean under a Korean locale (`LC_ALL`, `LC_MESSAGES`, `LANG`,
/// as the game decides), else English. Read once, when first needed: the help texts are chosen
/// by it while the arguments are parsed, before any command runs, and the environment does not
/// change in between.
public let commandLanguage = Language.fromLocale(environment: ProcessEnvironment.current)

/// Every word the commands print, in both languages: help, tables, summaries and their own errors.
/// Nothing else in the module spells out what a user reads (the game's screens have `Strings`).
enum CommandText {
    private static var ko: Bool { commandLanguage == .korean }

    // MARK: touchschool

    static var rootAbstract: String { ko ? "학교 대항전: 학교끼리 겨루는 연타 게임" : "학교 대항전: a school-vs-school tap battle" }
    static var rootDiscussion: String {
        ko ? """
            내 학교를 고르고 키를 마구 누르세요: 키 하나가 내 학교의 터치 한 번이고, 전국 순위에서 \
            어느 학교가 앞서는지 보입니다. 사람이 칠 수 없는 속도(누르고 있는 키, 붙여넣기)는 무시됩니다.

            게임 중 키:
              아무 키   내 학교에 터치 한 번 (게임 영역의 마우스 클릭도)
              Tab       순위: ←/→ 리그, ↑/↓ PgUp/PgDn 이동, m 내 학교, v 지도, a 시즌/전체
              F1        도움말       F2       학교 바꾸기
              Esc       뒤로 (게임에서는 종료할지 묻습니다)
              Ctrl-C    저장하고 종료
              Ctrl-Z    일시 정지 (`fg`로 계속)

            학교 자료: 공공데이터포털(data.go.kr) 전국초중등학교위치표준데이터, \
            한국교육시설안전원 제공; `touchschool import FILE`로 가져옵니다.
            """ : """
            Choose your school, then mash keys: every key is a tap for your school, and the national \
            leaderboard shows who leads. Inhumanly fast bursts (a held key, a paste) are refused.

            Keys while playing:
              any key    a tap for your school (a mouse click in the play area too)
              Tab        the ranking: ←/→ league, ↑/↓ PgUp/PgDn scroll, m my school, v map, a season/all time
              F1         help          F2       choose another school
              Esc        back (in the game, asks whether to quit)
              Ctrl-C     save and quit
              Ctrl-Z     suspend (`fg` resumes)

            School data: 공공데이터포털 (data.go.kr) 전국초중등학교위치표준데이터, provided by \
            한국교육시설안전원; load it with `touchschool import FILE`.
            """
    }

    /// A line of argument-parser's help or of its usage error with the parser's own words (its
    /// headings, its flags' help, the defaults, the pointers to more help) in the commands'
    /// language: they are English only. The names of the options and their values' placeholders stay.
    static func parsersWords(_ line: String) -> String {
        guard ko else { return line }
        if let heading = parsersSections[line] { return heading }
        var line = line
        let see = "  See '"
        for (suffix, korean) in [("' for detailed help.", "자세한 도움말"), ("' for more information.", "자세한 설명")]
        where line.hasPrefix(see) && line.hasSuffix(suffix) {
            line = "  \(korean): '\(line.dropFirst(see.count).dropLast(suffix.count))'"
        }
        if let (english, korean) = parsersLabels.first(where: { line.hasPrefix($0.english) }) {
            line = korean + line.dropFirst(english.count)
        }
        for (english, korean) in [("Show help information.", "도움말을 보여 줍니다."), ("Show the version.", "버전을 보여 줍니다."), ("(default: ", "(기본값: "),
                                   ("(values: ", "(값: "), (" (default)  ", " (기본)     "), ("<subcommand>", "<하위 명령>")] {
            line = line.replacing(english, with: korean)
        }
        return line
    }

    /// The help's section headings, each a line of its own.
    private static let parsersSections = ["OPTIONS:": "옵션:", "ARGUMENTS:": "인자:", "SUBCOMMANDS:": "하위 명령:"]
    /// The labels a line of the help or of a usage error starts with.
    private static let parsersLabels: [(english: String, korean: String)] = [
        ("OVERVIEW: ", "개요: "), ("USAGE: ", koreanUsage), ("Usage: ", koreanUsage), ("Help:  ", koreanHelpLabel),
    ]
    /// What heads the usage in Korean, in the help and in a usage error, and a usage error's line
    /// with the option's help (`HelpLayout` lays them out).
    static let koreanUsage = "사용법: ", koreanHelpLabel = "도움말:  "

    /// argument-parser's own error message (an unknown option, a missing argument, a value it
    /// cannot read) in the commands' language; ours, already in it, and any the parser words
    /// otherwise pass as they are. Its first line is matched against the parser's English
    /// sentences; what the parser lists below it (the values to choose from) stays.
    static func parsersError(_ message: String) -> String {
        guard ko else { return message }
        let firstLine = message.prefix { $0 != "\n" }
        for (pattern, korean) in parsersErrors {
            if let match = try? pattern.wholeMatch(in: firstLine) {
                let parts = match.output.dropFirst().map { $0.substring.map(String.init) ?? "" }
                return korean(parts) + message.dropFirst(firstLine.count)
            }
        }
        return message
    }

    /// argument-parser's error sentences (`ErrorMessageGenerator`) that these commands' arguments
    /// can meet, and their Korean, given the captured names and values.
    private static var parsersErrors: [(Regex<AnyRegexOutput>, ([String]) -> String)] { [
        (#"The value '(.*)' is invalid for '(.*?)'(.*)"#, { "'\($0[1])'의 값 '\($0[0])'이(가) 올바르지 않습니다" + valueChoices($0[2]) }),
        (#"Missing expected argument '(.*)'"#, { "필요한 인자가 없습니다: '\($0[0])'" }),
        (#"Unknown option '(.*)'\. Did you mean '(.*)'\?"#, { "알 수 없는 옵션: '\($0[0])'. 혹시 '\($0[1])'?" }),
        (#"Unknown option '(.*)'"#, { "알 수 없는 옵션: '\($0[0])'" }),
        (#"Missing value for '(.*)'"#, { "값이 없습니다: '\($0[0])'" }),
        (#"Unexpected argument '(.*)'"#, { "예상하지 못한 인자: '\($0[0])'" }),
        (#"(\d+) unexpected arguments: (.*)"#, { "예상하지 못한 인자 \($0[0])개: \($0[1])" }),
        (#"The option '(.*)' does not take any value, but '(.*)' was specified\."#, { "'\($0[0])'에는 값을 줄 수 없습니다: '\($0[1])'" }),
        (#"Invalid option: (.*)"#, { "잘못된 옵션: \($0[0])" }),
    ].map { (try! Regex($0.0), $0.1) } }

    /// What follows the parser's "is invalid": our own reason (": …", already in the language),
    /// or the values to choose from.
    private static func valueChoices(_ english: String) -> String {
        if english.hasPrefix(": ") { return english }
        if english.hasPrefix(". Please provide one of the following:") { return ": 다음 중 하나를 주세요:" }
        let list = ". Please provide one of "
        guard english.hasPrefix(list), english.hasSuffix(".") else { return english }
        let values = english.dropFirst(list.count).dropLast().replacing(" and ", with: ", ").replacing(" or ", with: ", ")
        return ": \(values) 중 하나를 주세요."
    }

    /// What ArgumentParser puts before every error message, and what the user reads instead.
    static let parserErrorPrefix = "Error: "
    static var errorPrefix: String { ko ? "오류: " : parserErrorPrefix }

    // MARK: Shared options

    static var dataDirectoryHelp: String { ko ? "점수와 가져온 학교 목록을 두는 곳." : "Where the scores and the imported catalog are kept." }
    static var dataDirectoryDiscussion: String {
        ko ? "기본값: $TOUCHSCHOOL_HOME, 없으면 $XDG_DATA_HOME/touchschool, 없으면 ~/.local/share/touchschool."
            : "Default: $TOUCHSCHOOL_HOME, else $XDG_DATA_HOME/touchschool, else ~/.local/share/touchschool."
    }
    static var serverHelp: String {
        ko ? "이 URL의 서버에서 겨룹니다: http://host:port, https://, ws:// 또는 wss:// (기본값: $TOUCHSCHOOL_SERVER, 없으면 이 컴퓨터의 대항전). 여러 번 주면 (한 대항전을 나눠 맡은 서버들) 게임은 서버 하나가 멈출 때 다음 서버로 옮깁니다."
            : "Use the battle of the server at this URL: http://host:port, https://, ws:// or wss:// (default: $TOUCHSCHOOL_SERVER, else the local battle). Given more than once (servers sharing one battle), a game moves to the next when one fails."
    }
    static var levelHelp: String { ko ? "한 학교급만: 초, 중, 고 (elementary, middle, high도 됩니다)." : "Only one level; elementary, middle and high work too." }
    static var regionHelp: String { ko ? "한 시도만, 어떤 이름으로든: 서울, 서울특별시, seoul…" : "Only one province (시도), by any of its names: 서울, 서울특별시, seoul…" }

    // MARK: play

    static var playAbstract: String { ko ? "학교를 고르고 그 학교를 위해 키를 마구 누릅니다 (기본 명령)." : "Choose your school and mash keys for it (the default command)." }
    static var schoolIDHelp: String { ko ? "검색 없이 이 ID의 학교로 시작합니다." : "Play for the school with this id, skipping the search." }
    static var langHelp: String { ko ? "게임의 언어 (기본값: 로캘에 따라)." : "Language of the game (default: from the locale)." }
    static var quietHelp: String { ko ? "터미널 벨을 울리지 않습니다." : "Never ring the terminal bell." }
    static var noMouseHelp: String { ko ? "마우스 클릭을 터치로 받지 않습니다 (마우스는 터미널이 씁니다)." : "Don't take mouse clicks as taps (leaves the mouse to the terminal)." }
    static var playerHelp: String {
        ko ? "누구의 터치인지, 여러 사람이 한 데이터 디렉터리를 쓸 때 (기본값: 로그인 이름)."
            : "Whose taps these are, when several people share a data directory (default: the login name)."
    }
    static func alreadyPlaying(_ player: String, in directory: String) -> String {
        ko ? "\(player)은(는) 이미 \(directory)에서 플레이 중입니다: 한 이름으로 게임 두 개를 하면 터치가 섞입니다. "
            + "--player 이름으로 다른 사람으로 플레이하세요"
            : "\(player) is already playing in \(directory): two games under one name would mix "
            + "their taps; play as someone else with --player NAME"
    }
    static func tapsNotSaved(_ taps: UInt64, reason: String) -> String {
        ko ? "터치 \(NumberText.grouped(taps))번을 저장하지 못했습니다: \(reason)"
            : "\(NumberText.counted(taps, "tap", "taps")) could not be saved: \(reason)"
    }
    static var unknownReason: String { ko ? "알 수 없음" : "unknown" }
    static var lastSaveUnfinished: String { ko ? "마지막 저장이 제때 끝나지 않았습니다" : "the last save did not finish in time" }
    /// `stream`: which of the two is not a terminal.
    static func needsATerminal(input: Bool) -> String {
        if ko {
            return "touchschool play에는 터미널이 필요합니다: 표준 \(input ? "입력" : "출력")이 터미널이 아닙니다 (스크립트에서는 `touchschool rank`나 `stats`를 쓰세요)"
        }
        return "touchschool play needs a terminal: standard \(input ? "input" : "output") is not one (try `touchschool rank` or `stats` in scripts)"
    }
    static func terminalCannotPlaceCursor(_ term: String) -> String {
        ko ? "터미널 종류 '\(term)'은(는) 커서를 옮길 수 없어 게임을 보여 줄 수 없습니다: TERM을 쓰는 터미널로 정하세요 (예: xterm-256color)"
            : "terminal type '\(term)' cannot place the cursor, so the game cannot be shown: set TERM to your terminal (e.g. xterm-256color)"
    }
    static func unknownTerminal(_ term: String) -> String {
        ko ? "알 수 없는 터미널 종류 '\(term)': TERM을 쓰는 터미널로 정하세요 (예: xterm-256color)"
            : "unknown terminal type '\(term)': set TERM to your terminal (e.g. xterm-256color)"
    }
    static func noSchoolWithID(_ id: String) -> String {
        ko ? "ID가 '\(id)'인 학교가 없습니다 (ID는 `touchschool search 이름`으로 찾으세요)"
            : "no school has the id '\(id)' (find ids with `touchschool search NAME`)"
    }

    // MARK: search

    static var searchAbstract: String {
        ko ? "학교를 이름, 줄임말(서울고), 초성(ㅎㅁㄱ), 영문 자판 입력(tjdnfrh), 지역(부산 해운대초)으로 찾습니다."
            : "Find schools by name, abbreviation (서울고), 초성 (ㅎㅁㄱ), English-keyboard typing (tjdnfrh) or region (부산 해운대초)."
    }
    static var searchDiscussion: String {
        ko ? """
            검색어는 따로따로 주거나 따옴표로 묶어 하나로 줄 수 있습니다. 결과마다 학교의 이름, 학교급, \
            시도, 시군구, 점수(데이터 디렉터리에 저장된 터치 수)를 보여 줍니다. 찾는 학교가 없으면 \
            이름이 가장 가까운 학교를 묻습니다 (휘뮨고 → 혹시 휘문고등학교?). 검색어 없이 \
            --level이나 --region만 주면 학교 목록 순서대로 보여 줍니다.
            """ : """
            Words may come as separate arguments or one quoted argument. Each result shows the school's \
            name, level, province and district, and its score (taps saved in the data directory). \
            When nothing matches, the schools with the closest names are offered (휘뮨고 → did you mean \
            휘문고등학교?). With no words, --level and/or --region list schools in catalog order.
            """
    }
    static var queryHelp: String { ko ? "찾을 말." : "What to search for." }
    static var limitHelp: String { ko ? "결과를 최대 이만큼: 양의 정수." : "At most this many results: a positive whole number." }
    static var searchJSONHelp: String {
        ko ? "결과를 JSON으로 출력합니다: {\"query\", \"schools\", \"suggestions\"} (서버의 /v1/search처럼, 가까운 이름은 찾은 학교가 없을 때만)."
            : "Print the results as JSON: {\"query\", \"schools\", \"suggestions\"} (as the server's /v1/search; the closest names only when nothing matched)."
    }
    static var queryNotUTF8: String {
        ko ? "검색어가 올바른 UTF-8이 아닙니다: UTF-8 글자로 주세요 (터미널이나 스크립트의 인코딩을 확인하세요)."
            : "the query is not valid UTF-8: give it as UTF-8 text (check the terminal's or the script's encoding)."
    }
    static var nothingToSearchFor: String {
        ko ? "찾을 말이 없습니다: 이름을 주거나 (touchschool search 서울고), --level / --region을 주세요."
            : "nothing to search for: give a name (touchschool search 서울고), or --level / --region."
    }
    static var searchHeadings: [String] { ko ? ["#", "학교", "학교급", "시도", "시군구", "점수"] : ["#", "School", "Level", "Province", "District", "Score"] }
    static var noLongerListed: String { ko ? "(목록에 없음)" : "(no longer listed)" }
    static func noMatch(_ query: String, among filters: [String]) -> String {
        let among = filters.joined(separator: ", ")
        if ko { return "\"\(query)\"\(filters.isEmpty ? "" : " (\(among))")에 맞는 학교가 없습니다." }
        return "No school matches \"\(query)\"\(filters.isEmpty ? "" : " among \(among)")."
    }
    /// Before the guesses' table, when the query found nothing: the closest name first.
    static func didYouMean(_ name: String) -> String { ko ? "혹시 \(name)?" : "Did you mean \(name)?" }
    static func starterCatalogHint(schoolCount: Int) -> String {
        ko ? """
            기본 학교 목록에는 \(NumberText.grouped(schoolCount))개 학교만 있습니다. 전국의 모든 학교를 쓰려면 \
            전국초중등학교위치표준데이터(data.go.kr, 데이터셋 15021148)를 CSV로 내려받아 실행하세요: touchschool import FILE
            """ : """
            The starter catalog lists only \(NumberText.counted(schoolCount, "school", "schools")). For every school in Korea, download \
            전국초중등학교위치표준데이터 (data.go.kr, dataset 15021148) as CSV and run: touchschool import FILE
            """
    }

    // MARK: rank

    static var rankAbstract: String { ko ? "순위표: 저장된 터치 수가 많은 학교부터." : "Show the leaderboard: schools by their saved taps, most first." }
    static var rankDiscussion: String {
        ko ? """
            학교 목록(가져온 전국 목록, 없으면 기본 목록)의 학교를 데이터 디렉터리에 저장된 터치 수로 \
            순위를 매깁니다. 실행 중인 게임의 터치도 들어갑니다. 터치 수가 같은 학교는 같은 순위입니다 \
            (1, 2, 2, 4). 아직 터치가 없는 학교는 순위가 없습니다 (-, JSON에서는 null). 시즌이 진행 \
            중인 서버(--server)에서는 이번 시즌의 터치 수로 매기고 첫 줄에 시즌을 적습니다 (--all-time: 전체 기간).

            예:
              touchschool rank                            전국 상위 20개 학교
              touchschool rank --level 고 --region 서울   서울의 고등학교
              touchschool rank --top 5 --json             상위 5개 학교를 JSON으로
              touchschool rank --all-time --server URL    시즌이 아닌 전체 기간의 순위
            """ : """
            Ranks the schools of the catalog (the imported official list, else the starter catalog) by \
            the taps saved in the data directory, including those of games still running. Schools with \
            equal taps share a rank (1, 2, 2, 4); a school without taps has no rank yet (-, null in JSON). \
            On a server running seasons (--server), the season's taps, named on the first line \
            (--all-time: all time's).

            Examples:
              touchschool rank                            the national top 20
              touchschool rank --level 고 --region 서울   high schools in Seoul
              touchschool rank --top 5 --json             the top 5 as JSON
              touchschool rank --all-time --server URL    all time's ranking, not the season's
            """
    }
    static var topHelp: String { ko ? "보여 줄 학교 수: 양의 정수." : "How many schools to show: a positive whole number." }
    static var rankJSONHelp: String {
        ko ? "{rank, id, name, level, province, district, count}의 JSON 배열로 출력합니다."
            : "Print a JSON array of {rank, id, name, level, province, district, count}."
    }
    static func leagueTitle(_ league: League, size: Int) -> String {
        let scope = switch league {
        case .national: ko ? "전체 학교" : "All schools"
        case let .level(level): level.koreanName
        case let .province(province): province
        case let .levelInProvince(level, province): "\(province) \(level.koreanName)"
        }
        return ko ? "\(scope): \(NumberText.grouped(size))개 학교" : "\(scope): \(NumberText.counted(size, "school", "schools"))"
    }
    static var rankHeadings: (rank: String, taps: String, school: String) { ko ? ("순위", "터치 수", "학교") : ("Rank", "Taps", "School") }

    // MARK: stats

    static var statsAbstract: String {
        ko ? "플레이어 한 사람의 기록: 학교, 터치 수, 최고 속도, 학교의 순위." : "Show a player's own numbers: school, taps, best speed, and the school's rank."
    }
    static var statsDiscussion: String {
        ko ? """
            플레이어는 이름으로 구별하며, 여러 사람이 한 데이터 디렉터리를 쓸 수 있습니다. "내 터치"는 \
            지금 학교를 고른 뒤의 내 터치 수이고, 학교의 터치 수와 전국 순위는 모두의 것입니다.
            """ : """
            Players are known by name; several can share one data directory. "My taps" counts the \
            player's taps since choosing the current school; the school's taps and national rank \
            include everyone's.
            """
    }
    static var statsPlayerHelp: String { ko ? "누구의 기록인지 (기본값: 로그인 이름)." : "Whose numbers (default: your login name)." }
    static var statsJSONHelp: String {
        ko ? "JSON 객체 하나로 출력합니다: player; 내 학교의 id, name, level, province, district, address; myTaps, bestTapsPerSecond, count (내 학교의 터치 수), rank, schools; season (count와 rank의 시즌 id, 전체 기간이면 null)."
            : "Print one JSON object: player; my school's id, name, level, province, district, address; myTaps, bestTapsPerSecond, count (my school's taps), rank, schools; season (the id of the season count and rank are of; null for all time)."
    }
    static func noSchoolChosen(_ player: String) -> String {
        ko ? "\(player)은(는) 아직 학교를 고르지 않았습니다. `touchschool`을 실행해 고르세요.\n"
            : "\(player) has not chosen a school yet. Start `touchschool` to choose one.\n"
    }
    /// The labels of the stats lines, in order: player, school, my taps, best speed, school's
    /// taps, rank, and the period those are of when there is one to name.
    static func statsLabels(withPeriod: Bool) -> [String] {
        (ko ? ["플레이어", "학교", "내 터치", "최고 속도", "학교 터치 수", "전국 순위"]
            : ["Player", "School", "My taps", "Best speed", "School's taps", "National rank"]) + (withPeriod ? [ko ? "기간" : "Period"] : [])
    }

    static var allTimeHelp: String {
        ko ? "시즌이 진행 중인 서버에서 이번 시즌 대신 전체 기간의 터치 수로 (기본값: 이번 시즌)."
            : "On a server running a season, all time's taps instead of the season's (default: the season's)."
    }

    /// The period a command's numbers are of, when there is one to name: the season a server's
    /// answer said, with its id ("이번 주 (week-2960)" / "This week (week-2960)"), or all time
    /// when asked for (`.allTime`); nil for neither (no season: as before seasons).
    static func period(_ asked: RankingPeriod?, season: Season?) -> String? {
        let strings = Strings(commandLanguage)
        if let season { return "\(strings.period(.season, of: season)) (\(season.id))" }
        return asked.map { strings.period($0) }
    }
    static func tapsPerSecond(_ taps: Int) -> String { ko ? "초당 \(taps)번" : NumberText.counted(taps, "tap/s", "taps/s") }
    static func rank(_ rank: Int, of size: String) -> String { ko ? "\(size)개 학교 중 \(rank)위" : "\(rank) of \(size)" }
    static var notRanked: String { ko ? "아직 순위 없음 (터치 없음)" : "not ranked yet (no taps)" }

    // MARK: import

    static var importAbstract: String {
        ko ? "전국 학교 목록(전국초중등학교위치표준데이터)을 가져옵니다." : "Import the official national school list (전국초중등학교위치표준데이터)."
    }
    static var importDiscussion: String {
        ko ? """
            공공데이터포털(https://www.data.go.kr)에서 표준데이터 15021148 \
            "전국초중등학교위치표준데이터"(한국교육시설안전원 제공)를 CSV로 내려받아 이 명령에 주세요. \
            포털이 주는 CP949 파일도, UTF-8 파일도 됩니다.

            가져온 목록은 같은 데이터 디렉터리를 쓰는 모든 게임에서 작은 기본 목록을 대신하며, 거기에 \
            catalog.json으로 남습니다. 나중에 새 판을 가져오면 목록이 갱신됩니다. 이름이 바뀐 학교는 \
            학교ID가 그대로이므로 점수도 그대로입니다. 새 판에 없는 학교는 점수와 함께 남고 목록에 \
            없음으로 표시됩니다. 기본 목록의 학교는 이름, 시도, 학교급으로 전국 목록의 학교와 맞춰 \
            점수가 옮겨 가고, 맞출 수 없는 학교는 점수가 있을 때만 남습니다.

            파일을 먼저 검사합니다: 다른 인코딩, 빠진 열, 깨진 행이 있으면 문제의 줄을 알려 주고 아무것도 \
            바꾸지 않습니다. 이미 가져온 것보다 오래된 판과 지금 목록의 학교를 절반 넘게 빼는 목록(잘린 \
            파일)은 --force 없이는 가져오지 않습니다. 실행 중인 \
            게임은 1초 안에 새 목록으로 계속합니다.
            """ : """
            Download the list from 공공데이터포털 (https://www.data.go.kr), standard dataset 15021148 \
            "전국초중등학교위치표준데이터" (provided by 한국교육시설안전원), as CSV, and give the file to this \
            command. The file may be in CP949, as the portal serves it, or in UTF-8.

            The imported list replaces the small starter catalog for every game using the same data \
            directory; it is kept there as catalog.json. Importing a newer edition later updates it. \
            A renamed school keeps its identity (its 학교ID) and so its score. A school the new edition \
            no longer lists stays, with its score, marked as no longer listed. A starter-catalog school \
            is matched to its official entry by name, province and level, and its score carries over; \
            one that cannot be matched is kept only if it has a score.

            The file is checked first: a file in another encoding, with missing columns or a broken row \
            is refused with the line at fault, and nothing is changed. An edition older than the one \
            imported already, or a list that leaves out more than half of the schools listed now (a \
            file cut short), is refused unless --force is given. Games already running carry on \
            with the new catalog within a second.
            """
    }
    static var importFileHelp: String { ko ? "전국 학교 목록: data.go.kr에서 내려받은 CSV 파일." : "The official list, a CSV file downloaded from data.go.kr." }
    static var forceHelp: String {
        ko ? "이미 가져온 것보다 오래된 판도, 지금 목록의 학교를 절반 넘게 빼는 목록도 가져옵니다."
            : "Import even an edition older than the one imported already, or a list that leaves out more than half of the schools listed now."
    }
    /// Why an import was refused (`CatalogImport.check`), and how to import anyway.
    static func importRefused(_ refusal: ImportRefusal) -> String {
        switch refusal {
        case let .olderEdition(list, imported):
            ko ? "이 목록은 \(list) 판으로, 이미 가져온 판(\(imported))보다 오래되었습니다: 가져오면 새 판의 학교가 목록에서 빠진 것으로 "
                + "표시됩니다. 그래도 가져오려면 --force를 주세요."
                : "this list is the edition of \(list), older than the one imported (\(imported)): importing it would mark the newer "
                + "schools as no longer listed. Import it anyway with --force."
        case let .dropsMostSchools(removed, listed):
            ko ? "이 목록은 지금 카탈로그의 \(NumberText.grouped(listed))개 학교 중 \(NumberText.grouped(removed))개를 뺍니다: 잘린 파일인 것 "
                + "같습니다 (새 판은 보통 수십 개만 뺍니다). 그 학교들은 점수와 함께 남지만 목록에서 빠진 것으로 표시됩니다. "
                + "온전한 목록인지 확인하세요. 그래도 가져오려면 --force를 주세요."
                : "this list leaves out \(NumberText.grouped(removed)) of the \(NumberText.counted(listed, "school", "schools")) the catalog lists now: "
                + "it looks cut short (a new edition closes a few dozen). Those schools would stay, with their scores, marked as no "
                + "longer listed. Check that the file is the whole list, or import it anyway with --force."
        }
    }
    /// Why the official list cannot be imported (`OfficialListError`), after the file's name.
    static func officialListError(_ error: OfficialListError) -> String {
        let line = error.line.map { ko ? "\($0)번째 줄: " : "line \($0): " } ?? ""
        let problem: String = switch error.problem {
        case let .unreadable(error): ko ? "읽을 수 없습니다: \(systemError(error.code))" : "\(error)"
        case let .tooLarge(mebibytes):
            ko ? "파일이 \(mebibytes) MiB보다 커서 더 읽지 않았습니다: 전국 학교 목록은 4 MB쯤이므로 이 파일은 목록이 아닙니다"
                : "the file is larger than \(mebibytes) MiB, read no further: the official list is about 4 MB, so this is not it"
        case .notText(readsAs: .utf8WithBOM, _):
            ko ? "파일이 UTF-8로 시작하지만(바이트 순서 표시) 여기서 올바른 UTF-8이 아닙니다"
                : "the file starts as UTF-8 (a byte order mark) but is not valid UTF-8 here"
        case let .notText(encoding, failure):
            (ko ? "파일이 UTF-8도 CP949(포털의 인코딩)도 아닙니다; 여기까지는 \(encoding.rawValue)(으)로 읽힙니다"
                : "the file is neither UTF-8 nor CP949 (the portal's encoding); it reads as \(encoding.rawValue) up to here")
                + (failure.map { failure in
                    switch failure {
                    case .noConverter: ko ? ": 이 시스템의 iconv는 CP949를 변환할 수 없습니다" : ": this system's iconv cannot convert CP949"
                    case let .system(code): ": \(systemError(code))"
                    }
                } ?? "")
        case .unclosedQuote: ko ? "따옴표로 연 필드가 닫히지 않습니다" : "a quoted field is never closed"
        case .quoteInUnquotedField: ko ? "따옴표 없는 필드 안에 따옴표가 있습니다" : "a quote inside an unquoted field"
        case .textAfterClosingQuote: ko ? "필드의 닫는 따옴표 뒤에 글자가 있습니다" : "text after the closing quote of a field"
        case .empty: ko ? "파일이 비어 있습니다" : "the file is empty"
        case let .duplicateColumn(name): ko ? "\(name) 열이 두 번 나옵니다" : "the column \(name) appears twice"
        case let .missingColumns(columns):
            ko ? "전국 학교 목록(표준데이터 15021148)이 아닙니다: \(columns.joined(separator: ", ")) 열이 없습니다"
                : "not the official school list (표준데이터 15021148): missing the column\(columns.count == 1 ? "" : "s") \(columns.joined(separator: ", "))"
        case let .cutShort(column, value):
            ko ? "파일이 잘린 것 같습니다 (내려받기가 덜 끝났나요?): 마지막 열 \(column)의 값 \"\(value)\"에서 줄바꿈 없이 끝나는데, "
                + "그 값은 다른 행에 없습니다. 목록을 다시 내려받으세요."
                : "the file seems cut short (an incomplete download?): it ends without a line break inside its last column, "
                + "\(column), whose value \"\(value)\" no other row has. Download the list again."
        case let .fieldCount(fields, header): ko ? "필드가 \(fields)개입니다 (머리글은 \(header)개)" : "\(NumberText.counted(fields, "field", "fields")) where the header has \(header)"
        case let .duplicateID(id, firstLine): ko ? "학교ID \(id): 이미 \(firstLine)번째 줄에 있습니다" : "학교ID \(id) is already on line \(firstLine)"
        case .noSchools: ko ? "머리글만 있고 학교가 없습니다" : "the file has a header but no schools"
        case .emptyID: ko ? "학교ID가 비어 있습니다" : "empty 학교ID"
        case let .emptyName(id): ko ? "학교명이 비어 있습니다 (학교ID \(id))" : "empty 학교명 (학교ID \(id))"
        case let .unknownLevel(level, id):
            ko ? "알 수 없는 학교급구분 \"\(level)\" (학교ID \(id)): 초등학교, 중학교, 고등학교 중 하나여야 합니다"
                : "unknown 학교급구분 \"\(level)\" (학교ID \(id)); expected 초등학교, 중학교 or 고등학교"
        case let .noProvince(id):
            ko ? "시도교육청명이 없고 주소에도 시도가 없습니다 (학교ID \(id))" : "no 시도교육청명 and no province in the address (학교ID \(id))"
        case let .notADate(date):
            ko ? "데이터기준일자 \"\(date)\"이(가) 2026-03-20 같은 날짜가 아닙니다" : "데이터기준일자 \"\(date)\" is not a date like 2026-03-20"
        }
        return line + problem
    }
    static func cannotReadCurrentCatalog(_ reason: String) -> String {
        ko ? "지금 학교 목록을 읽을 수 없습니다: \(reason)" : "cannot read the current catalog: \(reason)"
    }
    static func cannotSaveCatalog(_ reason: String) -> String {
        ko ? "학교 목록을 저장할 수 없습니다: \(reason)" : "cannot save the catalog: \(reason)"
    }
    static var nothingWasChanged: String { ko ? "아무것도 바꾸지 않았습니다." : "Nothing was changed." }

    /// `touchschool import`'s summary (`ImportSummary`).
    static func imported(_ count: Int, edition: String, encoding: String) -> String {
        ko ? "\(edition) 기준 전국 학교 목록에서 \(NumberText.grouped(count))개 학교를 가져왔습니다 (\(encoding))."
            : "Imported \(NumberText.counted(count, "school", "schools")) of the official list of \(edition) (\(encoding))."
    }
    static var importSource: String {
        ko ? "출처: 공공데이터포털(data.go.kr) 표준데이터 15021148 전국초중등학교위치표준데이터."
            : "Source: 공공데이터포털 (data.go.kr) 표준데이터 15021148 전국초중등학교위치표준데이터."
    }
    /// The counted kinds of change, in the summary's order.
    enum ImportCount { case added, renamed, noLongerListed, relisted, updated, unchanged, matchedStarter, keptStarter, droppedStarter }
    static func label(_ count: ImportCount) -> String {
        switch count {
        case .added: ko ? "추가" : "added"
        case .renamed: ko ? "이름 바뀜" : "renamed"
        case .noLongerListed: ko ? "목록에서 빠짐 (점수와 함께 남김)" : "no longer listed (kept, with their scores)"
        case .relisted: ko ? "목록에 다시 들어옴" : "listed again"
        case .updated: ko ? "정보 갱신" : "details updated"
        case .unchanged: ko ? "그대로" : "unchanged"
        case .matchedStarter: ko ? "기본 목록의 학교 찾음 (점수 옮김)" : "starter schools matched (scores carried over)"
        case .keptStarter: ko ? "기본 목록의 학교 못 찾음, 점수가 있어 남김" : "starter schools not found, kept for their scores"
        case .droppedStarter: ko ? "기본 목록의 학교 못 찾음, 점수가 없어 뺌" : "starter schools not found, without a score, removed"
        }
    }
    static var renamedTitle: String { ko ? "이름 바뀐 학교:" : "Renamed:" }
    static var noLongerListedTitle: String { ko ? "목록에서 빠진 학교:" : "No longer listed:" }
    static var keptStarterTitle: String { ko ? "못 찾았지만 남긴 기본 목록의 학교:" : "Starter schools not found, kept:" }
    static func andMore(_ count: Int) -> String { ko ? "… 외 \(NumberText.grouped(count))개" : "… and \(NumberText.grouped(count)) more" }
    static func savedTo(_ path: String) -> String { ko ? "\(path)에 저장했습니다." : "Saved to \(path)." }

    // MARK: reset

    static var resetAbstract: String {
        ko ? "모든 학교의 점수를 처음부터 다시 시작합니다; 예전 점수는 따로 보관됩니다." : "Start every school's score over; the scores as they were are kept."
    }
    static var resetDiscussion: String {
        ko ? """
            데이터 디렉터리의 모든 학교의 터치 수와 모든 플레이어의 내 터치 수를 0으로 합니다. 플레이어의 \
            학교와 최고 속도는 그대로입니다. 같은 디렉터리에서 실행 중인 게임은 새 점수로 계속합니다.

            예전 파일은 옆에 state.json.reset-<UTC 시각>으로 남습니다; 되돌리려면 게임이 실행 중이지 않을 때 \
            그 파일을 state.json 위에 복사하세요.

            --yes가 없으면 먼저 묻습니다. 물어볼 터미널이 없으면 --yes가 있어야 합니다.
            """ : """
            Sets every school's taps and every player's own taps to 0 in the data directory. Players \
            keep their school and best speed. Games running on the same directory carry on from the \
            new scores.

            The file as it was is kept beside it, as state.json.reset-<UTC time>; to undo, copy it \
            back over state.json while no game is running.

            Asks for confirmation unless --yes is given. Without a terminal to ask on, --yes is required.
            """
    }
    static var yesHelp: String { ko ? "묻지 않고 초기화합니다." : "Reset without asking." }
    static func nothingToReset(in directory: String) -> String {
        ko ? "초기화할 것이 없습니다: \(directory)에 저장된 점수가 없습니다.\n" : "Nothing to reset: there are no saved scores in \(directory).\n"
    }
    static var resetNeedsYes: String {
        ko ? "확인 없이는 초기화하지 않습니다: 물어볼 터미널이 없습니다. 초기화하려면 --yes를 주세요."
            : "Refusing to reset without confirmation: there is no terminal to ask on. Pass --yes to reset."
    }
    static func resetQuestion(_ directory: String) -> String {
        ko ? "\(directory)의 모든 학교 점수를 처음부터 다시 시작할까요? 지금 점수는 따로 보관됩니다. [y/N] "
            : "Start every school's score over in \(directory)? The scores as they are will be kept. [y/N] "
    }
    static var nothingWasReset: String { ko ? "초기화하지 않았습니다.\n" : "Nothing was reset.\n" }
    static func resetDone(keptIn path: String) -> String {
        ko ? "모든 점수를 처음부터 다시 시작합니다. 예전 점수는 \(path)에 있습니다.\n" : "All scores start over. The previous scores are kept in \(path).\n"
    }

    // MARK: Output

    static var savedScoresHaveProblems: String {
        ko ? "touchschool: 저장된 점수에 문제가 있습니다; 고친 것처럼 읽고, 파일은 게임이 저장할 때까지 그대로 둡니다 (저장할 때 사본을 남깁니다):"
            : "touchschool: the saved scores have problems; they are read as if repaired, and the file is left as it is until a game saves (which keeps a copy):"
    }
    static func cannotReadCatalog(_ reason: String) -> String {
        ko ? "학교 목록을 읽을 수 없습니다: \(reason)" : "cannot read the school catalog: \(reason)"
    }
    /// A catalog snapshot that could not be used (`reason`), and what was done instead.
    static func snapshotNotUsed(_ reason: String, rebuilt: Bool) -> String {
        ko ? "touchschool: 학교 목록 스냅샷 \(reason): 쓰지 않았습니다; " + (rebuilt ? "학교 목록 파일로 다시 만들었습니다" : "학교 목록 파일을 대신 읽었습니다")
            : "touchschool: the catalog snapshot \(reason): not used; " + (rebuilt ? "rebuilt from the catalog file" : "the catalog file was read instead")
    }

    /// A system call's error (`errno`) as the user reads it: in Korean those a command meets
    /// with files, else the C library's English (the commands set no locale for it).
    static func systemError(_ code: Int32) -> String {
        if ko, let korean = koreanSystemErrors[code] { return korean }
        return String(cString: strerror(code))
    }
    private static let koreanSystemErrors: [Int32: String] = [
        ENOENT: "그런 파일이나 디렉터리가 없습니다", EACCES: "권한이 없습니다", EPERM: "허용되지 않는 작업입니다",
        ENOTDIR: "디렉터리가 아닙니다", EISDIR: "디렉터리입니다", ELOOP: "심볼릭 링크가 너무 많이 이어집니다",
        ENAMETOOLONG: "파일 이름이 너무 깁니다", EIO: "입출력 오류", ENOSPC: "장치에 남은 공간이 없습니다",
        EROFS: "읽기 전용 파일 시스템입니다", EMFILE: "열린 파일이 너무 많습니다", ENOEXEC: "실행 파일 형식이 아닙니다",
    ]

    static func cannotWriteOutput(_ reason: String) -> String { ko ? "출력을 쓸 수 없습니다: \(reason)" : "cannot write the output: \(reason)" }

    // MARK: round

    static var roundAbstract: String {
        ko ? "수업용 라운드: 카운트다운, 정해진 시간의 경주, 시상대, 남는 결과."
            : "A round for a class: a countdown, a timed race, a podium, and results that are kept (라운드)."
    }
    static var roundDiscussion: String {
        let countdown = Round.countdownMs / 1000, grace = Round.graceMs / 1000
        return ko
            ? "start와 stop은 --server URL과 서버의 관리자 토큰이 필요합니다 (admin과 같이: --token-file FILE, "
                + "$TOUCHSCHOOL_ADMIN_TOKEN, 또는 --data-dir의 admin.token). list와 show는 토큰 없이 누구나 봅니다. "
                + "라운드는 시작 \(countdown)초 뒤에 열리고 (모든 화면이 같은 카운트다운을 보여 줍니다), "
                + "끝난 뒤 \(grace)초 안에 도착한, 그 시간 안에 친 터치도 셉니다."
            : "start and stop need --server URL and the server's admin token (as admin does: --token-file FILE, "
                + "$TOUCHSCHOOL_ADMIN_TOKEN, or the admin.token in --data-dir). list and show need no token. "
                + "A round opens \(countdown) s after it is started (every screen shows the same countdown), "
                + "and taps made inside it still count when they arrive up to \(grace) s after it ends."
    }
    static var roundStartAbstract: String {
        ko ? "라운드를 시작합니다 (진행 중인 라운드는 멈춥니다)." : "Start a round (stopping the one running)."
    }
    static var roundStopAbstract: String { ko ? "진행 중인 라운드를 지금 끝냅니다." : "End the running round now." }
    static var roundListAbstract: String { ko ? "최근 라운드 목록 (최신 순, 50개까지)." : "The latest rounds, newest first (up to 50)." }
    static var roundShowAbstract: String {
        ko ? "한 라운드의 순위: 선수, 그리고 학교가 둘 이상이면 학교." : "A round's standings: the players, and the schools when more than one played."
    }
    static var roundSecondsHelp: String {
        let range = "\(Round.seconds.lowerBound)–\(Round.seconds.upperBound)"
        return ko ? "라운드 길이, 초 (\(range))." : "How long the round lasts, in seconds (\(range))."
    }
    static var roundTitleHelp: String {
        ko ? "화면에 보일 제목 (\(Round.maximumTitleLength)자까지), 예: \"3반 대항전\"."
            : "A title the screens show (up to \(Round.maximumTitleLength) characters), e.g. \"3반 대항전\"."
    }
    static var roundTitleRefused: String {
        ko ? "--title: \(Round.maximumTitleLength)자까지, 제어 문자 없이"
            : "--title: at most \(Round.maximumTitleLength) characters, without control characters"
    }
    static var roundJSONHelp: String { ko ? "서버의 답을 JSON으로 출력합니다." : "Print the server's answer as JSON." }
    static var roundCSVHelp: String {
        ko ? "선수 순위를 스프레드시트용 CSV로 출력합니다 (엑셀에서 한글이 보이게 BOM 포함). 예: > round-3.csv"
            : "Print the players' standings as CSV for a spreadsheet (with a BOM, so that Excel shows Hangul), e.g. > round-3.csv"
    }
    static var roundJSONOrCSV: String { ko ? "--json과 --csv 중 하나만 주세요" : "give --json or --csv, not both" }
    static var roundLinkAbstract: String {
        ko ? "선생님용 프로젝터 주소 (라운드 시작·멈춤 버튼): 관리자 토큰이 들어 있으니 학생에게 보이지 마세요."
            : "The teacher's projector address, with the round controls: it holds the admin token, keep it from the class."
    }
    /// Said (on standard error, so that a script still reads the link alone) with the link.
    static var roundLinkIsTheTeachers: String {
        ko ? "이 주소는 선생님만 쓰세요: 관리자 토큰이 들어 있습니다. 프로젝터 화면에 띄우거나 학생에게 보내지 마세요."
            : "This link is the teacher's alone: it holds the admin token. Keep it off the projector and away from the class."
    }
    /// A service's data directory (docs/operations.md, "As a service"): its user's alone.
    static func tokenOfAnotherUser(_ path: String, owner: String) -> String {
        ko ? "\(path)은(는) 사용자 \(owner)(서버를 돌리는 사용자)만 읽을 수 있습니다: 그 사용자로 실행하세요, 예: sudo -u \(owner) touchschool …"
            : "\(path) is readable by the user \(owner) alone (the server's): run the command as that user, e.g. sudo -u \(owner) touchschool …"
    }
    static var roundLinkNeedsHTTP: String {
        ko ? "--server: 서버의 http:// 또는 https:// 주소를 주세요" : "--server: give the server's http:// or https:// address"
    }
    static var roundIDHelp: String { ko ? "라운드 번호 (round list가 보여 줍니다)." : "The round's id (as round list shows it)." }

    // MARK: season

    static var seasonAbstract: String {
        ko ? "시즌: 한 주나 한 달마다 새로 세는 순위와 지난 시즌의 명예의 전당."
            : "Seasons: standings that start again each week or month, and the past seasons' halls of fame (시즌)."
    }
    static var seasonDiscussion: String {
        ko ? "서버의 시즌 길이는 serve --season week|month|none으로 정합니다 (docs/operations.md, \"시즌\"). list와 show는 --server URL의 서버에 묻습니다 (토큰 없이)."
            : "A server's season length is set with serve --season week|month|none (docs/operations.md, \"Seasons\"). list and show ask the server at --server URL (no token needed)."
    }
    static var seasonListAbstract: String {
        ko ? "시즌 목록 (최신 순, 50개까지)과 각 시즌 전국 1–3위." : "The seasons, newest first (up to 50), each with its national first three."
    }
    static var seasonShowAbstract: String {
        ko ? "한 시즌의 학교 순위 (100위까지)와 리그마다의 명예의 전당." : "A season's schools by taps (up to 100), and its hall of fame in every league."
    }
    static var seasonIDHelp: String { ko ? "시즌 (season list가 보여 주는 대로, 예: week-2960)." : "The season (as season list shows it, e.g. week-2960)." }

    // MARK: admin

    static var adminAbstract: String {
        ko ? "실행 중인 서버의 관리자 도구: 기기 목록, 차단과 차단 해제."
            : "The operator's tools on a running server: list devices, ban and unban (관리자 도구)."
    }
    static var adminDevicesAbstract: String {
        ko ? "지난 한 시간(이번 정시부터) 받아들인 터치 수 순서의 기기와 그 합계, 주소."
            : "The devices by taps accepted in the last hour (this clock hour), with their totals and addresses."
    }
    static var banAbstract: String {
        ko ? "기기를 차단합니다: 이제부터 그 기기의 배치는 대항전의 모든 서버에서 거부됩니다."
            : "Ban a device: its batches are refused from now on, on every server of the battle."
    }
    static var unbanAbstract: String { ko ? "기기의 차단을 풉니다 (지운 터치는 지운 채로 남습니다)." : "Lift a device's ban (taps removed stay removed)." }
    static var banAddressAbstract: String {
        ko ? "한 주소에서 오는 새 연결을 거부합니다 (주의: 한 학교가 주소 하나를 같이 쓸 수 있습니다)."
            : "Refuse new connections from an address (careful: a school may share one)."
    }
    static var unbanAddressAbstract: String { ko ? "한 주소에서 오는 연결을 다시 받습니다." : "Accept connections from an address again." }
    static var adminDiscussion: String {
        ko ? """
            모두 --server URL과 서버의 관리자 토큰이 필요합니다: --token-file FILE, 없으면 \
            $TOUCHSCHOOL_ADMIN_TOKEN, 없으면 --data-dir(서버의 데이터 폴더: 처음 시작할 때 서버가 만듭니다)의 \
            admin.token. 토큰은 명령줄에 쓰지 않습니다.
            """ : """
            Each needs --server URL and the server's admin token: --token-file FILE, else \
            $TOUCHSCHOOL_ADMIN_TOKEN, else the admin.token in --data-dir (the server's data directory, \
            where it makes one at its first start). The token is never given on the command line.
            """
    }
    static var adminServerHelp: String {
        ko ? "서버: http://host:port 또는 https://… (기본값: $TOUCHSCHOOL_SERVER)." : "The server: http://host:port or https://… (default: $TOUCHSCHOOL_SERVER)."
    }
    static var tokenFileHelp: String { ko ? "서버의 관리자 토큰을 담은 파일." : "A file holding the server's admin token." }
    static var devicesTopHelp: String { ko ? "보여 줄 기기 수 (1부터 1000까지)." : "How many devices to show (1 to 1000)." }
    static var devicesJSONHelp: String {
        ko ? "{id, player, school, accepted, refused, acceptedLastHour, refusedLastHour, addresses, banned}의 JSON 배열로 출력합니다."
            : "Print a JSON array of {id, player, school, accepted, refused, acceptedLastHour, refusedLastHour, addresses, banned}."
    }
    static var deviceIDHelp: String { ko ? "기기의 ID (`admin devices`가 보여 주는 그대로)." : "The device's id, as `admin devices` lists it." }
    static var removeTapsHelp: String {
        ko ? "그 기기가 받은 터치를 모두 학교 점수에서 뺍니다 (한 번만)." : "Also take every tap the device had accepted off its schools (once)."
    }
    static var addressHelp: String { ko ? "IP 주소 (`admin devices`가 보여 주는 그대로)." : "The IP address, as `admin devices` lists it." }
    static var nameTheServer: String {
        ko ? "서버를 --server URL로 (또는 $TOUCHSCHOOL_SERVER로) 주세요" : "name the server with --server URL (or $TOUCHSCHOOL_SERVER)"
    }
    static func noAdminToken(environment: String, fileName: String) -> String {
        ko ? "관리자 토큰이 없습니다: --token-file FILE을 주거나, $\(environment)을 정하거나, --data-dir로 서버의 데이터 폴더를 "
            + "가리키세요 (거기에 \(fileName)이 있습니다)"
            : "no admin token: give --token-file FILE, set $\(environment), "
            + "or point --data-dir at the server's data directory (it holds \(fileName))"
    }
    /// Where a token is read from: the option's file, or the data directory's.
    static func tokenSource(option: Bool) -> String {
        option ? "--token-file" : (ko ? "데이터 폴더의 토큰" : "the data directory's token")
    }
    static func cannotReadToken(_ source: String, _ path: String, _ reason: String) -> String {
        ko ? "\(source) \(path)을(를) 읽을 수 없습니다: \(reason)" : "cannot read \(source) \(path): \(reason)"
    }
    static func tokenFileEmpty(_ source: String, _ path: String) -> String {
        ko ? "\(source) \(path)이(가) 비어 있습니다" : "\(source) \(path) is empty"
    }

    // MARK: The network's program (serve, --server, import --postgres)

    static func networkProgramMissing(for feature: String, program: String, path: String, reason: String) -> String {
        ko ? "\(feature)에는 \(program) 프로그램이 필요합니다. touchschool 옆에 설치되어 있어야 합니다: \(path): \(reason). "
            + "`swift build`(또는 `swift build -c release`)로 둘 다 빌드하거나, 같은 빌드의 \(program)을(를) touchschool 옆에 복사하세요."
            : "\(feature) needs \(program), which should be installed beside touchschool: \(path): \(reason). "
            + "Build both with `swift build` (or `swift build -c release`), or copy \(program) from the same build next to touchschool."
    }

    // MARK: PostgreSQL's options (serve, import)

    static var postgresHelp: String {
        ko ? "PostgreSQL의 URL (프로그램이 시작될 때까지 다른 사용자가 프로세스 목록에서 볼 수 있습니다: --postgres-file이나 $TOUCHSCHOOL_POSTGRES_URL을 쓰세요)."
            : "PostgreSQL's URL (visible to other users in the process list until the program starts: prefer --postgres-file or $TOUCHSCHOOL_POSTGRES_URL)."
    }
    static var postgresOrFile: String {
        ko ? "--postgres와 --postgres-file 중 하나만 주세요" : "give --postgres or --postgres-file, not both"
    }
    static func cannotReadPostgresFile(_ path: String, _ reason: String) -> String {
        ko ? "--postgres-file \(path)을(를) 읽을 수 없습니다: \(reason)" : "cannot read --postgres-file \(path): \(reason)"
    }
    static func postgresFileEmpty(_ path: String) -> String {
        ko ? "--postgres-file \(path)이(가) 비어 있습니다: postgres://… 한 줄이 있어야 합니다"
            : "--postgres-file \(path) is empty: it should hold postgres://…"
    }
    static var postgresFileHelp: String {
        ko ? "PostgreSQL의 URL을 담은 파일 (소유자만 읽을 수 있게 두세요)." : "A file holding PostgreSQL's URL (keep it readable by its owner only)."
    }

    // MARK: serve
    static var serveAbstract: String {
        ko ? "다른 컴퓨터의 플레이어를 위한 대항전 서버를 실행합니다 (`touchschool play --server URL`)."
            : "Run a battle server for players on other machines (`touchschool play --server URL`)."
    }

    // MARK: serve

    static var serveDiscussion: String {
        ko ? """
            설정이 필요 없습니다: 대항전은 데이터 폴더의 battle.sqlite에 있고(처음 시작할 때 이전 판의 \
            state.json을 한 번 옮겨 오고 원본은 그대로 둡니다), 내보내는 학교 목록은 폴더에 가져온 목록, \
            없으면 기본 목록입니다. 듣는 주소(--port 0이면 고른 포트)를 출력한 뒤, 로캘의 언어로 학생들에게 \
            나눠 줄 것을 출력합니다: 휴대폰용 페이지 주소, 프로젝터 주소(/?board), `touchschool --server` 줄과 \
            휴대폰 주소의 QR 코드(--host 0.0.0.0이면 이 컴퓨터의 네트워크 주소마다); 그 뒤로 무언가 있었던 \
            1분마다 접속한 플레이어 수와 그 1분의 터치 수. SIGTERM이나 Ctrl-C: 도착한 것을 저장하고 확인한 뒤 \
            모든 연결을 닫고 0으로 끝납니다. 프로토콜: docs/protocol.md. 로그는 표준 오류로 \
            ($LOG_LEVEL: trace … critical).

            --postgres-file(또는 --postgres, $TOUCHSCHOOL_POSTGRES_URL, $DATABASE_URL)을 주면 점수, 기기, \
            학교 목록이 PostgreSQL에 있고, 같은 URL로 시작한 모든 서버가 함께 씁니다(로드 밸런서 뒤에 \
            필요한 만큼: docs/operations.md). 스키마는 시작할 때 만들거나 고칩니다.
            """ : """
            Needs no setup: the battle lives in the data directory's battle.sqlite (the first start \
            moves in a state.json of an earlier release, once, and leaves it as it was), and the \
            catalog served is the directory's imported list, else the starter catalog. \
            Prints the address it listens on (with --port 0, the port chosen), then, in the \
            locale's language, what to hand out to a class: the page's address for phones, the \
            projector's (/?board), the `touchschool --server` line and a QR code of the phone \
            address (with --host 0.0.0.0, for each of this machine's network addresses); then, \
            each minute something happened, the players connected and the taps of that minute. \
            SIGTERM or Ctrl-C: saves and acknowledges what arrived, closes every connection, exits 0. \
            The protocol: docs/protocol.md. Logs go to standard error ($LOG_LEVEL: trace … critical).

            With --postgres-file (or --postgres, $TOUCHSCHOOL_POSTGRES_URL, $DATABASE_URL), the scores, devices and catalog live in PostgreSQL \
            instead, shared by every server started with the same URL (run as many as needed behind \
            a load balancer: docs/operations.md). The schema is created or updated at start.
            """
    }
    /// `serve`'s options out of range: `range` as "between 0 and 65535" or "at least 1".
    static func optionBetween(_ option: String, _ lower: Int, _ upper: Int) -> String {
        ko ? "\(option)는 \(lower)부터 \(upper)까지여야 합니다" : "\(option) must be between \(lower) and \(upper)"
    }
    static func optionAtLeast(_ option: String, _ lower: Int) -> String {
        ko ? "\(option)는 \(lower) 이상이어야 합니다" : "\(option) must be at least \(lower)"
    }
    static var moveNeedsPostgres: String {
        ko ? "--from은 데이터 폴더를 PostgreSQL로 옮깁니다: --postgres-file, --postgres 또는 $DATABASE_URL도 주세요"
            : "--from moves a data directory into PostgreSQL: give --postgres-file, --postgres or $DATABASE_URL too"
    }
    static var serveHostHelp: String {
        ko ? "들을 주소 (0.0.0.0: 모든 네트워크, 다른 컴퓨터에서 들어오게)."
            : "The address to listen on (0.0.0.0: every interface, for other machines)."
    }
    static var servePortHelp: String {
        ko ? "들을 포트 (0: 비어 있는 아무 포트)."
            : "The port to listen on (0: any free port)."
    }
    static var sshPortHelp: String {
        ko ? "이 포트에서 SSH로도 게임 자체를 엽니다 (같은 호스트, 0: 비어 있는 아무 포트): 아무것도 설치하지 않고 `ssh -p PORT NAME@HOST`로 플레이합니다. 호스트 키는 데이터 폴더에 한 번 만들어지고(ssh_host_ed25519_key), 시작할 때 지문을 출력합니다."
            : "Also serve the game itself over SSH on this port, on the same host (0: any free port): `ssh -p PORT NAME@HOST` plays with nothing installed. The host key is made once in the data directory (ssh_host_ed25519_key); its fingerprint is printed at start."
    }
    static var addressTapsHelp: String {
        ko ? "한 주소(IPv6는 /64)의 모든 플레이어가 합쳐서 1초에 인정받을 수 있는 터치 수, 꾸준히 (기본값 2000: 한 NAT 뒤 40명 실습실이 전속력으로)."
            : "The taps a second all players from one address (an IPv6 /64) may have counted together, sustained (default 2000: a school lab of 40 behind one NAT at full speed)."
    }
    static var addressBurstHelp: String {
        ko ? "한 주소의 모든 플레이어가 한꺼번에 인정받을 수 있는 터치 수 (기본값 10000: 짧은 끊김에서 돌아오는 실습실)."
            : "The taps all players from one address may have counted at once (default 10000: a lab coming back from a short outage)."
    }
    static var maximumDevicesHelp: String {
        ko ? "대항전이 담을 수 있는 플레이어(기기) 수; 넘으면 새 플레이어는 거부되고 나머지는 계속합니다 (기본값 2000000)."
            : "The players (devices) the battle may hold; past it new players are refused and the others play on (default 2000000)."
    }
    static var seasonHelp: String {
        ko ? "시즌 길이: week(월요일 0시부터 한 주), month(1일 0시부터 한 달, 한국 시간) 또는 none(시즌 없이 누적만); 대항전 저장소에 남아 같은 데이터베이스의 모든 서버가 따릅니다 (생략: 저장된 값 그대로, 처음엔 none)."
            : "The season's length: week (from Monday 00:00), month (from the 1st 00:00, Korea's time) or none (all time only); kept in the battle's store, so every server of a database follows it (left out: the stored one stays, none at first)."
    }
    static var moveFromHelp: String {
        ko ? "--postgres와 함께: 먼저 내장 서버의 데이터 폴더에 있는 점수, 기기, 학교 목록을 PostgreSQL로 한 번 옮깁니다 (두 번째는 거부됩니다)."
            : "With --postgres: first move the scores, devices and catalog of an embedded server's data directory into PostgreSQL, once (a second move is refused)."
    }
    static var trustedProxyHelp: String {
        ko ? "로드 밸런서의 주소 (밸런서마다 한 번): 그 밸런서에서 온 연결은 주소별 제한에서 X-Forwarded-For가 가리키는 주소로 셉니다."
            : "A load balancer's address (given once per balancer): connections from it are counted by the address its X-Forwarded-For names, for the per-address limits."
    }
    static var adminTokenFileHelp: String {
        ko ? "관리자 API(/v1/admin/)의 운영자 토큰을 담은 파일, 예: 같은 PostgreSQL을 쓰는 모든 서버가 함께 쓰는 것 (기본값: $TOUCHSCHOOL_ADMIN_TOKEN, 없으면 처음 시작할 때 만드는 데이터 폴더의 admin.token)."
            : "A file holding the operator's token for the admin API (/v1/admin/), e.g. one shared by every server on one PostgreSQL (default: $TOUCHSCHOOL_ADMIN_TOKEN, else the data directory's admin.token, made at the first start)."
    }
}
