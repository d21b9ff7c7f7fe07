import ArgumentParser
import TouchSchoolStore

/// Where PostgreSQL is, for `serve` and `import`: the URL holds the database's password, so it
/// is best kept out of the command line, where every user of the machine sees it (`ps`). In order:
/// `--postgres URL`; `--postgres-file FILE` (a file holding the URL, e.g. mode 0600);
/// `$TOUCHSCHOOL_POSTGRES_URL`; and for `serve` also `$DATABASE_URL`. When `touchschool` hands a
/// command to `touchschool-network`, a `--postgres URL` given moves into
/// `$TOUCHSCHOOL_POSTGRES_URL` (`NetworkHandOff`), so that the running server's command line never
/// shows it.
struct PostgresOptions: ParsableArguments {
    @Option(help: ArgumentHelp(CommandText.postgresHelp, valueName: "postgres://user:password@host:port/database"))
    var postgres: String?

    @Option(name: .customLong("postgres-file"),
            help: ArgumentHelp(CommandText.postgresFileHelp, valueName: "file"),
            completion: .file())
    var postgresFile: String?


    func validate() throws {
        if postgres != nil, postgresFile != nil { throw ValidationError(CommandText.postgresOrFile) }
    }

    /// The URL, or nil when none is given; `alsoFrom` names further environment variables to read
    /// (`serve`: `DATABASE_URL`).
    func url(environment: [String: String], alsoFrom names: [String] = []) throws -> String? {
        if let postgres { return postgres }
        if let postgresFile {
            let bytes: [UInt8]
            do { bytes = try FileIO.read(postgresFile, limit: 4096) } catch {
                throw ValidationError(CommandText.cannotReadPostgresFile(postgresFile, "\(error)"))
            }
            // The file's first line (an editor ends it with a line break).
            let url = String(String(decoding: bytes.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self).trimmingSpaces)
            guard !url.isEmpty else { throw ValidationError(CommandText.postgresFileEmpty(postgresFile)) }
            return url
        }
        for name in [PostgresURLEnvironment.name] + names {
            if let value = environment[name], !value.trimmingSpaces.isEmpty { return String(value.trimmingSpaces) }
        }
        return nil
    }
}

/// The environment variable that holds PostgreSQL's URL: set by users, and by the hand-off to
/// `touchschool-network` in place of a `--postgres URL` on the command line.
public enum PostgresURLEnvironment {
    public static let name = "TOUCHSCHOOL_POSTGRES_URL"
}
