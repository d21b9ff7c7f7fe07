import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolStore
@testable import TouchSchoolView

@Suite(.onOwnThreads) struct PickerViewTests {
    @Test(arguments: Language.allCases)
    func sameNameSchoolsAreToldApartByRegionWithTheirCounts(language: Language) {
        for size in [Fixture.small, Fixture.large] {
            var state = Fixture.game(language, columns: size.columns, rows: size.rows, chosen: false)
            Fixture.type("금성초", into: &state)
            var grid = view(state, now: Fixture.start)
            let busan = try! #require(grid.row(containing: "부산"))
            let jeonnam = try! #require(grid.row(containing: "전라"))
            #expect(busan != jeonnam)
            for row in [busan, jeonnam] {
                #expect(grid.lines[row].contains("금성초등학교"))
                #expect(row >= state.layout.pickerResults.y)
            }
            #expect(grid.lines[busan].hasSuffix("15 "))
            #expect(grid.lines[jeonnam].hasSuffix(" 0 "))
            #expect(grid.contains(language == .korean ? "2개 학교" : "2 schools"))
            if size == Fixture.large {
                #expect(grid.lines[busan].contains(language == .korean ? "부산광역시 금정구 · 초등학교" : "부산광역시 금정구 · Elementary"))
                #expect(grid.lines[jeonnam].contains("전라남도 담양군"))
            }

            // The selection is the highlighted row, and follows the arrows.
            let first = state.layout.pickerResults.y
            #expect(grid[0, first].style == .highlight && grid[size.columns - 1, first].style == .highlight)
            #expect(grid[0, first + 1].style == .normal)
            _ = update(&state, .key(.down), now: Fixture.start)
            grid = view(state, now: Fixture.start)
            #expect(grid[0, first].style == .normal)
            #expect(grid[0, first + 1].style == .highlight)
            #expect(grid.lines[first + 1].hasPrefix(">"))
        }
    }

    @Test func myCurrentSchoolIsMarked() {
        var state = Fixture.game(.korean, columns: 80, rows: 24)
        _ = update(&state, .key(.chooseSchool), now: Fixture.start)
        Fixture.type("고등학교", into: &state)
        let grid = view(state, now: Fixture.start)
        #expect(grid.contains("* 내 학교: 서울고등학교"))
        let mine = try! #require(grid.lines.firstIndex { $0.contains("서울고등학교") && $0.contains("서초구") })
        #expect(grid.lines[mine].dropFirst().hasPrefix("*"))
        let selected = state.layout.pickerResults.y
        if mine != selected { #expect(grid[3, mine].style == .mine) }
        for row in state.layout.pickerResults.y..<state.layout.statusLine.y where row != mine {
            #expect(!grid.lines[row].dropFirst().hasPrefix("*"))
        }
        // Picked from the game: Esc goes back rather than quitting.
        #expect(grid.lines.last!.contains("Esc 뒤로"))
    }

    @Test(arguments: Language.allCases)
    func noResultsSaysSoAndTellsHowToImportTheNationalList(language: Language) {
        var state = Fixture.game(language, columns: 120, rows: 40, chosen: false)
        Fixture.type("xyzzy", into: &state)
        let grid = view(state, now: Fixture.start)
        let noResults = language == .korean ? "검색 결과가 없습니다." : "No schools found."
        #expect(grid.contains(noResults))
        #expect(grid.contains("touchschool import FILE"))
        #expect(grid.contains("전국초중등학교위치표준데이터"))
        #expect(grid.contains("data.go.kr"))
        #expect(grid.style(of: noResults) == .warning)

        let official = Catalog(schools: Fixture.catalog.schools, source: .official(edition: "2026-03-20"))
        var imported = Fixture.game(language, columns: 120, rows: 40, chosen: false, catalog: official)
        Fixture.type("xyzzy", into: &imported)
        let importedGrid = view(imported, now: Fixture.start)
        #expect(importedGrid.contains(noResults))
        #expect(!importedGrid.contains("touchschool import"))
    }

    @Test(arguments: Language.allCases)
    func aTypoShowsTheClosestNamesAsGuesses(language: Language) {
        var state = Fixture.game(language, columns: 80, rows: 24, chosen: false)
        Fixture.type("금성초등하교", into: &state)
        let grid = view(state, now: Fixture.start)
        #expect(grid.contains(language == .korean ? "혹시 금성초등학교?" : "Did you mean 금성초등학교?"))
        #expect(grid.row(containing: "부산광역시 금정구") != nil && grid.row(containing: "전라남도 담양군") != nil)
        #expect(!grid.contains(language == .korean ? "검색 결과가 없습니다." : "No schools found."))
    }

    /// What the first screen offers to try must work on the catalog a new player has.
    @Test func everySearchExampleFindsASchoolInTheStarterCatalog() throws {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        let starter = try CatalogFile.load(path: (components + ["Resources", "schools.json"]).joined(separator: "/"))
        let search = SchoolSearch(catalog: starter)
        for language in Language.allCases {
            let shown = Strings(language).searchHints.joined(separator: "\n") + Strings(language).searchExample
            for example in Strings.searchExamples {
                #expect(shown.contains(example))
                #expect(!search.search(SearchQuery(text: example)).isEmpty, "\(example)")
            }
        }
        #expect(search.search(SearchQuery(text: "부산 해운대초")).map { starter[$0.position].name } == ["해운대초등학교"])
    }

    @Test func longNamesAreCutWithAnEllipsisAndTheCountStays() {
        var state = Fixture.game(.korean, columns: 40, rows: 12, chosen: false)
        Fixture.type("한국과학", into: &state)
        let grid = view(state, now: Fixture.start)
        let row = try! #require(grid.row(containing: "한국과학영재"))
        #expect(grid.lines[row].contains("…"))
        #expect(!grid.contains("한국과학영재학교부설아주아주긴이름을가진시험용고등학교"))
        #expect(grid.lines[row].hasSuffix("999 "))
        expectWholeColumns(grid)
    }

    @Test func theSearchLineKeepsItsCursorEndInView() {
        var state = Fixture.game(.english, columns: 40, rows: 12, chosen: false)
        Fixture.type("abcdefghijklmnopqrstuvwxyz가나다라마바사아자차카", into: &state)
        let grid = view(state, now: Fixture.start)
        let line = grid.lines[2]
        #expect(line.hasPrefix(" > …"))
        #expect(line.contains("아자차카_"))
        #expect(grid[1, 2].style == .inputLine && grid[39, 2].style == .inputLine)
        expectWholeColumns(grid)
    }
}
