/// Which of a product's offers a subscriber may have now (``OfferEligibility``).
public struct ProductEligibility: Hashable, Sendable, Codable {
    public var productID: ProductID
    /// Whether the introductory offer is theirs; `nil` when the product has none.
    public var introductoryOffer: Bool?
    /// The promotional offers the catalog's rules admit them to.
    public var promotionalOfferIDs: [String]
    /// The win-back offers Apple says they may redeem (`eligibleWinBackOfferIds` of the renewal info).
    public var winBackOfferIDs: [String]

    public init(productID: ProductID, introductoryOffer: Bool?, promotionalOfferIDs: [String], winBackOfferIDs: [String]) {
        self.productID = productID
        self.introductoryOffer = introductoryOffer
        self.promotionalOfferIDs = promotionalOfferIDs
        self.winBackOfferIDs = winBackOfferIDs
    }
}
