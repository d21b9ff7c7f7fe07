import Foundation

/// Where the starter catalog (`Resources/schools.json`) sits in the built product.
public enum StarterCatalog {
    public static var path: String? {
        Bundle.module.url(forResource: "schools", withExtension: "json")?.path
    }
}
