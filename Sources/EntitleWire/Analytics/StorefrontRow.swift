import Foundation

/// One App Store storefront over the report's days: the new paid subscriptions and the money from it.
public struct StorefrontRow: Hashable, Sendable, Codable {
    /// Apple's three-letter code (`USA`, `FRA`); empty for transactions that named none.
    public var storefront: String
    /// Purchase chains whose first paid period was bought there.
    public var newPaid: Int64
    /// Gross revenue and proceeds (net of refunds and Apple's commission), in milliunits by currency.
    public var revenue: [String: Int64]
    public var proceeds: [String: Int64]

    public init(storefront: String, newPaid: Int64, revenue: [String: Int64], proceeds: [String: Int64]) {
        self.storefront = storefront
        self.newPaid = newPaid
        self.revenue = revenue
        self.proceeds = proceeds
    }
}
