enum SearchText {
    /// The scalars of `normalize`: letters and digits only, lower case, Hangul composed.
    static func units<Text: StringProtocol>(of text: Text) -> [UInt32] {
        var units: [UInt32] = []
        appendUnits(of: text, to: &units)
        return units
    }

    static func appendUnits<Text: StringProtocol>(of text: Text, to units: inout [UInt32]) {
        let start = units.count
        var hasConjoiningJamo = false
        // Decoding the UTF-8 by hand keeps building the index over 12,000 schools to a few ms.
        let decoded: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var index = 0
            while index < bytes.count {
                let lead = UInt32(bytes[index])
                let value: UInt32
                switch lead {
                case ..<0x80:
                    value = lead
                    index += 1
                case ..<0xE0:
                    value = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                    index += 2
                case ..<0xF0:
                    value = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                    index += 3
                default:
                    value = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                        | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                    index += 4
                }
                appendUnits(of: value, to: &units, hasConjoiningJamo: &hasConjoiningJamo)
            }
        }
        if decoded == nil {
            for scalar in text.unicodeScalars { appendUnits(of: scalar.value, to: &units, hasConjoiningJamo: &hasConjoiningJamo) }
        }
        if hasConjoiningJamo {
            units.replaceSubrange(start..., with: Hangul.composeConjoining(Array(units[start...])))
        }
    }

    @inline(__always)
    private static func appendUnits(of scalar: UInt32, to units: inout [UInt32], hasConjoiningJamo: inout Bool) {
        var value = scalar
        if value < 0x80 {
            // The common cases first, without a property lookup.
            switch value {
            case 0x41...0x5A: units.append(value + 0x20)
            case 0x61...0x7A, 0x30...0x39: units.append(value)
            default: break
            }
            return
        }
        if value &- 0xAC00 < 11172 { units.append(value); return }  // a Hangul syllable
        if value &- 0xFF01 < 0x5E { value -= 0xFEE0 }  // full-width ASCII, as some input methods type it
        if value &- 0x1100 < 0x100 { hasConjoiningJamo = true }
        guard let folded = Unicode.Scalar(value) else { return }
        for lower in folded.properties.lowercaseMapping.unicodeScalars where isLetterOrDigit(lower) {
            units.append(lower.value)
        }
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }

    /// The signature bit of a unit, for names.
    @inline(__always) static func bit(_ unit: UInt32) -> UInt64 {
        1 << (UInt64(unit &* 0x9E37_79B1) >> 26 & 63)
    }
}

/// A 128-bit signature, for location texts.
struct LocationBits {
    var low: UInt64 = 0
    var high: UInt64 = 0

    mutating func insert(_ unit: UInt32) {
        let bit = (unit &* 0x9E37_79B1) >> 25
        if bit < 64 { low |= 1 << UInt64(bit) } else { high |= 1 << UInt64(bit - 64) }
    }

    func contains(_ other: LocationBits) -> Bool { other.low & ~low == 0 && other.high & ~high == 0 }
}

/// The `capacity` best (score, position) pairs seen, better meaning a higher score, then an
/// earlier position. A min-heap on one packed key: no full sort of every match.
struct TopKeys {
    private var heap: [UInt64] = []
    private let capacity: Int
    private static let positionBits: UInt64 = 32

    init(capacity: Int) {
        self.capacity = capacity
        heap.reserveCapacity(min(capacity, 1024))
    }

    private static func key(score: Int, position: Int) -> UInt64 {
        UInt64(score) << positionBits | (UInt64(UInt32.max) - UInt64(position))
    }

    /// A score that cannot enter the list unless it is higher than this (the list is full).
    var scoreToBeat: Int { heap.count < capacity ? -1 : Int(heap[0] >> Self.positionBits) }

    mutating func offer(score: Int, position: Int) {
        let key = Self.key(score: score, position: position)
        if heap.count < capacity {
            heap.append(key)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[parent] > heap[child] else { break }
                heap.swapAt(parent, child)
                child = parent
            }
        } else if key > heap[0] {
            heap[0] = key
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, heap[left] < heap[smallest] { smallest = left }
                if right < heap.count, heap[right] < heap[smallest] { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }

    func sortedDescending() -> [(score: Int, position: Int)] {
        heap.sorted(by: >).map { key in
            (Int(key >> Self.positionBits), Int(UInt64(UInt32.max) - (key & 0xFFFF_FFFF)))
        }
    }
}
