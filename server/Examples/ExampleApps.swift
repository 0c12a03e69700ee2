import Foundation

/// The example apps' folders (`Configuration.storekit` and `entitlements.json` each), shipped as
/// resources beside the `entitle` binary, so `entitle demo --app NAME` works from any folder.
public enum ExampleApps {
    /// The examples, in the order `entitle demo --help` lists them.
    public static let names = ["ScreenTimeRewards", "ScreenTimeRewardsTiers", "Epilogue", "PantryPal", "MagicalStories"]

    /// The folder of the example `name`, or `nil` when there is none by that name.
    public static func folder(named name: String) -> URL? {
        guard names.contains(name), let url = Bundle.module.url(forResource: name, withExtension: nil) else { return nil }
        return url
    }
}
