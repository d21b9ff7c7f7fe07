import ArgumentParser
import Foundation
import TouchSchoolCore

/// `--data-dir`, shared by every command that reads or writes the saved scores.
struct DataDirectoryOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"),
            help: ArgumentHelp("Where the scores and the imported catalog are kept.",
                               discussion: "Default: $TOUCHSCHOOL_HOME, else $XDG_DATA_HOME/touchschool, else ~/.local/share/touchschool.",
                               valueName: "dir"))
    var dataDir: String?

    var directory: String { DataDirectory.resolve(explicit: dataDir, environment: ProcessInfo.processInfo.environment) }
}

/// A failure a command explains in its own words (ArgumentParser prints it after "Error: ").
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The saved state for a one-shot command; what was wrong with the file goes to stderr, in words.
func loadSavedState(directory: String, catalog: Catalog) throws -> SavedState {
    let (state, problems) = try StateStore(directory: directory).load(catalog: catalog)
    for problem in problems {
        switch problem {
        case let .setAside(keptAs, reason):
            StandardStreams.writeError("touchschool: the saved scores could not be used (\(reason)). They were kept as \(keptAs); scores start over.\n")
        case let .valuesReset(backup, details):
            StandardStreams.writeError("touchschool: abnormal values in the saved scores were reset (the file as it was is kept as \(backup)):\n")
            for detail in details { StandardStreams.writeError("  - \(detail)\n") }
        }
    }
    return state
}

/// `1234567` → `1,234,567`.
func grouped(_ value: some BinaryInteger) -> String {
    let digits = Array(String(value))
    var result = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return result
}

extension JSONWriter {
    /// The writer's bytes as text, for printing.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
