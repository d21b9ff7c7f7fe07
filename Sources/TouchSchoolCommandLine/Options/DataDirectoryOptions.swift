import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore

/// `--data-dir`, shared by every command that reads or writes the saved scores.
struct DataDirectoryOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"),
            help: ArgumentHelp(CommandText.dataDirectoryHelp, discussion: CommandText.dataDirectoryDiscussion,
                               valueName: "dir"))
    var dataDir: String?

    var directory: String { DataDirectory.resolve(explicit: dataDir, environment: ProcessEnvironment.current) }
}
