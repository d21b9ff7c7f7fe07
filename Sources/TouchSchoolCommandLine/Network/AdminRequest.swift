import TouchSchoolCore

/// One of `touchschool admin`'s requests, for the network side to send.
public struct AdminRequest: Sendable {
    public var server: String
    /// The server's admin token, read from a file or the environment: never an argument.
    public var token: String
    public var action: AdminAction
}

public enum AdminAction: Sendable, Equatable {
    case devices(top: Int, json: Bool)
    case ban(id: String, removeTaps: Bool)
    case unban(id: String)
    case banAddress(String)
    case unbanAddress(String)
}

/// Where the operator's token is found besides `--token-file`.
public enum AdminTokenEnvironment {
    public static let name = "TOUCHSCHOOL_ADMIN_TOKEN"
    /// The file a server makes in its data directory at its first start.
    public static let fileName = "admin.token"
}

/// One of `touchschool round`'s requests: the operator's start and stop (with the token), and
/// the list and results anyone may read (without).
public struct RoundRequest: Sendable {
    public var server: String
    /// The admin token for `start` and `stop`; nil for `list` and `show`.
    public var token: String?
    public var action: RoundAction
    /// The language of what is printed.
    public var language: Language
}

/// One of `touchschool season`'s requests: the list and a season's standing, which anyone may read.
public struct SeasonRequest: Sendable {
    public var server: String
    public var action: SeasonAction
    /// The language of what is printed.
    public var language: Language
}

public enum SeasonAction: Sendable, Equatable {
    case list(json: Bool)
    case show(Season, json: Bool)
}

public enum RoundAction: Sendable, Equatable {
    case start(seconds: Int, title: String?, json: Bool)
    case stop(json: Bool)
    case list(json: Bool)
    /// `csv`: the players' standings as `RoundCSV` writes them, instead of tables.
    case show(id: Int64, json: Bool, csv: Bool)
}
