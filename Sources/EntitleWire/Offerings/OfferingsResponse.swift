import Foundation

/// `GET /v1/offerings`: what a paywall shows, from the app's catalog, so the app hard-codes no product.
public struct OfferingsResponse: Codable, Hashable, Sendable {
    /// The offering the paywall shows now (experiments switch it).
    public var currentOfferingID: String
    public var offerings: [Offering]
    /// Why the current offering (a subscriber's offerings only): `experiment`, `rolled_out`,
    /// `targeting` or `default`.
    public var servedBy: String?
    /// The experiment and variant that chose it, when one did.
    public var experimentID: String?
    public var variantID: String?

    public init(currentOfferingID: String, offerings: [Offering], servedBy: String? = nil, experimentID: String? = nil, variantID: String? = nil) {
        self.currentOfferingID = currentOfferingID
        self.offerings = offerings
        self.servedBy = servedBy
        self.experimentID = experimentID
        self.variantID = variantID
    }
}
