import TouchSchoolCore

/// Column widths of a ranking table, by display width. The name takes what the others leave;
/// narrow terminals drop the district, then the province, to keep names readable.
struct RankColumns {
    var rank: Int
    var movement = 4
    var name = 0
    var province = 0
    var district = 0
    var count: Int
    var gap = 1

    /// The game's side panel: rank, movement, name, count.
    init(panelEntries entries: [RankedSchool], width: Int) {
        rank = entries.reduce(1) { max($0, DisplayWidth.of(Self.rankText($1))) }
        count = entries.reduce(1) { max($0, DisplayWidth.of(NumberText.grouped($1.count))) }
        name = max(1, width - rank - movement - count - 3 * gap)
    }

    /// The ranking screen: every column, with headings. Widths depend on the league, not on the
    /// rows in view, so columns stay put while scrolling.
    init(rankingWidth width: Int, leagueSize: Int, topCount: UInt64, strings: Strings) {
        rank = max(DisplayWidth.of(strings.rankHeading), DisplayWidth.of(NumberText.grouped(leagueSize)))
        movement = max(movement, DisplayWidth.of(strings.movementHeading))
        count = max(DisplayWidth.of(strings.scoreHeading), DisplayWidth.of(NumberText.grouped(topCount)))
        gap = width >= 100 ? 2 : 1
        province = Self.provinceWidth
        district = Self.districtWidth
        func nameRoom() -> Int {
            width - rank - movement - count - province - district - (3 + (province > 0 ? 1 : 0) + (district > 0 ? 1 : 0)) * gap
        }
        if nameRoom() < 20 { district = 0 }
        if nameRoom() < 14 { province = 0 }
        name = max(1, min(Self.nameWidth, nameRoom()))
    }

    /// A row's rank: "-" for a school without a tap, as `touchschool rank` prints it.
    static func rankText(_ entry: RankedSchool) -> String {
        entry.shownRank.map { NumberText.grouped($0) } ?? "-"
    }

    /// Room for the longest names of the official list (16 syllables), provinces (7) and districts
    /// (`창원시 마산합포구`); longer ones end in "…".
    static let nameWidth = 36
    static let provinceWidth = 14
    static let districtWidth = 17

    var total: Int {
        rank + movement + name + count + [province, district].reduce(3 * gap) { $0 + ($1 > 0 ? $1 + gap : 0) }
    }
}

extension Frame {
    /// The period the ranks shown are of, named, while a season runs; nil while none does.
    var periodName: String? {
        state.season.flatMap { season in state.shownPeriod.map { strings.period($0, of: season) } }
    }

    mutating func drawRanking() {
        let columns = layout.columns
        let league = state.ranking.league
        let leagues = state.leagues
        let index = (leagues.firstIndex(of: league) ?? 0) + 1
        let size = state.size(of: league)
        var myPlace = ""
        if let rank = state.myRank(in: league) {
            // Without a tap my school has no rank yet, as the game's header says.
            let hasTaps = state.mySchool.map { state.nationalStanding(of: $0).total > 0 } ?? false
            myPlace = hasTaps ? strings.myPlace(NumberText.grouped(rank), of: NumberText.grouped(size)) : strings.noRankYet
        }
        let leagueName = strings.leagueName(league)
        var title = strings.rankingTitle(leagueName, index: index, of: leagues.count)
        var otherPeriod: String?
        if let period = state.shownPeriod, let season = state.season {
            // The season's days when the title has room for them beside my place (`drawTitleBar`).
            let dated = strings.rankingTitle(leagueName, index: index, of: leagues.count, period: strings.periodWithDays(period, of: season))
            title = DisplayWidth.of(dated) + DisplayWidth.of(myPlace) + 3 <= columns ? dated
                : strings.rankingTitle(leagueName, index: index, of: leagues.count, period: strings.period(period, of: season))
            otherPeriod = strings.period(period == .season ? .allTime : .season, of: season)
        }
        drawTitleBar(title, right: myPlace)
        if state.ranking.tab == .map {
            grid.put(DisplayWidth.truncate(strings.rankingMapHint, toWidth: columns - 2), column: 1, row: 1, style: .dim)
            drawMap()
            return
        }
        grid.put(DisplayWidth.truncate(strings.rankingHint(otherPeriod: otherPeriod), toWidth: columns - 2), column: 1, row: 1, style: .dim)

        let area = layout.rankingList
        let start = min(max(0, state.ranking.scroll), size)
        let rows = state.rankingRows(in: league, places: start..<min(size, start + area.height))
        let topCount = state.rankingRows(in: league, places: 0..<min(1, size)).first?.entry.count
            ?? rows.first?.entry.count ?? 0
        let table = RankColumns(rankingWidth: area.width - 2, leagueSize: size, topCount: topCount, strings: strings)
        drawRankHeadings(table, column: area.x + 1, row: area.y - 1)
        if rows.isEmpty {
            grid.put(DisplayWidth.truncate(strings.emptyLeague, toWidth: area.width - 2), column: area.x + 1, row: area.y, style: .dim)
        }
        for (place, entry) in rows {
            drawRankRow(entry, movement: state.movement(of: entry.position, in: league), columns: table,
                        column: area.x + 1, row: area.y + place - start)
        }
    }

    private mutating func drawRankHeadings(_ table: RankColumns, column: Int, row: Int) {
        var x = column
        func heading(_ text: String, width: Int, alignRight: Bool = false) -> String {
            DisplayWidth.pad(text, toWidth: width, alignRight: alignRight)
        }
        x = grid.put(heading(strings.rankHeading, width: table.rank, alignRight: true), column: x, row: row, style: .accent) + table.gap
        x = grid.put(heading(strings.movementHeading, width: table.movement), column: x, row: row, style: .accent) + table.gap
        x = grid.put(heading(strings.schoolHeading, width: table.name), column: x, row: row, style: .accent) + table.gap
        if table.province > 0 {
            x = grid.put(heading(strings.provinceHeading, width: table.province), column: x, row: row, style: .accent) + table.gap
        }
        if table.district > 0 {
            x = grid.put(heading(strings.districtHeading, width: table.district), column: x, row: row, style: .accent) + table.gap
        }
        grid.put(heading(strings.scoreHeading, width: table.count, alignRight: true), column: x, row: row, style: .accent)
    }

    /// One ranked school: rank, movement since a moment ago, name (and where it is: in columns when
    /// there is room, else after a name that is not unique), count. Mine stands out.
    mutating func drawRankRow(_ entry: RankedSchool, movement: Int, columns table: RankColumns, column: Int, row: Int) {
        let school = state.catalog[entry.position]
        let isMine = entry.position == state.mySchool
        let style: CellStyle = isMine ? .mine : .normal
        if isMine { grid.fill(column: column, row: row, width: table.total, height: 1, style: .mine) }

        var x = column
        x = grid.put(DisplayWidth.pad(RankColumns.rankText(entry), toWidth: table.rank, alignRight: true), column: x, row: row, style: style) + table.gap

        // A school without a rank passed no one and was passed by no one: on a server its shared
        // rank drops as the others' first taps come (▼1 on a school that has not moved).
        let movement = entry.shownRank == nil ? 0 : movement
        let movementText = movement > 0 ? "▲\(min(movement, 999))" : movement < 0 ? "▼\(min(-movement, 999))" : "-"
        let movementStyle: CellStyle = isMine ? .mine : movement > 0 ? .rankUp : movement < 0 ? .rankDown : .dim
        grid.put(movementText, column: x, row: row, style: movementStyle)
        x += table.movement + table.gap

        let name = school.isListed ? school.name : school.name + " " + strings.unlisted
        // A name other schools have too comes with what the columns do not show of where it is,
        // as the picker shows it: the region (`School.region`), or its district beside a province column.
        let whereMissing = table.district > 0 || !state.search.sameNames.isShared(entry.position) ? ""
            : table.province > 0 ? school.district : school.region
        if whereMissing.isEmpty {
            grid.put(DisplayWidth.truncate(name, toWidth: table.name), column: x, row: row, style: style)
        } else {
            putNameAndDetail(name, whereMissing, column: x, row: row, endColumn: x + table.name, nameStyle: style, detailStyle: isMine ? .mine : .dim)
        }
        x += table.name + table.gap
        if table.province > 0 {
            grid.put(DisplayWidth.truncate(school.province, toWidth: table.province), column: x, row: row, style: isMine ? .mine : .dim)
            x += table.province + table.gap
        }
        if table.district > 0 {
            grid.put(DisplayWidth.truncate(school.district, toWidth: table.district), column: x, row: row, style: isMine ? .mine : .dim)
            x += table.district + table.gap
        }
        grid.putRight(NumberText.grouped(entry.count), endColumn: x + table.count, row: row, style: style)
    }
}
