/// What a player typed, with the optional filters.
public struct SearchQuery: Sendable, Equatable {
    public var text: String
    public var level: SchoolLevel?
    /// Canonical province name (`서울특별시`), see `Province.canonical`.
    public var province: String?
    public var limit: Int

    public init(text: String, level: SchoolLevel? = nil, province: String? = nil, limit: Int = 20) {
        self.text = text
        self.level = level
        self.province = province
        self.limit = limit
    }
}

public struct SearchHit: Sendable, Equatable {
    /// Position of the school in the catalog.
    public var position: Int
    /// Higher is better; only the order matters.
    public var score: Int

    public init(position: Int, score: Int) {
        self.position = position
        self.score = score
    }
}
