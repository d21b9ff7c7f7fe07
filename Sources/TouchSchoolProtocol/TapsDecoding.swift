/// The `taps` message read without JSONDecoder: every player sends one a second, and decoding
/// them was 7 % of a server's CPU at 2,000 players (BENCHMARKS.md, "Network play over views").
/// It reads only the plain form clients write — the known keys once each, strings without
/// escapes, integers without fraction or exponent — and answers nil for anything else, which
/// `MessageCoding.decodeClient` then gives to JSONDecoder: the result or the error is always
/// JSONDecoder's (a test compares the two on valid and broken messages).
enum TapsDecoding {
    static func decode(_ text: String) -> TapBatch? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            return reader.batch()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func batch() -> TapBatch? {
            var type: Bool = false
            var seq: UInt64?, taps: [String: UInt64]?, playerTaps: UInt64?, switchedTo: String??, best: Int?
            var startMs: Int64?, endMs: Int64?
            guard byte("{") else { return nil }
            repeat {
                guard let key = string(), byte(":") else { return nil }
                switch key {
                case "type":
                    guard !type, string() == "taps" else { return nil }
                    type = true
                case "seq":
                    guard seq == nil, let value = unsigned() else { return nil }
                    seq = value
                case "taps":
                    guard taps == nil, let value = schools() else { return nil }
                    taps = value
                case "playerTaps":
                    guard playerTaps == nil, let value = unsigned() else { return nil }
                    playerTaps = value
                case "switchedTo":
                    guard switchedTo == nil else { return nil }
                    if literal("null") { switchedTo = .some(nil) } else {
                        guard let value = string() else { return nil }
                        switchedTo = .some(value)
                    }
                case "best":
                    guard best == nil, let value = signed(), let int = Int(exactly: value) else { return nil }
                    best = int
                case "startMs":
                    guard startMs == nil, let value = signed() else { return nil }
                    startMs = value
                case "endMs":
                    guard endMs == nil, let value = signed() else { return nil }
                    endMs = value
                default:
                    return nil
                }
            } while byte(",")
            guard byte("}"), end(), type, let seq, let taps, let playerTaps, let best, let startMs, let endMs else { return nil }
            return TapBatch(seq: seq, taps: taps, playerTaps: playerTaps, switchedToSchool: switchedTo ?? nil,
                            bestTapsPerSecond: best, startMs: startMs, endMs: endMs)
        }

        /// `{"id": n, …}`, each id once.
        private mutating func schools() -> [String: UInt64]? {
            guard byte("{") else { return nil }
            var taps: [String: UInt64] = [:]
            if byte("}") { return taps }
            repeat {
                guard let id = string(), byte(":"), let count = unsigned(), taps.updateValue(count, forKey: id) == nil else { return nil }
            } while byte(",")
            return byte("}") ? taps : nil
        }

        private mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        /// The next byte, after whitespace, if it is `expected` (taken).
        private mutating func byte(_ expected: Unicode.Scalar) -> Bool {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: expected) else { return false }
            at += 1
            return true
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            skipSpace()
            let count = word.utf8CodeUnitCount
            guard bytes.count - at >= count,
                  (0..<count).allSatisfy({ bytes[at + $0] == word.utf8Start[$0] }) else { return false }
            at += count
            return true
        }

        private mutating func end() -> Bool {
            skipSpace()
            return at == bytes.count
        }

        /// A string without escapes or control characters, as valid UTF-8.
        private mutating func string() -> String? {
            guard byte("\"") else { return nil }
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
                guard bytes[at] >= 0x20, bytes[at] != UInt8(ascii: "\\") else { return nil }
                at += 1
            }
            guard at < bytes.count else { return nil }
            let body = UnsafeBufferPointer(rebasing: bytes[start..<at])
            at += 1
            return String(validating: body, as: UTF8.self)
        }

        /// `0` or `[1-9][0-9]*`, up to 18 digits (anything longer goes to JSONDecoder).
        private mutating func unsigned() -> UInt64? {
            skipSpace()
            return digits()
        }

        private mutating func signed() -> Int64? {
            skipSpace()
            let negative = at < bytes.count && bytes[at] == UInt8(ascii: "-")
            if negative { at += 1 }
            guard let magnitude = digits(), !(negative && magnitude == 0) else { return nil }
            return negative ? -Int64(magnitude) : Int64(magnitude)
        }

        private mutating func digits() -> UInt64? {
            let start = at
            var value: UInt64 = 0
            while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
                value = value &* 10 &+ UInt64(bytes[at] - UInt8(ascii: "0"))
                at += 1
            }
            let count = at - start
            guard count >= 1, count <= 18, count == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            // A fraction or an exponent follows: not a plain integer.
            if at < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[at]) { return nil }
            return value
        }
    }
}
