import EntitleWire
import Foundation

/// A subscription offer as a paywall shows it: introductory, promotional or win-back.
public struct Offer: Sendable, Hashable {
    public enum Kind: WireMapped {
        case introductory
        case promotional
        case offerCode
        case winBack
        case other(String)

        static let cases: [(wire: OfferKind, value: Kind)] = [
            (.introductory, .introductory), (.promotional, .promotional), (.offerCode, .offerCode), (.winBack, .winBack),
        ]

        var otherValue: String? { if case .other(let value) = self { value } else { nil } }


        /// The value as the API spells it.

        public var rawValue: String { wireRawValue }

        public var description: String { wireRawValue }
    }

    /// How the customer pays during the offer, in StoreKit's terms.
    public enum PaymentMode: Sendable, Hashable {
        case freeTrial
        case payAsYouGo
        case payUpFront
        case other(String)

        init(_ text: String) {
            switch text {
            case "free", "freeTrial": self = .freeTrial
            case "payAsYouGo": self = .payAsYouGo
            case "payUpFront": self = .payUpFront
            default: self = .other(text)
            }
        }
    }

    public var kind: Kind
    /// The identifier to redeem it with (promotional and win-back offers).
    public var id: String?
    public var paymentMode: PaymentMode
    /// One offer period; `nil` when the server sent a duration this version can't read.
    public var period: SubscriptionPeriod?
    public var numberOfPeriods: Int
    /// The discounted price (per period, or in total up front) as a decimal in the product's currency;
    /// `nil` when free.
    public var price: Decimal?

    init(_ wire: OfferInfo) {
        kind = Kind(wire.kind)
        id = wire.id
        paymentMode = PaymentMode(wire.paymentMode)
        period = SubscriptionPeriod(iso8601: wire.period)
        numberOfPeriods = wire.numberOfPeriods
        price = wire.price.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
    }
}
