import Foundation

/// An offer of an auto-renewable subscription: introductory, promotional, offer code or win-back.
public struct SubscriptionOffer: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case introductory, promotional, offerCode = "offer_code", winBack = "win_back"
    }

    public var kind: Kind
    /// The identifier the app passes to StoreKit (promotional and win-back offers), else the internal one.
    public var id: String?
    public var referenceName: String?
    public var paymentMode: OfferPaymentMode
    public var period: ISODuration
    public var numberOfPeriods: Int
    /// The discounted price per period (pay as you go) or in total (pay up front); nil when free.
    public var price: Price?

    public init(
        kind: Kind, id: String? = nil, referenceName: String? = nil, paymentMode: OfferPaymentMode,
        period: ISODuration, numberOfPeriods: Int = 1, price: Price? = nil
    ) {
        self.kind = kind
        self.id = id
        self.referenceName = referenceName
        self.paymentMode = paymentMode
        self.period = period
        self.numberOfPeriods = numberOfPeriods
        self.price = price
    }
}
