import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TouchSchoolStore

/// The browser page's files (`Web/` in this target's resources: plain HTML, CSS and JavaScript,
/// no build step, nothing from elsewhere), read once at start, each with its content type and an
/// ETag, as it is and gzipped (`ServedBody`): browsers revalidate (`no-cache`) and get `304`
/// while unchanged.
struct WebPage: Sendable {
    struct File: Sendable {
        let body: ServedBody
        let contentType: String
    }

    static let indexName = "/index.html"
    static let contentTypes = [
        "html": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        // The page as an app (`sw.js` is the service worker): its manifest and icons.
        "webmanifest": "application/manifest+json",
        "png": "image/png",
    ]
    /// Only this server's own files and socket: a school name that slipped into the page as
    /// markup could still run nothing. Its own manifest and service worker too (the worker falls
    /// under `script-src`).
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    let files: [String: File]

    var names: [String] { files.keys.sorted() }

    /// The files of `directory` and its folders (`/index.html`, `/main.js`, `/update/taps.js`, …);
    /// those of the installation by default.
    init(directory: String? = Self.installedDirectory) throws {
        guard let directory else { throw ServerError(description: "the web page's files are missing from the installation") }
        var files: [String: File] = [:]
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []
        for name in names {
            guard let type = Self.contentTypes[(name as NSString).pathExtension] else { continue }
            let bytes: [UInt8]
            do { bytes = try FileIO.read("\(directory)/\(name)") } catch {
                throw ServerError(description: "cannot read the web page's file \(name): \(error)")
            }
            files["/" + name] = File(body: ServedBody(bytes: bytes, etag: "\"" + CatalogResource.hash(bytes) + "\""), contentType: type)
        }
        guard files[Self.indexName] != nil else { throw ServerError(description: "the web page's index.html is missing from \(directory)") }
        self.files = files
    }

    /// The page's folder: this target's resource bundle (`swift build`) or an installation's
    /// `share/touchschool/web/` (scripts/install-layout).
    static let shipped = ShippedFile(bundleName: "TouchSchool_TouchSchoolServer.resources", bundlePath: "Web", installedPath: "web")

    static var installedDirectory: String? { shipped.path }

    func response(for name: String, request: Request) -> Response {
        guard let file = files[name] else { return Response(status: .notFound) }
        var headers: HTTPFields = [.cacheControl: "no-cache", .contentType: file.contentType, .xContentTypeOptions: "nosniff"]
        if name.hasSuffix(".html") {
            headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
            headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        }
        return file.body.response(to: request, headers: headers)
    }
}
