import Foundation

/// The offer a subscription's next renewal redeems (the customer redeemed an offer code, a promotional or
/// a win-back offer: Apple's OFFER_REDEEMED).
public struct RenewalOfferInfo: Codable, Hashable, Sendable {
    /// The period it gives: `offer_code`, `promotional`, `win_back` or `intro`.
    public var periodType: String
    /// The offer's identifier (an offer code's reference, a promotional offer's ID), when Apple gave it.
    public var offerID: String?

    public init(periodType: String, offerID: String?) {
        self.periodType = periodType
        self.offerID = offerID
    }
}
