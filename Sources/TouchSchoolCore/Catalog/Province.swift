// MARK: - Provinces and levels

public enum Province {
    /// Each of the 17 시도: its name in the official list, its short name, its English name, the
    /// other names it goes by (former names, romanizations), compared after `SchoolSearch.normalize`,
    /// and where its seat of government stands (the city hall or the provincial office, as any
    /// map shows it; to four decimals, about ten metres): where the map puts a school of the
    /// province that comes without coordinates (the starter list's).
    private static let names: [(official: String, short: String, english: String, others: [String],
                                centre: (latitude: Double, longitude: Double))] = [
        ("서울특별시", "서울", "Seoul", ["서울시"], (37.5663, 126.9779)),
        ("부산광역시", "부산", "Busan", ["부산시", "pusan"], (35.1798, 129.075)),
        ("대구광역시", "대구", "Daegu", ["대구시", "taegu"], (35.8714, 128.6014)),
        ("인천광역시", "인천", "Incheon", ["인천시", "inchon"], (37.4563, 126.7052)),
        ("광주광역시", "광주", "Gwangju", ["광주시", "kwangju"], (35.1601, 126.8514)),
        ("대전광역시", "대전", "Daejeon", ["대전시", "taejon"], (36.3504, 127.3845)),
        ("울산광역시", "울산", "Ulsan", ["울산시"], (35.5384, 129.3114)),
        ("세종특별자치시", "세종", "Sejong", ["세종시"], (36.48, 127.289)),
        ("경기도", "경기", "Gyeonggi", ["gyeonggido", "kyonggi"], (37.2636, 127.0286)),
        ("강원특별자치도", "강원", "Gangwon", ["강원도", "gangwondo", "kangwon"], (37.8813, 127.7298)),
        ("충청북도", "충북", "North Chungcheong", ["chungbuk", "chungcheongbukdo"], (36.6424, 127.489)),
        ("충청남도", "충남", "South Chungcheong", ["chungnam", "chungcheongnamdo"], (36.6588, 126.6728)),
        ("전북특별자치도", "전북", "North Jeolla", ["전라북도", "jeonbuk", "jeollabukdo"], (35.8242, 127.148)),
        ("전라남도", "전남", "South Jeolla", ["jeonnam", "jeollanamdo"], (34.8161, 126.4629)),
        ("경상북도", "경북", "North Gyeongsang", ["gyeongbuk", "gyeongsangbukdo"], (36.576, 128.5056)),
        ("경상남도", "경남", "South Gyeongsang", ["gyeongnam", "gyeongsangnamdo"], (35.2383, 128.6925)),
        ("제주특별자치도", "제주", "Jeju", ["제주도", "jejudo", "cheju"], (33.4996, 126.5312)),
    ]

    /// The 17 시도 as the official list names them.
    public static let all: [String] = names.map(\.official)

    /// `서울`, `부산`, … `제주`: how people name them, in `all`'s order.
    public static let shortNames: [String] = names.map(\.short)

    private static let indexByName: [String: Int] = {
        var indices: [String: Int] = [:]
        for (index, province) in names.enumerated() {
            for name in [province.official, province.short, province.english] + province.others {
                indices[SchoolSearch.normalize(name)] = index
            }
        }
        return indices
    }()

    private static func index(of text: String) -> Int? {
        let key = SchoolSearch.normalize(text)
        if let index = indexByName[key] { return index }
        if key.hasSuffix("교육청") { return indexByName[String(key.dropLast(3))] }
        return nil
    }

    /// `서울`, `서울시`, `서울특별시`, `seoul` → `서울특별시`; nil when it names no province.
    /// The office of education's name (`서울특별시교육청`) names its province too.
    public static func canonical(_ text: String) -> String? {
        index(of: text).map { names[$0].official }
    }

    /// Where the province's seat of government stands (`names`), nil when it names no province.
    public static func centre(of province: String) -> (latitude: Double, longitude: Double)? {
        index(of: province).map { names[$0].centre }
    }

    /// `서울특별시` (or any other name of it, such as the former `강원도`) → `Seoul`.
    public static func englishName(of province: String) -> String? {
        index(of: province).map { names[$0].english }
    }
}

extension SchoolLevel {
    private static let inputNames: [(SchoolLevel, [String])] = [
        (.elementary, ["초", "초등", "초등학교", "elementary", "e", "elem", "primary"]),
        (.middle, ["중", "중등", "중학교", "middle", "m", "mid"]),
        (.high, ["고", "고등", "고등학교", "high", "h"]),
    ]

    /// `고`, `고등`, `고등학교`, `high`, `h` → `.high`; likewise for the others.
    public init?(userInput: String) {
        let key = SchoolSearch.normalize(userInput)
        guard let level = Self.inputNames.first(where: { $0.1.contains(key) })?.0 else { return nil }
        self = level
    }
}
