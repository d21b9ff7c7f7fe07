/// Why a server did not answer, in the few kinds a player can act on; the words are the view's.
public enum ServerFailure: Equatable, Sendable {
    /// Nothing listens at the address: the server is not running (or on another port).
    case refused
    /// No route to the host, or its name is not known: the network, or a mistyped address.
    case unreachable
    /// The host took no connection in time: switched off, or a firewall dropping it.
    case timedOut
    /// The address was given as `https://` (or `wss://`), and the server there speaks plain HTTP.
    case plainHTTP
    /// An SSH server answers there: the port of `serve --ssh-port`, not its HTTP port.
    case sshServer
    /// Anything else, in the system's words (shown escaped, as all text from outside).
    case other(String)
}

/// Why the server answered and would not take this game, in the kinds it says (its close codes):
/// the game keeps its taps and tries again, since the operator can change each.
public enum ServerRefusal: Equatable, Sendable {
    /// The operator banned the address the game connects from.
    case bannedAddress
    /// The battle holds as many devices as its server allows; this one is new to it.
    case battleFull
    /// More connections or devices from this address than the server allows.
    case tooManyFromAddress
}
