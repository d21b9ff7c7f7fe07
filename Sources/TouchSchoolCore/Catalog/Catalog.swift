/// Where a catalog came from.
public enum CatalogSource: Hashable, Sendable {
    /// The starter catalog shipped in `Resources/schools.json`.
    case starter
    /// An import of the official list; `edition` is its 데이터기준일자 (e.g. `2026-03-20`).
    case official(edition: String)
}

/// The schools a game knows, addressed by position (`Int`) everywhere in the core so that per-tap
/// work touches arrays, not dictionaries of strings.
public struct Catalog: Sendable {
    public private(set) var schools: [School]
    /// Former ids that now name another school: a starter entry matched to its official entry on
    /// import. Scores saved under a former id belong to the school it points to.
    public private(set) var aliases: [String: String]
    public var source: CatalogSource
    private var positionByID: [String: Int]

    public init(schools: [School], aliases: [String: String] = [:], source: CatalogSource) {
        self.schools = schools
        self.aliases = aliases
        self.source = source
        var positions = [String: Int](minimumCapacity: schools.count)
        for (position, school) in schools.enumerated() { positions[school.id] = position }
        self.positionByID = positions
    }

    /// For a reader that has already mapped each id to its position while checking that ids are
    /// unique: hashing twelve thousand ids twice showed in the start-up time of every command.
    public init(schools: [School], positionByID: [String: Int], aliases: [String: String], source: CatalogSource) {
        self.schools = schools
        self.aliases = aliases
        self.source = source
        self.positionByID = positionByID
    }

    public var count: Int { schools.count }

    public subscript(position: Int) -> School { schools[position] }

    /// The position of the school with this id, following aliases.
    public func position(ofID id: String) -> Int? {
        if let position = positionByID[id] { return position }
        if let target = aliases[id] { return positionByID[target] }
        return nil
    }
}
