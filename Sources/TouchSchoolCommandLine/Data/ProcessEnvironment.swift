// FoundationEssentials, not Foundation: the game must not load Foundation's full library and ICU's
// data (BENCHMARKS.md, "Peak memory"); ArgumentParser links FoundationEssentials already.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The process's environment as the commands read it (`$TOUCHSCHOOL_HOME`, `$LANG`, `NO_COLOR`, …).
enum ProcessEnvironment {
    static var current: [String: String] { ProcessInfo.processInfo.environment }
}
