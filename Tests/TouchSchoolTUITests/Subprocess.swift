import Foundation
import TouchSchoolCore
import TouchSchoolStore

/// Runs a program to completion and returns its exit status and what it printed.
///
/// posix_spawn with output to files rather than Foundation's `Process` and pipes: a tmux server
/// started by one call keeps inherited descriptors open, so a pipe never reaches end-of-file,
/// and `Process` has hung here under parallel tests.
enum Subprocess {
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil)
        -> (status: Int32, output: String, error: String)
    {
        var template = Array("/tmp/touchschool-run-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outputPath = "\(folder)/out", errorPath = "\(folder)/err"

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { return (-1, "", "cannot run \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? FileIO.read(outputPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let error = (try? FileIO.read(errorPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return (exitStatus, output, error)
    }
}
