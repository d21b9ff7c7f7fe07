/// 학교급: the three levels of the official list.
public enum SchoolLevel: String, CaseIterable, Hashable, Sendable, Comparable {
    case elementary, middle, high

    /// The official Korean name, as in the 학교급구분 column.
    public var koreanName: String {
        switch self {
        case .elementary: "초등학교"
        case .middle: "중학교"
        case .high: "고등학교"
        }
    }

    public static func < (lhs: SchoolLevel, rhs: SchoolLevel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// 설립형태.
public enum Ownership: String, CaseIterable, Hashable, Sendable {
    case national, `public`, `private`

    public var koreanName: String {
        switch self {
        case .national: "국립"
        case .public: "공립"
        case .private: "사립"
        }
    }
}

/// One school of the catalog.
public struct School: Hashable, Sendable {
    /// Stable identity: the official 학교ID (e.g. `B000012052`) for imported schools, `S`-prefixed
    /// ids for the starter catalog's own entries.
    public var id: String
    public var name: String
    public var level: SchoolLevel
    /// 시도, e.g. `서울특별시`.
    public var province: String
    /// 시군구, e.g. `서초구` or `수원시 장안구`; empty where the province has none (세종특별자치시).
    public var district: String
    /// Road-name address (도로명주소), or the lot-number address where the list has no road name.
    public var address: String
    /// Lot-number address (지번주소), when known.
    public var lotAddress: String?
    public var ownership: Ownership?
    /// 분교: a branch of another school.
    public var isBranch: Bool
    public var latitude: Double?
    public var longitude: Double?
    /// 설립일자, `YYYY-MM-DD`, when known.
    public var founded: String?
    /// False once the latest official edition no longer lists the school. It keeps its score and
    /// stays visible, marked as such.
    public var isListed: Bool

    public init(
        id: String, name: String, level: SchoolLevel, province: String, district: String,
        address: String, lotAddress: String? = nil, ownership: Ownership? = nil,
        isBranch: Bool = false, latitude: Double? = nil, longitude: Double? = nil,
        founded: String? = nil, isListed: Bool = true
    ) {
        self.id = id
        self.name = name
        self.level = level
        self.province = province
        self.district = district
        self.address = address
        self.lotAddress = lotAddress
        self.ownership = ownership
        self.isBranch = isBranch
        self.latitude = latitude
        self.longitude = longitude
        self.founded = founded
        self.isListed = isListed
    }

    /// `서울특별시 서초구`: what tells two schools of the same name apart.
    public var region: String { district.isEmpty ? province : "\(province) \(district)" }
}
