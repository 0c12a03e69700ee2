import Foundation

/// What an external purchase token is for (External Purchase Custom Link API).
///
/// [tokenType](https://developer.apple.com/documentation/appstoreservernotifications/tokentype)
public struct ExternalPurchaseTokenType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A new customer acquired through the app's link (EU).
    public static let acquisition = ExternalPurchaseTokenType(rawValue: "ACQUISITION")
    /// Services the customer buys through the link after acquisition (EU).
    public static let services = ExternalPurchaseTokenType(rawValue: "SERVICES")
    /// A purchase of digital goods inside the app through an alternative payment provider.
    public static let inApp = ExternalPurchaseTokenType(rawValue: "IN_APP")
    /// A purchase made outside the app after the customer followed the app's link.
    public static let linkOut = ExternalPurchaseTokenType(rawValue: "LINK_OUT")

    public static let documented: [(value: ExternalPurchaseTokenType, name: String)] = [
        (.acquisition, "ACQUISITION"),
        (.services, "SERVICES"),
        (.inApp, "IN_APP"),
        (.linkOut, "LINK_OUT"),
    ]
}
