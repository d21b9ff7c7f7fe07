import Foundation

/// A new directory for one test's files, inside this test process's own directory under /tmp,
/// which is removed with everything in it when the process exits: servers' data, backups and
/// clients' folders are read back after a test's processes end (and in its failure messages), so
/// a test may leave its directories to the end. `remove()` removes one sooner.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init() {
        path = Self.make("\(Self.ofThisProcess)/XXXXXX")
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// This test process's directory, made at first use and removed at exit.
    private static let ofThisProcess: String = {
        let path = make("/tmp/touchschool-tests-XXXXXX")
        atexit { try? FileManager.default.removeItem(atPath: TemporaryDirectory.ofThisProcess) }
        return path
    }()

    /// mkdtemp(3) on `template`; /tmp not writable ends the tests at once.
    private static func make(_ template: String) -> String {
        var bytes = Array(template.utf8CString)
        guard let made = bytes.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            fatalError("cannot make a directory \(template): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }
}
