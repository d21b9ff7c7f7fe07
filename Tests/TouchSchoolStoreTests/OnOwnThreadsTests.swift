import Foundation
import Testing
import TouchSchoolTestSupport

/// `.onOwnThreads` (the tests of real processes rely on it): a test's body and its child tasks
/// run on threads it starts, never on the cooperative pool's.
@Suite(.onOwnThreads) struct OnOwnThreadsTests {
    /// Whether the caller runs on a thread of the trait's (`Thread.current` is for synchronous code).
    static func onOwnThread() -> Bool { ThreadPerJobExecutor.runsTheCaller }

    @Test func aSynchronousBodyRunsOnAThreadOfItsOwn() {
        #expect(Self.onOwnThread())
    }

    @Test func anAsynchronousBodyAndItsChildTasksToo() async {
        try? await Task.sleep(for: .milliseconds(1))
        #expect(Self.onOwnThread())
        let children = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 { group.addTask { Self.onOwnThread() } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(children == [true, true, true, true])
    }
}

/// Without the trait a test runs on the cooperative pool: what the test above checks can fail.
@Suite struct WithoutOnOwnThreadsTests {
    @Test func aSynchronousBodyRunsOnThePool() {
        #expect(!ThreadPerJobExecutor.runsTheCaller)
    }
}
