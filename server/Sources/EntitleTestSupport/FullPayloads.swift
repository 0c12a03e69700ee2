import AppStoreModels
import Foundation

/// A transaction and renewal info with every field Entitle reads set, and awkward values in each
/// (unknown enumeration values, extreme numbers, dates before 1970 and with fractional milliseconds,
/// text past ASCII): what the JSON readers and writers are compared with `Codable` on.
public enum FullPayloads {
    public static let transaction: JWSTransactionDecodedPayload = {
        var t = JWSTransactionDecodedPayload(
            appAccountToken: UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"), appTransactionId: "704",
            bundleId: "com.example.app", currency: "EUR", environment: .sandbox, expiresDate: Date(timeIntervalSince1970: 1_757_916_813.7115125),
            inAppOwnershipType: .familyShared, isUpgraded: true, offerDiscountType: OfferDiscountType(rawValue: "SOMETHING_NEW"),
            offerIdentifier: "winback-ünï", offerPeriod: "P1M", offerType: OfferType(rawValue: 99), originalPurchaseDate: Date(timeIntervalSince1970: 0),
            originalTransactionId: "1000", price: Int64.max, productId: "com.example.family.yearly", purchaseDate: Date(timeIntervalSince1970: -86_400.5),
            quantity: Int32.min, revocationDate: Date(timeIntervalSince1970: 1_800_000_000.001), revocationReason: .appIssue,
            revocationPercentage: 50_000, revocationType: RevocationType(rawValue: "REFUND_PRORATED"), signedDate: Date(timeIntervalSince1970: 1_700_000_000.123),
            storefront: "FRA", storefrontId: "143442", subscriptionGroupIdentifier: "G1 🎉", transactionId: "1001",
            transactionReason: .renewal, type: ProductType(rawValue: "Auto-Renewable Subscription"), webOrderLineItemId: "w-1")
        t.billingPlanType = BillingPlanType(rawValue: "MONTHLY")
        return t
    }()

    public static let renewalInfo: JWSRenewalInfoDecodedPayload = {
        var r = JWSRenewalInfoDecodedPayload(
            appAccountToken: UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"), appTransactionId: "704", autoRenewProductId: "p2",
            autoRenewStatus: .off, currency: "JPY", eligibleWinBackOfferIds: ["a", "b c", ""], environment: Environment(rawValue: "Xcode"),
            expirationIntent: ExpirationIntent(rawValue: Int32.max), gracePeriodExpiresDate: Date(timeIntervalSince1970: 1_757_916_813.7115125),
            isInBillingRetryPeriod: false, offerDiscountType: .payAsYouGo, offerIdentifier: "o", offerPeriod: "P3M", offerType: .promotionalOffer,
            originalTransactionId: "1000", priceIncreaseStatus: .customerConsentedOrWasNotifiedWithoutNeedingConsent, productId: "p1",
            recentSubscriptionStartDate: Date(timeIntervalSince1970: 1.5), renewalDate: Date(timeIntervalSince1970: 2e9), renewalPrice: -1,
            signedDate: Date(timeIntervalSince1970: 1_700_000_000.999))
        r.renewalBillingPlanType = BillingPlanType(rawValue: "ANNUAL")
        return r
    }()
}
