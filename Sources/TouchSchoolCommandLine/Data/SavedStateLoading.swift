import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolStore

/// The saved state for a one-shot command, read without writing anything: a server's battle
/// database when the directory has one, else `state.json`. What is wrong with the file goes to
/// `output`'s errors, in words.
func loadSavedState(directory: String, output: CommandOutput) throws -> SavedState {
    let (state, problems) = try DataDirectoryBattle.read(directory: directory)
    for case let .notRepaired(details) in problems {
        output.writeError("touchschool: the saved scores have problems; they are read as if repaired, and the file is "
                                   + "left as it is until a game saves (which keeps a copy):\n")
        for detail in details { output.writeError("  - \(detail)\n") }
    }
    return state
}
