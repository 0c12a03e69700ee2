import AppStoreModels
import EntitleCore
import Foundation

/// Renewals, billing failures, grace periods and expiry, with the notifications Apple sends.
extension StoreSimulator {
    /// The subscription renews (DID_RENEW; BILLING_RECOVERY after a failed renewal) at its expiry,
    /// or at `now` when recovering from billing retry. A pending downgrade or redeemed offer takes
    /// effect here. Family members renew with it.
    public mutating func renew(_ original: String, at now: Date? = nil) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.ownership == .purchased, chain.phase != .revoked, chain.phase != .expired else {
            throw LocalStoreError(.invalidTransition, "\(original) can't renew (\(chain.phase.rawValue))")
        }
        let recovering = chain.phase == .gracePeriod || chain.phase == .billingRetry
        let expires = chain.expiresDate ?? chain.purchaseDate
        // Recovered in grace: no service days lost, the period starts at the old expiry. Recovered
        // in billing retry: a new period starts at recovery.
        let start = chain.phase == .billingRetry ? (now ?? expires) : expires
        let at = now ?? expires
        let product = try product(chain.autoRenewProductID)
        chain.productID = product.id.rawValue
        chain.phase = .active
        chain.gracePeriodExpiresDate = nil
        chain.renewals += 1
        try startPeriod(&chain, product: product, at: start)
        subscriptions[original] = chain
        var notifications = [try notify(.didRenew, recovering ? .billingRecovery : nil, chain, at: at)]
        for member in chain.familyMembers {
            guard var shared = subscriptions[member], shared.phase != .revoked else { continue }
            shared.productID = chain.productID
            shared.purchaseDate = chain.purchaseDate
            shared.expiresDate = chain.expiresDate
            shared.webOrderLineItemID = chain.webOrderLineItemID
            shared.commitment = chain.commitment
            shared.transactionID = identifier()
            shared.phase = .active
            shared.gracePeriodExpiresDate = nil
            subscriptions[member] = shared
            notifications.append(try notify(.didRenew, recovering ? .billingRecovery : nil, shared, at: at))
        }
        return notifications
    }

    /// The renewal fails: DID_FAIL_TO_RENEW, with the GRACE_PERIOD subtype when the app has a
    /// billing grace period (access continues until it ends), otherwise straight into billing retry.
    public mutating func failRenewal(_ original: String, at now: Date? = nil) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.phase == .active, chain.renewsNext else {
            throw LocalStoreError(.invalidTransition, "only an active, renewing subscription can fail to renew (\(original))")
        }
        let expires = chain.expiresDate ?? chain.purchaseDate
        if let grace = billingGracePeriod {
            chain.phase = .gracePeriod
            chain.gracePeriodExpiresDate = timeScale.end(of: grace, from: expires)
        } else {
            chain.phase = .billingRetry
        }
        chain.offerDiscountType = nil
        chain.offerType = nil
        subscriptions[original] = chain
        return try notifyFamily(chain, .didFailToRenew, chain.phase == .gracePeriod ? .gracePeriod : nil, at: now ?? expires)
    }

    /// The billing grace period ends without recovery: GRACE_PERIOD_EXPIRED; billing retry goes on.
    public mutating func expireGracePeriod(_ original: String, at now: Date? = nil) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.phase == .gracePeriod, let ends = chain.gracePeriodExpiresDate else {
            throw LocalStoreError(.invalidTransition, "\(original) is not in a billing grace period")
        }
        chain.phase = .billingRetry
        subscriptions[original] = chain
        return try notifyFamily(chain, .gracePeriodExpired, nil, at: now ?? ends)
    }

    /// Why a subscription ends, as the EXPIRED notification's subtype says.
    public enum ExpiryReason: Sendable {
        /// The customer turned auto-renew off (EXPIRED, VOLUNTARY); at the period's end.
        case voluntary
        /// Billing retry gave up (EXPIRED, BILLING_RETRY).
        case billingRetry
        /// The customer didn't consent to a price increase (EXPIRED, PRICE_INCREASE); at the period's end.
        case priceIncrease
        /// The product was no longer for sale at renewal (EXPIRED, PRODUCT_NOT_FOR_SALE); at the period's end.
        case productNotForSale
    }

    /// The subscription expires. At its expiry date unless `now` is given (billing retry ends when
    /// Apple stops retrying).
    public mutating func expire(_ original: String, reason: ExpiryReason, at now: Date? = nil) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.ownership == .purchased, chain.phase != .revoked, chain.phase != .expired else {
            throw LocalStoreError(.invalidTransition, "\(original) can't expire (\(chain.phase.rawValue))")
        }
        let subtype: Subtype
        switch reason {
        case .voluntary:
            guard chain.phase == .active, !chain.renewsNext else {
                throw LocalStoreError(
                    .invalidTransition, "a voluntary expiry needs auto-renew turned off first, and a commitment's last instalment (\(original))")
            }
            subtype = .voluntary
            chain.expirationIntent = .customerCancelled
        case .billingRetry:
            guard chain.phase == .billingRetry || chain.phase == .gracePeriod else {
                throw LocalStoreError(.invalidTransition, "\(original) is not in billing retry")
            }
            subtype = .billingRetry
            chain.expirationIntent = .billingError
        case .priceIncrease:
            subtype = .priceIncrease
            chain.expirationIntent = .customerDidNotConsentToPriceIncrease
        case .productNotForSale:
            subtype = .productNotForSale
            chain.expirationIntent = .productNotAvailable
        }
        let at = now ?? chain.expiresDate ?? chain.purchaseDate
        chain.phase = .expired
        chain.autoRenew = false
        chain.gracePeriodExpiresDate = nil
        subscriptions[original] = chain
        return try notifyFamily(chain, .expired, subtype, at: at) { member in
            member.expirationIntent = chain.expirationIntent
        }
    }
}
