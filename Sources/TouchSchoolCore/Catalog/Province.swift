// MARK: - Provinces and levels

public enum Province {
    /// Each of the 17 시도: its name in the official list, its short name, its English name, and
    /// the other names it goes by (former names, romanizations), compared after `SchoolSearch.normalize`.
    private static let names: [(official: String, short: String, english: String, others: [String])] = [
        ("서울특별시", "서울", "Seoul", ["서울시"]),
        ("부산광역시", "부산", "Busan", ["부산시", "pusan"]),
        ("대구광역시", "대구", "Daegu", ["대구시", "taegu"]),
        ("인천광역시", "인천", "Incheon", ["인천시", "inchon"]),
        ("광주광역시", "광주", "Gwangju", ["광주시", "kwangju"]),
        ("대전광역시", "대전", "Daejeon", ["대전시", "taejon"]),
        ("울산광역시", "울산", "Ulsan", ["울산시"]),
        ("세종특별자치시", "세종", "Sejong", ["세종시"]),
        ("경기도", "경기", "Gyeonggi", ["gyeonggido", "kyonggi"]),
        ("강원특별자치도", "강원", "Gangwon", ["강원도", "gangwondo", "kangwon"]),
        ("충청북도", "충북", "North Chungcheong", ["chungbuk", "chungcheongbukdo"]),
        ("충청남도", "충남", "South Chungcheong", ["chungnam", "chungcheongnamdo"]),
        ("전북특별자치도", "전북", "North Jeolla", ["전라북도", "jeonbuk", "jeollabukdo"]),
        ("전라남도", "전남", "South Jeolla", ["jeonnam", "jeollanamdo"]),
        ("경상북도", "경북", "North Gyeongsang", ["gyeongbuk", "gyeongsangbukdo"]),
        ("경상남도", "경남", "South Gyeongsang", ["gyeongnam", "gyeongsangnamdo"]),
        ("제주특별자치도", "제주", "Jeju", ["제주도", "jejudo", "cheju"]),
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
