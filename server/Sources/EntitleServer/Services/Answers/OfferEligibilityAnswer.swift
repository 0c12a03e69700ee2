import EntitleCore

/// What a subscriber may have of a product's offers, and the introductory-offer answer signed for
/// StoreKit when the server holds the app's in-app purchase key.
public struct OfferEligibilityAnswer: Hashable, Sendable {
    public var eligibility: ProductEligibility
    public var introductoryOfferJWS: String?
}
