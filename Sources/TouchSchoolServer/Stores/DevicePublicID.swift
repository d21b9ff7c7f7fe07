import Crypto

/// The name the operator knows a device by: a hash of its key, never the key itself (whoever
/// holds a key can play as that device).
enum DevicePublicID {
    /// The first 12 bytes of the key's SHA-256, as 24 hex digits: unique enough among devices,
    /// short enough to type.
    static func of(_ key: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in SHA256.hash(data: Array(key.utf8)).prefix(12) {
            text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func isValid(_ id: String) -> Bool {
        id.utf8.count == 24 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
