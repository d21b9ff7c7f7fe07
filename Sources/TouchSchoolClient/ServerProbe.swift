#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TouchSchoolProtocol
import TouchSchoolCore

/// What listens at an address that did not answer as a TouchSchool server, for the two mistakes a
/// class makes with an address it was handed: `https://` for the plain-HTTP server (the TLS
/// handshake meets plain HTTP and is only seen to time out), and the SSH port given as `--server`
/// (an HTTP request meets the SSH greeting: "invalid constant string", "remote connection
/// closed"). Asked only after a request failed; a second or two, on a plain socket.
enum ServerProbe {
    static let waitMilliseconds: Int32 = 1_500

    /// `.sshServer` when the address greets with `SSH-`, `.plainHTTP` when an `https://` address
    /// answers plain HTTP; nil when it is neither (or cannot be told).
    static func identify(_ server: ServerAddress) -> ServerFailure? {
        guard let socket = connect(host: server.host, port: server.port) else { return nil }
        defer { close(socket) }
        // An SSH server speaks first; an HTTP server waits for the request.
        if let first = read(socket, waitMilliseconds: 500), first.starts(with: Array("SSH-".utf8)) { return .sshServer }
        guard server.secure else { return nil }
        let request = Array("GET /healthz HTTP/1.0\r\nHost: \(server.hostInURL)\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return nil }
        if let answer = read(socket, waitMilliseconds: waitMilliseconds), answer.starts(with: Array("HTTP/".utf8)) { return .plainHTTP }
        return nil
    }

    /// A connected TCP socket to the first address of `host` that takes one within the wait.
    private static func connect(host: String, port: Int) -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return nil }
        defer { freeaddrinfo(first) }
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            next = entry.pointee.ai_next
            let socket = Glibc.socket(entry.pointee.ai_family, entry.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                                      entry.pointee.ai_protocol)
            guard socket >= 0 else { continue }
            if Glibc.connect(socket, entry.pointee.ai_addr, entry.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                var ready = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if poll(&ready, 1, waitMilliseconds) == 1, getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 {
                    return socket
                }
            }
            close(socket)
        }
        return nil
    }

    /// What the peer sends within the wait (at most a few hundred bytes); nil for nothing.
    private static func read(_ socket: Int32, waitMilliseconds: Int32) -> [UInt8]? {
        var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, waitMilliseconds) == 1 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = recv(socket, &bytes, bytes.count, 0)
        return count > 0 ? Array(bytes.prefix(count)) : nil
    }
}
