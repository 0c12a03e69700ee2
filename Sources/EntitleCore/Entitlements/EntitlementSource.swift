import Foundation

/// Where an entitlement comes from.
public enum EntitlementSource: Hashable, Sendable {
    /// A purchase chain, by original transaction id.
    case purchase(originalTransactionID: OriginalTransactionID)
    /// The app-managed trial or its warning period.
    case appTrial
    /// The warning period after a paid subscription ended.
    case expiryGrace
    /// An operator's grant.
    case grant(id: String)
    /// The global open-access switch.
    case openAccess
    /// Shared by a household the subscriber belongs to.
    case household(id: AppUserID)
    /// An Ask to Buy request for the product, awaiting approval (never active).
    case pendingPurchase(productID: ProductID)

    /// The stable name used in API responses.
    public var kind: String {
        switch self {
        case .purchase: "purchase"
        case .appTrial: "app_trial"
        case .expiryGrace: "expiry_grace"
        case .grant: "grant"
        case .openAccess: "open_access"
        case .household: "household"
        case .pendingPurchase: "pending_purchase"
        }
    }
}
