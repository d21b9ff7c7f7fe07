#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCore
import TouchSchoolStore

/// The process's standard output and error, as the commands print to them (`CommandOutput.standardStreams`;
/// never `print`, whose failures vanish): every line goes through
/// `VisibleText`, so no control character from data reaches the terminal raw, and every write is
/// checked, so that output lost to a full disk is an error and not a silent success.
enum StandardStreams {
    /// Writes `text` to standard output. A reader that went away (`touchschool rank | head -1`)
    /// ends the command at once and quietly, as SIGPIPE would; any other failure is thrown.
    static func write(_ text: String) throws(CommandError) {
        try write(text, escaped: true)
    }

    private static func write(_ text: String, escaped: Bool) throws(CommandError) {
        guard let code = write(escaped ? visible(text) : text, to: STDOUT_FILENO) else { return }
        if code == EPIPE { endQuietlyForAClosedPipe() }
        throw CommandError(CommandText.cannotWriteOutput(String(cString: strerror(code))))
    }

    /// Writes `text` to standard output with its colours when that is a terminal, else as plain
    /// text; the text is escaped as `write(_:)` escapes it, the colours are the program's own.
    static func write(_ text: ColouredText) throws(CommandError) {
        guard isatty(STDOUT_FILENO) == 1 else { return try write(text.plain) }
        try write(text.pieces.map { piece in
            let shown = visible(piece.text)
            return piece.colours.map { $0.rawValue + shown + ColouredText.Colours.reset } ?? shown
        }.joined(), escaped: false)
    }

    /// Writes a message to standard error. Should that fail there is nowhere left to say so.
    static func writeError(_ text: String) {
        _ = write(visible(text), to: STDERR_FILENO)
    }

    /// Each line of `text` with its controls escaped; the line breaks themselves are kept, CRLF
    /// too (as CSV ends its lines: `round show --csv`), a CR being harmless before its LF.
    private static func visible(_ text: String) -> String {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let crlf = line.last == "\r"
            return VisibleText.escaping(String(String.UnicodeScalarView(crlf ? line.dropLast() : line))) + (crlf ? "\r" : "")
        }.joined(separator: "\n")
    }

    /// Writes all of `text`; nil, or the error number of the write that failed.
    private static func write(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let result = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return nil
        }
    }

    /// Dies of SIGPIPE, as the command would have had the signal not been ignored or blocked by
    /// whoever started it: the shell sees the usual status, and nothing is printed.
    private static func endQuietlyForAClosedPipe() -> Never {
        signal(SIGPIPE, SIG_DFL)
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        sigprocmask(SIG_UNBLOCK, &pipeSignal, nil)
        raise(SIGPIPE)
        exit(128 + SIGPIPE)
    }
}
