#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCore
import TouchSchoolStore

/// The full official list (12,011 schools), read from `../shared/data` beside the checkout: the
/// benchmarks measure the game at its real size, and the data itself is never committed.
public enum OfficialData {
    public static let path: String = {
        // …/Benchmarks/Sources/BenchmarkSupport/OfficialData.swift → the repository's parent.
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(5)
        return components.joined(separator: "/") + "/shared/data/korea-schools-2026-03-20.cp949.csv"
    }()

    /// The same catalog as the game reads it: saved with its snapshot into a temporary folder,
    /// then opened through the mapped snapshot (text and records mapped page by page as read).
    public static func mappedCatalog() -> Catalog {
        var template = Array("/tmp/touchschool-bench-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        do {
            try CatalogFile.save(catalog(), to: CatalogFile.importedCatalogPath(inDataDirectory: folder), fileSystem: .live)
            let catalog = try CatalogFile.loadCurrent(dataDirectory: folder, starterPath: nil)
            precondition(catalog.snapshot != nil, "the catalog was not read through its snapshot")
            // The mapping keeps the files' contents for as long as the process needs them.
            for name in FileSystem.live.list(folder) { FileSystem.live.remove("\(folder)/\(name)") }
            rmdir(folder)
            return catalog
        } catch {
            fatalError("cannot save and map the official list in \(folder): \(error)")
        }
    }

    public static func catalog() -> Catalog {
        do {
            let list = try OfficialSchoolList.load(path: path)
            return CatalogImport.merge(current: Catalog(schools: [], source: .starter), official: list, hasScore: { _ in false }).catalog
        } catch {
            fatalError("the benchmarks need the official list at \(path): \(error)")
        }
    }
}

/// A counter the benchmark closures can share: each sample takes the next input in turn.
public final class Cycle: @unchecked Sendable {
    private var index = 0
    public init() {}
    public func next(_ count: Int) -> Int {
        defer { index = (index + 1) % count }
        return index
    }
}

/// Realistic queries, 1 to 8 characters: prefixes as a player types them, Hangul, 초성,
/// 2-beolsik (English-mode keyboard) and several words.
public let realisticQueries: [String] = [
    "서", "서울", "서울고", "민", "민사", "민사고", "대원", "대원외", "대원외고", "휘문", "휘문고",
    "경기과고", "한영외고", "상산고", "하나고", "용인외대부고", "세화고", "숙명여고", "대치초",
    "대청중", "금성초", "부산 금성", "부산 금성초", "대구 옥산초", "서울 고등 학교", "ㅎㅁㄱ",
    "ㅅㅇㄱ", "ㅎㅁㄱㄷㅎㄱ", "서울ㄱㄷㅎㄱ", "ㄷㅇㅇㄱ", "gnlansrh", "tjdnfrh", "eodnjsdhlrh",
    "alstkrh", "kis", "nlcs", "경민IT고", "제주 신촌초", "강원 횡성", "세종",
]
