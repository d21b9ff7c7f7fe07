import ArgumentParser

/// `--server URL`: play on, or read from, a `touchschool serve` instead of the data directory's
/// own battle; `$TOUCHSCHOOL_SERVER` when the option is not given. The URLs are read by the
/// network side (`NetworkCommands`), which says what is wrong with one.
struct ServerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(CommandText.serverHelp, valueName: "url"))
    var server: [String] = []

    /// The servers named by the option, else by the environment; nil for the local battle.
    func urls(environment: [String: String]) -> ServerURLs? {
        if let first = server.first { return ServerURLs(first: first, alternates: Array(server.dropFirst()), source: "--server") }
        guard let text = environment["TOUCHSCHOOL_SERVER"], !text.trimmingSpaces.isEmpty else { return nil }
        return ServerURLs(first: text, alternates: [], source: "TOUCHSCHOOL_SERVER")
    }
}
