import ArgumentParser
import Foundation
import TouchSchoolClient

/// `--server URL`: play on, or read from, a `touchschool serve` instead of the data directory's
/// own battle; `$TOUCHSCHOOL_SERVER` when the option is not given.
struct ServerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Use the battle of the server at this URL: http://host:port, https://, ws:// or wss:// (default: $TOUCHSCHOOL_SERVER, else the local battle). Given more than once (servers sharing one battle), a game moves to the next when one fails.",
        valueName: "url"))
    var server: [ServerURL] = []

    /// The other servers of the same battle, after the first `--server`.
    var alternates: [ServerAddress] { server.dropFirst().map(\.address) }

    /// The (first) server named by the option, else by the environment; nil for the local battle.
    func address(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerAddress? {
        if let server = server.first { return server.address }
        guard let text = environment["TOUCHSCHOOL_SERVER"], !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        do {
            return try ServerAddress(parsing: text)
        } catch {
            throw CommandError("TOUCHSCHOOL_SERVER is \(error)")
        }
    }
}

/// A server's URL as an option's value; a bad one is refused before the command runs.
struct ServerURL: ExpressibleByArgument {
    let address: ServerAddress

    init?(argument: String) {
        guard let address = try? ServerAddress(parsing: argument) else { return nil }
        self.address = address
    }
}
