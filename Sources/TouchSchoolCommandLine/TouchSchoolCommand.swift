import ArgumentParser

/// `touchschool`: the game by default, and the commands around it.
struct TouchSchool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchschool",
        abstract: "학교 대항전: a school-vs-school tap battle",
        discussion: """
        Choose your school, then mash keys: every key is a tap for your school, and the national \
        leaderboard shows who leads. Inhumanly fast bursts (a held key, a paste) are refused.

        Keys while playing:
          any key    a tap for your school (a mouse click in the play area too)
          Tab        the ranking: ←/→ league, ↑/↓ PgUp/PgDn scroll, m my school
          F1         help          F2       choose another school
          Esc        back / quit   Ctrl-C   save and quit
          Ctrl-Z     suspend (`fg` resumes)

        School data: 공공데이터포털 (data.go.kr) 전국초중등학교위치표준데이터, provided by \
        한국교육시설안전원; load it with `touchschool import FILE`.
        """,
        version: TouchSchoolVersion.release,
        subcommands: [PlayCommand.self, SearchCommand.self, RankCommand.self, StatsCommand.self, ImportCommand.self, ResetCommand.self, ServeCommand.self, AdminCommand.self],
        defaultSubcommand: PlayCommand.self
    )
}

/// What the commands use for the network; set by `runTouchSchool` before parsing, read only after.
nonisolated(unsafe) private(set) var network: (any NetworkCommands)!

/// Runs the command the arguments name and exits: each executable's whole `main`, with its own
/// network (`NetworkCommands`).
///
/// Instead of `TouchSchool.main()`: help and errors are printed through `StandardStreams` too, so
/// that help lost to a full disk fails and an echoed argument cannot drive the terminal.
public func runTouchSchool(network chosen: any NetworkCommands) -> Never {
    network = chosen
    do {
        var command = try TouchSchool.parseAsRoot()
        try command.run()
    } catch {
        var exitCode = TouchSchool.exitCode(for: error)
        let message = TouchSchool.fullMessage(for: error)
        if exitCode == .success {
            do {
                try StandardStreams.write(message + "\n")
            } catch {
                StandardStreams.writeError(TouchSchool.fullMessage(for: error) + "\n")
                exitCode = .failure
            }
        } else if !message.isEmpty {
            StandardStreams.writeError(message + "\n")
        }
        TouchSchool.exit(withError: exitCode)
    }
    TouchSchool.exit()
}
