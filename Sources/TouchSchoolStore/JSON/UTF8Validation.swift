/// Checking UTF-8 without the standard library's `String(validating:as:)`, which is generic and
/// not specialized: resolving its type metadata on every call cost more than the copy itself and
/// made reading the 12,011-school catalog several times slower.
enum UTF8Validation {
    /// The offset of the first byte that is not well-formed UTF-8 (Unicode Table 3-7), or nil.
    static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            var second: ClosedRange<UInt8> = 0x80...0xBF
            let length: Int
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; second = 0xA0...0xBF
            case 0xED: length = 3; second = 0x80...0x9F
            case 0xE1...0xEF: length = 3
            case 0xF0: length = 4; second = 0x90...0xBF
            case 0xF4: length = 4; second = 0x80...0x8F
            case 0xF1...0xF3: length = 4
            default: return index
            }
            guard index + length <= count, second.contains(bytes[index + 1]) else { return index }
            for continuation in 2..<length where !(0x80...0xBF).contains(bytes[index + continuation]) { return index }
            index += length
        }
        return nil
    }

    /// The bytes as a `String`, or nil when they are not well-formed UTF-8.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        firstInvalidOffset(bytes) == nil ? String(decoding: bytes, as: UTF8.self) : nil
    }
}
