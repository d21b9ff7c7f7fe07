import Foundation

/// A new directory under /tmp for one test's files, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init() throws {
        var template = Array("/tmp/touchschool-test-XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = String(cString: created)
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
