import Foundation

/// Every thread's stack in this process, as gdb prints them, for a test that finds something
/// stalled: a connection task stuck with no thread blocked is waiting on an event that will not
/// come (how the game's handshake deadline was found shutting an event loop under a live
/// connection). Only where gdb is installed; the test command does not install it.
public enum ThreadStacks {
    public static func ofThisProcess() -> String {
        let gdb = "/usr/bin/gdb"
        guard FileManager.default.isExecutableFile(atPath: gdb) else { return "(no gdb here to show the threads' stacks)" }
        let result = Subprocess.run(gdb, ["-p", "\(getpid())", "-batch", "-nx", "-ex", "thread apply all bt 30"])
        return result.output + result.error.suffix(2_000)
    }
}
