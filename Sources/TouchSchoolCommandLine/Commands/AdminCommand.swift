import ArgumentParser
import TouchSchoolStore

/// `touchschool admin`: the operator's tools over a server's admin API (docs/operations.md,
/// "Cheaters"): see the devices by their taps, ban one (and take its taps off), lift a ban.
struct AdminCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: CommandText.adminAbstract,
        discussion: CommandText.adminDiscussion,
        subcommands: [AdminDevicesCommand.self, AdminBanCommand.self, AdminUnbanCommand.self,
                      AdminBanAddressCommand.self, AdminUnbanAddressCommand.self])
}

/// The server and the token, which every admin command needs.
struct AdminConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp(CommandText.adminServerHelp, valueName: "url"))
    var server: String?

    @Option(name: .customLong("token-file"), help: ArgumentHelp(CommandText.tokenFileHelp, valueName: "file"),
            completion: .file())
    var tokenFile: String?

    @OptionGroup var data: DataDirectoryOptions

    func request(_ action: AdminAction) throws -> AdminRequest {
        let (server, token) = try serverAndToken()
        return AdminRequest(server: server, token: token, action: action)
    }

    func serverAndToken() throws -> (server: String, token: String) {
        (try Self.server(server), try token(environment: ProcessEnvironment.current))
    }

    /// The server named with `--server`, else `$TOUCHSCHOOL_SERVER`. What is missing is said
    /// without the usage a `ValidationError` brings: the arguments were right.
    static func server(_ option: String?) throws -> String {
        let environment = ProcessEnvironment.current
        guard let server = option ?? environment["TOUCHSCHOOL_SERVER"].flatMap({ $0.trimmingSpaces.isEmpty ? nil : String($0.trimmingSpaces) }) else {
            throw CommandError(CommandText.nameTheServer)
        }
        return server
    }

    private func token(environment: [String: String]) throws -> String {
        if let tokenFile { return try Self.read(tokenFile, what: CommandText.tokenSource(option: true)) }
        if let value = environment[AdminTokenEnvironment.name], !value.trimmingSpaces.isEmpty { return String(value.trimmingSpaces) }
        let path = "\(data.directory)/\(AdminTokenEnvironment.fileName)"
        guard FileIO.exists(path) else {
            if let owner = TokenOwner.barring(path) { throw CommandError(CommandText.tokenOfAnotherUser(path, owner: owner)) }
            throw CommandError(CommandText.noAdminToken(environment: AdminTokenEnvironment.name, fileName: AdminTokenEnvironment.fileName))
        }
        return try Self.read(path, what: CommandText.tokenSource(option: false))
    }

    private static func read(_ path: String, what: String) throws -> String {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: 4096) } catch { throw CommandError(CommandText.cannotReadToken(what, path, "\(error)")) }
        let token = String(String(decoding: bytes.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self).trimmingSpaces)
        guard !token.isEmpty else { throw CommandError(CommandText.tokenFileEmpty(what, path)) }
        return token
    }
}

struct AdminDevicesCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: CommandText.adminDevicesAbstract)

    @Option(parsing: .unconditional, help: ArgumentHelp(CommandText.devicesTopHelp, valueName: "n"))
    var top = PositiveCount(20)

    @Flag(help: ArgumentHelp(CommandText.devicesJSONHelp))
    var json = false

    @OptionGroup var connection: AdminConnectionOptions

    func run(in context: CommandContext) throws {
        try context.output.write(try context.network.admin(try connection.request(.devices(top: top.value, json: json))))
    }
}

struct AdminBanCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "ban", abstract: CommandText.banAbstract)

    @Argument(help: ArgumentHelp(CommandText.deviceIDHelp, valueName: "id"))
    var id: String

    @Flag(name: .customLong("remove-taps"), help: ArgumentHelp(CommandText.removeTapsHelp))
    var removeTaps = false

    @OptionGroup var connection: AdminConnectionOptions

    func run(in context: CommandContext) throws { try context.output.write(try context.network.admin(try connection.request(.ban(id: id, removeTaps: removeTaps)))) }
}

struct AdminUnbanCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "unban", abstract: CommandText.unbanAbstract)

    @Argument(help: ArgumentHelp(CommandText.deviceIDHelp, valueName: "id"))
    var id: String

    @OptionGroup var connection: AdminConnectionOptions

    func run(in context: CommandContext) throws { try context.output.write(try context.network.admin(try connection.request(.unban(id: id)))) }
}

struct AdminBanAddressCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "ban-address", abstract: CommandText.banAddressAbstract)

    @Argument(help: ArgumentHelp(CommandText.addressHelp, valueName: "address"))
    var address: String

    @OptionGroup var connection: AdminConnectionOptions

    func run(in context: CommandContext) throws { try context.output.write(try context.network.admin(try connection.request(.banAddress(address)))) }
}

struct AdminUnbanAddressCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "unban-address", abstract: CommandText.unbanAddressAbstract)

    @Argument(help: ArgumentHelp(CommandText.addressHelp, valueName: "address"))
    var address: String

    @OptionGroup var connection: AdminConnectionOptions

    func run(in context: CommandContext) throws { try context.output.write(try context.network.admin(try connection.request(.unbanAddress(address)))) }
}
