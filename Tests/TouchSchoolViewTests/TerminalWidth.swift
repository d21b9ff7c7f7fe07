#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cells a character takes by the C library's `wcwidth` in a UTF-8 locale: what terminals and
/// ncurses go by, and a measure that owes nothing to the `DisplayWidth` table the view tests check.
enum TerminalWidth {
    /// `wcwidth`, looked up at run time: the C module Swift imports does not declare it.
    private static let wcwidth: (@convention(c) (Int32) -> Int32)? = {
        // LC_CTYPE only, which is all `wcwidth` reads; without a UTF-8 locale it knows ASCII only.
        let locales: [String] = ["C.UTF-8", "C.utf8", "en_US.UTF-8"]
        guard locales.contains(where: { setlocale(LC_CTYPE, $0) != nil }),
              let symbol = dlsym(dlopen(nil, RTLD_NOW), "wcwidth") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()

    static var isAvailable: Bool { wcwidth != nil }

    /// `wcwidth` of one scalar: -1 where the C library has no width (controls, unassigned code points).
    static func of(_ scalar: Unicode.Scalar) -> Int {
        guard let wcwidth else { preconditionFailure("no wcwidth in a UTF-8 locale") }
        return Int(wcwidth(Int32(bitPattern: scalar.value)))
    }

    /// Cells of a character: the sum over its scalars, as a terminal advances for each.
    static func of(_ character: Character) -> Int { character.unicodeScalars.reduce(0) { $0 + of($1) } }

    static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }
}
