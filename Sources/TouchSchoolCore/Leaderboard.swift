// CONTRACT STUB — owned by the battle-core work; replace the bodies, keep the signatures.

/// A leaderboard scope: the whole country, one level, one province, or one level in one province.
public enum League: Hashable, Sendable {
    case national
    case level(SchoolLevel)
    case province(String)
    case levelInProvince(SchoolLevel, String)

    public func contains(_ school: School) -> Bool {
        switch self {
        case .national: true
        case let .level(level): school.level == level
        case let .province(province): school.province == province
        case let .levelInProvince(level, province): school.level == level && school.province == province
        }
    }
}

/// One row of a leaderboard.
public struct RankedSchool: Equatable, Sendable {
    /// Position of the school in the catalog.
    public var position: Int
    /// 1-based; ties share a rank (1, 2, 2, 4).
    public var rank: Int
    public var count: UInt64

    public init(position: Int, rank: Int, count: UInt64) {
        self.position = position
        self.rank = rank
        self.count = count
    }
}

/// The live ranking of every school, national and per league. Changing one school's count costs
/// O(log n); nothing ever re-sorts all schools.
public struct Leaderboard: Sendable {
    public init(catalog: Catalog, counts: [UInt64]) { fatalError("Leaderboard not implemented yet") }

    public func count(of school: Int) -> UInt64 { fatalError() }
    public mutating func setCount(_ count: UInt64, of school: Int) { fatalError() }
    /// Saturating: never wraps past `UInt64.max`.
    public mutating func add(_ taps: UInt64, to school: Int) { fatalError() }

    /// How many schools the league holds.
    public func size(of league: League) -> Int { fatalError() }
    /// 1-based rank; ties share a rank.
    public func rank(of school: Int, in league: League) -> Int { fatalError() }
    /// 0-based place in the league's stable order (count descending, then a fixed tie order).
    public func place(of school: Int, in league: League) -> Int { fatalError() }
    /// The rows at these places of the league's order.
    public func entries(in league: League, places: Range<Int>) -> [RankedSchool] { fatalError() }
    /// The nearest school with a strictly greater count: whom to overtake next. Nil for the leader(s).
    public func schoolAbove(_ school: Int, in league: League) -> RankedSchool? { fatalError() }

    /// Remembers every rank now, as "a moment ago" for `movement`.
    public mutating func markMovementBaseline() { fatalError() }
    /// Places climbed since the baseline (negative: fell).
    public func movement(of school: Int, in league: League) -> Int { fatalError() }
}
