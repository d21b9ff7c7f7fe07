import ArgumentParser

/// `touchschool`: the root command; each subcommand documents itself (`--help`).
struct TouchSchool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchschool",
        abstract: "학교 대항전: a school-vs-school tap battle.",
        subcommands: [SearchCommand.self, ImportCommand.self, RankCommand.self, StatsCommand.self, ResetCommand.self]
    )
}

TouchSchool.main()
