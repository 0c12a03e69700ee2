import Foundation

/// The platform on which the customer originally purchased the app.
///
/// [PurchasePlatform](https://developer.apple.com/documentation/storekit/apptransaction/originalplatform)
public struct PurchasePlatform: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let ios = PurchasePlatform(rawValue: "iOS")
    public static let macOS = PurchasePlatform(rawValue: "macOS")
    public static let tvOS = PurchasePlatform(rawValue: "tvOS")
    public static let visionOS = PurchasePlatform(rawValue: "visionOS")

    public static let documented: [(value: PurchasePlatform, name: String)] = [
        (.ios, "iOS"),
        (.macOS, "macOS"),
        (.tvOS, "tvOS"),
        (.visionOS, "visionOS"),
    ]
}
