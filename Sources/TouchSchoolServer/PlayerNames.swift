import TouchSchoolCore

/// Names and keys as players send them, made safe to keep and to show.
enum PlayerNames {
    /// Longest display name kept, in characters.
    static let maximumLength = 32

    /// Controls and escape sequences removed (`VisibleText`), spaces collapsed, at most
    /// `maximumLength` characters; "player" when nothing is left.
    static func clean(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in name.unicodeScalars {
            if VisibleText.isControl(scalar) || scalar.properties.isWhitespace {
                if !lastWasSpace { scalars.append(" ") }
                lastWasSpace = true
                continue
            }
            scalars.append(scalar)
            lastWasSpace = false
        }
        var text = String(scalars)
        while text.last == " " { text.removeLast() }
        if text.count > maximumLength { text = String(text.prefix(maximumLength)) }
        return text.isEmpty ? "player" : text
    }

    /// A device key: 22 to 64 base64url characters (the client makes 43: 32 random bytes).
    static func isValidDeviceKey(_ key: String) -> Bool {
        (22...64).contains(key.utf8.count) && key.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
