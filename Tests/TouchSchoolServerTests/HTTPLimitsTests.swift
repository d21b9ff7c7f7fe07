import Foundation
import Testing
import TouchSchoolTestSupport

/// The HTTP side of the server (in process; in a process of its own where its open-file limits
/// are what is tested) against bare sockets (`RawConnection`): heads that never end, heads too
/// large, idle keep-alive connections, sockets held open and requests in floods from one address.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct HTTPLimitsTests {
    static let request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// Seen before the guard: 200 such sockets from one address all still open after 65 s. The
    /// head's and the idle connection's limits (10 s and 30 s in service) shortened, not waited out.
    @Test func silentSocketsUnfinishedHeadsAndIdleKeepAlivesAreClosed() async throws {
        let (head, idle): (Double, Double) = (2, 4)
        try await InProcessServer.with(configure: {
            $0.timeouts.head = .seconds(head)
            $0.timeouts.idle = .seconds(idle)
        }) { server in
            let opened = Date()
            let silent = try RawConnection(to: server.port)
            let unfinished = try RawConnection(to: server.port)
            unfinished.send("GET /v1/scores HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            let kept = try RawConnection(to: server.port)
            let asked = Date()
            kept.send(Self.request)
            #expect(kept.read(for: 1).hasPrefix("HTTP/1.1 200"), "a whole request is answered and the connection kept")

            let nothing = silent.readUntilClosed(timeout: head + 10)
            #expect(nothing?.text == "", "a socket that says nothing is closed without a word")
            let silentFor = Date().timeIntervalSince(opened)
            #expect(nothing != nil && (head - 0.5...head + 5).contains(silentFor), "closed after the head's \(head) s: \(silentFor) s")
            let timedOut = unfinished.readUntilClosed(timeout: 5)
            #expect(timedOut?.text.hasPrefix("HTTP/1.1 408") == true, "\(String(describing: timedOut))")
            let closed = kept.readUntilClosed(timeout: idle + 10)
            let idleFor = Date().timeIntervalSince(asked)
            #expect(closed != nil && idleFor >= idle - 0.5, "an idle keep-alive connection is closed after \(idle) s: \(idleFor) s")
            #expect(server.isRunning, "the server runs on")
        }
    }

    /// Seen before the guard: a 90 KB or 200 KB head got no answer and no close.
    @Test func aLargeHeadIsAnswered431AndClosedFirstOrLater() async throws {
        try await InProcessServer.with { server in
            let padding = "X-Pad: " + String(repeating: "a", count: 20 << 10) + "\r\n"
            for size in [20 << 10, 200 << 10] {
                let first = try RawConnection(to: server.port)
                first.send("GET /v1/scores HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + String(repeating: "a", count: size) + "\r\n\r\n")
                let answer = first.readUntilClosed(timeout: 5)
                #expect(answer?.text.hasPrefix("HTTP/1.1 431") == true, "\(size) bytes: \(String(describing: answer?.text.prefix(80)))")
            }
            // The second request of a kept-alive connection.
            let later = try RawConnection(to: server.port)
            later.send(Self.request)
            #expect(later.read(for: 1).hasPrefix("HTTP/1.1 200"))
            later.send("GET /v1/scores HTTP/1.1\r\nHost: 127.0.0.1\r\n" + padding + "\r\n")
            let answer = later.readUntilClosed(timeout: 5)
            #expect(answer != nil, "closed at once")
            // A head of the right size still works.
            #expect(try await HTTP.get(server.baseURL + "/healthz").status == 200)
        }
    }

    /// Requests the HTTP parser refuses, each complete: seen before the fix, all 35 such sockets
    /// were still open after 45 s (neither the head's limit nor the idle limit reaches them).
    /// Each is answered 400 and closed at once; on a kept-alive connection, after a response,
    /// the connection is closed.
    @Test func requestsTheParserRefusesAreAnswered400AndClosed() async throws {
        try await InProcessServer.with { server in
            let manyHeaders = (0..<101).map { "X-H\($0): 1\r\n" }.joined()
            let malformed = [
                "unknown method": "FOO / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                "NUL in the method": "G\u{0}T / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                "HTTP/9.9": "GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n",
                "HTTP/0.9 request line": "GET /\r\n\r\n",
                "101 headers": "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + manyHeaders + "\r\n",
                "a space in a header name": "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: 1\r\n\r\n",
                "Content-Length with Transfer-Encoding":
                    "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            ]
            let sockets = try malformed.mapValues { request in
                let socket = try RawConnection(to: server.port)
                socket.send(request)
                return socket
            }
            for (name, socket) in sockets.sorted(by: { $0.key < $1.key }) {
                let answer = socket.readUntilClosed(timeout: 5)
                #expect(answer?.text.hasPrefix("HTTP/1.1 400") == true, "\(name): \(String(describing: answer))")
            }
            let kept = try RawConnection(to: server.port)
            kept.send(Self.request)
            #expect(kept.read(for: 1).hasPrefix("HTTP/1.1 200"))
            kept.send(malformed["unknown method"]!)
            #expect(kept.readUntilClosed(timeout: 5) != nil, "a refused second request closes its connection")
            #expect(try await HTTP.get(server.baseURL + "/healthz").status == 200)
        }
    }

    /// The common soft limit of 1,024 open files: seen before the fix, 1,100 sockets from one
    /// address took every descriptor, and another address got no `/healthz` within 10 s and no
    /// player could connect. One address now holds at most half of what the process can, and
    /// another is answered at once.
    @Test func oneAddressHoldingAllItMayLeavesRoomForEveryoneElse() async throws {
        let server = try ServerProcess.start(openFiles: (soft: 1_024, hard: 1_024))
        defer { server.stop() }
        var held: [RawConnection] = []
        for _ in 0..<1_100 { held.append(try RawConnection(to: server.port, from: "127.0.0.30")) }
        // Those past the address's share are closed as the server takes them up, the rest held
        // open (until the head's 10 s): 1,024 files less 128 for the process's own is 896, half
        // of it 448.
        let share = 448
        let reached = try await Wait.until(timeout: 5) {
            held.filter { $0.closedSilently() }.count >= held.count - share
        }
        let refused = held.filter { $0.closedSilently() }.count
        #expect(reached && refused == held.count - share, "\(refused) of 1,100 refused")

        let asked = Date()
        let neighbour = try RawConnection(to: server.port, from: "127.0.0.31")
        neighbour.send(Self.request)
        #expect(neighbour.statuses(count: 1, timeout: 1) == [200], "another address's /healthz")
        #expect(Date().timeIntervalSince(asked) < 1, "/healthz answered within a second: \(Date().timeIntervalSince(asked)) s")
        let joining = Date()
        let (player, welcome) = try await BoundPlayer.join(server, from: "127.0.0.32", device: TestDevice(name: "neighbour"))
        #expect(welcome.battle.isEmpty == false)
        #expect(Date().timeIntervalSince(joining) < 1, "a new player welcomed within a second: \(Date().timeIntervalSince(joining)) s")
        await player.close()
        #expect(server.waitForExit(timeout: 0) == nil, "the server runs on")
    }

    /// The soft limit is raised to the hard one at start.
    @Test func theSoftOpenFileLimitIsRaisedToTheHardOne() throws {
        let server = try ServerProcess.start(openFiles: (soft: 1_024, hard: 4_096))
        defer { server.stop() }
        let limits = try String(contentsOfFile: "/proc/\(server.pid)/limits", encoding: .utf8)
        let line = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }.map(String.init) ?? ""
        #expect(line.split(separator: " ", omittingEmptySubsequences: true).suffix(3).prefix(2) == ["4096", "4096"], "\(line)")
    }

    /// Every socket counts against its address, whatever it carries or says; another address
    /// is not held back, and a socket closed gives its slot back.
    @Test func socketsFromOneAddressAreCountedAndAnotherAddressIsNot() async throws {
        try await InProcessServer.with(configure: { $0.limits.socketsPerAddress = 5 }) { server in
            // Six at once: the server takes them up on two event loops, in no set order, so any
            // one of them may be the one closed. Each is looked at until the server has closed one
            // (when depends on how busy the machine is), then once more a moment later: no other.
            let sockets = try (0..<6).map { _ in try RawConnection(to: server.port, from: "127.0.0.7") }
            let oneClosed = try await Wait.until(timeout: 10) { sockets.contains { $0.closedSilently() } }
            try await Task.sleep(for: .milliseconds(300))
            let closed = sockets.indices.filter { sockets[$0].closedSilently() }
            #expect(oneClosed && closed.count == 1, "one of six closed at once: \(closed)")
            let held = sockets.indices.filter { !closed.contains($0) }.map { sockets[$0] }

            // Another address is answered: its response read whole, or the close if it was refused.
            let neighbour = try RawConnection(to: server.port, from: "127.0.0.8")
            neighbour.send(Self.request)
            let asked = Date()
            let statuses = neighbour.statuses(count: 1, timeout: 10)
            #expect(statuses == [200], "another address's request: \(statuses) after \(Date().timeIntervalSince(asked)) s")

            // The slot comes back once the server has seen the close: tried for a few seconds.
            held[0].close()
            let servedAgain = try await Wait.until(timeout: 5, every: .zero) {
                let again = try RawConnection(to: server.port, from: "127.0.0.7")
                again.send(Self.request)
                return again.statuses(count: 1, timeout: 5) == [200]
            }
            #expect(servedAgain, "a slot given back is taken again")
            #expect(held.count == 5)
        }
    }

    /// Searches in a flood (pipelined on ten connections, as a lab's browsers would): the burst is
    /// answered, the rest 429 with Retry-After, a second later more are answered; another address
    /// is not held back. The directory has its own, smaller budget.
    ///
    /// Ten connections, not one: a connection's requests are answered one after another, and each
    /// search waits for the thread that searches, which yields to everything else on a busy
    /// machine (`CostlyWork`: with eight tests and a build beside it, 700 searches pipelined on
    /// one connection took longer than 30 s).
    @Test func searchesAndDirectoriesFromOneAddressAreHeldToTheirBudgets() async throws {
        try await InProcessServer.with { server in
            let floods = try (0..<10).map { _ in try RawConnection(to: server.port, from: "127.0.0.10") }
            let search = "GET /v1/search?q=%ED%95%9C%EB%B9%9B HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let sent = Date()
            for flood in floods { flood.send(String(repeating: search, count: 70)) }
            let statuses = floods.flatMap { $0.statuses(count: 70, timeout: 30) }
            let flood = floods[0]
            // The budget refills at 100 a second while the flood is served (about a second here; more
            // on a loaded machine).
            let refilled = Int((Date().timeIntervalSince(sent) * 100).rounded(.up))
            #expect(statuses.count == 700)
            let answered = statuses.filter { $0 == 200 }.count
            #expect((500...500 + refilled).contains(answered), "the burst of 500 and at most \(refilled) refilled meanwhile: \(answered)")
            #expect(statuses.filter { $0 == 429 }.count == 700 - answered)

            let neighbour = try RawConnection(to: server.port, from: "127.0.0.11")
            neighbour.send(search)
            #expect(neighbour.statuses(count: 1, timeout: 5) == [200])
            try await Task.sleep(for: .seconds(1))
            flood.send(search)
            #expect(flood.statuses(count: 1, timeout: 5) == [200], "a second later the budget has refilled")

            let directories = try RawConnection(to: server.port, from: "127.0.0.12")
            directories.send(String(repeating: "GET /v1/schools HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 300))
            let directoryStatuses = directories.statuses(count: 300, timeout: 30)
            let directoriesAnswered = directoryStatuses.filter { $0 == 200 }.count
            #expect((200...260).contains(directoriesAnswered), "\(directoriesAnswered) of 300")
        }
    }

    /// Guessing the admin token: ten failures, then every admin request from that address is
    /// refused, the right token too, until a failure refills; another address is not.
    @Test func wrongAdminTokensFromOneAddressAreHeldToTenThenOneASecond() async throws {
        try await InProcessServer.with { server in
            let token = try String(contentsOfFile: server.dataDirectory + "/admin.token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            func devices(_ token: String) -> String { "GET /v1/admin/devices HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n" }
            let guesser = try RawConnection(to: server.port, from: "127.0.0.13")
            guesser.send(String(repeating: devices("guess"), count: 15) + devices(token))
            let statuses = guesser.statuses(count: 16, timeout: 10)
            #expect(statuses == Array(repeating: 401, count: 10) + Array(repeating: 429, count: 6), "\(statuses)")

            let operatorDesk = try RawConnection(to: server.port, from: "127.0.0.14")
            operatorDesk.send(devices(token))
            #expect(operatorDesk.statuses(count: 1, timeout: 5) == [200])
            try await Task.sleep(for: .milliseconds(1_100))
            guesser.send(devices(token))
            #expect(guesser.statuses(count: 1, timeout: 5) == [200], "a failure refilled")
        }
    }
}
