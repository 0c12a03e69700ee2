import AppStoreModels
import EntitleCore
import Foundation

/// Builders for transactions and renewal info shaped as Apple signs them, for lifecycle and
/// entitlement tests. Identifiers follow Apple's pattern: a new `transactionId` per renewal, a
/// constant `originalTransactionId`, a `webOrderLineItemId` per period.
public struct AppleFacts: Sendable {
    public var bundleID: String
    public var environment: Environment

    public init(bundleID: String = "com.example", environment: Environment = .sandbox) {
        self.bundleID = bundleID
        self.environment = environment
    }

    /// An auto-renewable subscription transaction for the period `[purchase, expires)`.
    public func subscription(
        _ productID: String, original: String, id: String? = nil, purchase: Date, expires: Date,
        signed: Date? = nil, originalPurchase: Date? = nil, offer: OfferType? = nil,
        discount: OfferDiscountType? = nil, price: Int64 = 7990, reason: TransactionReason = .purchase,
        ownership: InAppOwnershipType = .purchased, upgraded: Bool? = nil, revoked: Date? = nil,
        revocationReason: RevocationReason? = nil, revocationType: RevocationType? = nil, groupID: String = "G1",
        appAccountToken: UUID? = nil
    ) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            appAccountToken: appAccountToken, bundleId: bundleID, currency: "USD", environment: environment,
            expiresDate: expires, inAppOwnershipType: ownership, isUpgraded: upgraded,
            offerDiscountType: discount, offerType: offer, originalPurchaseDate: originalPurchase ?? purchase,
            originalTransactionId: original, price: offer != nil && discount == .freeTrial ? 0 : price,
            productId: productID, purchaseDate: purchase, quantity: 1, revocationDate: revoked,
            revocationReason: revocationReason, revocationType: revocationType, signedDate: signed ?? revoked ?? purchase,
            storefront: "USA", storefrontId: "143441", subscriptionGroupIdentifier: groupID,
            transactionId: id ?? "\(original)-\(Int(purchase.timeIntervalSince1970))", transactionReason: reason,
            type: .autoRenewable, webOrderLineItemId: "\(original)-w\(Int(purchase.timeIntervalSince1970))")
    }

    /// A one-time purchase: non-consumable by default.
    public func purchase(
        _ productID: String, id: String, at purchase: Date, type: ProductType = .nonConsumable, signed: Date? = nil,
        revoked: Date? = nil, revocationReason: RevocationReason? = nil, ownership: InAppOwnershipType = .purchased,
        price: Int64 = 99990
    ) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            bundleId: bundleID, currency: "USD", environment: environment, inAppOwnershipType: ownership,
            originalPurchaseDate: purchase, originalTransactionId: id, price: price, productId: productID,
            purchaseDate: purchase, quantity: 1, revocationDate: revoked, revocationReason: revocationReason,
            signedDate: signed ?? revoked ?? purchase, storefront: "USA", transactionId: id,
            transactionReason: .purchase, type: type)
    }

    /// Renewal info for a subscription chain.
    public func renewal(
        original: String, product: String, autoRenewProduct: String? = nil, autoRenew: AutoRenewStatus = .on,
        signed: Date, expirationIntent: ExpirationIntent? = nil, billingRetry: Bool? = false,
        graceEnds: Date? = nil, priceIncrease: PriceIncreaseStatus? = nil, renewalDate: Date? = nil
    ) -> JWSRenewalInfoDecodedPayload {
        JWSRenewalInfoDecodedPayload(
            autoRenewProductId: autoRenewProduct ?? product, autoRenewStatus: autoRenew, currency: "USD",
            environment: environment, expirationIntent: expirationIntent, gracePeriodExpiresDate: graceEnds,
            isInBillingRetryPeriod: billingRetry, originalTransactionId: original, priceIncreaseStatus: priceIncrease,
            productId: product, renewalDate: renewalDate, signedDate: signed)
    }

    /// Facts of one chain from transactions and renewal info.
    public func chain(
        _ original: OriginalTransactionID, _ transactions: [JWSTransactionDecodedPayload], renewal: JWSRenewalInfoDecodedPayload? = nil
    ) -> SubscriptionFacts {
        var facts = SubscriptionFacts(originalTransactionID: original)
        transactions.forEach { facts.record($0) }
        if let renewal { facts.record(renewal) }
        return facts
    }
}
