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

    /// Buys `productID` for `account` in the app `bundleID`.
    public func purchase(
        bundleID: String, productID: String, account: String, appAccountToken: UUID?, promotionalOffer: String? = nil, at now: Date
    ) throws(LocalStoreError) -> StorePurchase {
        let result: Result<StorePurchase, LocalStoreError> = stores.withLockedValue { stores in
            guard var store = stores[bundleID] else {
                return .failure(LocalStoreError(.unknownProduct, "\(bundleID) is not an app of this local store"))
            }
            do throws(LocalStoreError) {
                let purchase = try store.purchase(productID, appAccountToken: appAccountToken, at: now, promotionalOffer: promotionalOffer)
                stores[bundleID] = store
                return .success(purchase)
            } catch {
                return .failure(error)
            }
        }
        let purchase = try result.get()
        purchases.withLockedValue { $0["\(bundleID)\u{1F}\(account)", default: []].append(purchase.originalTransactionID) }
        return purchase
    }

    /// Apple refunds the purchase `originalTransactionID` of `account`: the store's notifications (to
    /// deliver to the server) and, queued for the account's devices, the transaction re-signed with its
    /// revocation.
    public func refund(bundleID: String, account: String, originalTransactionID: String, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        guard purchases.withLockedValue({ $0["\(bundleID)\u{1F}\(account)"]?.contains(originalTransactionID) ?? false }) else {
            throw LocalStoreError(.invalidTransition, "\(account) has no purchase \(originalTransactionID) in \(bundleID)")
        }
        let result: Result<([SignedNotification], String, String), LocalStoreError> = stores.withLockedValue { stores in
            guard var store = stores[bundleID] else {
                return .failure(LocalStoreError(.unknownProduct, "\(bundleID) is not an app of this local store"))
            }
            do throws(LocalStoreError) {
                let notifications = try store.refund(originalTransactionID, at: now)
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
