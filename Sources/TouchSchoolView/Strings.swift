import TouchSchoolCore

/// Every word the game shows, in both languages. Nothing else in the view spells out UI text.
public struct Strings: Sendable {
    public let language: Language

    public init(_ language: Language) { self.language = language }

    private var ko: Bool { language == .korean }

    // MARK: Everywhere

    var title: String { "학교 대항전 TouchSchool" }
    var pressAnyKey: String { ko ? "아무 키나 누르세요" : "Press any key" }
    var tooSmall: String { ko ? "터미널 창을 더 크게 해주세요" : "Please make the terminal bigger" }
    var tooSmallShort: String { ko ? "창이 작아요" : "Too small" }
    func terminalSize(columns: Int, rows: Int) -> String {
        let now = "\(columns)x\(rows)", needed = "\(GameLayout.minimumColumns)x\(GameLayout.minimumRows)"
        return ko ? "지금 \(now) · 최소 \(needed)" : "now \(now), need \(needed)"
    }
    func terminalSizeShort(columns: Int, rows: Int) -> String {
        "\(columns)x\(rows)<\(GameLayout.minimumColumns)x\(GameLayout.minimumRows)"
    }

    func warning(_ reason: TapRefusal, refused: UInt64) -> String {
        let count = NumberText.grouped(refused)
        let why: String
        switch reason {
        case .heldKey: why = ko ? "키를 누르고 있음" : "key held down"
        case .tooManyTaps: why = ko ? "사람이 칠 수 없는 속도" : "too many taps"
        case .paste: why = ko ? "붙여넣기" : "pasted text"
        case .banned:
            // Not the speed: nothing the player does now counts, and only the operator can change
            // that. What to do first, as in every refusal (`refusal(_:)`): the line is cut at its end.
            return ko ? "운영자에게 문의하세요: 차단된 기기라 터치가 세지 않습니다 (\(count)번 무시됨)"
                : "Ask the operator: this device is banned; its taps do not count (\(count) refused)"
        }
        return ko
            ? "비정상적인 터치 수가 감지되었습니다. (\(why) · \(count)번 무시됨)"
            : "Abnormal tapping detected. (\(why), \(NumberText.counted(refused, "tap", "taps")) refused)"
    }

    func saveDelayed(waitingTaps: UInt64) -> String {
        ko ? "저장이 늦어지고 있습니다 (다른 프로세스나 느린 디스크): \(NumberText.grouped(waitingTaps))번 대기 중, 계속 치세요"
            : "Saving is delayed (another process or a slow disk): \(NumberText.counted(waitingTaps, "tap", "taps")) waiting; keep tapping"
    }

    /// Playing on a server and not connected: what the player must know (nil when online). A
    /// refusal says what to do first, then why: the status line is cut at its end, which at 80
    /// columns beside the server's address can come after 39 columns (`RefusalInstructionTests`).
    func connection(_ status: ConnectionStatus) -> String? {
        switch status {
        case .online:
            return nil
        case let .connecting(waiting):
            let taps = NumberText.grouped(waiting), counted = NumberText.counted(waiting, "tap", "taps")
            return ko ? "서버에 연결하는 중… 터치 \(taps)번 전송 대기 중, 계속 치세요"
                : "Connecting to the server… \(counted) waiting to be sent; keep tapping"
        case let .offline(waiting):
            let taps = NumberText.grouped(waiting), counted = NumberText.counted(waiting, "tap", "taps")
            return ko ? "오프라인: 서버에 연결할 수 없습니다. 터치 \(taps)번 대기 중 (다시 연결되면 전송), 계속 치세요"
                : "Offline: the server cannot be reached. \(counted) waiting (sent when it is back); keep tapping"
        case let .wrongAddress(failure, waiting):
            let taps = NumberText.grouped(waiting), counted = NumberText.counted(waiting, "tap", "taps")
            return ko ? "\(serverFailure(failure)) 터치 \(taps)번 대기 중, 계속 치세요"
                : "\(serverFailure(failure)) \(counted) waiting; keep tapping"
        case let .unsupportedProtocol(waiting):
            let taps = NumberText.grouped(waiting), counted = NumberText.counted(waiting, "tap", "taps")
            return ko ? "touchschool을 업데이트하세요: 이 게임은 서버의 프로토콜 버전을 지원하지 않습니다. 오프라인으로 계속 (터치 \(taps)번 대기 중)"
                : "Update touchschool: this game does not speak the server's protocol version. Playing offline (\(counted) waiting)"
        case let .refused(refusal, waiting):
            let taps = NumberText.grouped(waiting), counted = NumberText.counted(waiting, "tap", "taps")
            return ko ? "\(self.refusal(refusal)) 터치 \(taps)번 대기 중, 계속 치세요" : "\(self.refusal(refusal)) \(counted) waiting; keep tapping"
        case let .cannotSaveOutbox(waiting):
            let taps = NumberText.grouped(waiting), counted = NumberText.counted(waiting, "tap", "taps")
            return ko ? "디스크를 확인하세요: 대기 중인 터치를 저장할 수 없어 전송을 멈췄습니다. 터치 \(taps)번 대기 중, 계속 치세요"
                : "Check the disk: the waiting taps cannot be saved, so nothing is sent. \(counted) waiting; keep tapping"
        case let .otherBattle(waiting):
            let taps = NumberText.grouped(waiting), counted = NumberText.counted(waiting, "tap", "taps")
            return ko ? "새 대항전은 게임을 다시 시작하세요: 이 주소의 서버는 이제 다른 대항전입니다. 터치 \(taps)번은 원래 대항전에 보관됩니다"
                : "Restart the game to join the new battle: this address now serves another one. \(counted) \(waiting == 1 ? "is kept for its" : "are kept for their") own battle"
        }
    }

    /// Why the server will not take the game, what to do first: the terminal game's status line,
    /// and the SSH game's parting line (`SSHText.parting`).
    public func refusal(_ refusal: ServerRefusal) -> String {
        switch refusal {
        case .bannedAddress: ko ? "운영자에게 문의하세요: 이 주소는 차단되어 서버가 받지 않습니다."
            : "Ask the operator: this address is banned, so the server refuses it."
        case .battleFull: ko ? "운영자에게 자리를 요청하세요: 대항전이 가득 차서 새 기기를 받지 않습니다."
            : "Ask the operator for room: the battle is full and takes no new device."
        case .tooManyFromAddress: ko ? "운영자에게 문의하세요: 이 주소에서 서버가 받는 것보다 많이 접속합니다."
            : "Ask the operator: too many devices connect from this address for the server."
        }
    }

    /// A first game on a server that does not answer (`connectingView`).
    func connecting(to server: String) -> String { ko ? "\(server) 서버에 연결하는 중…" : "Connecting to \(server)…" }
    func serverFailure(_ failure: ServerFailure) -> String {
        switch failure {
        case .refused: ko ? "연결이 거부되었습니다: 서버(touchschool serve)가 실행 중이 아니거나 포트가 다릅니다."
            : "Connection refused: the server (touchschool serve) is not running there, or on another port."
        case .unreachable: ko ? "서버에 닿을 수 없습니다: 주소와 네트워크를 확인하세요."
            : "The server cannot be reached: check the address and the network."
        case .timedOut: ko ? "응답이 없습니다 (시간 초과): 서버 컴퓨터가 꺼져 있거나 방화벽이 막고 있습니다."
            : "No answer (timed out): the server's machine is off, or a firewall drops the connection."
        // A mistake the player can mend: what to do first (the game's status line is cut at its end).
        case .plainHTTP: ko ? "주소를 http://로 주세요: 그 서버는 HTTPS가 아니라 일반 HTTP로 응답합니다."
            : "Give the address with http://: the server there speaks plain HTTP, not HTTPS."
        case .sshServer: ko ? "--server에는 서버의 HTTP 포트를 주세요: 그 포트는 SSH 포트입니다 (ssh -p 포트 이름@주소로 플레이합니다)."
            : "Give --server the server's HTTP port: that is an SSH port (play there with ssh -p PORT NAME@HOST)."
        case let .other(reason): ko ? "연결할 수 없습니다: \(reason)" : "Cannot connect: \(reason)"
        }
    }
    var retrying: String { ko ? "서버가 응답하면 바로 시작합니다. 1초마다 다시 시도합니다." : "The game starts as soon as it answers; trying again every second." }
    var connectingKeys: String { ko ? "Esc 나가기" : "Esc leave" }

    /// The cause first (the system's words, after the reason's last ": "), then where it failed:
    /// a long path must not push "No space left on device" past the edge of the status line.
    func saveFailure(_ reason: String) -> String {
        var cause = reason
        if let separator = reason.ranges(of: ": ").last {
            cause = "\(reason[separator.upperBound...]) (\(reason[..<separator.lowerBound]))"
        }
        return ko ? "점수가 저장되지 않고 있습니다: \(cause)" : "Scores are not being saved: \(cause)"
    }

    /// What the player is told about the saved state (a file set aside, values reset), or a message.
    func notice(_ notice: Notice) -> String {
        switch notice {
        case let .message(text):
            return text
        case let .playingLocally(servers):
            let command = "touchschool " + servers.map { "--server \($0)" }.joined(separator: " ")
            return ko ? "이 컴퓨터에서만 플레이합니다: 터치는 이 컴퓨터에만 남습니다. 반 대항전에서 하려면 나간 뒤 (Esc) 이렇게 시작하세요: \(command)"
                : "Playing on this computer only: the taps stay here. To play in the class's battle, quit (Esc) and start: \(command)"
        case .sessionWithoutKey:
            return ko ? "SSH 키 없이 접속했습니다 (비밀번호는 아무거나 됩니다). 이 접속의 학교와 내 터치 수는 접속이 끝나면 잊힙니다. 터치는 학교 점수에 그대로 남습니다. 다음에도 이어서 하려면 ssh-keygen으로 키를 만드세요."
                : "You joined without an SSH key (any password works). This session's school and your own count are forgotten when it ends; your taps stay in the school's score. To carry on next time, make a key with ssh-keygen."
        case let .stateProblem(.setAside(keptAs, reason)):
            return ko ? "점수 파일을 쓸 수 없어 \(keptAs)에 보관하고 새로 시작합니다 (\(reason))."
                : "The score file could not be used; it was kept as \(keptAs) and scores start over (\(reason))."
        case let .stateProblem(.valuesReset(backup, details)):
            return ko ? "비정상적인 값을 초기화했습니다: \(details.joined(separator: ", ")). 원래 파일은 \(backup)에 있습니다."
                : "Abnormal values were reset: \(details.joined(separator: ", ")). The file as it was is kept as \(backup)."
        case let .stateProblem(.notRepaired(details)):
            return ko ? "점수 파일에 문제가 있어 이렇게 읽었습니다: \(details.joined(separator: ", ")). 저장할 때 고치고 원래 파일을 보관합니다."
                : "The score file has problems and was read this way: \(details.joined(separator: ", ")). "
                    + "The next save repairs it and keeps the file as it was."
        }
    }

    // MARK: Picker

    var searchPrompt: String { ko ? "학교를 검색해주세요" : "Search for your school" }
    var noResults: String { ko ? "검색 결과가 없습니다." : "No schools found." }
    var starterCatalogHint: [String] {
        ko ? [
            "지금은 기본 학교 목록만 있습니다. 전국 학교 목록을 가져오려면:",
            "  touchschool import FILE",
            "FILE: 공공데이터포털(data.go.kr) 전국초중등학교위치표준데이터 CSV",
        ] : [
            "Only the starter list of schools is loaded. To import every school in Korea:",
            "  touchschool import FILE",
            "FILE: the CSV of 전국초중등학교위치표준데이터 from data.go.kr (Public Data Portal)",
        ]
    }
    /// The searches the first screen shows, one of each kind (name, short form, 초성, region):
    /// every one finds a school in the starter catalog, which a player without the official list
    /// tries them on (a test checks).
    static let searchExamples = ["서울고등학교", "서울고", "ㅅㅇㄱ", "부산 해운대초"]
    var searchHints: [String] {
        let labels = ko ? ["이름", "줄임말", "초성", "지역"] : ["name", "short", "initials", "region"]
        let width = labels.map(DisplayWidth.of).max() ?? 0
        return [ko ? "이름, 줄임말, 초성, 지역으로 찾을 수 있어요:" : "Type a name, a short form, initial consonants or a region:"]
            + zip(labels, Self.searchExamples).map { "  \(DisplayWidth.pad($0, toWidth: width))  \($1)" }
    }
    var searchExample: String { (ko ? "예: " : "e.g. ") + Self.searchExamples.joined(separator: " · ") }
    /// The query found nothing; these are guesses, the closest first.
    func didYouMean(_ name: String) -> String { ko ? "혹시 \(name)?" : "Did you mean \(name)?" }
    /// How many schools the search found; `more`: it stopped there (the page says the same).
    func resultCount(_ count: Int, more: Bool) -> String {
        let schools = NumberText.counted(count, "school", "schools")
        if more { return ko ? "\(NumberText.grouped(count))개 넘는 학교" : "More than \(schools)" }
        return ko ? "\(NumberText.grouped(count))개 학교" : schools
    }
    func myCurrentSchool(_ name: String) -> String { ko ? "* 내 학교: \(name)" : "* my school: \(name)" }
    var unlisted: String { ko ? "(목록에 없음)" : "(unlisted)" }
    func pickerKeys(canGoBack: Bool) -> String {
        ko ? "↑↓ 이동  Enter 선택  Esc \(canGoBack ? "뒤로" : "종료")  F1 도움말"
            : "↑↓ move  Enter choose  Esc \(canGoBack ? "back" : "quit")  F1 help"
    }

    // MARK: Confirm switch

    var confirmTitle: String { ko ? "학교 바꾸기" : "Change school" }
    var confirmQuestion: String {
        ko ? "학교를 바꾸면 내 터치 수가 0부터 다시 시작합니다. 바꿀까요? (Enter/y: 예, n/Esc: 아니오)"
            : "If you change school, your own tap count starts again from 0. Change? (Enter/y: yes, n/Esc: no)"
    }
    func confirmFrom(_ school: String) -> String { ko ? "지금 학교: \(school)" : "Current school: \(school)" }
    func confirmTo(_ school: String) -> String { ko ? "바꿀 학교: \(school)" : "New school:     \(school)" }
    func confirmKeepsScore(_ taps: UInt64) -> String {
        ko ? "내 터치 수 \(NumberText.grouped(taps))번은 지금 학교의 점수에 그대로 남습니다."
            : "Your \(NumberText.counted(taps, "tap stays", "taps stay")) in your current school's total."
    }
    var confirmKeys: String { ko ? "Enter/y 예  n/Esc 아니오" : "Enter/y yes  n/Esc no" }

    // MARK: Game

    func player(_ name: String) -> String { ko ? "플레이어 \(name)" : "player \(name)" }
    var noSchool: String { ko ? "아직 학교를 고르지 않았습니다 (F2)" : "No school chosen yet (F2)" }
    func nationalRank(_ rank: String) -> String { ko ? "전국 \(rank)위" : "#\(rank) nationally" }
    /// A rank, or a ranking's heading, with the period it is of (while a season runs).
    func ofPeriod(_ text: String, _ period: String?) -> String { period.map { "\(text) · \($0)" } ?? text }
    func myTaps(_ taps: String) -> String { ko ? "내 터치 \(taps)" : "My taps \(taps)" }
    func sessionTaps(_ taps: String) -> String { ko ? "이번 판 \(taps)" : "This session \(taps)" }
    func schoolTotal(_ taps: String) -> String { ko ? "학교 합계 \(taps)" : "School total \(taps)" }
    func overtake(_ school: String, taps: UInt64) -> String {
        ko ? "\(school)까지 \(NumberText.grouped(taps))번" : "\(NumberText.counted(taps, "tap", "taps")) to overtake \(school)"
    }
    /// The school to overtake is not among the rows the server sent (a crowd tied with mine between).
    func moveUp(taps: UInt64) -> String {
        ko ? "다음 순위까지 \(NumberText.grouped(taps))번" : "\(NumberText.counted(taps, "tap", "taps")) to move up"
    }
    var leader: String { ko ? "1위!" : "#1!" }
    /// A school without a tap has no rank: at the start of a battle every school shared 1위.
    var noRankYet: String { ko ? "아직 순위 없음" : "no rank yet" }
    /// No school ahead and none of the school's taps yet: every school is at zero.
    var firstTapLeads: String { ko ? "첫 터치면 1위!" : "One tap takes #1!" }
    func speed(now: Int, best: Int) -> String {
        ko ? "초당 \(now)번 · 최고 \(best)번" : "\(NumberText.counted(now, "tap/s", "taps/s")) · best \(best)"
    }
    // MARK: A round

    /// During the race: the seconds left and my place.
    func roundRace(title: String?, secondsLeft: Int, standing: RoundStanding) -> String {
        let place = standing.place.map { place in
            ko ? "\(placed(standing, place)) / \(standing.players)명 · \(NumberText.grouped(standing.count))번"
                : "\(placed(standing, place)) of \(standing.players) · \(NumberText.counted(standing.count, "tap", "taps"))"
        } ?? (ko ? "아직 순위 없음" : "no place yet")
        let time = ko ? "남은 시간 \(secondsLeft)초" : "\(secondsLeft)s left"
        return [title, time, place].compactMap { $0 }.joined(separator: " · ")
    }

    func roundCounting(title: String?) -> String {
        [title, ko ? "종료! 집계 중…" : "Time! Counting…"].compactMap { $0 }.joined(separator: " · ")
    }

    /// The result's lines: the round, my place, my count.
    func roundResult(title: String?, standing: RoundStanding) -> [String] {
        let heading = title ?? (ko ? "라운드 결과" : "Round result")
        guard let place = standing.place else {
            return [heading, ko ? "이번 라운드에 센 터치가 없습니다" : "None of your taps counted in this round", ""]
        }
        return [heading,
                ko ? "\(placed(standing, place)) / \(standing.players)명" : "\(placed(standing, place)) of \(standing.players)",
                ko ? "\(NumberText.grouped(standing.count))번" : NumberText.counted(standing.count, "tap", "taps")]
    }

    /// A place in a round, shared when tied: "공동 1위", "tied 1st".
    private func placed(_ standing: RoundStanding, _ place: Int) -> String {
        ko ? (standing.tied ? "공동 \(place)위" : "\(place)위") : (standing.tied ? "tied \(Self.ordinal(place))" : Self.ordinal(place))
    }

    static func ordinal(_ number: Int) -> String {
        let suffix = (11...13).contains(number % 100) ? "th" : ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"][number % 10]
        return "\(number)\(suffix)"
    }

    var mashHint: String { ko ? "아무 키나 마구 누르세요!" : "Mash any key!" }
    var nationalPanelTitle: String { ko ? "전국 순위" : "National ranking" }
    /// Esc with nothing to go back to: the question, with its answers.
    var quitQuestion: String {
        ko ? "종료할까요? Esc/y: 종료 · 다른 키: 계속" : "Quit? Esc/y: quit · any other key: keep playing"
    }
    /// Playing with --server: the server the taps go to, beside the keys.
    func playingOn(_ server: String) -> String { ko ? "서버 \(server)" : "server \(server)" }
    /// Where a game without `--server` plays, beside its keys.
    var playingLocally: String { ko ? "이 컴퓨터만" : "this computer only" }
    var gameKeys: String {
        ko ? "Tab 순위  F1 도움말  F2 학교 바꾸기  Esc/Ctrl-C 종료" : "Tab ranking  F1 help  F2 change school  Esc/Ctrl-C quit"
    }

    // MARK: Ranking

    public func leagueName(_ league: League) -> String {
        switch league {
        case .national: ko ? "전국" : "National"
        case let .level(level): levelName(level, plural: true)
        case let .province(province): provinceName(province)
        case let .levelInProvince(level, province):
            ko ? "\(province) \(level.koreanName)" : "\(levelName(level, plural: true)) in \(provinceName(province))"
        }
    }
    /// The ranking's title; `period`: the period it ranks by, named, when a season runs.
    func rankingTitle(_ league: String, index: Int, of count: Int, period: String? = nil) -> String {
        let scope = "\(league) (\(index)/\(count))"
        guard let period else { return ko ? "순위 · \(scope)" : "Ranking · \(scope)" }
        return ko ? "\(period) 순위 · \(scope)" : "Ranking · \(scope) · \(period)"
    }
    /// `otherPeriod`: while a season runs, the period `a` ranks by instead, named.
    func rankingHint(otherPeriod: String? = nil) -> String {
        let keys = ko ? "←/→ 리그 바꾸기  Enter/m 내 학교  v 지도" : "←/→ league  Enter/m my school  v map"
        return otherPeriod.map { "\(keys)  a \(ko ? $0 : $0.lowercased())" } ?? keys
    }
    var rankingMapHint: String { ko ? "←/→ 리그 바꾸기  v 순위표" : "←/→ league  v table" }
    func myPlace(_ rank: String, of size: String) -> String { ko ? "내 학교 \(rank)위 / \(size)" : "mine #\(rank) of \(size)" }
    var rankHeading: String { ko ? "순위" : "Rank" }
    var movementHeading: String { ko ? "변동" : "Move" }
    var schoolHeading: String { ko ? "학교" : "School" }
    var provinceHeading: String { ko ? "시도" : "Province" }
    var districtHeading: String { ko ? "시군구" : "District" }
    var scoreHeading: String { ko ? "터치 수" : "Taps" }
    /// The map's legend: what the glow, the digits, the star and the lit dots mean.
    var mapGlowLegend: String { ko ? "최근 5초에 터치한 학교 (빠를수록 밝게)" : "tapped in the last 5 s (brighter: faster)" }
    func mapLeadersLegend(_ league: String, count: Int) -> String { ko ? "\(league) 1~\(count)위" : "top \(count), \(league)" }
    var mapMineLegend: String { ko ? "내 학교" : "my school" }
    func mapLitLegend(_ league: String) -> String { ko ? "밝은 점: \(league)" : "lit: \(league)" }
    /// The starter list has no coordinates: where its schools are drawn, and how to get the real map.
    var mapAtProvinceCentres: String {
        ko ? "기본 목록에는 좌표가 없어 학교를 시도청 자리에 모아 찍었습니다. 전체 지도는 touchschool import로 전국 목록을 가져오면 나옵니다."
            : "The starter list has no coordinates: each school is drawn at its province's seat. The full map comes with touchschool import."
    }
    var emptyLeague: String { ko ? "이 리그에는 학교가 없습니다." : "No schools in this league." }
    var rankingKeys: String {
        ko ? "↑↓ PgUp/PgDn Home/End 이동  Tab 게임  Esc 뒤로  F1 도움말"
            : "↑↓ PgUp/PgDn Home/End scroll  Tab game  Esc back  F1 help"
    }
    var rankingMapKeys: String { ko ? "Tab 게임  Esc 뒤로  F1 도움말" : "Tab game  Esc back  F1 help" }

    /// The level as the game names it (also `search`'s table, in the command's language).
    public func levelName(_ level: SchoolLevel, plural: Bool = false) -> String {
        if ko { return level.koreanName }
        let name = switch level {
        case .elementary: "Elementary"
        case .middle: "Middle"
        case .high: "High"
        }
        return plural ? "\(name) schools" : name
    }

    /// The province's English name; the Korean name in Korean, or when it is no province known.
    func provinceName(_ province: String) -> String {
        ko ? province : Province.englishName(of: province) ?? province
    }

    // MARK: Seasons

    /// The period a ranking is of, as every screen and command names it: the season running
    /// ("이번 주" / "This week", "이번 달" / "This month"), or all time ("전체" / "All time").
    public func period(_ period: RankingPeriod, of season: Season? = nil) -> String {
        switch (period, season?.length) {
        case (.season, .week?): ko ? "이번 주" : "This week"
        case (.season, .month?): ko ? "이번 달" : "This month"
        default: ko ? "전체" : "All time"
        }
    }

    /// The same with the season's days in Korea's calendar, where there is room for them:
    /// "이번 주 (11월 30일–12월 6일)" / "This week (Nov 30 – Dec 6)".
    func periodWithDays(_ period: RankingPeriod, of season: Season) -> String {
        let name = self.period(period, of: season)
        guard period == .season, season.length != .none else { return name }
        let (first, last) = season.days
        if ko { return "\(name) (\(first.month)월 \(first.day)일–\(last.month)월 \(last.day)일)" }
        return "\(name) (\(Self.monthAbbreviations[first.month - 1]) \(first.day) – \(Self.monthAbbreviations[last.month - 1]) \(last.day))"
    }

    static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The help's line for `a` (shown while a season runs).
    func periodKey(_ season: Season) -> (key: String, description: String) {
        let this = period(.season, of: season), all = period(.allTime, of: season)
        let and = season.length == .month ? "과" : "와" // 달 ends in a consonant, 주 in a vowel
        return ("a", ko ? "순위: \(this)\(and) \(all) 오가기" : "ranking: switch between \(this.lowercased()) and \(all.lowercased())")
    }

    // MARK: Help and About

    var helpTitle: String { ko ? "도움말" : "Help" }
    var helpIntro: String {
        ko ? "학교를 고르고 아무 키나 마구 누르세요. 한 번 누를 때마다 내 학교의 점수가 1 오릅니다. 마우스 클릭도 됩니다."
            : "Choose your school, then mash any key. Every press adds 1 to your school's score. Mouse clicks count too."
    }
    var helpKeyList: [(key: String, description: String)] {
        ko ? [
            ("Tab", "게임 화면과 순위 화면 오가기"),
            ("Esc", "뒤로 (게임에서는 종료할지 묻습니다)"),
            ("F1", "도움말 (Tab: 정보)"),
            ("F2", "학교 바꾸기"),
            ("Ctrl-C", "저장하고 종료"),
            // One row for both: a help at 80×24 on a server running seasons has a row less to give.
            ("↑↓ PgUp/PgDn", "목록 이동 (Home/End: 처음과 끝)"),
            ("←/→", "순위: 전국 · 학교급 · 시도 · 시도의 학교급"),
            ("v", "순위: 순위표와 학교 지도 오가기"),
            ("Enter", "선택 · 순위에서는 내 학교로"),
        ] : [
            ("Tab", "switch between the game and the ranking"),
            ("Esc", "back (in the game, asks whether to quit)"),
            ("F1", "help (Tab: about)"),
            ("F2", "change school"),
            ("Ctrl-C", "save and quit"),
            ("↑↓ PgUp/PgDn", "move through lists (Home/End: first and last)"),
            ("←/→", "ranking: national, level, province, level in province"),
            ("v", "ranking: switch between the table and the map of schools"),
            ("Enter", "choose; in the ranking, jump to my school"),
        ]
    }
    /// The tap guard's rule, quoting its own thresholds.
    func fairPlay(_ policy: TapGuardPolicy) -> String {
        let window = policy.burstWindowNanoseconds / 1_000_000_000
        let burst = policy.burstLimit
        let perKey = 1_000_000_000 / max(1, policy.singleKeyIntervalNanoseconds)
        let chord = policy.simultaneousPressLimit
        return ko
            ? "반칙 방지: \(window)초 안에 \(burst)번이 넘는 터치, 한 키를 1초에 \(perKey)번보다 빠르게 되풀이하는 것(키를 꾹 눌렀을 때의 자동 반복), 한꺼번에 \(chord)개가 넘는 키, 붙여넣기는 세지 않습니다. 그럴 때는 \"비정상적인 터치 수가 감지되었습니다.\"라고 알려 줍니다."
            : "Fair play: more than \(NumberText.counted(burst, "tap", "taps")) within \(NumberText.counted(window, "second", "seconds")), one key repeated faster than \(NumberText.counted(perKey, "time", "times")) a second (a key held down), more than \(NumberText.counted(chord, "key", "keys")) at once, and pasted text do not count. When that happens you see \"Abnormal tapping detected.\""
    }
    var helpSaved: String {
        ko ? "점수는 저장되고, 같은 컴퓨터에서 함께 하는 모든 사람의 터치가 합쳐집니다."
            : "Scores are saved, and everyone playing on this computer adds to the same totals."
    }
    /// Playing with --server: the taps go to the server's battle, and wait while it is out of reach.
    func helpOnServer(_ server: String) -> String {
        ko ? "\(server) 서버의 대항전에서 플레이합니다: 터치는 서버로 보내져 함께 하는 모든 사람의 터치와 학교 점수에 합쳐지고, 순위는 서버가 매깁니다. 연결이 끊겨도 계속 치세요: 터치는 이 컴퓨터에 보관되었다가 다시 연결되면 보내집니다."
            : "You play in the battle on the server \(server): your taps are sent there and add to your school's score with everyone else's, and the server ranks the schools. If the connection drops, keep tapping: the taps are kept on this computer and sent when it is back."
    }
    /// Playing over SSH: the game runs in the server, so every tap counts there at once.
    var helpOverSSH: String {
        ko ? "SSH로 서버에서 돌아가는 게임에 접속했습니다: 터치는 바로 서버의 대항전에서 세어져 함께 하는 모든 사람의 터치와 학교 점수에 합쳐집니다. 접속이 끊기면 게임이 끝납니다. 다시 접속해서 이어 하세요."
            : "You play over SSH in the game the server runs: your taps count at once in the server's battle, adding to your school's score with everyone else's. If the connection drops the game ends: connect again to carry on."
    }
    /// The operator's rounds, which only a server runs.
    var helpRounds: String {
        ko ? "라운드: 선생님이 시작하면 3, 2, 1 카운트다운 뒤 정해진 시간 동안 누가 더 많이 치는지 겨룹니다. 위쪽에 남은 시간과 내 순위가, 끝나면 결과가 나옵니다."
            : "Rounds: when the teacher starts a round, a 3-2-1 countdown opens a timed race of who taps most; the play area's top line shows the seconds left and your place, then the result."
    }
    var helpKeys: String { ko ? "Tab 정보  Esc 뒤로" : "Tab about  Esc back" }

    var aboutTitle: String { ko ? "정보" : "About" }
    var aboutVersion: String {
        ko ? "학교 대항전 TouchSchool 버전 \(TouchSchoolVersion.release)" : "TouchSchool (학교 대항전) version \(TouchSchoolVersion.release)"
    }
    var aboutText: String {
        ko ? "학교끼리 터치 수를 겨루는 터미널 게임입니다." : "A school-against-school tapping battle for the terminal."
    }
    var dataCredit: String {
        ko ? "학교 데이터: 공공데이터포털(data.go.kr) 전국초중등학교위치표준데이터 (제공: 한국교육시설안전원)"
            : "School data: Public Data Portal (data.go.kr), National Elementary, Middle and High School Location Standard Data (전국초중등학교위치표준데이터), provided by the Korea Education Facilities Safety Agency (한국교육시설안전원)"
    }
    func catalogSource(_ source: CatalogSource, schools count: Int) -> String {
        let grouped = NumberText.grouped(count), schools = NumberText.counted(count, "school", "schools")
        return switch source {
        case .starter: ko ? "지금 쓰는 학교 목록: 기본 목록 (\(grouped)개 학교)" : "School list in use: the starter list (\(schools))"
        case let .official(edition):
            ko ? "지금 쓰는 학교 목록: 공식 목록 \(edition) 기준 (\(grouped)개 학교)"
                : "School list in use: the official list as of \(edition) (\(schools))"
        }
    }
    var importHint: String {
        ko ? "전국 목록 가져오기: touchschool import FILE" : "To import the national list: touchschool import FILE"
    }
    var aboutKeys: String { ko ? "Tab 도움말  Esc 뒤로" : "Tab help  Esc back" }
}

/// Cheap number text for every frame, and for the commands' output: digits with thousands
/// separators, no formatter objects.
public enum NumberText {
    public static func grouped(_ value: UInt64) -> String {
        let plain = String(value)
        guard plain.utf8.count > 3 else { return plain }
        var result = ""
        var remaining = plain.utf8.count
        for digit in plain {
            result.append(digit)
            remaining -= 1
            if remaining > 0, remaining % 3 == 0 { result.append(",") }
        }
        return result
    }

    public static func grouped(_ value: Int) -> String {
        value < 0 ? "-" + grouped(UInt64(value.magnitude)) : grouped(UInt64(value))
    }

    /// An English count as a person reads it, grouped: "1 tap", "1,234 taps" (`counted(n, "tap",
    /// "taps")`). Korean needs none: 번, 명, 개 have no plural.
    public static func counted(_ value: some BinaryInteger, _ one: String, _ many: String) -> String {
        "\(value < 0 ? grouped(Int(value)) : grouped(UInt64(value))) \(value == 1 ? one : many)"
    }
}
