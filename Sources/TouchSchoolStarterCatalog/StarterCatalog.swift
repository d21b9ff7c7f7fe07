// This target ships `Resources/schools.json`, the starter catalog, as SwiftPM's resource bundle
// beside the executables; it has no code of its own. Programs find the file with
// `StarterCatalogFile.path` (TouchSchoolStore): a target's `Bundle.module` would bring Foundation
// into the game.
