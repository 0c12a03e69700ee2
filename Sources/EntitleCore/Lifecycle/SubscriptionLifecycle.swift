import AppStoreModels
import Foundation

/// Evaluates a purchase chain's facts at an instant: a pure function, no clock of its own.
///
/// Apple's semantics throughout:
/// - The current transaction is the latest purchase. If it was upgraded away (`isUpgraded`), the
///   chain grants nothing until the new transaction is known; an upgrade therefore takes effect at
///   once, while a downgrade only changes `autoRenewProductId` and takes effect at renewal.
/// - A revocation (refund, Family Sharing removal) ends access at its date, unless a refund reversal
///   was signed after it.
/// - Past `expiresDate`, the renewal info decides: billing grace period (entitled until
///   `gracePeriodExpiresDate`), billing retry (not entitled), or expired with `expirationIntent`.
/// - A subscription billed monthly under a 12-month commitment (``Commitment``) is active through each
///   paid instalment; auto-renew turned off means it ends at the commitment's end, not at the next
///   instalment, which is charged (and can fail into grace and retry) as any renewal.
/// - Non-consumables are entitled until revoked; non-renewing subscriptions for their configured
///   duration from purchase.
public enum SubscriptionLifecycle {
    /// The chain's status at `now`, or `nil` when nothing that grants access is known (no
    /// transaction, or only consumables). Ask to Buy requests are the subscriber's, not a chain's
    /// (``PendingPurchase``): Apple signs nothing until approval.
    ///
    /// - Parameter nonRenewingDuration: how long a non-renewing subscription lasts (the catalog
    ///   knows); without it, the transaction's own `expiresDate` is used.
    public static func status(of facts: SubscriptionFacts, at now: Date, nonRenewingDuration: ISODuration? = nil) -> SubscriptionStatus? {
        guard let current = facts.currentTransaction else { return nil }
        let kind = current.type.flatMap(ProductKind.init) ?? (current.expiresDate == nil ? .nonConsumable : .autoRenewable)
        guard kind != .consumable else { return nil }

        var status = SubscriptionStatus(
            originalTransactionID: facts.originalTransactionID, productID: ProductID(current.productId ?? ""), kind: kind,
            state: .active, currentTransactionID: current.transactionId, purchasedAt: current.purchaseDate,
            originalPurchasedAt: current.originalPurchaseDate, expiresAt: current.expiresDate,
            isFamilyShared: current.inAppOwnershipType == .familyShared, environment: current.environment,
            price: current.price, currency: current.currency)

        if current.isUpgraded == true {
            status.state = .upgraded
            return status
        }
        if facts.isRevoked(current, at: now) {
            status.state = .revoked
            status.appleStatus = kind == .autoRenewable ? .revoked : nil
            status.revocationCause = RevocationCause(current)
            status.revokedAt = current.revocationDate
            return status
        }

        switch kind {
        case .nonConsumable, .consumable:
            status.periodType = .lifetime
            status.expiresAt = nil
            return status
        case .nonRenewing:
            status.periodType = .prepaid
            if let duration = nonRenewingDuration, let purchased = current.purchaseDate {
                status.expiresAt = duration.added(to: purchased)
            }
            if let expiresAt = status.expiresAt, now >= expiresAt {
                status.state = .expired
                status.expirationReason = .periodEnded
            }
            return status
        case .autoRenewable:
            return evaluateAutoRenewable(status, current: current, renewal: facts.renewalInfo, at: now)
        }
    }

    private static func evaluateAutoRenewable(
        _ base: SubscriptionStatus, current: JWSTransactionDecodedPayload, renewal: JWSRenewalInfoDecodedPayload?, at now: Date
    ) -> SubscriptionStatus {
        var status = base
        status.periodType = PeriodType(subscriptionTransaction: current)
        // Without renewal info, a subscription renews: that is the App Store's default.
        status.willRenew = renewal?.autoRenewStatus.map { $0 == .on } ?? true
        // Billed monthly under a 12-month commitment: the customer's choice applies at the commitment's
        // end, and the instalments before it are due whatever it is.
        if let commitment = Commitment(current, renewal: renewal) {
            status.commitment = commitment
            status.willRenew = commitment.renews
        }
        if let next = renewal?.autoRenewProductId, next != current.productId {
            status.renewsToProductID = ProductID(next)
        }
        // An offer redeemed for the next renewal (OFFER_REDEEMED), while it will renew.
        if let offer = renewal?.offerType, status.willRenew {
            status.renewalOffer = (offer, renewal?.offerIdentifier)
        }
        let expiresAt = current.expiresDate ?? current.purchaseDate ?? .distantPast
        if now < expiresAt {
            status.appleStatus = .active
            status.state = status.periodType == .trial ? .trial : (status.willRenew ? .active : .activeNotRenewing)
            return status
        }
        // Past the period's end. Only a grace period that ends after this period belongs to it.
        if let graceEnd = renewal?.gracePeriodExpiresDate, graceEnd > expiresAt, now < graceEnd,
            renewal?.isInBillingRetryPeriod != false
        {
            status.state = .gracePeriod
            status.appleStatus = .billingGracePeriod
            status.gracePeriodExpiresAt = graceEnd
            return status
        }
        if renewal?.isInBillingRetryPeriod == true {
            status.state = .billingRetry
            status.appleStatus = .billingRetry
            status.expirationReason = .billingError
            return status
        }
        status.state = .expired
        status.appleStatus = .expired
        status.willRenew = false
        var reason = ExpirationReason(renewal?.expirationIntent)
        if reason == .unknown, renewal?.autoRenewStatus == .off { reason = .voluntary }
        status.expirationReason = reason
        return status
    }
}
