import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bare TCP connection to the server from a chosen loopback address, for what no HTTP client
/// sends: heads that never end, heads too large, sockets held open saying nothing.
final class RawConnection {
    private var descriptor: Int32

    /// `receiveBuffer`: the socket's receive buffer in bytes, set before connecting (the kernel
    /// doubles it), for a reader whose buffers fill at once.
    init(to port: Int, from local: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError("socket: \(errno)") }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var source = sockaddr_in()
        source.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, local, &source.sin_addr)
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &target.sin_addr)
        let bound = withUnsafePointer(to: &source) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = withUnsafePointer(to: &target) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, connected == 0 else {
            close()
            throw HarnessError("cannot connect from \(local) to port \(port): errno \(errno)")
        }
    }

    deinit { close() }

    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Sends `text` whole; false if the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool { send(bytes: Array(text.utf8)) }

    /// Sends `bytes` whole; false if the server has closed the connection.
    @discardableResult
    func send(bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// What the server sends until it closes the connection, and how long that took; nil if it
    /// is still open after `timeout` seconds.
    func readUntilClosed(timeout: TimeInterval) -> (text: String, seconds: TimeInterval)? {
        let start = Date()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = timeout - Date().timeIntervalSince(start)
            guard left > 0 else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1_000)) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: received, as: UTF8.self), Date().timeIntervalSince(start)) }
            received += buffer[..<count]
        }
    }

    /// Whether the server has closed the connection without sending anything, as a socket refused
    /// at a limit is: looked at now, without waiting.
    func closedSilently() -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    /// What the server has sent within `seconds`, without waiting for a close.
    func read(for seconds: TimeInterval) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The statuses of the next `count` responses (read by their `Content-Length`), as they
    /// come; fewer if the connection closes or `timeout` seconds pass first.
    func statuses(count: Int, timeout: TimeInterval) -> [Int] {
        let deadline = Date().addingTimeInterval(timeout)
        var received: [UInt8] = []
        var statuses: [Int] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var start = 0
        while statuses.count < count {
            // Whole responses first, from what was received.
            let separator: [UInt8] = [13, 10, 13, 10]
            if let headEnd = Self.index(of: separator, in: received, from: start) {
                let head = String(decoding: received[start..<headEnd], as: UTF8.self)
                let lines = head.split(separator: "\r\n")
                let length = lines.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if received.count >= headEnd + 4 + length {
                    statuses.append(lines.first.flatMap { Int($0.split(separator: " ")[1]) } ?? 0)
                    start = headEnd + 4 + length
                    continue
                }
            }
            guard Date() < deadline else { break }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { break }
            received += buffer[..<read]
        }
        return statuses
    }

    private static func index(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], Array(haystack[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }

    /// A WebSocket text frame as a client sends it (RFC 6455: masked).
    static func textFrame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }

    /// The upgrade to the play socket; true when the server switched protocols.
    func upgradeToPlay() -> Bool {
        send("GET /v1/play HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        return read(for: 1).hasPrefix("HTTP/1.1 101")
    }
}
