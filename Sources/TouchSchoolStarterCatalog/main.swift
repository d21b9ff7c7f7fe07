#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolStore

// `TouchSchoolStarterCatalog`: prints where the starter catalog shipped beside this program is
// (what `touchschool` reads until an official list is imported). The target exists to ship
// `Resources/schools.json` as SwiftPM's resource bundle; programs find the file with
// `StarterCatalogFile.path`, never `Bundle.module`, which would bring Foundation into the game.
guard let path = StarterCatalogFile.path else {
    let message = "TouchSchoolStarterCatalog: the starter catalog is not installed in \(ExecutableLocation.directory)\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(1)
}
print(path)
