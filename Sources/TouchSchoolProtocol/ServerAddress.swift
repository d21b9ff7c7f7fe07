import Foundation

/// Where a server is: `http://host:port`, `https://…`, `ws://…` or `wss://…` (the scheme only
/// says whether TLS is used; the WebSocket is at `/v1/play`, the rest under `/v1/` too). A bare
/// `host:port` means `http://`.
public struct ServerAddress: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var secure: Bool
    /// The host name or address, an IPv6 address without its brackets.
    public var host: String
    public var port: Int

    public init(secure: Bool, host: String, port: Int) {
        self.secure = secure
        self.host = host
        self.port = port
    }

    /// Reads a server's URL; the error says what is wrong with it in words.
    public init(parsing input: String) throws(ServerAddressError) {
        var rest = Substring(input.trimmingCharacters(in: .whitespaces))
        guard !rest.isEmpty else { throw ServerAddressError(input: input, problem: .empty) }
        var secure = false
        if let range = rest.range(of: "://") {
            switch rest[..<range.lowerBound].lowercased() {
            case "http", "ws": secure = false
            case "https", "wss": secure = true
            default: throw ServerAddressError(input: input, problem: .scheme)
            }
            rest = rest[range.upperBound...]
        }
        // The path: nothing, "/", or the play path itself (what a player may copy from the docs).
        var authority = rest
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            let path = rest[slash...]
            guard path == "/" || path == PlayProtocol.playPath || path == PlayProtocol.playPath + "/" else {
                throw ServerAddressError(input: input, problem: .onlyHostAndPort)
            }
        }
        guard !authority.contains("@"), !authority.contains("?"), !authority.contains("#") else {
            throw ServerAddressError(input: input, problem: .onlyHostAndPort)
        }
        let host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw ServerAddressError(input: input, problem: .unclosedIPv6)
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw ServerAddressError(input: input, problem: .portAfterAddress) }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw ServerAddressError(input: input, problem: .notIPv6)
            }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else {
                throw ServerAddressError(input: input, problem: .ipv6InBrackets)
            }
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty else { throw ServerAddressError(input: input, problem: .missingHost) }
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }) else {
                throw ServerAddressError(input: input, problem: .hostCharacters)
            }
        }
        var port = secure ? 443 : 80
        if let portText {
            guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(portText), (1...65535).contains(value) else {
                throw ServerAddressError(input: input, problem: .port)
            }
            port = value
        }
        self.init(secure: secure, host: host.lowercased(), port: port)
    }

    /// The host as a URL or an `ssh` command writes it: an IPv6 address in brackets.
    public var hostInURL: String { host.contains(":") ? "[\(host)]" : host }

    /// `host:port` (an IPv6 address in brackets), as the player is shown where they play.
    public var hostAndPort: String { "\(hostInURL):\(port)" }

    /// `http://host:port`, without a trailing slash: paths are appended to it.
    public var httpBase: String { "\(secure ? "https" : "http")://\(hostInURL):\(port)" }

    /// The WebSocket's URL.
    public var playURL: String { "\(secure ? "wss" : "ws")://\(hostInURL):\(port)\(PlayProtocol.playPath)" }

    /// The folder of this server's files in the data directory: `host_port`, any character that
    /// a file name should not hold replaced.
    public var directoryName: String {
        let safeHost = String(host.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") ? $0 : "_" })
        return "\(safeHost)_\(port)"
    }

    public var description: String { httpBase }
}

/// The server's HTTP endpoints.
public enum ServerPaths {
    public static let catalog = "/v1/catalog"
    public static let scores = "/v1/scores"
    public static let me = "/v1/me"
    public static let page = "/v1/page"

    /// `GET /v1/page` of `count` places (at most `Watch.maximumCount`) of `league` from place `from`.
    public static func page(_ league: LeagueName, from: Int, count: Int) -> String {
        var query = "\(page)?count=\(count)&from=\(from)"
        if let level = league.level { query += "&level=" + queryValue(level) }
        if let province = league.province { query += "&province=" + queryValue(province) }
        return query
    }

    /// A query's value, every byte but the unreserved ones percent-encoded (provinces are Korean).
    private static func queryValue(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return encoded
    }
}

public struct ServerAddressError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong, a case each, so that the commands can say it in Korean too.
    public enum Problem: Equatable, Sendable {
        case empty, scheme, onlyHostAndPort, unclosedIPv6, portAfterAddress, notIPv6, ipv6InBrackets, missingHost, hostCharacters, port

        public var english: String {
            switch self {
            case .empty: "it is empty"
            case .scheme: "the scheme must be http, https, ws or wss"
            case .onlyHostAndPort: "give only the scheme, host and port (http://host:port)"
            case .unclosedIPv6: "an IPv6 address must end with ]"
            case .portAfterAddress: "expected :port after the address"
            case .notIPv6: "not an IPv6 address"
            case .ipv6InBrackets: "an IPv6 address goes in brackets: http://[::1]:8080"
            case .missingHost: "the host is missing"
            case .hostCharacters: "the host may hold only letters, digits, dots and dashes"
            case .port: "the port must be a number from 1 to 65535"
            }
        }
    }

    public var input: String
    public var problem: Problem

    public var description: String { "not a server URL: \(problem.english) (for example http://192.168.0.10:8080)" }
}
