import Foundation
import Testing
import TouchSchoolProtocol

/// What the browser page needs of a real server besides the play socket: its own files with
/// their content types and cache headers, the school search and the school directory.
@Suite(.serialized) struct PageRoutesTests {
    static func header(_ name: String, _ response: (status: UInt, headers: [(String, String)], body: String)) -> String? {
        response.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    static func search(_ server: ServerProcess, _ query: String, limit: String? = nil) async throws -> (status: UInt, answer: SearchAnswer?) {
        var components = URLComponents(string: "\(server.baseURL)\(SchoolEndpoints.searchPath)")!
        components.queryItems = [URLQueryItem(name: "q", value: query)] + (limit.map { [URLQueryItem(name: "limit", value: $0)] } ?? [])
        let response = try await HTTP.get(components.url!.absoluteString)
        return (response.status, try? JSONDecoder().decode(SearchAnswer.self, from: Data(response.body.utf8)))
    }

    @Test func thePageIsServedWithItsContentTypesAndRevalidated() async throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        for (path, type) in [("/", "text/html; charset=utf-8"), ("/app.js", "text/javascript; charset=utf-8"),
                             ("/style.css", "text/css; charset=utf-8")] {
            let first = try await HTTP.get(server.baseURL + path)
            #expect(first.status == 200, "\(path)")
            #expect(Self.header("Content-Type", first) == type, "\(path)")
            #expect(Self.header("Cache-Control", first) == "no-cache", "\(path)")
            #expect(Self.header("X-Content-Type-Options", first) == "nosniff", "\(path)")
            let etag = try #require(Self.header("ETag", first), "\(path)")
            let again = try await HTTP.get(server.baseURL + path, headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty, "\(path)")
        }
        let page = try await HTTP.get(server.baseURL + "/")
        #expect(page.body.contains("<script src=\"/app.js\" defer></script>"))
        // Nothing from elsewhere: the page works on a school LAN without internet.
        #expect(!page.body.contains("http://") && !page.body.contains("https://"))
        #expect(Self.header("Content-Security-Policy", page)?.contains("script-src 'self'") == true)
        #expect(try await HTTP.get(server.baseURL + "/nothing.js").status == 404)
    }

    @Test func searchAnswersAsTheGameSearchesWithRegions() async throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
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

    @Test func theDirectoryListsEverySchoolOnceWithTheCatalogsETag() async throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let catalog = try await HTTP.get("\(server.baseURL)/v1/catalog")
        let response = try await HTTP.get("\(server.baseURL)\(SchoolEndpoints.schoolsPath)")
        #expect(response.status == 200)
        let directory = try JSONDecoder().decode(SchoolDirectory.self, from: Data(response.body.utf8))
        #expect(directory.fields == ["id", "name", "level", "province", "district"])
        let catalogSchools = catalog.body.components(separatedBy: "\"id\":").count - 1
        #expect(directory.schools.count == catalogSchools && catalogSchools > 100)
        #expect(Set(directory.schools.map { $0[0] }).count == directory.schools.count)
        #expect(directory.schools.contains(["S0336", "민족사관고등학교", "high", "강원특별자치도", "횡성군"]))
        let etag = try #require(Self.header("ETag", response))
        #expect(etag == Self.header("ETag", catalog) && directory.catalog == etag)
        #expect(try await HTTP.get("\(server.baseURL)\(SchoolEndpoints.schoolsPath)", headers: [("If-None-Match", etag)]).status == 304)
    }
}
