import Foundation

/// `GET /v1/offerings`: what a paywall shows, from the app's catalog, so the app hard-codes no product.
public struct OfferingsResponse: Codable, Hashable, Sendable {
    /// The offering the paywall shows now (experiments switch it).
    public var currentOfferingID: String
    public var offerings: [Offering]

    public init(currentOfferingID: String, offerings: [Offering]) {
        self.currentOfferingID = currentOfferingID
        self.offerings = offerings
    }
}
