import AsyncHTTPClient
import Foundation
import NIOCore
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol

/// One answer of the server's HTTP side.
public struct ServerResponse: Sendable {
    public var status: Int
    public var etag: String?
    /// The season the answer's numbers are of (`PlayProtocol.seasonHeader`); nil: all time's.
    public var season: String?
    public var body: [UInt8]
}

/// The server's HTTP endpoints (`/v1/catalog`, `/v1/scores`, `/v1/me`), through a client of
/// their own.
public enum ServerHTTP {
    /// The largest body read: the catalog of 12,011 schools is about 3 MB.
    static let maximumBodyBytes = 64 << 20

    /// How long a connection may take to open: a host on the LAN answers in milliseconds, so
    /// this only bounds a host that drops the connection silently (switched off, a firewall).
    static let connectSeconds: Int64 = 3

    /// The shared client's settings, but a failed connection fails its request at once: the
    /// shared client retries it with backoff until the request's deadline, so that a stopped
    /// server cost a first game, `rank` or `stats --server` the whole deadline (30 s for the
    /// catalog) instead of the refusal's milliseconds. The callers retry in their own way (the
    /// game every second, with the reason on screen).
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(connectSeconds)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    public static func get(_ server: ServerAddress, _ path: String, headers: [(String, String)] = [],
                           timeoutSeconds: Int64 = 10) async throws(ServerRequestError) -> ServerResponse {
        try await send(server, "GET", path, headers: headers, timeoutSeconds: timeoutSeconds)
    }

    /// A request with `method` and no body (the admin API's POSTs carry their options in the query).
    public static func send(_ server: ServerAddress, _ method: String, _ path: String, headers: [(String, String)] = [],
                            timeoutSeconds: Int64 = 10) async throws(ServerRequestError) -> ServerResponse {
        var request = HTTPClientRequest(url: server.httpBase + path)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        do {
            let response = try await client.execute(request, timeout: .seconds(timeoutSeconds))
            let body = try await response.body.collect(upTo: maximumBodyBytes)
            return ServerResponse(status: Int(response.status.code), etag: response.headers.first(name: "ETag"),
                                  season: response.headers.first(name: PlayProtocol.seasonHeader), body: Array(buffer: body))
        } catch {
            var failure = classify(error)
            // Something answered, but not as a TouchSchool server: which mistake, if it is one of
            // the two a class makes (`ServerProbe`).
            if failure != .refused, failure != .unreachable, let identified = ServerProbe.identify(server) { failure = identified }
            throw ServerRequestError(description: "cannot reach the server at \(server): \(describe(failure))", failure: failure)
        }
    }

    /// For the commands, which are not async: waits for `get` on the calling thread.
    public static func getWaiting(_ server: ServerAddress, _ path: String, headers: [(String, String)] = [],
                                  timeoutSeconds: Int64 = 10) throws(ServerRequestError) -> ServerResponse {
        try blockingWait { () async throws(ServerRequestError) -> ServerResponse in
            try await get(server, path, headers: headers, timeoutSeconds: timeoutSeconds)
        }
    }

    /// A GET that must answer 200 with JSON of type `Value`.
    public static func fetchJSON<Value: Decodable>(_ type: Value.Type, from server: ServerAddress, _ path: String,
                                                   headers: [(String, String)] = []) throws(ServerRequestError) -> Value {
        try fetchSeasonJSON(type, from: server, path, headers: headers).value
    }

    /// A GET that answers 200 with JSON of type `Value`, or `absentWhen` for nothing (nil).
    public static func fetchJSON<Value: Decodable>(_ type: Value.Type, from server: ServerAddress, _ path: String,
                                                   headers: [(String, String)] = [], absentWhen: Int?,
                                                   timeoutSeconds: Int64 = 10) throws(ServerRequestError) -> Value? {
        try fetchAnswer(type, from: server, path, headers: headers, absentWhen: absentWhen, timeoutSeconds: timeoutSeconds)?.value
    }

    /// A GET that must answer 200 with JSON of type `Value` whose numbers may be a season's: the
    /// value, and that season's id (nil: all time's).
    public static func fetchSeasonJSON<Value: Decodable>(_ type: Value.Type, from server: ServerAddress, _ path: String,
                                                         headers: [(String, String)] = []) throws(ServerRequestError) -> (value: Value, season: String?) {
        guard let answer = try fetchAnswer(type, from: server, path, headers: headers, absentWhen: nil, timeoutSeconds: 10) else {
            throw ServerRequestError(description: "the server at \(server) has nothing at \(path)")
        }
        return (answer.value, answer.response.season)
    }

    private static func fetchAnswer<Value: Decodable>(_ type: Value.Type, from server: ServerAddress, _ path: String,
                                                      headers: [(String, String)], absentWhen: Int?,
                                                      timeoutSeconds: Int64) throws(ServerRequestError) -> (value: Value, response: ServerResponse)? {
        let response = try getWaiting(server, path, headers: headers, timeoutSeconds: timeoutSeconds)
        if let absentWhen, response.status == absentWhen { return nil }
        guard response.status == 200 else {
            let text = String(decoding: response.body.prefix(300), as: UTF8.self)
            throw ServerRequestError(description: "the server at \(server) answered \(path) with HTTP \(response.status): \(text)")
        }
        do {
            return (try JSONDecoder().decode(Value.self, from: Data(response.body)), response)
        } catch {
            throw ServerRequestError(description: "the server at \(server) answered \(path) with something this version cannot read (\(error))")
        }
    }

    /// The kind of cause, read from the error's description: NIO's and AsyncHTTPClient's errors
    /// name the errno or case but are not all public types to match on.
    static func classify(_ error: any Error) -> ServerFailure {
        let text = String(describing: error)
        if text.contains("connectTimeout") || text.contains("deadlineExceeded") { return .timedOut }
        if text.contains("connectionRefused") || text.contains("Connection refused") { return .refused }
        if ["No route to host", "Network is unreachable", "unreachable", "NXDOMAIN", "resolution", "Name or service not known"]
            .contains(where: text.contains) { return .unreachable }
        return .other(text)
    }

    /// The cause in few words, for the commands' one-line errors.
    static func describe(_ failure: ServerFailure) -> String {
        switch failure {
        case .refused: "connection refused (is `touchschool serve` running there, on that port?)"
        case .unreachable: "the host cannot be reached (check the address and the network)"
        case .timedOut: "no answer in time"
        case .plainHTTP: "the server there speaks plain HTTP, not HTTPS: give the address with http://"
        case .sshServer: "that is an SSH port (play there with `ssh -p PORT NAME@HOST`); give --server the server's HTTP port"
        case let .other(text): text
        }
    }
}

public struct ServerRequestError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// Why no answer came, when the server could not be reached at all (nil: it answered).
    public var failure: ServerFailure?

    public init(description: String, failure: ServerFailure? = nil) {
        self.description = description
        self.failure = failure
    }
}
