import TouchSchoolServer
import Crypto
import Foundation
import NIOCore
import NIOSSH
import Synchronization
import TouchSchoolOutbox

/// Who an SSH client plays as. The public key it proves it holds is its device: the same key
/// comes back to its school and its taps, from any machine. A client without a key plays as a
/// player of that session only.
enum SSHPlayerIdentity: Sendable, Equatable {
    case key(NIOSSHPublicKey, user: String)
    case sessionOnly(user: String)

    var user: String {
        switch self {
        case let .key(_, user), let .sessionOnly(user): user
        }
    }

    /// In without a key: the device lasts as long as the session.
    var isSessionOnly: Bool {
        if case .sessionOnly = self { true } else { false }
    }

    /// The device key this identity plays with (`BattleRules.isValidDeviceKey`: 43 base64url
    /// characters). From a public key, a keyed hash whose key is the server's host key: the
    /// same public key is the same device at every start, yet nobody who knows a player's
    /// public key (public by nature: GitHub lists everyone's) can compute the device key and
    /// play as them over the WebSocket protocol.
    func deviceKey(hostKey: SSHHostKey) -> String {
        switch self {
        case let .key(key, _):
            let secret = SymmetricKey(data: hostKey.key.rawRepresentation)
            let code = HMAC<SHA256>.authenticationCode(for: Self.domain + SSHKeys.wireBytes(of: key), using: secret)
            return DeviceKey.encode(Array(code))
        case .sessionOnly:
            return DeviceKey.generate()
        }
    }

    /// Keeps this use of the host key apart from any other.
    private static let domain = Array("touchschool ssh device\u{0}".utf8)
}

/// The user authentication of one SSH connection: a public key (its signature checked by
/// NIOSSH) is accepted and becomes the player's identity; so is any password, for a client with
/// no key. "none" is refused so that a client offers its keys first (OpenSSH asks for a password
/// only when it has none to offer). Remembers whom it let in, for the connection's session.
final class SSHPlayerAuthentication: NIOSSHServerUserAuthenticationDelegate, Sendable {
    private let accepted = Mutex<SSHPlayerIdentity?>(nil)

    var identity: SSHPlayerIdentity? { accepted.withLock { $0 } }

    var supportedAuthenticationMethods: NIOSSHAvailableUserAuthenticationMethods { [.publicKey, .password] }

    func requestReceived(request: NIOSSHUserAuthenticationRequest,
                         responsePromise: EventLoopPromise<NIOSSHUserAuthenticationOutcome>) {
        let identity: SSHPlayerIdentity
        switch request.request {
        case let .publicKey(offer):
            identity = .key(offer.publicKey, user: request.username)
        case .password:
            identity = .sessionOnly(user: request.username)
        default:
            responsePromise.succeed(.failure)
            return
        }
        accepted.withLock { $0 = identity }
        responsePromise.succeed(.success)
    }
}
