import Foundation
import Testing
import TouchSchoolTestSupport

/// A real `touchschool serve --host 0.0.0.0`, as a teacher starts it: what it prints at once
/// (this machine's addresses, never 0.0.0.0, and a QR code a reader decodes), and a line when
/// players come, tap and go, nothing while the class is idle. Serialized: timings on two cores.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct ServeStartUpTests {
    /// This machine's IPv4 addresses as `hostname -I` lists them (loopback and link-local left out).
    static func machineAddresses() throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/hostname")
        process.arguments = ["-I"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
            .filter { !$0.contains(":") && !$0.hasPrefix("169.254.") }
    }

    @Test func everyInterfaceHandsOutThisMachinesAddressesAndAQRCodeOfThePhonePage() throws {
        let server = try ServerProcess.start(arguments: ["--host", "0.0.0.0"], environment: ["LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""])
        defer { server.stop() }
        let output = server.output
        #expect(!output.contains("0.0.0.0"), "\(output)")
        #expect(output.contains("listening on every interface, port \(server.port) "))
        let addresses = try Self.machineAddresses()
        guard let first = addresses.first else {
            #expect(output.contains("This machine has no network address"), "\(output)")
            return
        }
        for address in addresses {
            #expect(output.contains("  http://\(address):\(server.port)/\n"), "\(address) in\n\(output)")
            #expect(output.contains("  http://\(address):\(server.port)/?board\n"), "\(output)")
            #expect(output.contains("  touchschool --server http://\(address):\(server.port)\n"), "\(output)")
        }
        // The code as drawn, read back from the terminal's text (its notes beside it left out)
        // and decoded by zbar. Written to a file, the text has no colours.
        #expect(!output.contains("\u{1B}"), "\(output)")
        let drawing = output.split(separator: "\n").map(String.init).filter { $0.contains("█") }
            .map { line -> String in
                var code = line.dropFirst(2).prefix { "█▀▄ ".contains($0) }
                while code.last == " " { code.removeLast() }
                return String(code)
            }
        let light = ServeGreetingTests.lightModules(drawing)
        let size = light[0].count - 4
        let phone = try ServeGreetingTests.zbar(ServeGreetingTests.darkInside(light, quiet: 2, size: size))
        #expect(phone == "http://\(first):\(server.port)/")
    }

    @Test func aLineWhenPlayersComeTapAndGoAndSilenceWhileIdle() async throws {
        let server = try ServerProcess.start(arguments: ["--activity-seconds", "1"], environment: ["LANG": "ko_KR.UTF-8", "LC_ALL": ""])
        defer { server.stop() }
        #expect(server.output.contains("학생들이 접속할 주소:"), "\(server.output)")
        let device = TestDevice(name: "alice")
        let (player, _) = try await TestPlayer.join(server, device: device)
        try await player.send(.taps(device.batch("S0001", taps: 10, switchTo: true)))
        _ = try await player.ack(1)
        #expect(try await Wait.until(timeout: 10) { server.output.contains("접속 1명 · 최근 1분 터치 10번\n") },
                "\(server.output)")
        await player.close()
        #expect(try await Wait.until(timeout: 10) { server.output.contains("접속 0명 · 최근 1분 터치 0번\n") },
                "\(server.output)")
        let quiet = server.output
        try await Task.sleep(for: .seconds(3))
        #expect(server.output == quiet, "an idle server printed more:\n\(server.output)")
    }

    /// With SSH too and the output to a file, as a script reads it: the first line is the
    /// `listening on` line (the SSH line came first in 3 of 3 runs: its listener is up sooner), the
    /// SSH command is among the addresses, and the host key's fingerprint is printed once; at the
    /// default log level, Hummingbird's "[HummingbirdCore] Server started and listening" is not in
    /// the log the teacher's terminal shows.
    @Test func theListeningLineComesFirstAndTheFingerprintOnce() async throws {
        let server = try ServerProcess.start(arguments: ["--ssh-port", "0"],
                                             environment: ["LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "LOG_LEVEL": "info"])
        defer { server.stop() }
        #expect(try await Wait.until(timeout: 10) { server.output.contains("host key fingerprint: ") }, "\(server.output)")
        let output = server.output
        #expect(output.hasPrefix("touchschool serve: listening on http://127.0.0.1:\(server.port) "), "\(output)")
        let greeting = try #require(output.range(of: "Students join at:"))
        let ssh = try #require(output.range(of: "  SSH, no install      ssh -p "))
        #expect(greeting.lowerBound < ssh.lowerBound, "\(output)")
        #expect(output.components(separatedBy: "SHA256:").count == 2, "the fingerprint once:\n\(output)")
        // Hummingbird's own line stays out of the teacher's terminal (the log goes there too).
        #expect(!server.errors.contains("Server started and listening"), "\(server.errors)")
    }
}
