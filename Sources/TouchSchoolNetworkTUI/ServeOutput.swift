import Synchronization
import TouchSchoolCommandLine

/// `serve`'s standard output at start, in the order the docs promise: the greeting (its first line
/// `touchschool serve: listening on …`, which scripts read) before anything else, whichever
/// listener is up first.
final class ServeOutput: Sendable {
    private let output: CommandOutput
    /// Whether the greeting is out, and what waits for it.
    private let state = Mutex<(greeted: Bool, waiting: [String])>((false, []))

    init(_ output: CommandOutput) { self.output = output }

    /// Prints the greeting, then what waited for it.
    func greet(_ text: String) {
        let waiting = state.withLock { state in
            state.greeted = true
            defer { state.waiting = [] }
            return state.waiting
        }
        try? output.write(([text] + waiting).joined())
    }

    /// Prints `text` now if the greeting is out, else right after it.
    func afterGreeting(_ text: String) {
        let now = state.withLock { state in
            if !state.greeted { state.waiting.append(text) }
            return state.greeted
        }
        if now { try? output.write(text) }
    }
}
