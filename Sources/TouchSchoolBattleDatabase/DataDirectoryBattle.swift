import TouchSchoolCore
import TouchSchoolStore

/// Where a data directory's battle is: a server's `battle.sqlite` when it has one (the server
/// moved `state.json` in at its first start and has kept the battle there since), else the
/// local battle's `state.json`.
public enum DataDirectoryBattle {
    /// The battle as saved, read without writing anything; what `state.json` needs repaired is
    /// reported as `.notRepaired` (a database is never repaired: it is read or refused).
    public static func read(directory: String) throws(StoreError) -> (state: SavedState, problems: [StateProblem]) {
        if let database = try BattleDatabase.openForReading(dataDirectory: directory) {
            return (try database.savedState(), [])
        }
        return try StateStore(directory: directory).read()
    }
}
