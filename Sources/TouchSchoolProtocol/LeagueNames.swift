import TouchSchoolCore

// A league and its name on the wire, both ways: the client names the page it watches and reads
// the pages sent; the server reads a `watch` and names the pages it sends. One definition, so
// that the two cannot disagree on a name.

extension League {
    /// The league a name on the wire says; nil for a level that is none of the three.
    public init?(_ name: LeagueName) {
        var level: SchoolLevel?
        if let named = name.level {
            guard let known = SchoolLevel(rawValue: named) else { return nil }
            level = known
        }
        switch (level, name.province) {
        case (nil, nil): self = .national
        case let (level?, nil): self = .level(level)
        case let (nil, province?): self = .province(province)
        case let (level?, province?): self = .levelInProvince(level, province)
        }
    }
}

extension LeagueName {
    /// The name on the wire of `league`.
    public init(_ league: League) {
        switch league {
        case .national: self.init()
        case let .level(level): self.init(level: level.rawValue)
        case let .province(province): self.init(province: province)
        case let .levelInProvince(level, province): self.init(level: level.rawValue, province: province)
        }
    }
}
