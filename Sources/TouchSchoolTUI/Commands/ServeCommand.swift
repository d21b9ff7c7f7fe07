import ArgumentParser
import Foundation
import TouchSchoolStarterCatalog
import TouchSchoolStore
import TouchSchoolServer

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a battle server for players on other machines (`touchschool play --server URL`).",
        discussion: """
            Needs no setup: the scores live in the data directory, in the same saved state as local \
            play, and the catalog served is the directory's imported list, else the starter catalog. \
            Prints one line with the address it listens on (with --port 0, the port chosen). \
            SIGTERM or Ctrl-C: saves and acknowledges what arrived, closes every connection, exits 0. \
            The protocol: docs/protocol.md. Logs go to standard error ($LOG_LEVEL: trace … critical).
            """)

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on (0: any free port).", valueName: "port"))
    var port = 8080

    @Option(help: .hidden)
    var connectionsPerAddress = AddressLimitPolicy.standard.connectionsPerAddress

    @Option(help: .hidden)
    var devicesPerAddress = AddressLimitPolicy.standard.devicesPerAddressPerHour

    @OptionGroup var data: DataDirectoryOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() throws {
        let directory = data.directory
        do { try DataDirectory.prepare(directory) } catch { throw CommandError("cannot use the data directory \(directory): \(error)") }
        let imported = CatalogFile.importedCatalogPath(inDataDirectory: directory)
        let catalogPath: String
        if FileIO.exists(imported) {
            catalogPath = imported
        } else if let starter = StarterCatalog.path {
            catalogPath = starter
        } else {
            throw CommandError("the starter catalog is missing from the installation")
        }
        let configuration = ServerConfiguration(
            host: host, port: port, dataDirectory: directory, catalogPath: catalogPath,
            limits: AddressLimitPolicy(connectionsPerAddress: connectionsPerAddress, devicesPerAddressPerHour: devicesPerAddress))
        do {
            try TouchSchoolServer.runBlocking(configuration, logLevel: ProcessInfo.processInfo.environment["LOG_LEVEL"]) { host, port in
                let shown = host.contains(":") ? "[\(host)]" : host
                try? StandardStreams.write("touchschool serve: listening on http://\(shown):\(port) (data: \(directory))\n")
            }
        } catch let error as ServerError {
            throw CommandError(error.description)
        }
    }
}
