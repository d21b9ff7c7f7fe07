#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore

struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: CommandText.resetAbstract,
        discussion: """
            Sets every school's taps and every player's own taps to 0 in the data directory. Players \
            keep their school and best speed. Games running on the same directory carry on from the \
            new scores.

            The file as it was is kept beside it, as state.json.reset-<UTC time>; to undo, copy it \
            back over state.json while no game is running.

            Asks for confirmation unless --yes is given. Without a terminal to ask on, --yes is required.
            """)

    @Flag(help: "Reset without asking.")
    var yes = false

    @OptionGroup var data: DataDirectoryOptions

    func run() throws {
        let store = StateStore(directory: data.directory)
        guard FileIO.exists(store.path) else {
            try StandardStreams.write("Nothing to reset: there are no saved scores in \(store.directory).\n")
            return
        }
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw CommandError("Refusing to reset without confirmation: there is no terminal to ask on. Pass --yes to reset.")
            }
            try StandardStreams.write("Start every school's score over in \(store.directory)? The scores as they are will be kept. [y/N] ")
            guard let answer = readLine(), Self.isYes(answer) else {
                try StandardStreams.write("Nothing was reset.\n")
                return
            }
        }
        guard let kept = try store.reset() else {
            try StandardStreams.write("Nothing to reset: there are no saved scores in \(store.directory).\n")
            return
        }
        try StandardStreams.write("All scores start over. The previous scores are kept in \(kept).\n")
    }

    static func isYes(_ answer: String) -> Bool {
        ["y", "yes", "예", "네", "응"].contains(answer.trimmingSpaces.lowercased())
    }
}
