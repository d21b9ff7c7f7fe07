import ArgumentParser
import TouchSchoolCore

/// `touchschool round`: a round for a class on a running server (docs/operations.md, "A round for
/// a class"): the operator starts and stops one with the admin token; anyone lists the rounds and
/// reads one's results.
struct RoundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "round",
        abstract: CommandText.roundAbstract,
        discussion: CommandText.roundDiscussion,
        subcommands: [RoundStartCommand.self, RoundStopCommand.self, RoundListCommand.self, RoundShowCommand.self, RoundLinkCommand.self])
}

/// The seconds a round lasts, in `Round.seconds`.
struct RoundSeconds: ExpressibleByArgument {
    let value: Int

    init?(argument: String) {
        guard let value = Int(argument), Round.seconds.contains(value) else { return nil }
        self.value = value
    }
}

struct RoundStartCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "start", abstract: CommandText.roundStartAbstract)

    @Option(help: ArgumentHelp(CommandText.roundSecondsHelp, valueName: "n"))
    var seconds: RoundSeconds

    @Option(help: ArgumentHelp(CommandText.roundTitleHelp, valueName: "title"))
    var title: String?

    @Flag(help: ArgumentHelp(CommandText.roundJSONHelp))
    var json = false

    @OptionGroup var connection: AdminConnectionOptions

    func validate() throws {
        // The server's rule, checked before anything is sent.
        guard Round.title(title).valid else { throw ValidationError(CommandText.roundTitleRefused) }
    }

    func run(in context: CommandContext) throws {
        let (server, token) = try connection.serverAndToken()
        try context.output.write(try context.network.round(RoundRequest(
            server: server, token: token,
            action: .start(seconds: seconds.value, title: Round.title(title).title, json: json), language: commandLanguage)))
    }
}

struct RoundStopCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: CommandText.roundStopAbstract)

    @Flag(help: ArgumentHelp(CommandText.roundJSONHelp))
    var json = false

    @OptionGroup var connection: AdminConnectionOptions

    func run(in context: CommandContext) throws {
        let (server, token) = try connection.serverAndToken()
        try context.output.write(try context.network.round(RoundRequest(server: server, token: token,
                                                                        action: .stop(json: json), language: commandLanguage)))
    }
}

struct RoundListCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: CommandText.roundListAbstract)

    @Flag(help: ArgumentHelp(CommandText.roundJSONHelp))
    var json = false

    @Option(help: ArgumentHelp(CommandText.adminServerHelp, valueName: "url"))
    var server: String?

    func run(in context: CommandContext) throws {
        try context.output.write(try context.network.round(RoundRequest(server: try AdminConnectionOptions.server(server), token: nil,
                                                                        action: .list(json: json), language: commandLanguage)))
    }
}

struct RoundShowCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: CommandText.roundShowAbstract)

    @Argument(help: ArgumentHelp(CommandText.roundIDHelp, valueName: "id"))
    var id: RoundID

    @Flag(help: ArgumentHelp(CommandText.roundJSONHelp))
    var json = false

    @Flag(help: ArgumentHelp(CommandText.roundCSVHelp))
    var csv = false

    @Option(help: ArgumentHelp(CommandText.adminServerHelp, valueName: "url"))
    var server: String?

    func validate() throws {
        guard !(json && csv) else { throw ValidationError(CommandText.roundJSONOrCSV) }
    }

    func run(in context: CommandContext) throws {
        try context.output.write(try context.network.round(RoundRequest(server: try AdminConnectionOptions.server(server), token: nil,
                                                                        action: .show(id: id.value, json: json, csv: csv),
                                                                        language: commandLanguage)))
    }
}

/// A round's id as `round list` shows it: a whole number from 1.
struct RoundID: ExpressibleByArgument {
    let value: Int64

    init?(argument: String) {
        guard let value = Int64(argument), value > 0 else { return nil }
        self.value = value
    }
}

/// The projector's address with the round controls: the board with the admin token in the
/// fragment (`#admin=TOKEN`), which a browser never sends to the server and the page takes out of
/// its address at once. Printed in the teacher's terminal, to open on the teacher's machine;
/// nothing is asked of the server.
struct RoundLinkCommand: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "link", abstract: CommandText.roundLinkAbstract)

    @OptionGroup var connection: AdminConnectionOptions

    func run(in context: CommandContext) throws {
        let (server, token) = try connection.serverAndToken()
        let lowered = server.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { throw ValidationError(CommandText.roundLinkNeedsHTTP) }
        var base = Substring(server)
        while base.hasSuffix("/") { base = base.dropLast() }
        // The token is base64url (the server's own) or whatever the operator chose: escaped so
        // that the fragment holds it whole.
        let escaped = token.utf8.map(Self.fragmentCharacter).joined()
        try context.output.write("\(base)/?board#admin=\(escaped)\n")
        context.output.writeError(CommandText.roundLinkIsTheTeachers + "\n")
    }

    /// A byte of the token as the fragment holds it: letters, digits, `-` and `_` as they are,
    /// anything else percent-escaped.
    static func fragmentCharacter(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "-"), UInt8(ascii: "_"):
            return String(UnicodeScalar(byte))
        default:
            let hex = Array("0123456789ABCDEF")
            return "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
        }
    }
}

