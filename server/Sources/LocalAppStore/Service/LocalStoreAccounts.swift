import AppStoreModels
import EntitleCore
import Foundation
import NIOConcurrencyHelpers

/// The local App Store as apps buy from it: one simulator per app, and each store account's purchases
/// (the Apple ID in effect), so a second device of the same account restores them.
public final class LocalStoreAccounts: Sendable {
    private let stores: NIOLockedValueBox<[String: StoreSimulator]>
    private let purchases = NIOLockedValueBox<[String: [String]]>([:])
    /// Transactions that changed outside a purchase (refunds), per app and account, in order: what a
    /// device's transaction updates deliver.
    private let updates = NIOLockedValueBox<[String: [(signed: String, product: String)]]>([:])

    /// - Parameter stores: a simulator per bundle ID.
    public init(stores: [String: StoreSimulator]) {
        self.stores = NIOLockedValueBox(stores)
    }

    /// The catalog the app `bundleID` sells, if this local store sells it.
    public func catalog(bundleID: String) -> Catalog? {
        stores.withLockedValue { $0[bundleID]?.catalog }
    }

    /// Buys `productID` for `account` in the app `bundleID`, as the App Store does:
    /// - a subscription in a group where the account already has one is a change of that subscription
    ///   (one subscription per group): an upgrade, or a crossgrade of the same duration, at once — a new
    ///   transaction of the same chain, and the one it replaces re-signed with `isUpgraded` for the
    ///   account's devices; a downgrade at renewal; the same product again, nothing new;
    /// - a non-consumable the account owns (not refunded) is the purchase it made: no second one.
    ///
    /// `introductoryOffer`, the app's server's signed word on the introductory offer, replaces the
    /// store's own rule for it, as StoreKit's `introductoryOfferEligibility(compactJWS:)` does.
    public func purchase(
        bundleID: String, productID: String, account: String, appAccountToken: UUID?, promotionalOffer: String? = nil,
        introductoryOffer: Bool? = nil, winBackOffer: String? = nil, at now: Date
    ) throws(LocalStoreError) -> StorePurchase {
        let key = "\(bundleID)\u{1F}\(account)"
        let owned = purchases.withLockedValue { $0[key] ?? [] }
        let result: Result<(purchase: StorePurchase, replaced: String?, isNew: Bool), LocalStoreError> = stores.withLockedValue { stores in
            guard var store = stores[bundleID] else {
                return .failure(LocalStoreError(.unknownProduct, "\(bundleID) is not an app of this local store"))
            }
            do throws(LocalStoreError) {
                let outcome = try Self.purchase(
                    productID, in: &store, owned: owned, appAccountToken: appAccountToken, promotionalOffer: promotionalOffer, introductoryOffer: introductoryOffer,
                    winBackOffer: winBackOffer, at: now)
                stores[bundleID] = store
                return .success(outcome)
            } catch {
                return .failure(error)
            }
        }
        let outcome = try result.get()
        if outcome.isNew { purchases.withLockedValue { $0[key, default: []].append(outcome.purchase.originalTransactionID) } }
        if let replaced = outcome.replaced {
            updates.withLockedValue { $0[key, default: []].append((replaced, outcome.purchase.transaction.productId ?? productID)) }
        }
        return outcome.purchase
    }

    /// A purchase by an account that owns `owned`: a new chain, a change of the account's subscription
    /// in the product's group, a return to a group it left (the expired chain starts again, as Apple's
    /// RESUBSCRIBE: with a promotional or win-back offer when one is redeemed), or what it already owns.
    /// `replaced`: the transaction an upgrade replaced, re-signed with `isUpgraded`.
    private static func purchase(
        _ productID: String, in store: inout StoreSimulator, owned: [String], appAccountToken: UUID?, promotionalOffer: String?, introductoryOffer: Bool?,
        winBackOffer: String?, at now: Date
    ) throws(LocalStoreError) -> (purchase: StorePurchase, replaced: String?, isNew: Bool) {
        let product = try store.product(productID)
        let chains = owned.compactMap { store.subscription($0) }
        func current(_ chain: SimulatedSubscription) throws(LocalStoreError) -> StorePurchase {
            let transaction = store.transactionPayload(chain, signedAt: now)
            return StorePurchase(
                originalTransactionID: chain.originalTransactionID, transaction: transaction, signedTransaction: try store.signer.sign(transaction),
                notifications: [])
        }
        switch product.kind {
        case .autoRenewable:
            let group = product.subscriptionGroupID
            let catalog = store.catalog
            let inGroup = { (chain: SimulatedSubscription) in catalog.product(ProductID(chain.productID))?.subscriptionGroupID == group }
            if !chains.contains(where: { $0.kind == .autoRenewable && $0.phase != .expired && $0.phase != .revoked && inGroup($0) }),
                let left = chains.last(where: { $0.kind == .autoRenewable && $0.ownership == .purchased && $0.phase == .expired && inGroup($0) })
            {
                let purchase = try store.resubscribe(
                    left.originalTransactionID, productID: productID, promotionalOffer: promotionalOffer, winBackOffer: winBackOffer, at: now)
                return (purchase, nil, false)
            }
            if winBackOffer != nil {
                throw LocalStoreError(.invalidTransition, "a win-back offer is for a return to a subscription the account let expire")
            }
            guard let subscribed = chains.first(where: { chain in
                chain.kind == .autoRenewable && chain.ownership == .purchased && chain.phase != .expired && chain.phase != .revoked
                    && store.catalog.product(ProductID(chain.productID))?.subscriptionGroupID == group
            }) else { break }
            if subscribed.productID == productID { return (try current(subscribed), nil, false) }
            guard subscribed.phase == .active else {
                throw LocalStoreError(.invalidTransition, "\(subscribed.originalTransactionID) is in a billing issue; it changes product once it renews")
            }
            let notifications = try store.changeProduct(subscribed.originalTransactionID, to: productID, at: now)
            let changed = try store.chain(subscribed.originalTransactionID)
            var replaced: String?
            if changed.transactionID != subscribed.transactionID {
                var old = store.transactionPayload(subscribed, signedAt: now)
                old.isUpgraded = true
                replaced = try store.signer.sign(old)
            }
            let purchase = try current(changed)
            return (StorePurchase(
                originalTransactionID: purchase.originalTransactionID, transaction: purchase.transaction, signedTransaction: purchase.signedTransaction,
                notifications: notifications), replaced, false)
        case .nonConsumable:
            if let bought = chains.first(where: { $0.productID == productID && $0.phase != .revoked }) { return (try current(bought), nil, false) }
        case .consumable, .nonRenewing:
            break
        }
        return (
            try store.purchase(productID, appAccountToken: appAccountToken, at: now, introductoryOfferEligibility: introductoryOffer, promotionalOffer: promotionalOffer),
            nil, true
        )
    }

    /// Apple refunds the purchase `originalTransactionID` of `account`: the store's notifications (to
    /// deliver to the server) and, queued for the account's devices, the transaction re-signed with its
    /// revocation.
    public func refund(bundleID: String, account: String, originalTransactionID: String, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        try change(bundleID: bundleID, account: account, originalTransactionID: originalTransactionID, at: now) { store throws(LocalStoreError) in
            try store.refund(originalTransactionID, at: now)
        }
    }

    /// The customer turned off renewal and the period ended: the subscription `originalTransactionID` of
    /// `account` expires now (DID_CHANGE_RENEWAL_STATUS when renewal was on, then EXPIRED VOLUNTARY), so a later purchase in its
    /// group is a return (RESUBSCRIBE), with a win-back offer when one is redeemed.
    public func expire(bundleID: String, account: String, originalTransactionID: String, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        try change(bundleID: bundleID, account: account, originalTransactionID: originalTransactionID, at: now) { store throws(LocalStoreError) in
            let renewal = store.subscription(originalTransactionID)?.autoRenew == true
                ? try store.setAutoRenew(originalTransactionID, false, at: now) : []
            return renewal + (try store.expire(originalTransactionID, reason: .voluntary, at: now))
        }
    }

    /// Plays `body` on the store of `bundleID` for a purchase of `account`, and queues the purchase's
    /// transaction, signed after it, for the account's devices.
    private func change(
        bundleID: String, account: String, originalTransactionID: String, at now: Date,
        _ body: (inout StoreSimulator) throws(LocalStoreError) -> [SignedNotification]
    ) throws(LocalStoreError) -> [SignedNotification] {
        guard purchases.withLockedValue({ $0["\(bundleID)\u{1F}\(account)"]?.contains(originalTransactionID) ?? false }) else {
            throw LocalStoreError(.invalidTransition, "\(account) has no purchase \(originalTransactionID) in \(bundleID)")
        }
        let result: Result<([SignedNotification], String, String), LocalStoreError> = stores.withLockedValue { stores in
            guard var store = stores[bundleID] else {
                return .failure(LocalStoreError(.unknownProduct, "\(bundleID) is not an app of this local store"))
            }
            do throws(LocalStoreError) {
                let notifications = try body(&store)
                stores[bundleID] = store
                return .success((notifications, try store.currentTransaction(originalTransactionID, at: now), store.subscription(originalTransactionID)?.productID ?? ""))
            } catch {
                return .failure(error)
            }
        }
        let (notifications, signed, product) = try result.get()
        updates.withLockedValue { $0["\(bundleID)\u{1F}\(account)", default: []].append((signed, product)) }
        return notifications
    }

    /// The account's transaction updates after the first `after` (an index the device keeps).
    public func updates(bundleID: String, account: String, after: Int) -> [(signed: String, product: String)] {
        updates.withLockedValue { Array(($0["\(bundleID)\u{1F}\(account)"] ?? []).dropFirst(max(0, after))) }
    }

    /// The current transaction of each purchase `account` made in `bundleID`, signed now.
    public func transactions(bundleID: String, account: String, at now: Date) throws(LocalStoreError) -> [(signed: String, product: String)] {
        let originals = purchases.withLockedValue { $0["\(bundleID)\u{1F}\(account)"] ?? [] }
        let result: Result<[(signed: String, product: String)], LocalStoreError> = stores.withLockedValue { stores in
            guard let store = stores[bundleID] else {
                return .failure(LocalStoreError(.unknownProduct, "\(bundleID) is not an app of this local store"))
            }
            var signed: [(signed: String, product: String)] = []
            for original in originals {
                do throws(LocalStoreError) {
                    signed.append((try store.currentTransaction(original, at: now), store.subscription(original)?.productID ?? ""))
                } catch {
                    return .failure(error)
                }
            }
            return .success(signed)
        }
        return try result.get()
    }
}
