/// What the leaderboard orders and groups schools by, by catalog position: the fixed tie order
/// among schools of equal count, the level and the province as small integers. Worked out once
/// per catalog (and stored in its snapshot), so that starting a game neither sorts twelve thousand
/// schools by Korean text nor hashes their province names.
struct RankingKeys: Sendable {
    /// Each school's place in the tie order: name, then province, then id.
    var tieOrder: [Int32]
    /// `CatalogSnapshotLayout.levelCode` of each school's level.
    var levels: [UInt8]
    /// The catalog's provinces, in order of first appearance.
    var provinceNames: [String]
    /// Each school's index into `provinceNames`.
    var provinceOfSchool: [UInt16]

    init(tieOrder: [Int32], levels: [UInt8], provinceNames: [String], provinceOfSchool: [UInt16]) {
        self.tieOrder = tieOrder
        self.levels = levels
        self.provinceNames = provinceNames
        self.provinceOfSchool = provinceOfSchool
    }

    init(schools: [School]) {
        var tieOrder = [Int32](repeating: 0, count: schools.count)
        let tieSorted = schools.indices.sorted { a, b in
            let x = schools[a], y = schools[b]
            return (x.name, x.province, x.id) < (y.name, y.province, y.id)
        }
        for (ordinal, school) in tieSorted.enumerated() { tieOrder[school] = Int32(ordinal) }

        var provinceNames: [String] = []
        var numbers: [String: UInt16] = [:]
        var provinceOfSchool: [UInt16] = []
        provinceOfSchool.reserveCapacity(schools.count)
        // Schools come grouped by province: the previous school's answer is usually the answer.
        var previous: (name: String, number: UInt16)?
        for school in schools {
            if let previous, previous.name == school.province {
                provinceOfSchool.append(previous.number)
                continue
            }
            let number = numbers[school.province] ?? {
                provinceNames.append(school.province)
                numbers[school.province] = UInt16(provinceNames.count - 1)
                return UInt16(provinceNames.count - 1)
            }()
            provinceOfSchool.append(number)
            previous = (school.province, number)
        }
        self.init(tieOrder: tieOrder, levels: schools.map { CatalogSnapshotLayout.levelCode($0.level) },
                  provinceNames: provinceNames, provinceOfSchool: provinceOfSchool)
    }
}
