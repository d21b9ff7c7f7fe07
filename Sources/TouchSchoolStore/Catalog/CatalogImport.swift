import TouchSchoolCore

/// What an import changed, school by school. Every school of the old and the new catalog is in
/// exactly one of these.
public struct ImportReport: Equatable, Sendable {
    public struct Rename: Equatable, Sendable {
        public var id: String
        public var oldName: String
        public var newName: String

        public init(id: String, oldName: String, newName: String) {
            self.id = id
            self.oldName = oldName
            self.newName = newName
        }
    }

    /// A starter-catalog school found in the official list; its scores carry over through the alias.
    public struct StarterMatch: Equatable, Sendable {
        public var starterID: String
        public var officialID: String
        public var name: String

        public init(starterID: String, officialID: String, name: String) {
            self.starterID = starterID
            self.officialID = officialID
            self.name = name
        }
    }

    /// 데이터기준일자 of the imported list.
    public var edition: String
    /// New in the official list (and not a starter school found again).
    public var added: [School] = []
    /// Same 학교ID, new name; the school's other details follow the new list too.
    public var renamed: [Rename] = []
    /// No longer listed before, listed again under the same name.
    public var relisted: [School] = []
    /// Same 학교ID and name, other details (address, coordinates …) changed.
    public var updated: [School] = []
    /// Exactly as before, including schools that were already no longer listed.
    public var unchangedCount = 0
    /// Listed before, missing from this edition: kept, with their scores, marked as no longer listed.
    public var noLongerListed: [School] = []
    public var matchedStarter: [StarterMatch] = []
    /// Starter schools not in the official list but with a score: kept, marked as no longer listed.
    public var keptUnlistedStarter: [School] = []
    /// Starter schools not in the official list and without a score.
    public var droppedStarter: [School] = []

    public init(edition: String) { self.edition = edition }
}

/// Why an import is refused unless forced: either would mark schools that are still open as no
/// longer listed, which a later import of the full list mends but the players see meanwhile.
public enum ImportRefusal: Error, Equatable, Sendable {
    /// The list is an edition older than the one imported already.
    case olderEdition(list: String, imported: String)
    /// The list would take `removed` of the `listed` schools the catalog lists now off the list:
    /// more than half, as a file cut short (a spreadsheet's export of one sheet, a truncated
    /// download) does, while a real new edition closes a few dozen of twelve thousand.
    case dropsMostSchools(removed: Int, listed: Int)
}

/// Folding an official list into the current catalog. Pure: the caller reads and writes the files.
///
/// Scores are kept by school id, so ids must never be lost: the same 학교ID is the same school
/// (a renamed school keeps its score), a school that leaves the list stays (marked), and a
/// starter school found in the list becomes an alias of its official id.
public enum CatalogImport {
    /// The starter catalog's own ids are `S` and digits (`S0001`); official 학교IDs are `B` and
    /// nine digits (`B000012052`).
    public static func isStarterID(_ id: String) -> Bool {
        let bytes = id.utf8
        return bytes.count > 1 && bytes.first == UInt8(ascii: "S") && bytes.dropFirst().allSatisfy { (0x30...0x39).contains($0) }
    }

    /// Throws why `official` should not be folded into `current` without `--force`: an older
    /// edition, or one that would take more than half of the schools listed now off the list.
    /// Only official schools count: the starter catalog is meant to be replaced.
    public static func check(current: Catalog, official: OfficialSchoolList) throws(ImportRefusal) {
        if case let .official(edition) = current.source, official.edition < edition {
            throw .olderEdition(list: official.edition, imported: edition)
        }
        let officialIDs = Set(official.schools.map(\.id))
        let listed = current.schools.filter { $0.isListed && !isStarterID($0.id) }
        let removed = listed.count(where: { !officialIDs.contains($0.id) })
        if removed * 2 > listed.count { throw .dropsMostSchools(removed: removed, listed: listed.count) }
    }

    /// - Parameter hasScore: whether a school id has a score in the saved state; an unmatched
    ///   starter school is kept only then.
    public static func merge(
        current: Catalog, official: OfficialSchoolList, hasScore: (String) -> Bool
    ) -> (catalog: Catalog, report: ImportReport) {
        var report = ImportReport(edition: official.edition)
        var schools: [School] = []
        schools.reserveCapacity(official.schools.count + current.count)
        let officialIDs = Set(official.schools.map(\.id))
        var formerIDsByTarget: [String: [String]] = [:]
        for (formerID, target) in current.aliases { formerIDsByTarget[target, default: []].append(formerID) }

        // Current schools the new edition does not name by id.
        let starterMatcher = StarterMatcher(official: official.schools)
        var aliases: [String: String] = [:]
        for old in current.schools where !officialIDs.contains(old.id) {
            if isStarterID(old.id) {
                if let match = starterMatcher.match(old) {
                    aliases[old.id] = match.id
                    report.matchedStarter.append(.init(starterID: old.id, officialID: match.id, name: match.name))
                } else if hasScore(old.id) || formerIDsByTarget[old.id, default: []].contains(where: hasScore) {
                    var kept = old
                    kept.isListed = false
                    schools.append(kept)
                    report.keptUnlistedStarter.append(kept)
                } else {
                    report.droppedStarter.append(old)
                }
            } else if old.isListed {
                var kept = old
                kept.isListed = false
                schools.append(kept)
                report.noLongerListed.append(kept)
            } else {
                schools.append(old)
                report.unchangedCount += 1
            }
        }

        let matchedOfficialIDs = Set(aliases.values)
        for school in official.schools {
            schools.append(school)
            guard let position = current.position(ofID: school.id), current[position].id == school.id else {
                if !matchedOfficialIDs.contains(school.id) { report.added.append(school) }
                continue
            }
            let old = current[position]
            if old.name != school.name {
                report.renamed.append(.init(id: school.id, oldName: old.name, newName: school.name))
            } else if !old.isListed {
                report.relisted.append(school)
            } else if old != school {
                report.updated.append(school)
            } else {
                report.unchangedCount += 1
            }
        }

        // Former aliases stay, pointing to where their school is now: a starter id that was itself
        // an alias target and has just been matched passes its aliases on.
        let keptIDs = Set(schools.map(\.id))
        for (formerID, target) in current.aliases where !keptIDs.contains(formerID) {
            let newTarget = aliases[target] ?? target
            if keptIDs.contains(newTarget) { aliases[formerID] = newTarget }
        }

        schools.sort { $0.id < $1.id }
        return (Catalog(schools: schools, aliases: aliases, source: .official(edition: official.edition)), report)
    }
}

/// Finds a starter school's official entry: same name ignoring spaces, same province and level;
/// the district decides between several. No guess when that still leaves more than one.
private struct StarterMatcher {
    private struct Key: Hashable {
        var name: String
        var province: String
        var level: SchoolLevel
    }

    private var candidates: [Key: [School]] = [:]
    /// Official names that carry their city's name in front (서울대치초등학교, 대구동도초등학교),
    /// keyed without it: people, and the starter catalog, leave it off.
    private var candidatesWithoutCityPrefix: [Key: [School]] = [:]

    init(official: [School]) {
        for school in official {
            let key = Self.key(school)
            candidates[key, default: []].append(school)
            let city = String(school.province.prefix(2))
            if key.name.hasPrefix(city), key.name.count > city.count + school.level.koreanName.count {
                var bare = key
                bare.name = String(key.name.dropFirst(city.count))
                candidatesWithoutCityPrefix[bare, default: []].append(school)
            }
        }
    }

    func match(_ starter: School) -> School? {
        let key = Self.key(starter)
        return Self.unique(candidates[key] ?? [], for: starter)
            ?? Self.unique(candidatesWithoutCityPrefix[key] ?? [], for: starter)
    }

    private static func unique(_ sameName: [School], for starter: School) -> School? {
        if sameName.count == 1 { return sameName[0] }
        let sameDistrict = sameName.filter { $0.district == starter.district }
        return sameDistrict.count == 1 ? sameDistrict[0] : nil
    }

    private static func key(_ school: School) -> Key {
        Key(name: String(school.name.filter { !$0.isWhitespace }), province: school.province, level: school.level)
    }
}
