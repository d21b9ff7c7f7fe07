#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCore

/// The catalog file: the starter catalog `Resources/schools.json` and the imported official list
/// `<data dir>/catalog.json` share this documented, versioned JSON format.
///
/// ```
/// {
///   "format": "touchschool-catalog",          required, exactly this
///   "version": 1,                             required; a newer version is refused, not guessed at
///   "source": "starter" | "official",         required
///   "edition": "2026-03-20",                  the 데이터기준일자 of the official list: required for
///                                             "official"; for "starter" optional and informational
///   "schools": [                              required; one school per line when written
///     {"id": "S0001",                         required, unique, non-empty
///      "name": "서울고등학교",                  required, non-empty
///      "level": "elementary" | "middle" | "high",
///      "province": "서울특별시",                required, non-empty (시도)
///      "district": "서초구",                   required, may be empty (시군구; empty for 세종특별자치시)
///      "address": "서울특별시 서초구 …",        required (도로명주소, else 지번주소)
///      "lotAddress": "…",                     optional (지번주소, when "address" is the road name)
///      "ownership": "national" | "public" | "private",   optional (설립형태)
///      "branch": true,                        optional, default false (분교)
///      "lat": 37.48, "lon": 127.01,           optional numbers (위도, 경도)
///      "founded": "1941-04-25",               optional (설립일자)
///      "listed": false}                       optional, default true: false once the latest official
///   ],                                        edition no longer lists the school
///   "aliases": {"S0001": "B000012345"}        optional: former id → id of a school in "schools"
/// }
/// ```
/// Any other member is refused, so that a misspelt field in a hand-edited starter catalog is caught
/// instead of silently dropped; a new field means a new version.
public enum CatalogFile {
    public static let formatName = "touchschool-catalog"
    public static let version = 1

    /// Where `touchschool import` keeps the imported official list.
    public static func importedCatalogPath(inDataDirectory directory: String) -> String {
        "\(directory)/catalog.json"
    }

    /// The catalog a game plays with: the imported official list when the data directory has one,
    /// else the starter catalog at `starterPath` (the commands pass `StarterCatalogFile.path`, which is
    /// looked up only when needed: finding the resource bundle costs about a millisecond).
    public static func loadCurrent(dataDirectory: String, starterPath: @autoclosure () -> String?) throws(CatalogFileError) -> Catalog {
        try loadCurrentReporting(dataDirectory: dataDirectory, starterPath: starterPath()).catalog
    }

    /// `loadCurrent`, read through the catalog's snapshot (`CatalogSnapshotFile`), with what was
    /// wrong with the snapshot when it had to be rebuilt (nil when it was used, or simply missing).
    public static func loadCurrentReporting(dataDirectory: String, starterPath: @autoclosure () -> String?)
        throws(CatalogFileError) -> (catalog: Catalog, snapshotProblem: SnapshotProblem?) {
        let importedPath = importedCatalogPath(inDataDirectory: dataDirectory)
        if FileIO.exists(importedPath) {
            return try load(path: importedPath, snapshotPath: CatalogSnapshotFile.path(forCatalog: importedPath))
        }
        guard let starterPath = starterPath() else { throw CatalogFileError(path: nil, message: "the starter catalog is missing from the installation") }
        // The starter catalog's snapshot is made at its first use, in the data directory (the
        // installation may not be writable); not before the directory exists.
        return try load(path: starterPath, snapshotPath: "\(dataDirectory)/starter-catalog.snapshot")
    }

    /// A snapshot that could not be used, and where it is.
    public struct SnapshotProblem: Equatable, Sendable, CustomStringConvertible {
        public var path: String
        public var problem: CatalogSnapshotFile.Problem
        /// Whether a new snapshot was written in its place.
        public var rebuilt: Bool
        public var description: String { "\(path): \(problem)" }
    }

    /// The catalog file at `path` through its snapshot at `snapshotPath`: mapped when it is the
    /// snapshot of this very file and passes its checks; else read from `path`, and the snapshot
    /// rebuilt (when the directory is writable) for the next start.
    public static func load(path: String, snapshotPath: String) throws(CatalogFileError) -> (catalog: Catalog, snapshotProblem: SnapshotProblem?) {
        guard CatalogSnapshot.isSupportedOnThisMachine, let stamp = FileIO.stamp(path) else { return (try load(path: path), nil) }
        let problem: CatalogSnapshotFile.Problem
        switch CatalogSnapshotFile.open(path: snapshotPath, madeFrom: stamp) {
        case let .success(catalog): return (catalog, nil)
        case let .failure(failure): problem = failure
        }
        let catalog = try load(path: path)
        // Only from the version of the file that was stamped: one replaced meanwhile gets its own
        // snapshot at the next start.
        var rebuilt = false
        if FileIO.stamp(path) == stamp, access(FileIO.split(snapshotPath).directory, W_OK) == 0 {
            do {
                try CatalogSnapshotFile.write(catalog, madeFrom: stamp, to: snapshotPath)
                rebuilt = true
            } catch {}
        }
        return (catalog, problem == .missing ? nil : SnapshotProblem(path: snapshotPath, problem: problem, rebuilt: rebuilt))
    }

    /// Saves `catalog` as the catalog file at `path`, then its snapshot beside it. The snapshot is
    /// a copy: failing to write it fails nothing (the next start rebuilds it).
    public static func save(_ catalog: Catalog, to path: String, fileSystem: FileSystem) throws(FileError) {
        let snapshotPath = CatalogSnapshotFile.path(forCatalog: path)
        fileSystem.removeTemporaries(of: path)
        fileSystem.removeTemporaries(of: snapshotPath)
        try fileSystem.replaceAtomically(path, with: encode(catalog))
        guard CatalogSnapshot.isSupportedOnThisMachine, let stamp = fileSystem.stamp(path) else { return }
        try? CatalogSnapshotFile.write(catalog, madeFrom: stamp, to: snapshotPath, fileSystem: fileSystem)
    }

    public static func load(path: String) throws(CatalogFileError) -> Catalog {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path) } catch { throw CatalogFileError(path: nil, message: error.description) }
        do { return try decode(bytes: bytes) } catch { throw CatalogFileError(path: path, message: error.message) }
    }

    /// The catalog as text: members in a fixed order, one school per line, aliases sorted, so that
    /// the same catalog always gives the same bytes and two editions diff line by line.
    public static func encode(_ catalog: Catalog) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256 * (catalog.count + 1))
        writer.raw("{\n  \"format\": ")
        writer.string(formatName)
        writer.raw(",\n  \"version\": ")
        writer.number(version)
        switch catalog.source {
        case .starter:
            writer.raw(",\n  \"source\": \"starter\"")
        case let .official(edition):
            writer.raw(",\n  \"source\": \"official\",\n  \"edition\": ")
            writer.string(edition)
        }
        writer.raw(",\n  \"schools\": [")
        for (position, school) in catalog.schools.enumerated() {
            writer.raw(position == 0 ? "\n    " : ",\n    ")
            encodeSchool(school, into: &writer)
        }
        writer.raw(catalog.schools.isEmpty ? "]" : "\n  ]")
        if !catalog.aliases.isEmpty {
            writer.raw(",\n  \"aliases\": {")
            for (position, (formerID, target)) in catalog.aliases.sorted(by: { $0.key < $1.key }).enumerated() {
                writer.raw(position == 0 ? "\n    " : ",\n    ")
                writer.string(formerID)
                writer.raw(": ")
                writer.string(target)
            }
            writer.raw("\n  }")
        }
        writer.raw("\n}\n")
        return writer.bytes
    }

    private static func encodeSchool(_ school: School, into writer: inout JSONWriter) {
        writer.raw("{")
        writer.schoolMembers(school)
        if let lotAddress = school.lotAddress {
            writer.raw(", \"lotAddress\": ")
            writer.string(lotAddress)
        }
        if let ownership = school.ownership {
            writer.raw(", \"ownership\": ")
            writer.string(ownership.rawValue)
        }
        if school.isBranch { writer.raw(", \"branch\": true") }
        if let latitude = school.latitude {
            writer.raw(", \"lat\": ")
            writer.number(latitude)
        }
        if let longitude = school.longitude {
            writer.raw(", \"lon\": ")
            writer.number(longitude)
        }
        if let founded = school.founded {
            writer.raw(", \"founded\": ")
            writer.string(founded)
        }
        if !school.isListed { writer.raw(", \"listed\": false") }
        writer.raw("}")
    }
}

/// A catalog file that cannot be used, with what is wrong and where.
public struct CatalogFileError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file, when the catalog came from one.
    public var path: String?
    public var message: String

    public init(path: String?, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.map { "\($0): \(message)" } ?? message }
}
