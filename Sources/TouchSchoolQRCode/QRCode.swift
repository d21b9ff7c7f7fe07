/// A QR code (ISO/IEC 18004) of a short text, the address to join a battle at: drawn by `serve`
/// in the terminal and served as SVG for the projector's page (`PageRoutes`, `/v1/qr.svg`), one
/// encoder for both. Byte mode, error correction level M (a projected or photographed code loses
/// some modules), versions 1 to 6 (up to 106 bytes: any address of the page fits).
///
/// Written here rather than taken from a package: the one thing needed is a few hundred modules
/// for a URL, and the server's dependencies stay what they are.
public struct QRCode: Equatable, Sendable {
    /// Modules per side: 17 + 4 × version.
    public let size: Int
    public let version: Int
    /// Row-major; true is a dark module.
    let modules: [Bool]

    public subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// The code of `text`'s UTF-8 bytes, in the smallest version that holds them; nil when they
    /// are more than version 6 holds.
    public init?(_ text: String) {
        let data = Array(text.utf8)
        // The mode and the count take 12 bits: n bytes fit when n + 2 ≤ the data bytes.
        guard let index = Self.blocks.firstIndex(where: { $0.count * $0.data >= data.count + 2 }) else { return nil }
        let version = index + 1
        var builder = Builder(version: version)
        builder.drawFunctionPatterns()
        builder.drawCodewords(Self.codewords(of: data, version: version))
        // Every mask is tried and the one with the lowest penalty kept, as the standard asks, so
        // that no mask leaves large blocks or finder-like runs a reader would trip on.
        var best: (penalty: Int, modules: [Bool])?
        for mask in 0..<8 {
            var candidate = builder
            candidate.applyMask(mask)
            candidate.drawFormatBits(mask: mask)
            let penalty = candidate.penalty()
            if best == nil || penalty < best!.penalty { best = (penalty, candidate.modules) }
        }
        self.version = version
        self.size = builder.size
        self.modules = best!.modules
    }

    // MARK: Codewords

    /// Level M's blocks for versions 1 to 6: blocks, data bytes in each, error correction bytes in each.
    static let blocks: [(count: Int, data: Int, ecc: Int)] = [
        (1, 16, 10), (1, 28, 16), (1, 44, 26), (2, 32, 18), (2, 43, 24), (4, 27, 16),
    ]

    /// The data codewords: mode 0100 (bytes), an 8-bit count, the bytes, the terminator, padding
    /// 0xEC 0x11; cut into blocks, each with its Reed-Solomon bytes; interleaved.
    static func codewords(of data: [UInt8], version: Int) -> [UInt8] {
        let layout = blocks[version - 1]
        let capacity = layout.count * layout.data
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, 4)
        append(data.count, 8)
        for byte in data { append(Int(byte), 8) }
        append(0, min(4, capacity * 8 - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var bytes: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while bytes.count < capacity {
            bytes.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        let dataBlocks = (0..<layout.count).map { Array(bytes[$0 * layout.data..<($0 + 1) * layout.data]) }
        let eccBlocks = dataBlocks.map { ReedSolomon.remainder(of: $0, degree: layout.ecc) }
        var result: [UInt8] = []
        for index in 0..<layout.data { for block in dataBlocks { result.append(block[index]) } }
        for index in 0..<layout.ecc { for block in eccBlocks { result.append(block[index]) } }
        return result
    }

    /// Arithmetic in GF(256) modulo x⁸ + x⁴ + x³ + x² + 1, and the error correction bytes.
    enum ReedSolomon {
        static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
            var product = 0
            for bit in stride(from: 7, through: 0, by: -1) {
                product = (product << 1) ^ ((product >> 7) * 0x11D)
                if (b >> UInt8(bit)) & 1 == 1 { product ^= Int(a) }
            }
            return UInt8(product & 0xFF)
        }

        /// The generator polynomial of `degree` (roots α⁰ … α^(degree-1)), highest term dropped.
        static func generator(degree: Int) -> [UInt8] {
            var coefficients = [UInt8](repeating: 0, count: degree)
            coefficients[degree - 1] = 1
            var root: UInt8 = 1
            for _ in 0..<degree {
                for index in 0..<degree {
                    coefficients[index] = multiply(coefficients[index], root)
                    if index + 1 < degree { coefficients[index] ^= coefficients[index + 1] }
                }
                root = multiply(root, 0x02)
            }
            return coefficients
        }

        static func remainder(of data: [UInt8], degree: Int) -> [UInt8] {
            let divisor = generator(degree: degree)
            var result = [UInt8](repeating: 0, count: degree)
            for byte in data {
                let factor = byte ^ result.removeFirst()
                result.append(0)
                for index in 0..<degree { result[index] ^= multiply(divisor[index], factor) }
            }
            return result
        }
    }

    // MARK: Modules

    struct Builder {
        let version: Int
        let size: Int
        var modules: [Bool]
        /// Finder, timing, alignment and format modules: never data, never masked.
        var isFunction: [Bool]

        init(version: Int) {
            self.version = version
            size = 17 + 4 * version
            modules = [Bool](repeating: false, count: size * size)
            isFunction = modules
        }

        mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
            modules[y * size + x] = dark
            isFunction[y * size + x] = true
        }

        mutating func drawFunctionPatterns() {
            for index in 0..<size {
                set(6, index, index % 2 == 0)
                set(index, 6, index % 2 == 0)
            }
            drawFinder(3, 3)
            drawFinder(size - 4, 3)
            drawFinder(3, size - 4)
            if version > 1 {
                // Versions 2 to 6 have one alignment pattern, at (last, last), last = size - 7.
                drawAlignment(size - 7, size - 7)
            }
            drawFormatBits(mask: 0) // reserves the format areas; drawn again once the mask is known
        }

        /// A finder (7×7) centred on (x, y) with its light separator.
        mutating func drawFinder(_ x: Int, _ y: Int) {
            for dy in -4...4 {
                for dx in -4...4 {
                    let column = x + dx, row = y + dy
                    guard (0..<size).contains(column), (0..<size).contains(row) else { continue }
                    let distance = max(abs(dx), abs(dy))
                    set(column, row, distance != 2 && distance != 4)
                }
            }
        }

        mutating func drawAlignment(_ x: Int, _ y: Int) {
            for dy in -2...2 {
                for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
            }
        }

        /// The 15 format bits (level M = 00, the mask), BCH-protected and masked with 0x5412, in
        /// both of their places, and the dark module beside the lower finder.
        mutating func drawFormatBits(mask: Int) {
            let levelM = 0b00
            let data = levelM << 3 | mask
            var remainder = data
            for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
            let bits = (data << 10 | remainder) ^ 0x5412
            func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
            for index in 0...5 { set(8, index, bit(index)) }
            set(8, 7, bit(6))
            set(8, 8, bit(7))
            set(7, 8, bit(8))
            for index in 9..<15 { set(14 - index, 8, bit(index)) }
            for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
            for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
            set(8, size - 8, true)
        }

        /// The codewords' bits, most significant first, up and down two columns at a time from the
        /// bottom right, skipping the vertical timing pattern; the remainder bits stay light.
        mutating func drawCodewords(_ codewords: [UInt8]) {
            var bitIndex = 0
            var right = size - 1
            while right >= 1 {
                if right == 6 { right = 5 }
                for vertical in 0..<size {
                    for offset in 0..<2 {
                        let x = right - offset
                        let upward = (right + 1) & 2 == 0
                        let y = upward ? size - 1 - vertical : vertical
                        guard !isFunction[y * size + x], bitIndex < codewords.count * 8 else { continue }
                        modules[y * size + x] = (codewords[bitIndex >> 3] >> UInt8(7 - bitIndex & 7)) & 1 == 1
                        bitIndex += 1
                    }
                }
                right -= 2
            }
        }

        mutating func applyMask(_ mask: Int) {
            for y in 0..<size {
                for x in 0..<size where !isFunction[y * size + x] {
                    let flip = switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: x * y % 2 + x * y % 3 == 0
                    case 6: (x * y % 2 + x * y % 3) % 2 == 0
                    default: ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                    if flip { modules[y * size + x].toggle() }
                }
            }
        }

        /// The standard's four penalty rules: runs of five or more, 2×2 blocks, finder-like
        /// 1:1:3:1:1 runs beside four light modules, and dark modules far from half.
        func penalty() -> Int {
            var total = 0
            let finderLike: [[Bool]] = [
                [true, false, true, true, true, false, true, false, false, false, false],
                [false, false, false, false, true, false, true, true, true, false, true],
            ]
            for line in 0..<size {
                for horizontal in [true, false] {
                    let cells = (0..<size).map { horizontal ? modules[line * size + $0] : modules[$0 * size + line] }
                    var run = 1
                    for index in 1...size {
                        if index < size, cells[index] == cells[index - 1] {
                            run += 1
                        } else {
                            if run >= 5 { total += run - 2 }
                            run = 1
                        }
                    }
                    for start in 0...(size - 11) where finderLike.contains(where: { Array(cells[start..<start + 11]) == $0 }) {
                        total += 40
                    }
                }
            }
            for y in 0..<(size - 1) {
                for x in 0..<(size - 1) {
                    let color = modules[y * size + x]
                    if modules[y * size + x + 1] == color, modules[(y + 1) * size + x] == color, modules[(y + 1) * size + x + 1] == color {
                        total += 3
                    }
                }
            }
            let dark = modules.filter { $0 }.count
            let cells = size * size
            total += (abs(dark * 20 - cells * 10) + cells - 1) / cells * 10 - 10
            return total
        }
    }
}

extension QRCode {
    /// The code as an SVG image: one path of its dark modules, a quiet zone of four modules, a
    /// module per user unit (the page scales it; `shape-rendering` keeps the edges sharp).
    public var svg: String {
        let side = size + 8
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else { x += 1; continue }
                let start = x
                while x < size, self[x, y] { x += 1 }
                path += "M\(start + 4) \(y + 4)h\(x - start)v1h-\(x - start)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }
}
