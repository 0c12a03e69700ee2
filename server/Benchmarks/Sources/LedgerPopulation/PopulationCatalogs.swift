import Foundation

extension SignedPopulation {
    /// The examples' folders of the population's three apps (ScreenTime Rewards, Epilogue, PantryPal), in
    /// the order of ``apps``.
    public static let exampleFolders = ["ScreenTimeRewards", "Epilogue", "PantryPal"]

    /// Each app's catalog copied from the repository's `Examples` (under `root`) into `folder`, its
    /// entitlements file naming the app's bundle ID, as `entitle serve` wants with several apps.
    public static func catalogs(from root: URL, into folder: URL) throws -> [URL] {
        try zip(exampleFolders, apps).map { name, app in
            let copy = folder.appendingPathComponent(name)
            try FileManager.default.copyItem(at: root.appendingPathComponent("Examples/\(name)"), to: copy)
            let file = copy.appendingPathComponent("entitlements.json")
            guard var document = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] else {
                throw CocoaError(.fileReadCorruptFile)
            }
            document["bundleID"] = app.bundleID
            try JSONSerialization.data(withJSONObject: document).write(to: file)
            return copy
        }
    }
}
