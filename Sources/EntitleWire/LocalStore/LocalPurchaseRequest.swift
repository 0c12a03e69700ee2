import Foundation

/// `POST /local-store/v1/{bundleID}/purchases`: buy from the local App Store as the store account
/// `account` (an Apple ID, in effect), with the app's appAccountToken.
public struct LocalPurchaseRequest: Codable, Hashable, Sendable {
    public var productID: String
    public var account: String
    public var appAccountToken: UUID?
    /// A signed promotional offer the purchase redeems.
    public var promotionalOffer: LocalPromotionalOffer?
    /// The app's server's signed introductory-offer eligibility (a compact JWS), as StoreKit takes it.
    public var introductoryOfferEligibility: String?
    /// A win-back offer of the product the purchase redeems (a return to a group the account left).
    public var winBackOfferID: String?

    public init(
        productID: String, account: String, appAccountToken: UUID?, promotionalOffer: LocalPromotionalOffer? = nil, introductoryOfferEligibility: String? = nil,
        winBackOfferID: String? = nil
    ) {
        self.winBackOfferID = winBackOfferID
        self.productID = productID
        self.account = account
        self.appAccountToken = appAccountToken
        self.promotionalOffer = promotionalOffer
        self.introductoryOfferEligibility = introductoryOfferEligibility
    }
}
