#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TouchSchoolOutbox
import TouchSchoolTestSupport
@testable import TouchSchoolClient
import TouchSchoolCore
import TouchSchoolProtocol

/// A game that played on a server before and is started again at a wrong address of it (the
/// `https://` address of the plain-HTTP server, or its SSH port) was "offline" for ever with its
/// taps waiting: retrying cannot mend that, so its status line names the mistake, as the first
/// game's connecting screen does.
@Suite(.onOwnThreads) struct WrongAddressTests {
    /// A listener on loopback answering every connection as `kind` does: an SSH server greets
    /// first; the plain-HTTP server (Hummingbird behind our connection guard) answers whatever
    /// it cannot parse, a TLS handshake included, with 400 and closes.
    final class Listener: @unchecked Sendable {
        enum Kind { case ssh, plainHTTP }
        let port: Int
        private let socket: Int32
        private let thread: Thread

        init(_ kind: Kind) throws {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(socket, $0, length) == 0 && listen(socket, 16) == 0
                    && getsockname(socket, $0, &length) == 0 }
            }
            guard bound else { close(socket); throw TestFailure("cannot listen on loopback: errno \(errno)") }
            self.socket = socket
            port = Int(UInt16(bigEndian: address.sin_port))
            thread = Thread {
                while true {
                    let client = accept(socket, nil, nil)
                    guard client >= 0 else { return } // the listener was shut down
                    if kind == .ssh { Self.send("SSH-2.0-OpenSSH_9.2\r\n", to: client) }
                    var ready = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                    var bytes = [UInt8](repeating: 0, count: 4096)
                    if poll(&ready, 1, 1000) == 1 { _ = recv(client, &bytes, bytes.count, 0) }
                    if kind == .plainHTTP { Self.send("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", to: client) }
                    close(client)
                }
            }
            thread.start()
        }

        private static func send(_ text: String, to client: Int32) {
            _ = Array(text.utf8).withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Stops accepting: the thread's accept fails and it ends.
        func stop() {
            shutdown(socket, Int32(SHUT_RDWR))
            close(socket)
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The game's status once it has tried `server` with 3 taps waiting.
    func status(playingOn server: ServerAddress) async throws -> ConnectionStatus? {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = BattleFolder(dataDirectory: directory.path, battle: "wrong-address-0001", servers: [server])
        let battle = NetworkBattle(folder: folder, device: String(repeating: "A", count: 43), player: "p",
                                   catalog: NetworkBattleOfflineTests.catalog, catalogETag: nil,
                                   board: BoardMirror(), outbox: Outbox())
        battle.start()
        battle.submit(PendingChanges(player: "p", scoreDeltas: ["S1": 3], playerTaps: 3, bestTapsPerSecond: 2, switchedToSchool: "S1"))
        var last: ConnectionStatus?
        // The probe may name the mistake before the taps are in the outbox (then with none
        // waiting): the status that counts is the one after the submission was taken.
        var submitted = false
        _ = try await Wait.until(timeout: 20, every: .milliseconds(20)) {
            for event in battle.takeEvents() {
                switch event {
                case .synced: submitted = true
                case let .connectionChanged(status): last = status
                default: break
                }
            }
            if submitted, case .wrongAddress = last { return true }
            return false
        }
        _ = battle.finish(timeoutNanoseconds: 200_000_000)
        return last
    }

    @Test func anHTTPSAddressOfThePlainServerIsNamedNotOffline() async throws {
        let listener = try Listener(.plainHTTP)
        defer { listener.stop() }
        let status = try await status(playingOn: ServerAddress(secure: true, host: "127.0.0.1", port: listener.port))
        #expect(status == .wrongAddress(.plainHTTP, waitingTaps: 3))
    }

    @Test func theSSHPortIsNamedNotOffline() async throws {
        let listener = try Listener(.ssh)
        defer { listener.stop() }
        let status = try await status(playingOn: ServerAddress(secure: false, host: "127.0.0.1", port: listener.port))
        #expect(status == .wrongAddress(.sshServer, waitingTaps: 3))
    }

    /// A server that is down is what "offline" means: no probe turns it into a mistake.
    @Test func aServerThatIsDownIsOffline() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = ServerAddress(secure: false, host: "127.0.0.1", port: try freePort())
        let folder = BattleFolder(dataDirectory: directory.path, battle: "wrong-address-0002", servers: [server])
        let battle = NetworkBattle(folder: folder, device: String(repeating: "A", count: 43), player: "p",
                                   catalog: NetworkBattleOfflineTests.catalog, catalogETag: nil,
                                   board: BoardMirror(), outbox: Outbox())
        battle.start()
        var seen: [ConnectionStatus] = []
        for _ in 0..<200 where !seen.contains(.offline(waitingTaps: 0)) {
            for case let .connectionChanged(status) in battle.takeEvents() { seen.append(status) }
            try await Task.sleep(for: .milliseconds(20))
        }
        _ = battle.finish(timeoutNanoseconds: 200_000_000)
        #expect(seen.contains(.offline(waitingTaps: 0)), "\(seen)")
        #expect(!seen.contains { if case .wrongAddress = $0 { true } else { false } }, "\(seen)")
    }
}
