#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore

struct ResetCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: CommandText.resetAbstract,
        discussion: CommandText.resetDiscussion)

    @Flag(help: ArgumentHelp(CommandText.yesHelp))
    var yes = false

    @OptionGroup var data: DataDirectoryOptions

    func run(in context: CommandContext) throws {
        let store = StateStore(directory: data.directory)
        guard FileIO.exists(store.path) else {
            try context.output.write(CommandText.nothingToReset(in: store.directory))
            return
        }
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw CommandError(CommandText.resetNeedsYes)
            }
            try context.output.write(CommandText.resetQuestion(store.directory))
            guard let answer = readLine(), Self.isYes(answer) else {
                try context.output.write(CommandText.nothingWasReset)
                return
            }
        }
        guard let kept = try store.reset() else {
            try context.output.write(CommandText.nothingToReset(in: store.directory))
            return
        }
        try context.output.write(CommandText.resetDone(keptIn: kept))
    }

    static func isYes(_ answer: String) -> Bool {
        ["y", "yes", "예", "네", "응"].contains(answer.trimmingSpaces.lowercased())
    }
}
