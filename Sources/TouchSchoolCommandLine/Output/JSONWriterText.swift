import TouchSchoolCore
import TouchSchoolStore

extension JSONWriter {
    /// The writer's bytes as text, for printing.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
