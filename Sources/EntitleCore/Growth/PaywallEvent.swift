import Foundation

/// One thing an app's paywall did, as the app reports it: stored as a ledger event, once per `id` (the
/// app's own event ID), so funnels can be recounted from the ledger.
public struct PaywallEvent: Hashable, Sendable, Codable {
    /// The app's ID for the event: reporting it again changes nothing.
    public var id: UUID
    public var kind: PaywallEventKind
    /// When it happened, on the device.
    public var at: Date
    /// The offering the paywall showed.
    public var offeringID: String
    /// The paywall's own identifier (the app's name for the screen).
    public var paywallID: String
    /// Why it opened: an access answer's reason code (`limit_exceeded`, `quota_exhausted`…) or the app's word.
    public var trigger: String?
    /// The gate it opened at: the feature, limit or quota.
    public var feature: String?
    /// The product a purchase event is about.
    public var productID: ProductID?
    /// A failed purchase's outcome code (`purchase.network`…).
    public var outcome: String?

    public init(
        id: UUID, kind: PaywallEventKind, at: Date, offeringID: String, paywallID: String, trigger: String? = nil, feature: String? = nil,
        productID: ProductID? = nil, outcome: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.at = at
        self.offeringID = offeringID
        self.paywallID = paywallID
        self.trigger = trigger
        self.feature = feature
        self.productID = productID
        self.outcome = outcome
    }

    /// The longest identifier or code an event carries, in bytes of UTF-8.
    public static let maximumTextLength = 100
    /// The most events one report carries.
    public static let maximumBatch = 100

    /// What is wrong with the event as an app reports it, or `nil`: the server and EntitleKit check with
    /// this. Whether its offering and product exist is the catalog's to say.
    public var problem: String? {
        for (field, value) in [("offeringID", offeringID), ("paywallID", paywallID)] {
            guard !value.isEmpty, value.utf8.count <= Self.maximumTextLength else { return "\(field) is 1 to \(Self.maximumTextLength) bytes" }
        }
        for (field, value) in [("trigger", trigger), ("feature", feature), ("productID", productID?.rawValue), ("outcome", outcome)] {
            if let value, value.isEmpty || value.utf8.count > Self.maximumTextLength { return "\(field) is 1 to \(Self.maximumTextLength) bytes when given" }
        }
        if kind.isAboutAProduct, productID == nil { return "a \(kind.rawValue) event names its productID" }
        if !kind.isAboutAProduct, productID != nil { return "a \(kind.rawValue) event names no product" }
        if kind == .purchaseFailed, outcome == nil { return "a purchase_failed event gives the outcome's code" }
        return nil
    }
}
