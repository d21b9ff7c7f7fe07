import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// A response body that stays the same until it is replaced (the page's files, the school
/// directory), kept as it is and gzipped once: a browser that accepts gzip gets about a third
/// of the bytes (phones on a school's Wi-Fi). Each form has its own ETag; `Vary` says the answer
/// depends on `Accept-Encoding`; `If-None-Match` naming the form asked for gives `304`.
struct ServedBody: Sendable {
    let bytes: [UInt8]
    /// nil if zlib failed (it does not on bytes in memory): then only the bytes as they are.
    let gzipped: [UInt8]?
    /// The ETag of the bytes as they are, quoted.
    let etag: String

    init(bytes: [UInt8], etag: String) {
        var buffer = ByteBuffer(bytes: bytes)
        self.bytes = bytes
        self.gzipped = (try? buffer.compress(with: .gzip())).map { Array(buffer: $0) }
        self.etag = etag
    }

    var gzippedETag: String { String(etag.dropLast()) + "-gzip\"" }

    /// The answer to `request`, with `headers` (content type, cache control…) added.
    func response(to request: Request, headers: HTTPFields) -> Response {
        let gzipped = Self.acceptsGzip(request.headers[values: .acceptEncoding]) ? self.gzipped : nil
        let gzip = gzipped != nil
        var headers = headers
        headers[.eTag] = gzip ? gzippedETag : etag
        headers[.vary] = "Accept-Encoding"
        if Self.matches(request.headers[.ifNoneMatch], etag: headers[.eTag]!) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        if gzip { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: gzipped ?? bytes)))
    }

    /// Whether the `Accept-Encoding` values accept gzip: named (or `x-gzip`) with a quality above
    /// 0, or not named and `*` accepted.
    static func acceptsGzip(_ values: [String]) -> Bool {
        var gzip: Double?, any: Double?
        for item in values.flatMap({ $0.split(separator: ",") }) {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            switch parts.first {
            case "gzip", "x-gzip": gzip = max(gzip ?? 0, quality)
            case "*": any = max(any ?? 0, quality)
            default: break
            }
        }
        return (gzip ?? any ?? 0) > 0
    }

    /// Whether an `If-None-Match` header names this ETag (or `*`).
    static func matches(_ header: String?, etag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains {
            let tag = $0.trimmingCharacters(in: .whitespaces)
            return tag == etag || tag == "W/" + etag || tag == "*"
        }
    }
}
