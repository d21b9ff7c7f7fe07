import Crypto
import Foundation
import TouchSchoolStore

/// The operator's token for the admin API (`/v1/admin/`). In order: the file given with
/// `--admin-token-file` or `$TOUCHSCHOOL_ADMIN_TOKEN` (servers sharing one PostgreSQL share one
/// token so), else the data directory's `admin.token`, made at the first start: 32 random bytes
/// as base64url, mode 0600. Never taken from the command line, never logged.
struct AdminToken: Sendable {
    static let fileName = "admin.token"
    /// Shorter tokens are refused: a token is the key to every player's record.
    static let minimumLength = 32

    /// The token's hash: compared with the hash of what a request presents, in constant time.
    private let digest: SHA256.Digest

    init(_ token: String) throws(AdminTokenError) {
        guard token.utf8.count >= Self.minimumLength else {
            throw AdminTokenError(message: "the admin token must be at least \(Self.minimumLength) characters")
        }
        digest = SHA256.hash(data: Array(token.utf8))
    }

    static func path(inDataDirectory directory: String) -> String { "\(directory)/\(fileName)" }

    /// The token from `file`, else `environment`, else the data directory's file (made when missing).
    static func load(file: String?, environment: String?, dataDirectory: String) throws(AdminTokenError) -> AdminToken {
        if let file { return try AdminToken(read(file)) }
        if let environment, !environment.isEmpty { return try AdminToken(environment) }
        let path = path(inDataDirectory: dataDirectory)
        if !FileIO.exists(path) { try create(path) }
        return try AdminToken(read(path))
    }

    /// Whether `presented` is the token; takes the same time whatever it is (hashes of equal
    /// length compared without stopping early).
    func matches(_ presented: String) -> Bool {
        let other = SHA256.hash(data: Array(presented.utf8))
        var difference: UInt8 = 0
        for (a, b) in zip(digest, other) { difference |= a ^ b }
        return difference == 0
    }

    private static func read(_ path: String) throws(AdminTokenError) -> String {
        do {
            let bytes = try FileIO.read(path, limit: 4096)
            return String(decoding: bytes.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        } catch {
            throw AdminTokenError(message: "cannot read the admin token file \(path): \(error)")
        }
    }

    /// 32 random bytes as base64url, in a file made with mode 0600 (never readable by others,
    /// not even for a moment), and only if no other server made it first.
    private static func create(_ path: String) throws(AdminTokenError) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if descriptor < 0 {
            if errno == EEXIST { return }
            throw AdminTokenError(message: "cannot make the admin token file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let line = Array((token + "\n").utf8)
        guard write(descriptor, line, line.count) == line.count, fsync(descriptor) == 0 else {
            unlink(path)
            throw AdminTokenError(message: "cannot write the admin token file \(path): \(String(cString: strerror(errno)))")
        }
    }
}

struct AdminTokenError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
