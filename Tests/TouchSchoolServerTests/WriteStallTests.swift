import Foundation
import Testing
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// A play connection whose reader stops reading, against a real server.
@Suite(.onOwnThreads) struct WriteStallTests {
    /// It floods pings and reads none of the pongs: its buffers fill, the server's next write
    /// waits for room, and nothing else would end it (the server's own ping waits behind it).
    /// Closed within 15 to 30 seconds of the stall.
    @Test func aPlayerThatStopsReadingIsClosed() async throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let mute = try RawConnection(to: server.port, receiveBuffer: 4_096)
        #expect(mute.upgradeToPlay())
        let device = TestDevice(name: "mute")
        mute.send(bytes: RawConnection.textFrame(MessageCoding.encode(.hello(Hello(device: device.key, player: device.name)))))
        let ping = RawConnection.textFrame(MessageCoding.encode(.ping))
        var flooded = 0
        // About 6 MB of pongs owed: more than the socket buffers on both sides hold.
        while flooded < 300_000, mute.send(bytes: Array([[UInt8]](repeating: ping, count: 1_000).joined())) { flooded += 1_000 }
        try await Task.sleep(for: .seconds(40))
        // Read now: a closed connection gives what was buffered, then its end.
        let drained = mute.readUntilClosed(timeout: 10)
        #expect(drained != nil, "the server closed the connection of a reader that stopped reading")
        #expect(server.waitForExit(timeout: 0) == nil)
    }
}
