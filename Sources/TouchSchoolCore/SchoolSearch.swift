// CONTRACT STUB — owned by the search work; replace the bodies, keep the signatures.

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

/// Korean-aware school search over one catalog; built once, queried at every keystroke.
public struct SchoolSearch: Sendable {
    public init(catalog: Catalog) { fatalError("SchoolSearch not implemented yet") }

    /// Results in rank order, best first, at most `query.limit`.
    public func search(_ query: SearchQuery) -> [SearchHit] { fatalError("not implemented yet") }
}

public enum Province {
    /// The 17 시도 as the official list names them.
    public static let all: [String] = []

    /// `서울`, `서울시`, `서울특별시`, `seoul` → `서울특별시`; nil when it names no province.
    public static func canonical(_ text: String) -> String? { fatalError("not implemented yet") }
}

extension SchoolLevel {
    /// `고`, `고등`, `고등학교`, `high`, `h` → `.high`; likewise for the others.
    public init?(userInput: String) { fatalError("not implemented yet") }
}
