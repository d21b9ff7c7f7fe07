import TouchSchoolClient
import TouchSchoolProtocol
import TouchSchoolCommandLine

/// The servers' URLs as the user gave them, read as addresses; a bad one is refused with what is
/// wrong with it and where it came from (`--server` or `$TOUCHSCHOOL_SERVER`).
enum ServerURLReading {
    static func addresses(_ servers: ServerURLs) throws -> (first: ServerAddress, alternates: [ServerAddress]) {
        func read(_ text: String) throws -> ServerAddress {
            do { return try ServerAddress(parsing: text) } catch { throw CommandError(NetworkCommandText.notAServerURL(servers.source, error)) }
        }
        return (try read(servers.first), try servers.alternates.map(read))
    }
}
