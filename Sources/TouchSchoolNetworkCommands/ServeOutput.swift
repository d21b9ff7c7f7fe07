import Synchronization
import TouchSchoolCommandLine

/// `serve`'s standard output at start, in the order the docs promise: the greeting (its first line
/// `touchschool serve: listening on …`, which scripts read) once every listener is up, whichever
/// is up first, so that the SSH command and its notes take their places in it.
final class ServeOutput: Sendable {
    struct Listening: Sendable {
        /// The line scripts read.
        let line: String
        let hosts: [String]
        let port: Int
    }

    private let output: CommandOutput
    private let expectsSSH: Bool
    private let compose: @Sendable (Listening, ServeGreeting.SSHListening?) -> ColouredText
    /// What has arrived, until the greeting is out.
    private let state = Mutex<(http: Listening?, ssh: ServeGreeting.SSHListening?, greeted: Bool)>((nil, nil, false))

    init(_ output: CommandOutput, expectsSSH: Bool, compose: @escaping @Sendable (Listening, ServeGreeting.SSHListening?) -> ColouredText) {
        self.output = output
        self.expectsSSH = expectsSSH
        self.compose = compose
    }

    func httpListening(_ listening: Listening) {
        greetIfComplete { $0.http = listening }
    }

    func sshListening(_ listening: ServeGreeting.SSHListening) {
        greetIfComplete { $0.ssh = listening }
    }

    private func greetIfComplete(_ arrive: (inout (http: Listening?, ssh: ServeGreeting.SSHListening?, greeted: Bool)) -> Void) {
        let ready: (Listening, ServeGreeting.SSHListening?)? = state.withLock { state in
            arrive(&state)
            guard !state.greeted, let http = state.http, !expectsSSH || state.ssh != nil else { return nil }
            state.greeted = true
            return (http, state.ssh)
        }
        guard let (http, ssh) = ready else { return }
        try? output.write(ColouredText(http.line) + compose(http, ssh))
    }
}
