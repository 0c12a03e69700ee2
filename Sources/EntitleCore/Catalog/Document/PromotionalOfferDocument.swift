import Foundation

/// A promotional offer's rule in the entitlements file (`promotionalOffers`, by the offer's ID in the
/// `.storekit` file): who the server signs it for.
public struct PromotionalOfferDocument: Decodable, Sendable, Hashable {
    /// `lapsed`, `subscribers` or `anyone` (``PromotionalOfferEligibility``).
    public var eligibility: String
}
