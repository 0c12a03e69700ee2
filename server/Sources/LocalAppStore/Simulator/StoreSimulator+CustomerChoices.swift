import AppStoreModels
import EntitleCore
import Foundation

/// What a customer does with a subscription: auto-renew on or off, upgrades and downgrades, offer codes, price-increase consent, renewal extensions.
extension StoreSimulator {
    /// The customer turns auto-renew off or on: DID_CHANGE_RENEWAL_STATUS.
    public mutating func setAutoRenew(_ original: String, _ enabled: Bool, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.ownership == .purchased, chain.phase != .revoked, chain.phase != .expired, chain.autoRenew != enabled else {
            throw LocalStoreError(.invalidTransition, "auto-renew of \(original) can't be turned \(enabled ? "on" : "off") now")
        }
        chain.autoRenew = enabled
        chain.expirationIntent = nil
        subscriptions[original] = chain
        return try notifyFamily(chain, .didChangeRenewalStatus, enabled ? .autoRenewEnabled : .autoRenewDisabled, at: now) { member in
            member.autoRenew = enabled
        }
    }

    /// The customer switches product in the group: DID_CHANGE_RENEWAL_PREF, with Apple's rules
    /// (``ProductChange``). An upgrade, or a crossgrade to the same duration, takes effect at once with
    /// a new transaction (subtype UPGRADE, none for the crossgrade); a downgrade, or a crossgrade to
    /// another duration, at renewal (DOWNGRADE, none for the crossgrade). Choosing the current product
    /// again cancels a pending change.
    public mutating func changeProduct(_ original: String, to productID: String, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        let current = try product(chain.productID)
        let target = try product(productID)
        guard chain.kind == .autoRenewable, chain.ownership == .purchased, chain.phase == .active,
            target.kind == .autoRenewable, target.subscriptionGroupID == current.subscriptionGroupID
        else {
            throw LocalStoreError(.invalidTransition, "\(original) can't change to \(productID) (another group, or not active)")
        }
        guard let change = ProductChange(from: current, to: target) else {
            chain.autoRenewProductID = productID
            subscriptions[original] = chain
            return [try notify(.didChangeRenewalPref, nil, chain, at: now)]
        }
        switch change.timing {
        case .immediately:
            chain.productID = productID
            chain.autoRenewProductID = productID
            chain.autoRenew = true
            try startPeriod(&chain, product: target, at: now)
            subscriptions[original] = chain
            return try notifyFamily(chain, .didChangeRenewalPref, change.notificationSubtype, at: now) { member in
                member.productID = chain.productID
                member.autoRenewProductID = productID
                member.purchaseDate = chain.purchaseDate
                member.expiresDate = chain.expiresDate
            }
        case .atNextRenewal:
            chain.autoRenewProductID = productID
            subscriptions[original] = chain
            return try notifyFamily(chain, .didChangeRenewalPref, change.notificationSubtype, at: now) { member in
                member.autoRenewProductID = productID
            }
        }
    }

    /// The customer redeems a promotional offer or offer code for the next renewal: OFFER_REDEEMED.
    public mutating func redeemOffer(_ original: String, type: OfferType, identifier offerID: String, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.phase == .active else {
            throw LocalStoreError(.invalidTransition, "an offer applies to an active subscription (\(original))")
        }
        chain.pendingOffer = (type, offerID)
        subscriptions[original] = chain
        return [try notify(.offerRedeemed, nil, chain, at: now)]
    }

    /// The developer raises the price: PRICE_INCREASE, PENDING until the customer consents (or
    /// ACCEPTED when `consented`).
    public mutating func priceIncrease(_ original: String, consented: Bool, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.phase == .active else {
            throw LocalStoreError(.invalidTransition, "a price increase applies to an active subscription (\(original))")
        }
        chain.priceIncreaseStatus = consented ? .customerConsentedOrWasNotifiedWithoutNeedingConsent : .customerHasNotResponded
        subscriptions[original] = chain
        return [try notify(.priceIncrease, consented ? .accepted : .pending, chain, at: now)]
    }

    /// The developer extends the current period by `days` (App Store Server API): RENEWAL_EXTENDED.
    public mutating func extendRenewal(_ original: String, days: Int, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.phase == .active, (1...90).contains(days), let expires = chain.expiresDate else {
            throw LocalStoreError(.invalidTransition, "only an active subscription can be extended, by 1 to 90 days (\(original))")
        }
        chain.expiresDate = timeScale.end(of: ISODuration(days: days), from: expires)
        subscriptions[original] = chain
        return try notifyFamily(chain, .renewalExtended, nil, at: now) { member in member.expiresDate = chain.expiresDate }
    }
}
