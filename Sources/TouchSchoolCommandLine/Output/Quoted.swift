import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolView

/// How wide a quoted name, id or query may be in a message: enough to recognize it.
let quotedWidth = 40

/// A name, id or query from the user or the data as a message quotes it: its controls shown as
/// escapes (`VisibleText`) and cut with "…" to `quotedWidth` columns, so that a 10,000-character
/// id does not bury the message that names it.
func quoted(_ text: String) -> String {
    DisplayWidth.truncate(VisibleText.escaping(text), toWidth: quotedWidth)
}
