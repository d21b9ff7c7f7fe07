import TouchSchoolCore

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
