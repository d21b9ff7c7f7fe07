import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore

/// `--data-dir`, shared by every command that reads or writes the saved scores.
struct DataDirectoryOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"),
            help: ArgumentHelp("Where the scores and the imported catalog are kept.",
                               discussion: "Default: $TOUCHSCHOOL_HOME, else $XDG_DATA_HOME/touchschool, else ~/.local/share/touchschool.",
                               valueName: "dir"))
    var dataDir: String?

    var directory: String { DataDirectory.resolve(explicit: dataDir, environment: ProcessEnvironment.current) }
}
