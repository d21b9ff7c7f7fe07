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
