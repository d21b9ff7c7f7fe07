import Foundation
import TouchSchoolCore
import TouchSchoolStore

/// The catalog the server plays with and serves at `GET /v1/catalog`: the bytes of the data
/// directory's `catalog.json`, or of the catalog imported into PostgreSQL (else the starter
/// catalog's file) as they are, and their ETag.
package struct CatalogResource: Sendable {
    /// The file it was read from, or what else it came from (PostgreSQL).
    let path: String
    /// The file's size and modification time when read: a different stamp means a new catalog.
    let stamp: String?
    package let catalog: Catalog
    let bytes: [UInt8]
    /// A hash of the bytes, quoted as an HTTP entity tag: the same catalog, the same tag.
    package let etag: String

    init(path: String) throws(CatalogFileError) {
        // Stamped before reading: a file replaced while read is read again.
        let stamp = Self.stamp(of: path)
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path) } catch { throw CatalogFileError(path: path, message: error.description) }
        try self.init(bytes: bytes, source: path, stamp: stamp)
    }

    /// A catalog kept elsewhere than in a file (PostgreSQL): `source` names it.
    init(bytes: [UInt8], source: String, stamp: String? = nil) throws(CatalogFileError) {
        path = source
        self.stamp = stamp
        self.bytes = bytes
        let path = source
        do { catalog = try CatalogFile.decode(bytes: bytes) } catch { throw CatalogFileError(path: path, message: error.message) }
        etag = "\"" + Self.hash(bytes) + "\""
    }

    static func stamp(of path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let time = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size)-\(time)"
    }

    /// Two 64-bit FNV-1a hashes (different offsets) and the length: enough to tell editions
    /// apart (this is a cache validator, not a signature).
    static func hash(_ bytes: [UInt8]) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in bytes {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            second = (second ^ UInt64(byte ^ 0x5A)) &* 0x0000_0100_0000_01B3
        }
        func hex(_ value: UInt64) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return hex(first) + hex(second) + "-" + String(bytes.count)
    }
}
