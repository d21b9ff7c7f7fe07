/// Which numbers a ranking shows (issue 50): the season's while one runs (the default, so that a
/// school that played early does not stay on top for ever), or all time. With no season set, both
/// show all time.
public enum RankingPeriod: String, CaseIterable, Hashable, Sendable {
    case season
    /// On the wire `all` (`watch`'s `"period"`, `?period=all`).
    case allTime = "all"
}
