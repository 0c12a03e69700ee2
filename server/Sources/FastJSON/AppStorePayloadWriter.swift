import AppStoreModels
import Foundation

/// Writes transactions and renewal info as ``AppStoreJSON/encoder()`` (and the ledger's encoder) writes
/// them, byte for byte, without `JSONEncoder`: the ledger stores one or both with every notification.
/// A payload with a member written only through `Codable` here (`advancedCommerceInfo`,
/// `commitmentInfo`) is not written (`false`), and the caller encodes it with `JSONEncoder`.
package enum AppStorePayloadWriter {
    /// Writes `t` as an object, its keys in `JSONEncoder`'s sorted order; `false` (nothing written)
    /// when it has a member written only through `Codable`.
    package static func write(_ t: JWSTransactionDecodedPayload, to json: inout JSONText) -> Bool {
        guard t.advancedCommerceInfo == nil, t.commitmentInfo == nil else { return false }
        json.openObject()
        json.member("appAccountToken", t.appAccountToken)
        json.member("appTransactionId", t.appTransactionId)
        json.member("billingPlanType", t.billingPlanType)
        json.member("bundleId", t.bundleId)
        json.member("currency", t.currency)
        json.member("environment", t.environment)
        json.member("expiresDate", t.expiresDate)
        json.member("inAppOwnershipType", t.inAppOwnershipType)
        json.member("isUpgraded", t.isUpgraded)
        json.member("offerDiscountType", t.offerDiscountType)
        json.member("offerIdentifier", t.offerIdentifier)
        json.member("offerPeriod", t.offerPeriod)
        json.member("offerType", t.offerType)
        json.member("originalPurchaseDate", t.originalPurchaseDate)
        json.member("originalTransactionId", t.originalTransactionId)
        json.member("price", t.price)
        json.member("productId", t.productId)
        json.member("purchaseDate", t.purchaseDate)
        json.member("quantity", t.quantity)
        json.member("revocationDate", t.revocationDate)
        json.member("revocationPercentage", t.revocationPercentage)
        json.member("revocationReason", t.revocationReason)
        json.member("revocationType", t.revocationType)
        json.member("signedDate", t.signedDate)
        json.member("storefront", t.storefront)
        json.member("storefrontId", t.storefrontId)
        json.member("subscriptionGroupIdentifier", t.subscriptionGroupIdentifier)
        json.member("transactionId", t.transactionId)
        json.member("transactionReason", t.transactionReason)
        json.member("type", t.type)
        json.member("webOrderLineItemId", t.webOrderLineItemId)
        json.closeObject()
        return true
    }

    /// Writes `r` as an object, its keys in `JSONEncoder`'s sorted order; `false` (nothing written)
    /// when it has a member written only through `Codable`.
    package static func write(_ r: JWSRenewalInfoDecodedPayload, to json: inout JSONText) -> Bool {
        guard r.advancedCommerceInfo == nil, r.commitmentInfo == nil else { return false }
        json.openObject()
        json.member("appAccountToken", r.appAccountToken)
        json.member("appTransactionId", r.appTransactionId)
        json.member("autoRenewProductId", r.autoRenewProductId)
        json.member("autoRenewStatus", r.autoRenewStatus)
        json.member("currency", r.currency)
        json.member("eligibleWinBackOfferIds", r.eligibleWinBackOfferIds)
        json.member("environment", r.environment)
        json.member("expirationIntent", r.expirationIntent)
        json.member("gracePeriodExpiresDate", r.gracePeriodExpiresDate)
        json.member("isInBillingRetryPeriod", r.isInBillingRetryPeriod)
        json.member("offerDiscountType", r.offerDiscountType)
        json.member("offerIdentifier", r.offerIdentifier)
        json.member("offerPeriod", r.offerPeriod)
        json.member("offerType", r.offerType)
        json.member("originalTransactionId", r.originalTransactionId)
        json.member("priceIncreaseStatus", r.priceIncreaseStatus)
        json.member("productId", r.productId)
        json.member("recentSubscriptionStartDate", r.recentSubscriptionStartDate)
        json.member("renewalBillingPlanType", r.renewalBillingPlanType)
        json.member("renewalDate", r.renewalDate)
        json.member("renewalPrice", r.renewalPrice)
        json.member("signedDate", r.signedDate)
        json.closeObject()
        return true
    }
}
