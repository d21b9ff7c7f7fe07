import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore
import TouchSchoolStore

/// The official list in `../shared/data`, read with a minimal CSV split (the file has no quoted
/// fields: every row has exactly 20 comma-separated fields, which `load` checks).
enum OfficialListForSearch {
    static let path: String = {
        var directory = String(#filePath)
        for _ in 0..<3 { directory = String(directory[..<directory.lastIndex(of: "/")!]) }  // package root
        return "\(directory)/../shared/data/korea-schools-2026-03-20.utf8.csv"
    }()

    static var isAvailable: Bool { FileIO.exists(path) }

    static let catalog: Catalog? = {
        guard let bytes = try? FileIO.read(path) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        var schools: [School] = []
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            precondition(fields.count == 20, "a quoted field or a broken row: \(line)")
            let level: SchoolLevel = switch fields[2] {
            case "초등학교": .elementary
            case "중학교": .middle
            default: .high
            }
            let province = String(fields[10].dropLast("교육청".count))
            let address = fields[8].isEmpty ? fields[7] : fields[8]
            // 시군구: the address words after the province that end in 시, 군 or 구 (`수원시 장안구`).
            let district = address.split(separator: " ").dropFirst().prefix(2)
                .prefix(while: { $0.hasSuffix("시") || $0.hasSuffix("군") || $0.hasSuffix("구") })
                .joined(separator: " ")
            schools.append(School(id: fields[0], name: fields[1], level: level, province: province,
                                  district: district, address: address))
        }
        return Catalog(schools: schools, source: .official(edition: "2026-03-20"))
    }()

    static let search: SchoolSearch? = catalog.map(SchoolSearch.init)
}

@Suite(.onOwnThreads) struct SchoolSearchTests {
    private static func school(_ id: String, _ name: String, _ level: SchoolLevel, _ province: String,
                               _ district: String, _ road: String) -> School {
        School(id: id, name: name, level: level, province: province, district: district,
               address: "\(province) \(district) \(road)")
    }

    static let smallCatalog = Catalog(schools: [
        school("T01", "서울고척초등학교", .elementary, "서울특별시", "구로구", "경서로 31"),
        school("T02", "서울고등학교", .high, "서울특별시", "서초구", "효령로 197"),
        school("T03", "휘문고등학교", .high, "서울특별시", "강남구", "역삼로 541"),
        school("T04", "화명고등학교", .high, "부산광역시", "북구", "화명신도시로 169"),
        school("T05", "금성초등학교", .elementary, "서울특별시", "중랑구", "신내로21길 55"),
        school("T06", "금성초등학교", .elementary, "부산광역시", "금정구", "중리1길 15"),
        school("T07", "금성초등학교", .elementary, "충청북도", "제천시", "금성면 국사봉로 1615"),
        school("T08", "경기자동차과학고등학교", .high, "경기도", "시흥시", "금오로 103"),
        school("T09", "경기과학고등학교", .high, "경기도", "수원시 장안구", "수일로 135"),
        school("T10", "민족사관고등학교", .high, "강원특별자치도", "횡성군", "안흥면 봉화로 800"),
        school("T11", "KIS High School", .high, "제주특별자치도", "서귀포시", "대정읍 글로벌에듀로260번길 8"),
        school("T12", "서울중학교", .middle, "서울특별시", "서초구", "효령로 197"),
        school("T13", "서울공업고등학교", .high, "서울특별시", "관악구", "관악로 1"),
        school("T14", "부산고등학교", .high, "부산광역시", "동구", "초량로 1"),
        school("T15", "경안초등학교", .elementary, "경기도", "광주시", "경안로 1"),
        school("T16", "서석초등학교", .elementary, "광주광역시", "동구", "서석로 1"),
        school("T17", "동명초등학교", .elementary, "경상남도", "창원시", "서울로 1"),
    ], source: .starter)
    static let small = SchoolSearch(catalog: smallCatalog)

    private func names(_ query: SearchQuery, in search: SchoolSearch = small, catalog: Catalog = smallCatalog) -> [String] {
        search.search(query).map { catalog[$0.position].name }
    }
    private func ids(_ query: SearchQuery, in search: SchoolSearch = small, catalog: Catalog = smallCatalog) -> [String] {
        search.search(query).map { catalog[$0.position].id }
    }
    private func names(_ text: String) -> [String] { names(SearchQuery(text: text)) }

    // MARK: Normalization

    @Test func spacesPunctuationAndCaseDoNotMatter() {
        #expect(names("서울 고등 학교").first == "서울고등학교")
        #expect(names("kis high school").first == "KIS High School")
        #expect(names("K.I.S.-HIGH").first == "KIS High School")
        #expect(SchoolSearch.normalize(" KIS  High-School! ") == "kishighschool")
        #expect(SchoolSearch.normalize("ＫＩＳ") == "kis")
    }

    @Test func decomposedHangulIsComposed() {
        let nfd = String(decoding: [0xE1, 0x84, 0x92, 0xE1, 0x85, 0xB1, 0xE1, 0x84, 0x86, 0xE1, 0x85, 0xAE, 0xE1, 0x86, 0xAB] as [UInt8], as: UTF8.self)
        #expect(nfd.unicodeScalars.count == 5)
        #expect(SchoolSearch.normalize(nfd) == "휘문")
        #expect(names(nfd).first == "휘문고등학교")
    }

    @Test func normalizingTwiceChangesNothing() {
        var random = RandomSource(seed: 0x5EED_0002)
        // Hangul syllables, conjoining and compatibility jamo, Latin of both cases, digits,
        // full-width letters, accents, spaces and punctuation, in random order.
        let pools: [ClosedRange<UInt32>] = [
            0xAC00...0xD7A3, 0x1100...0x1112, 0x1161...0x1175, 0x11A8...0x11C2, 0x3131...0x318E,
            0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0xFF21...0xFF5A, 0xC0...0x17F, 0x300...0x36F,
            0x20...0x2F, 0x130...0x130,
        ]
        for _ in 0..<5000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                let pool = pools[Int.random(in: 0..<pools.count, using: &random)]
                if let scalar = Unicode.Scalar(UInt32.random(in: pool, using: &random)) { text.unicodeScalars.append(scalar) }
            }
            let once = SchoolSearch.normalize(text)
            #expect(SchoolSearch.normalize(once) == once, "\(Array(text.unicodeScalars.map(\.value)))")
        }
    }

    // MARK: Abbreviations, 초성, keyboard

    @Test func abbreviationsRankTheTightestMatchFirst() {
        #expect(Array(names("서울고").prefix(2)) == ["서울고등학교", "서울고척초등학교"])
        #expect(names("민사고").first == "민족사관고등학교")
        #expect(Array(names("경기과고").prefix(2)) == ["경기과학고등학교", "경기자동차과학고등학교"])
        #expect(names("휘문고등학교") == ["휘문고등학교"])
    }

    @Test func initialConsonantsAloneOrMixed() {
        let hits = names("ㅎㅁㄱㄷㅎㄱ")
        #expect(Set(hits.prefix(2)) == ["휘문고등학교", "화명고등학교"])
        #expect(names("서울ㄱㄷㅎㄱ").first == "서울고등학교")
        #expect(names("ㅎㅁ").contains("휘문고등학교"))
        // ㅂ then ㅅ shown by an input method as ㅄ: still two 초성.
        #expect(names("ㅄㄱ").first == "부산고등학교")
    }

    @Test func unfinishedLastSyllable() {
        // 서울곧: the ㄷ of 등 still waiting for its vowel.
        #expect(names("서울곧").first == "서울고등학교")
        // 서울공: a syllable in the middle of being typed (공업).
        #expect(names("서울공").first == "서울공업고등학교")
        // A finished syllable only matches itself: 서울고 does not find 서울공업 first.
        #expect(names("서울고").first == "서울고등학교")
    }

    @Test func englishKeyboardModeStillFinds() {
        #expect(names("gnlansrh").first == "휘문고등학교")
        #expect(names("tjdnfrh").first == "서울고등학교")
        #expect(names("alstkrh").first == "민족사관고등학교")
        // Literal Latin names still work.
        #expect(names("kis").first == "KIS High School")
    }

    // MARK: Several words

    @Test func wordsMatchNameProvinceDistrictOrAddress() {
        #expect(ids(SearchQuery(text: "부산 금성초")) == ["T06"])
        #expect(ids(SearchQuery(text: "금성초 부산")) == ["T06"])
        #expect(ids(SearchQuery(text: "busan 금성초")) == ["T06"])
        #expect(ids(SearchQuery(text: "충북 금성초")) == ["T07"])
        #expect(ids(SearchQuery(text: "중랑구 금성초")) == ["T05"])
        #expect(ids(SearchQuery(text: "신내로 금성")) == ["T05"])
        #expect(names("경기 과학고").prefix(2) == ["경기과학고등학교", "경기자동차과학고등학교"])
        // A province word matches the province or a district of that name, not a road name.
        #expect(Set(ids(SearchQuery(text: "광주 초"))) == ["T15", "T16"])
        #expect(ids(SearchQuery(text: "서울 동명초")) == [])
        #expect(ids(SearchQuery(text: "서울로 동명초")) == ["T17"])
    }

    @Test func wholeQueryMatchingTheNameRanksAboveASplitMatch() {
        // 서울 고: whole 서울고 is a name prefix of 서울고등학교; 서울 + 고 split also matches other
        // Seoul schools with 고 in the name.
        let hits = names("서울 고")
        #expect(hits.first == "서울고등학교")
        #expect(hits.firstIndex(of: "휘문고등학교")! > hits.firstIndex(of: "서울고척초등학교")!)
    }

    // MARK: Filters

    @Test func levelAndProvinceFilters() {
        #expect(names(SearchQuery(text: "서울", level: .middle)) == ["서울중학교"])
        #expect(names(SearchQuery(text: "서울", level: SchoolLevel(userInput: "고"))).first == "서울고등학교")
        #expect(ids(SearchQuery(text: "금성초", province: "부산")) == ["T06"])
        #expect(ids(SearchQuery(text: "금성초", province: "부산광역시")) == ["T06"])
        #expect(ids(SearchQuery(text: "금성초", province: "어딘가")) == [])
    }

    @Test func emptyQueryFindsNothingUnlessFiltered() {
        #expect(names("").isEmpty)
        #expect(names("  !? ").isEmpty)
        #expect(ids(SearchQuery(text: "", level: .middle)) == ["T12"])
        #expect(ids(SearchQuery(text: "", province: "부산", limit: 2)) == ["T04", "T06"])
        #expect(names(SearchQuery(text: "서울", limit: 0)).isEmpty)
    }

    @Test func limitKeepsTheBest() {
        let all = Self.small.search(SearchQuery(text: "ㄱ", limit: 100))
        let three = Self.small.search(SearchQuery(text: "ㄱ", limit: 3))
        #expect(all.count > 3)
        #expect(three == Array(all.prefix(3)))
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.score > $1.score || ($0.score == $1.score && $0.position < $1.position) })
    }

    @Test func levelWords() {
        for word in ["고", "고등", "고등학교", "high", "H", " 고등 학교 "] { #expect(SchoolLevel(userInput: word) == .high, "\(word)") }
        for word in ["중", "중학교", "middle"] { #expect(SchoolLevel(userInput: word) == .middle, "\(word)") }
        for word in ["초", "초등학교", "elementary"] { #expect(SchoolLevel(userInput: word) == .elementary, "\(word)") }
        #expect(SchoolLevel(userInput: "대학교") == nil)
        #expect(SchoolLevel(userInput: "") == nil)
    }

    @Test func provinceNames() {
        #expect(Province.all.count == 17)
        #expect(Set(Province.all).count == 17)
        for province in Province.all { #expect(Province.canonical(province) == province) }
        #expect(Province.canonical("서울") == "서울특별시")
        #expect(Province.canonical("서울시") == "서울특별시")
        #expect(Province.canonical("Seoul") == "서울특별시")
        #expect(Province.canonical("충북") == "충청북도")
        #expect(Province.canonical("전북") == "전북특별자치도")
        #expect(Province.canonical("전라북도") == "전북특별자치도")
        #expect(Province.canonical("강원도") == "강원특별자치도")
        #expect(Province.canonical("경기") == "경기도")
        #expect(Province.canonical("부산광역시교육청") == "부산광역시")
        #expect(Province.canonical("서울고") == nil)
    }

    // MARK: The official list

    @Test(.enabled(if: OfficialListForSearch.isAvailable, "../shared/data not found: skipped"))
    func examplesOnTheOfficialList() throws {
        let catalog = try #require(OfficialListForSearch.catalog)
        let search = try #require(OfficialListForSearch.search)
        #expect(catalog.count == 12_011)
        func top(_ text: String, _ count: Int = 1) -> [String] {
            Array(names(SearchQuery(text: text), in: search, catalog: catalog).prefix(count))
        }
        #expect(top("서울 고등 학교") == ["서울고등학교"])
        #expect(top("kis high school") == ["KIS High School"])
        #expect(top("서울고") == ["서울고등학교"])
        #expect(top("서울고", 5).contains("서울고척초등학교"))
        #expect(top("민사고") == ["민족사관고등학교"])
        let 경기과고 = top("경기과고", 20)
        #expect(경기과고.first == "경기과학고등학교")
        #expect(경기과고.firstIndex(of: "경기북과학고등학교")! < 경기과고.firstIndex(of: "경기자동차과학고등학교")!)
        #expect(top("gnlansrh") == ["휘문고등학교"])
        #expect(top("tjdnfrh") == ["서울고등학교"])
        #expect(top("서울ㄱㄷㅎㄱ") == ["서울고등학교"])
        let 초성 = search.search(SearchQuery(text: "ㅎㅁㄱㄷㅎㄱ"))
        let exact = 초성.filter { $0.score == 초성[0].score }.map { catalog[$0.position].name }
        #expect(exact.contains("휘문고등학교"))
        let busan = search.search(SearchQuery(text: "부산 금성초")).map { catalog[$0.position] }
        #expect(busan.first?.id == "B000002578")
        #expect(busan.first?.province == "부산광역시")
        #expect(search.search(SearchQuery(text: "금성초등학교", limit: 11)).allSatisfy { catalog[$0.position].name == "금성초등학교" })
        let seoulHigh = search.search(SearchQuery(text: "서울", level: .high, province: "서울")).map { catalog[$0.position] }
        #expect(seoulHigh.first?.name == "서울고등학교")
        #expect(seoulHigh.allSatisfy { $0.level == .high && $0.province == "서울특별시" })
    }

    /// Every school found by its exact name, its full 초성 and its name typed in English keyboard
    /// mode, over a seeded random sample of the official list.
    @Test(.enabled(if: OfficialListForSearch.isAvailable, "../shared/data not found: skipped"))
    func everySchoolIsFoundByNameInitialsAndKeys() throws {
        let catalog = try #require(OfficialListForSearch.catalog)
        let search = try #require(OfficialListForSearch.search)
        func initials(_ normalized: String) -> String {
            String(String.UnicodeScalarView(normalized.unicodeScalars.map { Unicode.Scalar(Hangul.initialConsonant(of: $0.value))! }))
        }
        var countByName: [String: Int] = [:], countByInitials: [String: Int] = [:]
        for school in catalog.schools {
            let normalized = SchoolSearch.normalize(school.name)
            countByName[normalized, default: 0] += 1
            countByInitials[initials(normalized), default: 0] += 1
        }
        var random = RandomSource(seed: 0x5EED_0003)
        for _ in 0..<600 {
            let position = Int.random(in: 0..<catalog.count, using: &random)
            let school = catalog[position]
            let normalized = SchoolSearch.normalize(school.name)
            let twins = countByName[normalized]!

            // Exact name: found, and every school of that name comes before any other.
            let byName = search.search(SearchQuery(text: school.name, limit: twins + 5))
            #expect(byName.contains { $0.position == position }, "\(school.name)")
            let leading = byName.prefix(twins).map { SchoolSearch.normalize(catalog[$0.position].name) }
            #expect(leading.allSatisfy { $0 == normalized }, "\(school.name)")

            let isAllHangul = normalized.unicodeScalars.allSatisfy { Hangul.isSyllable($0.value) }
            guard isAllHangul else { continue }
            // Full 초성: found among the schools with the same 초성 string.
            let initialsText = initials(normalized)
            let byInitials = search.search(SearchQuery(text: initialsText, limit: countByInitials[initialsText]!))
            #expect(byInitials.contains { $0.position == position }, "\(school.name) by \(initialsText)")

            // 2-beolsik keys: found like the name itself.
            let keys = Hangul.twoBeolsikKeys(for: school.name)
            let byKeys = search.search(SearchQuery(text: keys, limit: twins + 5))
            #expect(byKeys.contains { $0.position == position }, "\(school.name) typed as \(keys)")
        }
    }
}
