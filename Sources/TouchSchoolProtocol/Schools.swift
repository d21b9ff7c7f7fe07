/// The schools as a web page (or any client without the catalog's file) needs them: the answers
/// of `GET /v1/search` and `GET /v1/schools` (docs/protocol.md, "HTTP endpoints").
public enum SchoolEndpoints {
    /// `GET /v1/search?q=TEXT&limit=N`: the server's school search (the same as the game's).
    public static let searchPath = "/v1/search"
    /// `GET /v1/schools`: every school of the catalog, for naming the board's schools.
    public static let schoolsPath = "/v1/schools"
    /// Results a search answers when `limit` is not given, and the most it answers.
    public static let defaultSearchLimit = 20
    public static let maximumSearchLimit = 50
    /// The most `suggestions` a search that found nothing answers: the few closest names.
    public static let maximumSuggestions = 5
    /// The longest query text read (in UTF-8 bytes); a longer one is refused with 400.
    public static let maximumQueryBytes = 200
}

/// One school: what tells it apart in a list. `level` is `elementary`, `middle` or `high`.
public struct SchoolRow: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var level: String
    public var province: String
    /// Empty where the province has no districts (세종특별자치시).
    public var district: String

    public init(id: String, name: String, level: String, province: String, district: String) {
        self.id = id
        self.name = name
        self.level = level
        self.province = province
        self.district = district
    }
}

/// The answer of `GET /v1/search`: the query as read and the schools found, best first.
public struct SearchAnswer: Codable, Equatable, Sendable {
    public var query: String
    public var schools: [SchoolRow]
    /// Only when `schools` is empty and some names are close to the query (a typo: `휘뮨고`): those
    /// schools, the closest first, for a "did you mean". Absent otherwise, so that a client that
    /// does not know it reads the answer as before.
    public var suggestions: [SchoolRow]?

    public init(query: String, schools: [SchoolRow], suggestions: [SchoolRow]? = nil) {
        self.query = query
        self.schools = schools
        self.suggestions = suggestions
    }
}

/// The answer of `GET /v1/schools`: every school, as rows of `[id, name, level, province,
/// district]` (arrays, not objects: 12,011 schools take a third less), with the catalog's ETag.
public struct SchoolDirectory: Codable, Equatable, Sendable {
    public var catalog: String
    public var fields: [String]
    public var schools: [[String]]

    public static let fieldNames = ["id", "name", "level", "province", "district"]

    public init(catalog: String, rows: [SchoolRow]) {
        self.catalog = catalog
        fields = Self.fieldNames
        schools = rows.map { [$0.id, $0.name, $0.level, $0.province, $0.district] }
    }
}
