/// What an app's paywall did (docs/growth.md).
public enum PaywallEventKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// The paywall was shown.
    case shown
    /// It was closed without buying.
    case closed
    /// The user tapped to buy a product.
    case purchaseStarted = "purchase_started"
    /// The store's sheet was cancelled.
    case purchaseCancelled = "purchase_cancelled"
    /// The purchase failed (the outcome's code says why).
    case purchaseFailed = "purchase_failed"
    /// The purchase went through.
    case purchased

    /// Whether the event is about a product (and names it).
    public var isAboutAProduct: Bool {
        switch self {
        case .purchaseStarted, .purchaseCancelled, .purchaseFailed, .purchased: true
        case .shown, .closed: false
        }
    }
}
