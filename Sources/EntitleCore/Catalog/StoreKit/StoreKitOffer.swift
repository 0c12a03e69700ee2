import Foundation

/// An introductory offer, promotional offer (`adHocOffers`), offer code (`codeOffers`) or win-back offer
/// of a `.storekit` subscription.
public struct StoreKitOffer: Decodable, Sendable, Hashable {
    public var internalID: String?
    /// The identifier the app passes to StoreKit for promotional and win-back offers.
    public var offerID: String?
    public var referenceName: String?
    /// `free`, `payAsYouGo` or `payUpFront`.
    public var paymentMode: String
    public var subscriptionPeriod: String
    /// How many periods the offer lasts (pay as you go); defaults to 1.
    public var numberOfPeriods: Int?
    public var displayPrice: String?

    enum CodingKeys: String, CodingKey {
        case internalID, offerID, referenceName, paymentMode, subscriptionPeriod, numberOfPeriods, displayPrice
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        internalID = try container.decodeIfPresent(String.self, forKey: .internalID)
        offerID = try container.decodeIfPresent(String.self, forKey: .offerID)
        referenceName = try container.decodeIfPresent(String.self, forKey: .referenceName)
        paymentMode = try container.decode(String.self, forKey: .paymentMode)
        subscriptionPeriod = try container.decode(String.self, forKey: .subscriptionPeriod)
        numberOfPeriods = try container.decodeIfPresent(Int.self, forKey: .numberOfPeriods)
        displayPrice = try container.decodeIfPresent(String.self, forKey: .displayPrice)
    }
}
