#if !canImport(StoreKit)
import AppStoreModels
import Foundation

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo {
    /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo
    /// `struct RenewalInfo` — `Hashable`, `Sendable`. Only the properties EntitleKit reads are mirrored.
    public struct RenewalInfo: Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/originaltransactionid
        public let originalTransactionID: UInt64
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/currentproductid
        public let currentProductID: String
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/willautorenew
        public let willAutoRenew: Bool
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/autorenewpreference
        public let autoRenewPreference: String?
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/isinbillingretry
        public let isInBillingRetry: Bool
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/graceperiodexpirationdate
        public let gracePeriodExpirationDate: Date?
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/eligiblewinbackofferids — iOS 18.0.
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public var eligibleWinBackOfferIDs: [String] { winBackOfferIDs }
        private let winBackOfferIDs: [String]
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/jsonrepresentation
        public let jsonRepresentation: Data
        let jws: String

        /// The mirror's own: a renewal info decoded from the JWS the store signed.
        init?(jws: String) {
            guard let (payload, json) = SignedPayload.decode(JWSRenewalInfoDecodedPayload.self, from: jws),
                let original = SignedPayload.identifier(payload.originalTransactionId), let product = payload.productId
            else { return nil }
            self.originalTransactionID = original
            self.currentProductID = product
            self.willAutoRenew = payload.autoRenewStatus == .on
            self.autoRenewPreference = payload.autoRenewProductId
            self.isInBillingRetry = payload.isInBillingRetryPeriod ?? false
            self.gracePeriodExpirationDate = payload.gracePeriodExpiresDate
            self.winBackOfferIDs = payload.eligibleWinBackOfferIds ?? []
            self.jsonRepresentation = json
            self.jws = jws
        }
    }
}
#endif
