import Foundation

/// What an entitlement comes from.
public struct EntitlementSourceKind: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let purchase = EntitlementSourceKind(rawValue: "purchase")
    public static let appTrial = EntitlementSourceKind(rawValue: "app_trial")
    public static let expiryGrace = EntitlementSourceKind(rawValue: "expiry_grace")
    public static let grant = EntitlementSourceKind(rawValue: "grant")
    public static let openAccess = EntitlementSourceKind(rawValue: "open_access")
    public static let household = EntitlementSourceKind(rawValue: "household")
    public static let pendingPurchase = EntitlementSourceKind(rawValue: "pending_purchase")

    public static let known: [EntitlementSourceKind] = [.purchase, .appTrial, .expiryGrace, .grant, .openAccess, .household, .pendingPurchase]
}
