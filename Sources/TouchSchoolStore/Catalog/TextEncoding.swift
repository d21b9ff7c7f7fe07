#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The encodings the official list comes in: the portal serves CP949 (EUC-KR plus the extra
/// Hangul of Windows code page 949); a file re-saved by a spreadsheet or an editor is UTF-8,
/// sometimes with a byte order mark.
public enum TextEncoding: String, Equatable, Sendable {
    case utf8 = "UTF-8"
    case utf8WithBOM = "UTF-8 with BOM"
    case cp949 = "CP949"

    /// The text as UTF-8 bytes and the encoding it was found in. Valid UTF-8 is taken as UTF-8
    /// (CP949 Hangul is almost never valid UTF-8, so the test is safe); anything else is converted
    /// from CP949 with the C library's `iconv`.
    static func decodeToUTF8(_ bytes: [UInt8]) throws(TextDecodingError) -> (utf8: [UInt8], encoding: TextEncoding) {
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        if bytes.starts(with: byteOrderMark) {
            let body = Array(bytes.dropFirst(byteOrderMark.count))
            guard let offset = firstInvalidUTF8Offset(body) else { return (body, .utf8WithBOM) }
            throw TextDecodingError(byteOffset: offset + byteOrderMark.count, encoding: .utf8WithBOM)
        }
        guard let utf8Failure = firstInvalidUTF8Offset(bytes) else { return (bytes, .utf8) }
        do {
            return (try convertFromCP949(bytes), .cp949)
        } catch {
            // The encoding that read further is the one the file was meant to be in: report
            // where that one broke.
            throw error.byteOffset >= utf8Failure ? error : TextDecodingError(byteOffset: utf8Failure, encoding: .utf8)
        }
    }

    private static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer(UTF8Validation.firstInvalidOffset)
    }

    private static func convertFromCP949(_ bytes: [UInt8]) throws(TextDecodingError) -> [UInt8] {
        let converter = iconv_open("UTF-8", "CP949")
        guard let converter, Int(bitPattern: converter) != -1 else {
            throw TextDecodingError(byteOffset: 0, encoding: .cp949, failure: .noConverter)
        }
        defer { iconv_close(converter) }
        // A CP949 character is one or two bytes and becomes at most three bytes of UTF-8.
        var output = [UInt8](repeating: 0, count: bytes.count * 3 / 2 + 16)
        var input = bytes
        let (unconsumed, produced, failure) = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                inputBuffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: inputBuffer.count) { inputStart in
                    outputBuffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: outputBuffer.count) { outputStart in
                        var inputPointer: UnsafeMutablePointer<CChar>? = inputStart
                        var inputLeft = inputBuffer.count
                        var outputPointer: UnsafeMutablePointer<CChar>? = outputStart
                        var outputLeft = outputBuffer.count
                        let result = iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft)
                        return (inputLeft, outputBuffer.count - outputLeft, result == -1 ? errno : 0)
                    }
                }
            }
        }
        guard failure == 0 else {
            throw TextDecodingError(byteOffset: bytes.count - unconsumed, encoding: .cp949,
                                    failure: failure == EILSEQ || failure == EINVAL ? nil : .system(failure))
        }
        output.removeSubrange(produced...)
        return output
    }
}

/// Bytes that are neither UTF-8 nor CP949; `byteOffset` is where decoding as `encoding`, the one
/// that read further, stopped. `failure`: the converter's own failure, when it did not stop at a
/// byte it could not read.
struct TextDecodingError: Error, Equatable, Sendable {
    var byteOffset: Int
    var encoding: TextEncoding
    var failure: ConversionFailure? = nil
}

/// Why CP949 could not be converted at all: this system's iconv has no CP949, or it failed with
/// a system error (its number).
public enum ConversionFailure: Equatable, Sendable {
    case noConverter
    case system(Int32)
}
