/// Where a catalog came from.
public enum CatalogSource: Hashable, Sendable {
    /// The starter catalog shipped in `Resources/schools.json`.
    case starter
    /// An import of the official list; `edition` is its 데이터기준일자 (e.g. `2026-03-20`).
    case official(edition: String)
}

/// The schools a game knows, addressed by position (`Int`) everywhere in the core so that per-tap
/// work touches arrays, not dictionaries of strings.
///
/// Either the schools themselves (decoded from `catalog.json`, or made by an import), or a
/// checked `CatalogSnapshot` that makes a `School` only when one is asked for, and brings its
/// search index and leaderboard keys ready made.
public struct Catalog: Sendable {
    private enum Storage: Sendable {
        case schools([School], positionByID: [String: Int], aliases: [String: String])
        case snapshot(CatalogSnapshot)
    }

    private var storage: Storage
    public var source: CatalogSource

    public init(schools: [School], aliases: [String: String] = [:], source: CatalogSource) {
        var positions = [String: Int](minimumCapacity: schools.count)
        for (position, school) in schools.enumerated() { positions[school.id] = position }
        self.init(schools: schools, positionByID: positions, aliases: aliases, source: source)
    }

    /// For a reader that has already mapped each id to its position while checking that ids are
    /// unique: hashing twelve thousand ids twice showed in the start-up time of every command.
    public init(schools: [School], positionByID: [String: Int], aliases: [String: String], source: CatalogSource) {
        self.storage = .schools(schools, positionByID: positionByID, aliases: aliases)
        self.source = source
    }

    /// The catalog a snapshot holds.
    public init(snapshot: CatalogSnapshot) {
        self.storage = .snapshot(snapshot)
        self.source = snapshot.source
    }

    /// Former ids that now name another school: a starter entry matched to its official entry on
    /// import. Scores saved under a former id belong to the school it points to.
    public var aliases: [String: String] {
        switch storage {
        case let .schools(_, _, aliases): aliases
        case let .snapshot(snapshot): snapshot.aliases
        }
    }

    /// Every school, in catalog order. Over a snapshot this makes every `School`: for whole-catalog
    /// work (an import, a comparison), not for a start-up path.
    public var schools: [School] {
        switch storage {
        case let .schools(schools, _, _): schools
        case let .snapshot(snapshot): (0..<snapshot.count).map(snapshot.school(at:))
        }
    }

    /// The snapshot this catalog is read from, if it is.
    public var snapshot: CatalogSnapshot? {
        if case let .snapshot(snapshot) = storage { return snapshot }
        return nil
    }

    public var count: Int {
        switch storage {
        case let .schools(schools, _, _): schools.count
        case let .snapshot(snapshot): snapshot.count
        }
    }

    public subscript(position: Int) -> School {
        switch storage {
        case let .schools(schools, _, _): schools[position]
        case let .snapshot(snapshot): snapshot.school(at: position)
        }
    }

    /// The position of the school with this id, following aliases.
    public func position(ofID id: String) -> Int? {
        if let position = exactPosition(ofID: id) { return position }
        let target: String? = switch storage {
        case let .schools(_, _, aliases): aliases[id]
        case let .snapshot(snapshot): snapshot.aliasTarget(of: id)
        }
        return target.flatMap(exactPosition(ofID:))
    }

    private func exactPosition(ofID id: String) -> Int? {
        switch storage {
        case let .schools(_, positionByID, _): positionByID[id]
        case let .snapshot(snapshot): snapshot.position(ofID: id)
        }
    }

    /// The leaderboard's keys: worked out from the schools, or read from the snapshot.
    var rankingKeys: RankingKeys {
        switch storage {
        case let .schools(schools, _, _): RankingKeys(schools: schools)
        case let .snapshot(snapshot): snapshot.rankingKeys
        }
    }
}
