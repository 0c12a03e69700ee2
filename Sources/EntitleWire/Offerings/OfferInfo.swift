import Foundation

/// A subscription offer as a paywall shows it: introductory, promotional or win-back.
public struct OfferInfo: Codable, Hashable, Sendable {
    /// `introductory`, `promotional`, `offer_code`, `win_back`.
    public var kind: OfferKind
    /// The identifier the app passes to StoreKit (promotional and win-back offers).
    public var id: String?
    /// `free`, `payAsYouGo`, `payUpFront`.
    public var paymentMode: String
    /// ISO 8601 duration of one offer period.
    public var period: String
    public var numberOfPeriods: Int
    /// The discounted price (per period, or in total up front); `null` when free.
    public var price: String?
    public var priceMilliunits: Int64?

    public init(kind: OfferKind, id: String?, paymentMode: String, period: String, numberOfPeriods: Int, price: String?, priceMilliunits: Int64?) {
        self.kind = kind
        self.id = id
        self.paymentMode = paymentMode
        self.period = period
        self.numberOfPeriods = numberOfPeriods
        self.price = price
        self.priceMilliunits = priceMilliunits
    }
}
