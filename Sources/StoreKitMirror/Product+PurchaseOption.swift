#if !canImport(StoreKit)
import Foundation

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    /// https://developer.apple.com/documentation/storekit/product/purchaseoption
    /// `struct PurchaseOption` — `Hashable`, `Sendable`; made by its static functions only.
    public struct PurchaseOption: Hashable, Sendable {
        /// The mirror's own: what the option says, for the backend (StoreKit keeps it private).
        public enum Kind: Hashable, Sendable {
            case appAccountToken(UUID)
            case promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int)
            case promotionalOfferJWS(offerID: String, compactJWS: String)
            case winBackOffer(Product.SubscriptionOffer)
            case introductoryOfferEligibility(compactJWS: String)
            case quantity(Int)
            case simulatesAskToBuyInSandbox(Bool)
        }

        /// The mirror's own.
        public let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/appaccounttoken(_:)
        /// `static func appAccountToken(_ token: UUID) -> Product.PurchaseOption`
        public static func appAccountToken(_ token: UUID) -> Product.PurchaseOption { .init(.appAccountToken(token)) }

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/promotionaloffer(offerid:keyid:nonce:signature:timestamp:)
        /// `static func promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int) -> Product.PurchaseOption`
        public static func promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int) -> Product.PurchaseOption {
            .init(.promotionalOffer(offerID: offerID, keyID: keyID, nonce: nonce, signature: signature, timestamp: timestamp))
        }

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/promotionaloffer(_:compactjws:)
        /// `@backDeployed(before: iOS 26.0, macOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0)`
        /// `static func promotionalOffer(_ offerID: String, compactJWS: String) -> [Product.PurchaseOption]`
        public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [Product.PurchaseOption] {
            [.init(.promotionalOfferJWS(offerID: offerID, compactJWS: compactJWS))]
        }

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/winbackoffer(_:)
        /// `static func winBackOffer(_ offer: Product.SubscriptionOffer) -> Product.PurchaseOption` — iOS 18.0,
        /// macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0.
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> Product.PurchaseOption { .init(.winBackOffer(offer)) }

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/introductoryoffereligibility(compactjws:)
        /// `@backDeployed(before: iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4)`
        /// `static func introductoryOfferEligibility(compactJWS: String) -> Product.PurchaseOption`
        public static func introductoryOfferEligibility(compactJWS: String) -> Product.PurchaseOption {
            .init(.introductoryOfferEligibility(compactJWS: compactJWS))
        }

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/quantity(_:)
        public static func quantity(_ quantity: Int) -> Product.PurchaseOption { .init(.quantity(quantity)) }

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/simulatesasktobuyinsandbox(_:)
        public static func simulatesAskToBuyInSandbox(_ simulatesAskToBuy: Bool) -> Product.PurchaseOption {
            .init(.simulatesAskToBuyInSandbox(simulatesAskToBuy))
        }
    }
}
#endif
