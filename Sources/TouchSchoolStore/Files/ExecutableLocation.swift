#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the running program's file is: what ships beside it (the starter catalog's resource
/// bundle, `touchschool-network`) is found from there, whatever the current directory or `$PATH`.
public enum ExecutableLocation {
    /// The folder of the running executable, symbolic links resolved.
    public static var directory: String {
        let path = executablePath
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The running executable's path, symbolic links resolved.
    public static var executablePath: String {
        #if os(Linux)
        if let path = FileIO.resolvedPath("/proc/self/exe") { return path }
        #endif
        return FileIO.resolvedPath(CommandLine.arguments[0]) ?? CommandLine.arguments[0]
    }
}

/// The starter catalog (`Resources/schools.json`): in SwiftPM's resource bundle of the
/// `TouchSchoolStarterCatalog` target beside the executable (where `swift build` puts it), or in
/// an installation's `share/touchschool/` beside its `bin/` (scripts/install-layout). Found here
/// rather than by `Bundle.module`, which would bring Foundation into the game (BENCHMARKS.md,
/// "Peak memory").
public enum StarterCatalogFile {
    public static let bundleName = "TouchSchool_TouchSchoolStarterCatalog.resources"

    /// The file's path, or nil when the installation lacks it.
    public static var path: String? {
        let directory = ExecutableLocation.directory
        return ["\(directory)/\(bundleName)/schools.json", "\(directory)/../share/touchschool/schools.json"].first(where: FileIO.exists)
    }
}
