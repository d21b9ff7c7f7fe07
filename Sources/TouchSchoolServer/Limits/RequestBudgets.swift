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

    /// What all addresses together may spend on the costly kinds, whatever each address's own
    /// budget still allows: 199 addresses each far inside their budgets used to take 1.86
    /// cores with QR codes and move a player's acknowledgement from 53 ms to 2 s at p99. Each
    /// is sized to a small share of one core at its measured cost (BENCHMARKS.md, "Floods"),
    /// so that play is served first; past it, 503 with `Retry-After`.
    /// Searches (about 0.1 ms each over the national list): a national event's players choosing
    /// their schools, a few keystrokes each.
    public var allSearchesPerSecond = 1_000
    public var allSearchBurst = 1_000
    /// QR codes drawn (1.5 ms each; one cached is not drawn again): a projector asks for the
    /// code of its join address when it opens.
    public var allQRCodesPerSecond = 50
    public var allQRCodeBurst = 50
    /// Whole directories, catalogs and boards (megabytes each with the national list).
    public var allBulkPerSecond = 50
    public var allBulkBurst = 300

    public static let standard = RequestBudgetPolicy()
}

/// Every address's request budgets, and the server's for the costly kinds, shared by the
/// server's connections.
final class RequestBudgets: Sendable {
    /// What a request costs. A QR code is charged to its address's search budget (both are
    /// computed per request); one not cached also to the server's QR budget (`drawQRCode`).
    enum Kind { case search, qrCode, bulk, request }

    enum Admission: Equatable {
        case admitted
        /// This address has spent its budget: 429.
        case addressSpent
        /// All addresses together have spent the server's budget for this kind: 503.
        case serverBusy
    }

    private struct Budgets: Sendable {
        var search: AddressBudgets
        var bulk: AddressBudgets
        var request: AddressBudgets
        var adminFailure: AddressBudgets
        /// The server's budgets, under one key each.
        var allSearches: AddressBudgets
        var allQRCodes: AddressBudgets
        var allBulk: AddressBudgets
    }
    private let budgets: Mutex<Budgets>
    private static let everyone = "*"
    /// The budgets' clock: `nowMs()`.
    private let clock: BattleClock

    init(policy: RequestBudgetPolicy, clock: BattleClock = .system) {
        self.clock = clock
        budgets = Mutex(Budgets(search: AddressBudgets(perSecond: policy.searchesPerSecond, burst: policy.searchBurst),
                                bulk: AddressBudgets(perSecond: policy.bulkPerSecond, burst: policy.bulkBurst),
                                request: AddressBudgets(perSecond: policy.requestsPerSecond, burst: policy.requestBurst),
                                adminFailure: AddressBudgets(perSecond: policy.adminFailuresPerSecond, burst: policy.adminFailureBurst),
                                allSearches: AddressBudgets(perSecond: policy.allSearchesPerSecond, burst: policy.allSearchBurst),
                                allQRCodes: AddressBudgets(perSecond: policy.allQRCodesPerSecond, burst: policy.allQRCodeBurst),
                                allBulk: AddressBudgets(perSecond: policy.allBulkPerSecond, burst: policy.allBulkBurst)))
    }

    /// Spends one request of `kind` by `address`, and one of the server's budget for a costly
    /// kind; what was decided. An admin request also needs a failure left: an address out of
    /// them is refused even with the right token until one refills (a guess that happens to be
    /// right is no different). A request refused spends nothing of the other budget.
    func admit(_ kind: Kind, admin: Bool, by address: String, atMs nowMs: Int64) -> Admission {
        budgets.withLock { budgets in
            if admin, budgets.adminFailure.available(to: address, atMs: nowMs) < 1 { return .addressSpent }
            switch kind {
            case .search:
                guard budgets.search.available(to: address, atMs: nowMs) >= 1 else { return .addressSpent }
                guard budgets.allSearches.take(by: Self.everyone, atMs: nowMs) else { return .serverBusy }
                budgets.search.spend(1, by: address, atMs: nowMs)
            case .qrCode:
                guard budgets.search.take(by: address, atMs: nowMs) else { return .addressSpent }
            case .bulk:
                guard budgets.bulk.available(to: address, atMs: nowMs) >= 1 else { return .addressSpent }
                guard budgets.allBulk.take(by: Self.everyone, atMs: nowMs) else { return .serverBusy }
                budgets.bulk.spend(1, by: address, atMs: nowMs)
            case .request:
                guard budgets.request.take(by: address, atMs: nowMs) else { return .addressSpent }
            }
            return .admitted
        }
    }

    /// Takes one QR code to draw from the server's budget (a code not cached); whether there was one.
    func drawQRCode(atMs nowMs: Int64) -> Bool {
        budgets.withLock { $0.allQRCodes.take(by: Self.everyone, atMs: nowMs) }
    }

    /// The answer when the server's budget for a costly kind is spent.
    static var busy: Response {
        Response(status: .serviceUnavailable, headers: [.retryAfter: "1", .contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: .init(string: #"{"error":"the server is busy with requests like this one: try again in a second"}"#)))
    }

    /// The budgets' time: monotonic milliseconds.
    func nowMs() -> Int64 { clock.monotonicMs() }

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
        let nowMs = budgets.nowMs()
        switch budgets.admit(Self.kind(of: path), admin: isAdmin, by: address, atMs: nowMs) {
        case .admitted: break
        case .addressSpent:
            metrics.requestsRefused.increment()
            return Response(status: .tooManyRequests, headers: [.retryAfter: "1", .contentType: "application/json; charset=utf-8"],
                            body: .init(byteBuffer: .init(string: #"{"error":"too many requests from this address: try again in a second"}"#)))
        case .serverBusy:
            metrics.requestsRefused.increment()
            return RequestBudgets.busy
        }
        let response = try await next(request, context)
        if isAdmin, response.status == .unauthorized {
            budgets.adminFailed(by: address, atMs: nowMs)
        }
        return response
    }

    static func kind(of path: String) -> RequestBudgets.Kind {
        switch path {
        case SchoolEndpoints.searchPath: .search
        // Eight masks scored for each code not cached.
        case PageRoutes.qrPath: .qrCode
        case SchoolEndpoints.schoolsPath, "/v1/catalog", "/v1/scores": .bulk
        // A round's standings: every player who counted in it.
        case _ where path.hasPrefix("/v1/rounds/"): .bulk
        // The seasons' list (50, each with its national hall) and a season's standing (100 schools, its hall).
        case "/v1/seasons": .bulk
        case _ where path.hasPrefix("/v1/seasons/"): .bulk
        default: .request
        }
    }
}
