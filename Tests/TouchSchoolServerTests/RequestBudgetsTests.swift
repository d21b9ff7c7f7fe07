import Testing
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

    @Test func qrCodesShareTheAddressesSearchBudgetAndHaveTheServersOwn() {
        let budgets = RequestBudgets(policy: Self.policy)
        for address in 0..<3 { #expect(budgets.admit(.qrCode, admin: false, by: "10.0.0.\(address)", atMs: 0) == .admitted) }
        #expect(budgets.admit(.qrCode, admin: false, by: "10.0.0.4", atMs: 0) == .serverBusy)
        // Searches have budget left: a separate one.
        #expect(budgets.admit(.search, admin: false, by: "10.0.0.4", atMs: 0) == .admitted)
        // The address's search budget counts its codes: 4 left of 5 after one code.
        #expect(budgets.admit(.qrCode, admin: false, by: "10.0.0.5", atMs: 1_000) == .admitted)
        for _ in 0..<4 { #expect(budgets.admit(.search, admin: false, by: "10.0.0.5", atMs: 1_000) == .admitted) }
        #expect(budgets.admit(.search, admin: false, by: "10.0.0.5", atMs: 1_000) == .addressSpent)
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
