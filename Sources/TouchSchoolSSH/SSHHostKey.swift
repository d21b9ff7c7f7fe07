#if canImport(Glibc)
import TouchSchoolServer
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import Foundation
import NIOSSH

/// The server's SSH host key: an Ed25519 key made once in the data directory
/// (`ssh_host_ed25519_key`, mode 0600) and the same at every start, so that players' clients
/// recognize the server. Its fingerprint is printed at start, in the form `ssh` shows when it
/// asks a player whether to trust the server.
struct SSHHostKey: Sendable {
    static let fileName = "ssh_host_ed25519_key"
    /// The file's one line: this tag and the key's 32 bytes in base64. (Not OpenSSH's format:
    /// nothing but this server reads it.)
    static let tag = "touchschool-ssh-ed25519"

    let key: Curve25519.Signing.PrivateKey

    var privateKey: NIOSSHPrivateKey { NIOSSHPrivateKey(ed25519Key: key) }

    /// `SHA256:…` of the public key, as `ssh` and `ssh-keygen -l` print it.
    var fingerprint: String { SSHKeys.fingerprint(of: privateKey.publicKey) }

    /// The key kept in `directory`, made there first if there is none. A key that others than
    /// the server's user may read is refused, as sshd refuses it: anyone who has it can pose as
    /// the server.
    static func loadOrCreate(dataDirectory directory: String) throws -> SSHHostKey {
        let path = "\(directory)/\(fileName)"
        if let key = try load(path) { return key }
        let key = SSHHostKey(key: Curve25519.Signing.PrivateKey())
        try create(path, text: "\(tag) \(key.key.rawRepresentation.base64EncodedString())\n")
        // Another server starting on the same directory at the same moment made it first: its key wins.
        return try load(path) ?? key
    }

    private static func load(_ path: String) throws -> SSHHostKey? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard errno == ENOENT else { throw ServerError(description: "cannot read the SSH host key \(path): \(String(cString: strerror(errno)))") }
            return nil
        }
        guard status.st_mode & 0o077 == 0 else {
            throw ServerError(description: "the SSH host key \(path) may be read by others than its owner: `chmod 600 \(path)`")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ServerError(description: "cannot read the SSH host key \(path)")
        }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, fields[0] == tag, let bytes = Data(base64Encoded: String(fields[1])),
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: bytes) else {
            throw ServerError(description: "\(path) is not an SSH host key of touchschool; move it away to make a new one (players' clients will then warn that the server's key changed)")
        }
        return SSHHostKey(key: key)
    }

    /// Written under another name, then linked into place: the key appears whole or not at all,
    /// and an existing one is never replaced.
    private static func create(_ path: String, text: String) throws {
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ServerError(description: "cannot create \(temporary): \(String(cString: strerror(errno)))") }
        defer { unlink(temporary) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else { throw ServerError(description: "cannot write \(temporary)") }
        guard link(temporary, path) == 0 || errno == EEXIST else {
            throw ServerError(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }
}

/// What the server reads from the public keys of SSH clients and of itself.
enum SSHKeys {
    /// The key as SSH sends it (its "wire" encoding): the base64 field of its OpenSSH line.
    static func wireBytes(of key: NIOSSHPublicKey) -> [UInt8] {
        let line = String(openSSHPublicKey: key)
        let fields = line.split(separator: " ")
        guard fields.count >= 2, let bytes = Data(base64Encoded: String(fields[1])) else { return Array(line.utf8) }
        return Array(bytes)
    }

    /// `SHA256:` and the unpadded base64 of the SHA-256 of the wire bytes, as OpenSSH prints it.
    static func fingerprint(of key: NIOSSHPublicKey) -> String {
        let digest = Data(SHA256.hash(data: wireBytes(of: key))).base64EncodedString()
        return "SHA256:" + digest.replacingOccurrences(of: "=", with: "")
    }
}
