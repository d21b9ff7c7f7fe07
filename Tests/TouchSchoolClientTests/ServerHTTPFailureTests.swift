import Foundation
import Testing
import TouchSchoolProtocol
import TouchSchoolTestSupport
@testable import TouchSchoolClient
import TouchSchoolCore

/// A server that is not running is known at once: a refused connection fails the request in
/// milliseconds, whatever the request's deadline, and says so by its kind.
@Suite(.onOwnThreads) struct ServerHTTPFailureTests {
    @Test func aClosedPortIsRefusedWellWithinASecondWhateverTheDeadline() throws {
        let server = ServerAddress(secure: false, host: "127.0.0.1", port: try freePort())
        let started = Date()
        do {
            _ = try ServerHTTP.getWaiting(server, ServerPaths.catalog, timeoutSeconds: 30)
            Issue.record("nothing listens there, yet a request succeeded")
        } catch {
            #expect(error.failure == .refused, "\(error)")
            #expect(error.description.contains("connection refused"), "\(error)")
        }
        #expect(Date().timeIntervalSince(started) < 1, "took \(Date().timeIntervalSince(started)) s")
    }

    @Test func theBattleIsAskedOfAClosedPortAsFast() throws {
        let server = ServerAddress(secure: false, host: "127.0.0.1", port: try freePort())
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let started = Date()
        let location = BattleLocator(dataDirectory: directory.path).locate([server])
        guard case let .unknown(_, failure) = location else {
            Issue.record("expected no battle, got \(location)")
            return
        }
        #expect(failure == .refused)
        #expect(Date().timeIntervalSince(started) < 1)
    }
}
