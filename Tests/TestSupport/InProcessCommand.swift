import Synchronization
import TouchSchoolCommandLine

/// A command run in process through `runTouchSchool`, the executables' own entry point, with its
/// output kept instead of written: the exit status and what was printed on each stream.
public struct InProcessCommand: Sendable {
    public var status: Int32
    public var output: String
    public var error: String

    /// Runs `touchschool ARGUMENTS` with `network`. Blocks the calling thread for as long as the
    /// command does (the network's commands wait for their requests on it): run from a suite
    /// with `.onOwnThreads`.
    public static func run(_ arguments: [String], network: any NetworkCommands) -> InProcessCommand {
        let streams = Streams()
        let status = runTouchSchool(arguments: arguments, network: network, output: CommandOutput(
            standard: { text in streams.text.withLock { $0.output += text } },
            error: { text in streams.text.withLock { $0.error += text } }))
        let (output, error) = streams.text.withLock { ($0.output, $0.error) }
        return InProcessCommand(status: status, output: output, error: error)
    }

    private final class Streams: Sendable {
        let text = Mutex((output: "", error: ""))
    }
}
