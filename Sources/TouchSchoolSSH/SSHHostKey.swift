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
    static func loadOrCreate(dataDirectory directory: String, text: SSHText) throws -> SSHHostKey {
        let path = "\(directory)/\(fileName)"
        if let key = try load(path, text: text) { return key }
        let key = SSHHostKey(key: Curve25519.Signing.PrivateKey())
        try create(path, contents: "\(tag) \(key.key.rawRepresentation.base64EncodedString())\n", text: text)
        // Another server starting on the same directory at the same moment made it first: its key wins.
        return try load(path, text: text) ?? key
    }

    private static func load(_ path: String, text: SSHText) throws -> SSHHostKey? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard errno == ENOENT else { throw ServerError(description: text.cannotReadHostKey(path, reason: String(cString: strerror(errno)))) }
            return nil
        }
        guard status.st_mode & 0o077 == 0 else { throw ServerError(description: text.hostKeyReadableByOthers(path)) }
        guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ServerError(description: text.cannotReadHostKey(path, reason: nil))
        }
        let fields = contents.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, fields[0] == tag, let bytes = Data(base64Encoded: String(fields[1])),
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: bytes) else {
            throw ServerError(description: text.notAHostKey(path))
        }
        return SSHHostKey(key: key)
    }

    /// Written under another name, then linked into place: the key appears whole or not at all,
    /// and an existing one is never replaced.
    private static func create(_ path: String, contents: String, text: SSHText) throws {
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ServerError(description: text.cannotCreate(temporary, reason: String(cString: strerror(errno)))) }
        defer { unlink(temporary) }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else { throw ServerError(description: text.cannotWrite(temporary)) }
        guard link(temporary, path) == 0 || errno == EEXIST else {
            throw ServerError(description: text.cannotCreate(path, reason: String(cString: strerror(errno))))
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
