import Foundation
import Testing
import TouchSchoolQRCode
import TouchSchoolTestSupport
@testable import TouchSchoolServer

/// The request budgets as values: each address's own, and the server's for the costly kinds,
/// which many addresses each inside their own budgets spend together.
@Suite(.onOwnThreads) struct RequestBudgetsTests {
    static var policy: RequestBudgetPolicy {
        var policy = RequestBudgetPolicy.standard
        policy.searchesPerSecond = 10
        policy.searchBurst = 5
        policy.allSearchesPerSecond = 10
        policy.allSearchBurst = 20
        policy.allQRCodesPerSecond = 1
        policy.allQRCodeBurst = 3
        policy.bulkBurst = 2
        policy.allBulkBurst = 4
        return policy
    }

    /// What each path costs: the whole directory, catalog, board and a round's standings (every
    /// player who counted in it) are bulk; the list of rounds, like the rest, a request.
    @Test func pathsAreChargedByWhatTheyCost() {
        typealias M = RequestBudgetMiddleware<HTTPRequestContext>
        #expect(M.kind(of: "/v1/rounds/3") == .bulk && M.kind(of: "/v1/scores") == .bulk && M.kind(of: "/v1/catalog") == .bulk)
        #expect(M.kind(of: "/v1/rounds") == .request && M.kind(of: "/v1/battle") == .request)
        #expect(M.kind(of: "/v1/search") == .search)
    }

    @Test func manyAddressesInsideTheirOwnBudgetsMeetTheServersBudget() {
        let budgets = RequestBudgets(policy: Self.policy)
        // Ten addresses, two searches each, at one instant: the server's burst of 20 is all.
        for address in 0..<10 {
            for _ in 0..<2 { #expect(budgets.admit(.search, admin: false, by: "10.0.0.\(address)", atMs: 0) == .admitted) }
        }
        #expect(budgets.admit(.search, admin: false, by: "10.0.0.99", atMs: 0) == .serverBusy, "a fresh address meets the spent server")
        // 100 ms refill one search for everyone.
        #expect(budgets.admit(.search, admin: false, by: "10.0.0.99", atMs: 100) == .admitted)
        // Cheap requests are not held back by the costly kinds.
        #expect(budgets.admit(.request, admin: false, by: "10.0.0.99", atMs: 100) == .admitted)
    }

    @Test func anAddressSpendsItsOwnBudgetFirstAndARefusalSpendsNothingElse() {
        let budgets = RequestBudgets(policy: Self.policy)
        for _ in 0..<5 { #expect(budgets.admit(.search, admin: false, by: "10.0.0.1", atMs: 0) == .admitted) }
        #expect(budgets.admit(.search, admin: false, by: "10.0.0.1", atMs: 0) == .addressSpent)
        // The refusals above took nothing from the server's 20: 15 are left for others.
        for address in 2..<5 {
            for _ in 0..<5 { #expect(budgets.admit(.search, admin: false, by: "10.0.0.\(address)", atMs: 0) == .admitted) }
        }
        #expect(budgets.admit(.search, admin: false, by: "10.0.0.9", atMs: 0) == .serverBusy)
    }

    @Test func qrCodesShareTheAddressesSearchBudgetAndCodesDrawnHaveTheServersOwn() {
        let budgets = RequestBudgets(policy: Self.policy)
        // The address's search budget counts its codes: 4 searches left of 5 after one code.
        #expect(budgets.admit(.qrCode, admin: false, by: "10.0.0.5", atMs: 0) == .admitted)
        for _ in 0..<4 { #expect(budgets.admit(.search, admin: false, by: "10.0.0.5", atMs: 0) == .admitted) }
        #expect(budgets.admit(.qrCode, admin: false, by: "10.0.0.5", atMs: 0) == .addressSpent)
        // Codes drawn (not cached): the server's 3, then one a second.
        #expect((0..<4).map { _ in budgets.drawQRCode(atMs: 0) } == [true, true, true, false])
        #expect(budgets.drawQRCode(atMs: 1_000))
        // Searches have a budget of their own.
        #expect(budgets.admit(.search, admin: false, by: "10.0.0.6", atMs: 1_000) == .admitted)
    }

    /// What repeats is drawn once: the cache answers without asking the budget.
    @Test func aCachedCodeIsNotDrawnAgain() {
        let cache = QRCodeCache()
        var drawn = 0
        let first = cache.svg(for: "http://192.168.0.10:8080/") { drawn += 1; return true }
        let again = cache.svg(for: "http://192.168.0.10:8080/") { drawn += 1; return true }
        #expect(drawn == 1 && first == again)
        guard case let .svg(svg) = first else { Issue.record("no code: \(first)"); return }
        #expect(svg.hasPrefix("<svg"))
        #expect(cache.svg(for: "http://192.168.0.10:8080/other") { false } == .busy)
        #expect(cache.svg(for: String(repeating: "x", count: 500)) { true } == .tooLong)
        // The oldest drawn is the first forgotten.
        for index in 0..<QRCodeCache.capacity { _ = cache.svg(for: "http://10.0.0.1/\(index)") { true } }
        #expect(cache.svg(for: "http://192.168.0.10:8080/") { false } == .busy)
    }

    @Test func wholeDirectoriesHaveTheServersBulkBudget() {
        let budgets = RequestBudgets(policy: Self.policy)
        for address in 0..<2 {
            for _ in 0..<2 { #expect(budgets.admit(.bulk, admin: false, by: "10.0.0.\(address)", atMs: 0) == .admitted) }
            #expect(budgets.admit(.bulk, admin: false, by: "10.0.0.\(address)", atMs: 0) == .addressSpent)
        }
        #expect(budgets.admit(.bulk, admin: false, by: "10.0.0.7", atMs: 0) == .serverBusy)
    }
}

/// The costly requests' work: on one thread of its own at a lower priority; its callers go on
/// at theirs.
@Suite(.onOwnThreads) struct CostlyWorkTests {
    static func niceness() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    @Test func costlyWorkRunsOnOneNicerThreadOfItsOwn() async {
        let caller = pthread_self()
        let first = await CostlyWork.shared.run { (pthread_self(), Self.niceness()) }
        let second = await CostlyWork.shared.run { pthread_self() }
        #expect(pthread_equal(first.0, second) != 0, "one thread")
        #expect(pthread_equal(first.0, caller) == 0, "not the caller's")
        #expect(first.1 == 10)
        // The caller resumed at its own priority, and so does a thread made after it resumed.
        #expect(Self.niceness() == 0)
        let made = await withCheckedContinuation { continuation in Thread { continuation.resume(returning: Self.niceness()) }.start() }
        #expect(made == 0)
    }
}
