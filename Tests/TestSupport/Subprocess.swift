import Foundation
import TouchSchoolCore
import TouchSchoolStore

/// Runs a program to completion and returns its exit status and what it printed.
///
/// posix_spawn with output to files rather than Foundation's `Process` and pipes: a tmux server
/// started by one call keeps inherited descriptors open, so a pipe never reaches end-of-file,
/// and `Process` has hung here under parallel tests.
public enum Subprocess {
    /// `standardOutput` is where the program's output goes instead of being captured (`/dev/full`).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    standardOutput: String? = nil) -> (status: Int32, output: String, error: String)
    {
        let folder = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outputPath = "\(folder)/out", errorPath = "\(folder)/err"

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput ?? outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let pid: pid_t
        switch spawn(executable, arguments, environment: environment, actions: &actions) {
        case let .success(spawned): pid = spawned
        case let .failure(message): return (-1, "", message)
        }
        let status = wait(for: pid)
        let output = (try? FileIO.read(outputPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let error = (try? FileIO.read(errorPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return (status, output, error)
    }

    /// Runs a program with its output into a pipe, reads the first line, then closes the pipe while
    /// the program may still be writing, as `program | head -1` does.
    public static func firstLine(_ executable: String, _ arguments: [String], environment: [String: String]? = nil)
        -> (status: Int32, line: String, error: String)
    {
        let folder = TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let errorPath = "\(folder)/err"
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return (-1, "", "pipe: \(String(cString: strerror(errno)))") }
        let (reading, writing) = (ends[0], ends[1])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writing, 1)
        posix_spawn_file_actions_addclose(&actions, reading)
        posix_spawn_file_actions_addclose(&actions, writing)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let spawned = spawn(executable, arguments, environment: environment, actions: &actions)
        close(writing)
        guard case let .success(pid) = spawned else {
            close(reading)
            if case let .failure(message) = spawned { return (-1, "", message) }
            return (-1, "", "")
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.last != UInt8(ascii: "\n"), Glibc.read(reading, &byte, 1) == 1 { line.append(byte) }
        close(reading)
        let status = wait(for: pid)
        let error = (try? FileIO.read(errorPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return (status, String(decoding: line, as: UTF8.self), error)
    }

    /// Starts a program in the background, its standard input from /dev/null and its output into
    /// the files at `outputPath` and `errorPath`; the caller reaps it. With `ownProcessGroup` it
    /// leads a process group of its own (id = its pid), so that `kill(-pid, …)` ends everything it
    /// started too (a WebDriver and its browser).
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                             outputPath: String, errorPath: String, ownProcessGroup: Bool = false) -> Result<pid_t, SpawnFailure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        switch spawn(executable, arguments, environment: environment, actions: &actions, ownProcessGroup: ownProcessGroup) {
        case let .success(pid): return .success(pid)
        case let .failure(message): return .failure(SpawnFailure(description: message))
        }
    }

    /// Starts a program in the background with this process's standard input, output and error
    /// (and nothing else of it); the caller reaps it.
    public static func startSharingOutput(_ executable: String, _ arguments: [String]) -> Result<pid_t, SpawnFailure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch spawn(executable, arguments, environment: nil, actions: &actions) {
        case let .success(pid): return .success(pid)
        case let .failure(message): return .failure(SpawnFailure(description: message))
        }
    }

    public struct SpawnFailure: Error, CustomStringConvertible {
        public var description: String
    }

    private enum Spawned {
        case success(pid_t)
        case failure(String)
    }

    /// Starts the program with no signal blocked and every signal's default action. Otherwise it
    /// would inherit the mask of the test runner's thread, which blocks nearly all signals: a tmux
    /// server started so never acts on the SIGTERM that `kill-server` sends itself, and outlives
    /// the tests.
    private static func spawn(_ executable: String, _ arguments: [String], environment: [String: String]?,
                              actions: inout posix_spawn_file_actions_t, ownProcessGroup: Bool = false) -> Spawned
    {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // Nothing of the test process but the descriptors the actions set (0, 1 and 2): Swift NIO
        // opens its sockets without close-on-exec, and a program started while another test's
        // connection is open would hold that connection open after the test closes it.
        _ = closeFrom(&actions, 3)
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { return .failure("cannot run \(executable): \(String(cString: strerror(result)))") }
        return .success(pid)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare: looked up once.
    private static let closeFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            fatalError("glibc 2.34 or later is needed: posix_spawn_file_actions_addclosefrom_np not found")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Reaps the child; its exit status, or 128 + the signal that ended it, as a shell reports it.
    private static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
