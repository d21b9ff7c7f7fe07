import ArgumentParser

/// What a command works with besides its arguments: the network (`NetworkCommands`) and where
/// its output goes. A value given by `runTouchSchool` to the command it parsed, not a global: a
/// test runs a command in process with a network and an output of its own.
public struct CommandContext {
    public var network: any NetworkCommands
    public var output: CommandOutput

    public init(network: any NetworkCommands, output: CommandOutput) {
        self.network = network
        self.output = output
    }
}

/// A command that works with the context. `runTouchSchool` runs it with `run(in:)`; ArgumentParser's
/// own `run()` is left to the commands that only group others (`admin`), which show their help.
protocol ContextCommand: ParsableCommand {
    func run(in context: CommandContext) throws
}
