import Dispatch
import HTTPTypes
import Hummingbird
import Synchronization
import TouchSchoolProtocol

/// The HTTP requests one address (an IPv6 /64) may make, by what they cost: a budget per kind,
/// refilled evenly, answered 429 with `Retry-After` when spent. The play socket and the board
/// stream have their own limits (`AddressLimits`); these bound the rest.
public struct RequestBudgetPolicy: Sendable {
    /// `/v1/search`, a search over the whole catalog per request: a lab of 40 typing school
    /// names at once makes a few a second each.
    public var searchesPerSecond = 100
    public var searchBurst = 500
    /// `/v1/schools` and `/v1/catalog`, the whole directory or catalog (megabytes with the
    /// national list, unless the ETag matches): a lab of 40 phones opening the page at once,
    /// five times over.
    public var bulkPerSecond = 10
    public var bulkBurst = 200
    /// Everything else (the page's files, scores, the battle's name, health): small answers
    /// from memory, for every player of a lab starting at once.
    public var requestsPerSecond = 200
    public var requestBurst = 2_000
    /// Admin requests refused for a wrong or missing token: an operator mistypes a few; a script
    /// guessing is held to one a second, and so is the log line each costs.
    public var adminFailuresPerSecond = 1
    public var adminFailureBurst = 10

    public static let standard = RequestBudgetPolicy()
}

/// Every address's request budgets, shared by the server's connections.
final class RequestBudgets: Sendable {
    enum Kind { case search, bulk, request }

    private struct Budgets: Sendable {
        var search: AddressBudgets
        var bulk: AddressBudgets
        var request: AddressBudgets
        var adminFailure: AddressBudgets
    }
    private let budgets: Mutex<Budgets>

    init(policy: RequestBudgetPolicy) {
        budgets = Mutex(Budgets(search: AddressBudgets(perSecond: policy.searchesPerSecond, burst: policy.searchBurst),
                                bulk: AddressBudgets(perSecond: policy.bulkPerSecond, burst: policy.bulkBurst),
                                request: AddressBudgets(perSecond: policy.requestsPerSecond, burst: policy.requestBurst),
                                adminFailure: AddressBudgets(perSecond: policy.adminFailuresPerSecond, burst: policy.adminFailureBurst)))
    }

    /// Spends one request of `kind` by `address`; whether it had one. An admin request also
    /// needs a failure left: an address out of them is refused even with the right token until
    /// one refills (a guess that happens to be right is no different).
    func admit(_ kind: Kind, admin: Bool, by address: String, atMs nowMs: Int64) -> Bool {
        budgets.withLock { budgets in
            if admin, budgets.adminFailure.available(to: address, atMs: nowMs) < 1 { return false }
            switch kind {
            case .search: return budgets.search.take(by: address, atMs: nowMs)
            case .bulk: return budgets.bulk.take(by: address, atMs: nowMs)
            case .request: return budgets.request.take(by: address, atMs: nowMs)
            }
        }
    }

    /// An admin request refused for its token.
    func adminFailed(by address: String, atMs nowMs: Int64) {
        budgets.withLock { $0.adminFailure.spend(1, by: address, atMs: nowMs) }
    }
}

/// Spends the request's budget before it is answered; refuses it with 429 when that is spent.
struct RequestBudgetMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let budgets: RequestBudgets
    let trustedProxies: Set<String>
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let address = ClientAddress.network(of: ClientAddress.of(peer: context.remoteAddress?.ipAddress,
                                                                 forwardedFor: request.headers[ClientAddress.forwardedFor],
                                                                 trustedProxies: trustedProxies))
        let path = request.uri.path
        let isAdmin = path.hasPrefix("/v1/admin/")
        let nowMs = Int64(DispatchTime.now().uptimeNanoseconds / 1_000_000)
        guard budgets.admit(Self.kind(of: path), admin: isAdmin, by: address, atMs: nowMs) else {
            metrics.requestsRefused.increment()
            return Response(status: .tooManyRequests, headers: [.retryAfter: "1", .contentType: "application/json; charset=utf-8"],
                            body: .init(byteBuffer: .init(string: #"{"error":"too many requests from this address: try again in a second"}"#)))
        }
        let response = try await next(request, context)
        if isAdmin, response.status == .unauthorized {
            budgets.adminFailed(by: address, atMs: nowMs)
        }
        return response
    }

    private static func kind(of path: String) -> RequestBudgets.Kind {
        switch path {
        case SchoolEndpoints.searchPath: .search
        case SchoolEndpoints.schoolsPath, "/v1/catalog": .bulk
        default: .request
        }
    }
}
