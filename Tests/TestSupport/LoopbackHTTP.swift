import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 request to a program listening on this machine (chromedriver, a server under
/// test), over a socket of the test's own: a test that polls a page every 50 ms through WebDriver
/// would otherwise start a `curl` for each look, thousands a run, each costing more CPU than the
/// request. Blocking, for the synchronous tests that drive a browser or a terminal.
public enum LoopbackHTTP {
    public struct Response: Sendable {
        public let status: Int
        public let body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `method` `path` on 127.0.0.1:`port`, with `body` as JSON when given; the whole answer
    /// within `timeout` seconds (the socket's send and receive timeouts), or a failure.
    public static func request(_ method: String, port: Int, path: String, body: Data? = nil, timeout: Double) throws -> Response {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &target.sin_addr)
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "\(method) \(path): cannot connect to port \(port): errno \(errno)") }

        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        var outgoing = Data((head + "\r\n").utf8)
        if let body { outgoing.append(body) }
        try outgoing.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let written = send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard written > 0 else { throw Failure(description: "\(method) \(path): send: errno \(errno)") }
                sent += written
            }
        }

        // The answer ends after its Content-Length, at its last chunk, or where the connection
        // does (chromedriver keeps it open whatever `Connection: close` asks).
        let what = "\(method) \(path)"
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let response = try parse(answer, what: what) { return response }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 {
                guard let response = try parse(answer, what: what, ended: true) else {
                    throw Failure(description: "\(what): the connection ended in the answer (\(answer.count) bytes)")
                }
                return response
            }
            guard count > 0 else { throw Failure(description: "\(what): no whole answer within \(timeout) s (errno \(errno), \(answer.count) bytes)") }
            answer.append(contentsOf: buffer[0..<count])
        }
    }

    /// The response in `answer` once it is whole; nil while more is to come. `ended`: the
    /// connection has ended, so a body without a length ends here.
    static func parse(_ answer: Data, what: String, ended: Bool = false) throws -> Response? {
        guard let end = answer.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: answer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines[0].split(separator: " ")
        guard statusWords.count >= 2, lines[0].hasPrefix("HTTP/1."), let status = Int(statusWords[1]) else {
            throw Failure(description: "\(what): not an HTTP status line: \(lines[0])")
        }
        let headers = lines.dropFirst().map { $0.lowercased() }
        let body = answer[end.upperBound...]
        if headers.contains("transfer-encoding: chunked") { return try dechunk(body, what: what).map { Response(status: status, body: $0) } }
        if let length = headers.first(where: { $0.hasPrefix("content-length:") }).flatMap({ Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) }) {
            return body.count >= length ? Response(status: status, body: Data(body.prefix(length))) : nil
        }
        return ended ? Response(status: status, body: Data(body)) : nil
    }

    /// A chunked body's data (RFC 9112, 7.1; extensions and trailers ignored), or nil while its
    /// last chunk has not arrived.
    static func dechunk(_ body: Data.SubSequence, what: String) throws -> Data? {
        var data = Data()
        var rest = body
        while let line = rest.firstRange(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<line.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw Failure(description: "\(what): a bad chunk size \(sizeText)")
            }
            if size == 0 { return data }
            let start = line.upperBound
            guard rest.distance(from: start, to: rest.endIndex) >= size + 2 else { return nil }
            data.append(rest[start..<rest.index(start, offsetBy: size)])
            rest = rest[rest.index(start, offsetBy: size + 2)...]
        }
        return nil
    }
}
