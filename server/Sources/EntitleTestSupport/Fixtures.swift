import EntitleCore
import Foundation

/// Paths to the repository's example apps and test fixtures, found from this file's location so
/// tests work from any working directory.
public enum Fixtures {
    /// The server package's root (`server/`).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The repository's root: the client package, `docs/` and `scripts/`.
    public static let repository: URL = root.deletingLastPathComponent()

    public static let examples = root.appendingPathComponent("Examples")
    public static let catalogs = root.appendingPathComponent("Tests/Fixtures/Catalogs")

    /// The example app folders, by name.
    public static let exampleNames = ["Epilogue", "MagicalStories", "PantryPal", "ScreenTimeRewards", "ScreenTimeRewardsTiers"]

    /// Loads an example app's catalog, or a test catalog of `Tests/Fixtures/Catalogs` when no example
    /// has the name; traps when it doesn't load, which the catalog tests report precisely.
    public static func exampleCatalog(_ name: String) -> Catalog {
        let example = examples.appendingPathComponent(name)
        let directory = FileManager.default.fileExists(atPath: example.path) ? example : catalogs.appendingPathComponent(name)
        do {
            return try CatalogLoader().load(directory: directory)
        } catch {
            preconditionFailure("example \(name) does not load: \(error)")
        }
    }
}
