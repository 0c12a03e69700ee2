import Foundation

/// What kind of subscription offer a paywall shows.
public struct OfferKind: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let introductory = OfferKind(rawValue: "introductory")
    public static let promotional = OfferKind(rawValue: "promotional")
    public static let offerCode = OfferKind(rawValue: "offer_code")
    public static let winBack = OfferKind(rawValue: "win_back")

    public static let known: [OfferKind] = [.introductory, .promotional, .offerCode, .winBack]
}
