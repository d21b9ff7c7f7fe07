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

/// A file that ships with the programs: in SwiftPM's resource bundle beside the executable (where
/// `swift build` puts it), or in an installation's `share/touchschool/` beside its `bin/`
/// (scripts/install-layout). Found from the executable's own folder rather than by `Bundle.module`,
/// whose fallback is the absolute path of the build folder: an installed program would find its
/// files only on the machine, and in the checkout, it was built in, and die (a fatal error)
/// everywhere else. And `Bundle.module` would bring Foundation into the game (BENCHMARKS.md,
/// "Peak memory").
public struct ShippedFile: Sendable {
    /// The resource bundle's folder name (`TouchSchool_<target>.resources`).
    public let bundleName: String
    /// The path inside the bundle.
    public let bundlePath: String
    /// The path inside the installation's `share/touchschool/`.
    public let installedPath: String

    public init(bundleName: String, bundlePath: String, installedPath: String) {
        self.bundleName = bundleName
        self.bundlePath = bundlePath
        self.installedPath = installedPath
    }

    /// The file's (or folder's) path, or nil when the installation lacks it.
    public var path: String? {
        let directory = ExecutableLocation.directory
        return ["\(directory)/\(bundleName)/\(bundlePath)", "\(directory)/../share/touchschool/\(installedPath)"].first(where: FileIO.exists)
    }
}

/// The starter catalog (`Resources/schools.json`), from the `TouchSchoolStarterCatalog` target's bundle.
public enum StarterCatalogFile {
    public static let file = ShippedFile(bundleName: "TouchSchool_TouchSchoolStarterCatalog.resources",
                                         bundlePath: "schools.json", installedPath: "schools.json")

    /// The file's path, or nil when the installation lacks it.
    public static var path: String? { file.path }
}
