import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolStore

/// The saved state for a one-shot command, read without writing anything: a server's battle
/// database when the directory has one, else `state.json`. What is wrong with the file goes to
/// `output`'s errors, in words.
func loadSavedState(directory: String, output: CommandOutput) throws -> SavedState {
    let (state, problems) = try DataDirectoryBattle.read(directory: directory)
    for case let .notRepaired(details) in problems {
        output.writeError(CommandText.savedScoresHaveProblems + "\n")
        for detail in details { output.writeError("  - \(detail)\n") }
    }
    return state
}
