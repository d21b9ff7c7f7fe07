import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import Synchronization
import TouchSchoolProtocol

/// One answer of the server's HTTP side.
public struct ServerResponse: Sendable {
    public var status: Int
    public var etag: String?
    public var body: [UInt8]
}

/// The server's HTTP endpoints (`/v1/catalog`, `/v1/scores`, `/v1/me`), through the shared
/// AsyncHTTPClient.
public enum ServerHTTP {
    /// The largest body read: the catalog of 12,011 schools is about 3 MB.
    static let maximumBodyBytes = 64 << 20

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
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(timeoutSeconds))
            let body = try await response.body.collect(upTo: maximumBodyBytes)
            return ServerResponse(status: Int(response.status.code), etag: response.headers.first(name: "ETag"),
                                  body: Array(buffer: body))
        } catch {
            throw ServerRequestError(description: "cannot reach the server at \(server): \(describe(error))")
        }
    }

    /// For the commands, which are not async: waits for `get` on the calling thread.
    public static func getWaiting(_ server: ServerAddress, _ path: String, headers: [(String, String)] = [],
                                  timeoutSeconds: Int64 = 10) throws(ServerRequestError) -> ServerResponse {
        let result = Mutex<Result<ServerResponse, ServerRequestError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(ServerRequestError) {
                let response = try await get(server, path, headers: headers, timeoutSeconds: timeoutSeconds)
                result.withLock { $0 = .success(response) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// A GET that must answer 200 with JSON of type `Value`.
    public static func fetchJSON<Value: Decodable>(_ type: Value.Type, from server: ServerAddress, _ path: String,
                                                   headers: [(String, String)] = []) throws(ServerRequestError) -> Value {
        guard let value = try fetchJSON(type, from: server, path, headers: headers, absentWhen: nil) else {
            throw ServerRequestError(description: "the server at \(server) has nothing at \(path)")
        }
        return value
    }

    /// A GET that answers 200 with JSON of type `Value`, or `absentWhen` for nothing (nil).
    public static func fetchJSON<Value: Decodable>(_ type: Value.Type, from server: ServerAddress, _ path: String,
                                                   headers: [(String, String)] = [], absentWhen: Int?,
                                                   timeoutSeconds: Int64 = 10) throws(ServerRequestError) -> Value? {
        let response = try getWaiting(server, path, headers: headers, timeoutSeconds: timeoutSeconds)
        if let absentWhen, response.status == absentWhen { return nil }
        guard response.status == 200 else {
            let text = String(decoding: response.body.prefix(300), as: UTF8.self)
            throw ServerRequestError(description: "the server at \(server) answered \(path) with HTTP \(response.status): \(text)")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(response.body))
        } catch {
            throw ServerRequestError(description: "the server at \(server) answered \(path) with something this version cannot read (\(error))")
        }
    }

    /// The cause in few words: connection refused, timed out, and the like.
    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("connectTimeout") || text.contains("deadlineExceeded") { return "no answer in time" }
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused" }
        return text
    }
}

public struct ServerRequestError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
