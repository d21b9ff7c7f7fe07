import Foundation
import Testing
import TouchSchoolProtocol
@testable import TouchSchoolServer
import TouchSchoolTestSupport

/// What the browser page needs of the server besides the play socket, asked of its application without
/// a socket (HummingbirdTesting's router, `RoutedServer`): its own files with
/// their content types and cache headers, the school search and the school directory.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct PageRoutesTests {
    static func search(_ server: RoutedServer, _ query: String, limit: String? = nil) async throws -> (status: UInt, answer: SearchAnswer?) {
        var components = URLComponents(string: SchoolEndpoints.searchPath)!
        components.queryItems = [URLQueryItem(name: "q", value: query)] + (limit.map { [URLQueryItem(name: "limit", value: $0)] } ?? [])
        let response = try await server.get(components.string!)
        return (response.status, try? JSONDecoder().decode(SearchAnswer.self, from: Data(response.bytes)))
    }

    /// A browser that accepts gzip gets each file of the page and the school directory gzipped
    /// (which `gzip -d` gives back byte for byte), under an ETag of its own; one that does not, or
    /// refuses it, gets them as they are.
    @Test func thePageIsGzippedForABrowserThatAcceptsIt() async throws {
        try await RoutedServer.with { server in
            let folder = TemporaryDirectory()
            defer { folder.remove() }
            for path in ["/", "/main.js", "/state.js", "/update.js", "/view.js", "/effects.js", "/rules.js", "/style.css", SchoolEndpoints.schoolsPath] {
                let plain = try await server.get(path)
                #expect(plain.status == 200 && plain.header("Content-Encoding") == nil, "\(path): \(plain.status) \(plain.headers)")
                #expect(plain.header("Vary") == "Accept-Encoding", "\(path)")
                let gzipped = try await server.get(path, headers: [("Accept-Encoding", "gzip, deflate, br")])
                #expect(gzipped.status == 200 && gzipped.header("Content-Encoding") == "gzip", "\(path): \(gzipped.status) \(gzipped.headers)")
                #expect(gzipped.bytes.count * 2 < plain.bytes.count, "\(path): \(gzipped.bytes.count) bytes gzipped of \(plain.bytes.count)")
                // Read back by gzip itself, not by the library that wrote it.
                let file = "\(folder.path)/file.gz"
                try Data(gzipped.bytes).write(to: URL(fileURLWithPath: file))
                let unzipped = Subprocess.run("/bin/gzip", ["-dc", file])
                #expect(unzipped.status == 0, "\(unzipped.error)")
                #expect(Array(unzipped.output.utf8) == plain.bytes, "\(path): gzip -d does not give the file back")

                let plainETag = try #require(plain.header("ETag")), gzipETag = try #require(gzipped.header("ETag"))
                #expect(plainETag != gzipETag)
                let revalidated = try await server.get(path, headers: [("Accept-Encoding", "gzip"), ("If-None-Match", gzipETag)])
                #expect(revalidated.status == 304 && revalidated.bytes.isEmpty, "\(path): \(revalidated.status)")
                let otherVariant = try await server.get(path, headers: [("Accept-Encoding", "gzip"), ("If-None-Match", plainETag)])
                #expect(otherVariant.status == 200 && otherVariant.bytes == gzipped.bytes, "\(path): \(otherVariant.status)")
                let refused = try await server.get(path, headers: [("Accept-Encoding", "gzip;q=0, identity")])
                #expect(refused.header("Content-Encoding") == nil && refused.bytes == plain.bytes, "\(path)")
            }
        }
    }

    @Test func acceptEncodingIsReadAsHTTPSaysIt() {
        #expect(ServedBody.acceptsGzip(["gzip"]))
        #expect(ServedBody.acceptsGzip(["deflate, gzip;q=0.5"]))
        #expect(ServedBody.acceptsGzip(["br", "GZip"]))
        #expect(ServedBody.acceptsGzip(["*"]))
        #expect(!ServedBody.acceptsGzip([]))
        #expect(!ServedBody.acceptsGzip(["identity"]))
        #expect(!ServedBody.acceptsGzip(["gzip;q=0"]))
        #expect(!ServedBody.acceptsGzip(["gzip; q=0.0, *"]), "gzip refused by name, whatever * says")
        #expect(!ServedBody.acceptsGzip(["*;q=0"]))
    }

    /// The page's modules (`/main.js`, `/update/taps.js`, …) as its source folder holds them, in
    /// its folders too: every script but the service worker. The server serves its copy.
    static let modules: [String] = {
        let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/TouchSchoolServer/Page/Web")
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: web.path)) ?? []
        return paths.filter { $0.hasSuffix(".js") && $0 != "sw.js" }.map { "/" + $0 }.sorted()
    }()

    @Test func thePageIsServedWithItsContentTypesAndRevalidated() async throws {
        let modules = Self.modules
        #expect(modules.contains("/main.js") && modules.contains("/update.js") && modules.count >= 6, "\(modules)")
        try await RoutedServer.with { server in
            for (path, type) in [("/", "text/html; charset=utf-8"), ("/style.css", "text/css; charset=utf-8")]
                + modules.map({ ($0, "text/javascript; charset=utf-8") }) {
                let first = try await server.get(path)
                #expect(first.status == 200, "\(path)")
                #expect(first.header("Content-Type") == type, "\(path)")
                #expect(first.header("Cache-Control") == "no-cache", "\(path)")
                #expect(first.header("X-Content-Type-Options") == "nosniff", "\(path)")
                let etag = try #require(first.header("ETag"), "\(path)")
                let again = try await server.get(path, headers: [("If-None-Match", etag)])
                #expect(again.status == 304 && again.body.isEmpty, "\(path)")
            }
            let page = try await server.get("/")
            // One module, main.js, which imports the others (each preloaded at once, not a level of
            // imports later); the service worker keeps every one of them for the offline page.
            #expect(page.body.contains(#"<script type="module" src="/main.js"></script>"#))
            let worker = try await server.get("/sw.js")
            for module in modules {
                if module != "/main.js" { #expect(page.body.contains(#"<link rel="modulepreload" href="\#(module)">"#), "\(module)") }
                #expect(worker.body.contains("'\(module)'"), "sw.js does not keep \(module)")
            }
            // Nothing from elsewhere: the page works on a school LAN without internet.
            #expect(!page.body.contains("http://") && !page.body.contains("https://"))
            #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
            #expect(try await server.get("/nothing.js").status == 404)
        }
    }

    /// The projector's QR code, drawn by the server's encoder (the one `serve` prints with; a
    /// reader decodes it in `WebPageProjectorEndToEndTests`): SVG, bounded to what a code holds.
    @Test func theQRCodeIsAnSVGOfAtMost106Bytes() async throws {
        try await RoutedServer.with { server in
            let code = try await server.get("/v1/qr.svg?text=" + "http%3A%2F%2F192.168.0.10%3A8080%2F")
            #expect(code.status == 200 && code.header("Content-Type") == "image/svg+xml")
            #expect(code.body.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 33 33\""), "25 bytes: version 2, 25 modules, and the quiet zone of 4")
            let long = String(repeating: "x", count: 107)
            #expect(try await server.get("/v1/qr.svg?text=" + long).status == 400)
            #expect(try await server.get("/v1/qr.svg?text=").status == 400)
        }
    }

    @Test func searchAnswersAsTheGameSearchesWithRegions() async throws {
        try await RoutedServer.with { server in
            let minsago = try await Self.search(server, "민사고")
            #expect(minsago.status == 200)
            #expect(minsago.answer?.schools.first == SchoolRow(id: "S0336", name: "민족사관고등학교", level: "high",
                                                             province: "강원특별자치도", district: "횡성군"))
            // 초성, and a query typed with the keyboard in English mode.
            #expect(try await Self.search(server, "ㅎㅁㄱ").answer?.schools.first?.name == "휘문고등학교")
            #expect(try await Self.search(server, "gnlansrh").answer?.schools.first?.name == "휘문고등학교")
            // A region word narrows to that province.
            let busan = try #require(try await Self.search(server, "부산 고등학교").answer?.schools)
            #expect(!busan.isEmpty && busan.allSatisfy { $0.province == "부산광역시" }, "\(busan)")
            #expect(try await Self.search(server, "서울", limit: "3").answer?.schools.count == 3)
            #expect(try await Self.search(server, "").answer?.schools == [])
            #expect(try await Self.search(server, "서울", limit: "0").status == 400)
            #expect(try await Self.search(server, "서울", limit: "51").status == 400)
            #expect(try await Self.search(server, String(repeating: "가", count: 100)).status == 400)
        }
    }

    /// A typo finds nothing but suggests the closest names; a query that finds schools, or is
    /// close to nothing, has no `suggestions` member at all (old clients read the answer as before).
    @Test func aTypoIsAnsweredWithSuggestions() async throws {
        try await RoutedServer.with { server in
            let typo = try await server.get("\(SchoolEndpoints.searchPath)?q=%ED%9C%98%EB%AE%A8%EA%B3%A0")  // 휘뮨고
            #expect(typo.status == 200)
            let answer = try JSONDecoder().decode(SearchAnswer.self, from: Data(typo.bytes))
            #expect(answer.query == "휘뮨고" && answer.schools.isEmpty)
            #expect(answer.suggestions?.first?.name == "휘문고등학교")
            #expect(answer.suggestions?.first?.district == "강남구")
            #expect(try await Self.search(server, "휘문고등하교").answer?.suggestions?.first?.name == "휘문고등학교")

            let found = try await server.get("\(SchoolEndpoints.searchPath)?q=%ED%9C%98%EB%AC%B8")  // 휘문
            #expect(found.status == 200 && !found.body.contains("suggestions"))
            let far = try await server.get("\(SchoolEndpoints.searchPath)?q=zzzzzzzz")
            #expect(far.status == 200 && !far.body.contains("suggestions"), "\(far.body)")
        }
    }

    @Test func theDirectoryListsEverySchoolOnceWithTheCatalogsETag() async throws {
        try await RoutedServer.with { server in
            let catalog = try await server.get("/v1/catalog")
            let response = try await server.get("\(SchoolEndpoints.schoolsPath)")
            #expect(response.status == 200)
            let directory = try JSONDecoder().decode(SchoolDirectory.self, from: Data(response.bytes))
            #expect(directory.fields == ["id", "name", "level", "province", "district"])
            let catalogSchools = catalog.body.components(separatedBy: "\"id\":").count - 1
            #expect(directory.schools.count == catalogSchools && catalogSchools > 100)
            #expect(Set(directory.schools.map { $0[0] }).count == directory.schools.count)
            #expect(directory.schools.contains(["S0336", "민족사관고등학교", "high", "강원특별자치도", "횡성군"]))
            // As it is (not gzipped: see thePageIsGzippedForABrowserThatAcceptsIt), under the catalog's ETag.
            let plain = try await server.get("\(SchoolEndpoints.schoolsPath)", headers: [("Accept-Encoding", "identity")])
            let etag = try #require(plain.header("ETag"))
            #expect(etag == catalog.header("ETag") && directory.catalog == etag)
            #expect(try await server.get("\(SchoolEndpoints.schoolsPath)",
                                       headers: [("Accept-Encoding", "identity"), ("If-None-Match", etag)]).status == 304)
        }
    }
}
