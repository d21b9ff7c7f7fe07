import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore
import TouchSchoolStore

/// The fallback of a search that finds nothing: names close to a typo, jamo by jamo.
@Suite(.onOwnThreads) struct ClosestNamesTests {
    static let catalog = SchoolSearchTests.smallCatalog
    static let search = SchoolSearchTests.small

    /// The starter catalog as shipped, `Resources/schools.json` in the source tree.
    static let starter: Catalog? = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return try? CatalogFile.load(path: (components + ["Resources", "schools.json"]).joined(separator: "/"))
    }()

    private func closest(_ text: String, level: SchoolLevel? = nil, province: String? = nil, limit: Int = 5,
                         in search: SchoolSearch = search, catalog: Catalog = catalog) -> [String] {
        search.closestNames(SearchQuery(text: text, level: level, province: province, limit: limit)).map { catalog[$0.position].name }
    }

    @Test func aWrongVowelOrALostTailIsOneJamoAway() {
        // The typos of the issue: neither is found by the search itself.
        #expect(Self.search.search(SearchQuery(text: "휘뮨고")).isEmpty)
        #expect(Self.search.search(SearchQuery(text: "휘문고등하교")).isEmpty)
        #expect(closest("휘뮨고").first == "휘문고등학교")
        #expect(closest("휘문고등하교").first == "휘문고등학교")
        // A wrong consonant, a syllable too many, and the typo typed in English keyboard mode.
        #expect(closest("휘뭉고").first == "휘문고등학교")
        #expect(closest("휘문고고등학교").first == "휘문고등학교")
        #expect(closest("gnlanfsrh").first == "휘문고등학교")  // 휘물ㄴ고: one jamo too many
    }

    @Test func aTypoInTheFirstSyllableKeepsItsLeadOrVowel() {
        #expect(closest("희문고").first == "휘문고등학교")  // the vowel wrong
        #expect(closest("퀴문고").first == "휘문고등학교")  // the 초성 wrong
    }

    @Test func equallyCloseNamesComeInCatalogOrder() {
        #expect(Self.search.search(SearchQuery(text: "금성초등하교")).isEmpty)
        let ids = Self.search.closestNames(SearchQuery(text: "금성초등하교")).map { Self.catalog[$0.position].id }
        #expect(ids == ["T05", "T06", "T07"])
        #expect(closest("서울중학꾜", limit: 1) == ["서울중학교"])
    }

    @Test func shortQueriesAndFarNamesSuggestNothing() {
        #expect(closest("휘뮨").first == "휘문고등학교")  // two syllables: enough to guess from
        #expect(closest("뮨").isEmpty)
        #expect(closest("ㅎ").isEmpty)
        #expect(closest("").isEmpty)
        #expect(closest("가나다라마바사").isEmpty)
        #expect(closest("휘뮨고", limit: 0).isEmpty)
    }

    @Test func filtersStillApply() {
        #expect(closest("휘뮨고", level: .high) == ["휘문고등학교"])
        #expect(closest("휘뮨고", level: .middle).isEmpty)
        #expect(closest("휘뮨고", province: "부산").isEmpty)
        #expect(closest("휘뮨고", province: "어딘가").isEmpty)
    }

    @Test func starterCatalogTypos() throws {
        let catalog = try #require(Self.starter)
        let search = SchoolSearch(catalog: catalog)
        #expect(closest("휘뮨고", in: search, catalog: catalog).first == "휘문고등학교")
        #expect(closest("휘문고등하교", in: search, catalog: catalog).first == "휘문고등학교")
        #expect(closest("해운대초등하교", in: search, catalog: catalog).first == "해운대초등학교")
    }

    @Test(.enabled(if: OfficialListForSearch.isAvailable, "../shared/data not found: skipped"))
    func officialListTypos() throws {
        let catalog = try #require(OfficialListForSearch.catalog)
        let search = try #require(OfficialListForSearch.search)
        #expect(search.search(SearchQuery(text: "휘뮨고")).isEmpty)
        #expect(closest("휘뮨고", in: search, catalog: catalog).first == "휘문고등학교")
        #expect(closest("휘문고등하교", in: search, catalog: catalog).first == "휘문고등학교")
        #expect(closest("민족사간고", in: search, catalog: catalog).first == "민족사관고등학교")
    }
}
