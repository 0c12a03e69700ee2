import AppStoreModels
import Foundation

/// What kind of period the current transaction pays for.
public enum PeriodType: String, Hashable, Sendable, Codable, CaseIterable {
    /// Full price.
    case normal
    /// A free-trial introductory offer.
    case trial
    /// A paid introductory offer (pay as you go, pay up front).
    case intro
    case promotional
    case offerCode = "offer_code"
    case winBack = "win_back"
    /// A non-renewing subscription.
    case prepaid
    /// A non-consumable: access until revoked.
    case lifetime

    /// The period type an offer of `type` gives (the introductory offer's, when paid).
    public init(offer type: OfferType) {
        switch type {
        case .introductoryOffer: self = .intro
        case .promotionalOffer: self = .promotional
        case .subscriptionOfferCode: self = .offerCode
        case .winBackOffer: self = .winBack
        default: self = .normal
        }
    }

    /// The period type of an auto-renewable subscription transaction.
    public init(subscriptionTransaction transaction: JWSTransactionDecodedPayload) {
        switch transaction.offerType {
        case .introductoryOffer?:
            let free = transaction.offerDiscountType == .freeTrial
                || (transaction.offerDiscountType == nil && transaction.price == 0)
            self = free ? .trial : .intro
        case .promotionalOffer?: self = .promotional
        case .subscriptionOfferCode?: self = .offerCode
        case .winBackOffer?: self = .winBack
        default: self = .normal
        }
    }
}
