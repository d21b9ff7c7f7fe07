import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolOutbox
import TouchSchoolServer
import TouchSchoolStore

/// `touchschool import --postgres URL FILE`: the import into PostgreSQL's shared catalog, in one
/// transaction; running servers take it up within seconds.
enum PostgresImport {
    static func run(file: String, url: String, force: Bool) throws -> String {
        // Said by the command (`ImportCommand`), as for an import into a data directory.
        let list = try OfficialSchoolList.load(path: file)
        let starter = StarterCatalogFile.path
        let report = try blockingWait { try await PostgresAdministration.importList(list, force: force, url: url, starterCatalogPath: starter) }
        return ImportSummary.text(of: report, schoolCount: list.schools.count, encoding: list.encoding,
                                  savedTo: "PostgreSQL (\(PostgresSchema.redacted(url)))")
    }
}
