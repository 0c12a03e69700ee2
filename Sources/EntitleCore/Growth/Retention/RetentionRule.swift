import Foundation

/// A rule of the catalog's retention messages (the entitlements file's `retentionMessages`): when Apple
/// asks, in real time, which message to show a customer about to cancel, the first rule that applies
/// answers (``RetentionRule/choose(among:productID:locale:catalog:offerAllowed:)``).
public struct RetentionRule: Hashable, Sendable {
    /// What the message offers besides its text.
    public enum Action: Hashable, Sendable {
        /// A message alone (text, and the image uploaded with it).
        case message(UUID)
        /// A switch to another product of the subscription group, with a message.
        case alternateProduct(ProductID, message: UUID)
        /// A promotional offer of the subscription being cancelled, with an optional message.
        case promotionalOffer(offerID: String, message: UUID?)
    }

    /// The subscriptions it applies to; every one when empty.
    public var products: [ProductID]
    /// Device locales it applies to, normalised (`en`, `en-gb`); every one when empty.
    public var locales: [String]
    public var action: Action

    public init(products: [ProductID] = [], locales: [String] = [], action: Action) {
        self.products = products
        self.locales = locales.map(Self.normalized)
        self.action = action
    }

    /// Whether the rule applies to a customer cancelling `productID` on a device set to `locale`
    /// (Apple's `userLocale`, `en-US` or `en_US`): the product listed (or none listed), and a listed
    /// locale equal to it or to its language (or none listed).
    public func applies(to productID: ProductID, locale: String) -> Bool {
        guard products.isEmpty || products.contains(productID) else { return false }
        guard !locales.isEmpty else { return true }
        let device = Self.normalized(locale)
        return locales.contains { $0 == device || device.hasPrefix($0 + "-") }
    }

    /// The first rule of `rules` that applies to the customer and whose offer can be made: an alternate
    /// product of the same subscription group other than the one cancelled, a promotional offer the
    /// cancelled product has and `offerAllowed` admits (the offer can be signed, and the catalog's rule
    /// for it admits the customer). `nil`: no rule applies, and Apple shows the app's default message, if any.
    public static func choose(
        among rules: [RetentionRule], productID: ProductID, locale: String, catalog: Catalog, offerAllowed: (String) -> Bool
    ) -> RetentionRule? {
        rules.first { rule in
            guard rule.applies(to: productID, locale: locale) else { return false }
            switch rule.action {
            case .message:
                return true
            case .alternateProduct(let alternate, _):
                guard alternate != productID, let group = catalog.product(productID)?.subscriptionGroupID else { return false }
                return catalog.product(alternate)?.subscriptionGroupID == group
            case .promotionalOffer(let offerID, _):
                return catalog.product(productID)?.promotionalOffers.contains { $0.id == offerID } == true && offerAllowed(offerID)
            }
        }
    }

    static func normalized(_ locale: String) -> String {
        locale.replacingOccurrences(of: "_", with: "-").lowercased()
    }
}
