import Foundation

/// The one-time sync of an app moving in: its customers bought before the app used Entitle, so the
/// server has never seen their purchases.
extension Entitle {
    /// Sends every transaction the store knows for this user — expired and refunded ones too, as
    /// StoreKit's `Transaction.all` gives them — to the server as a background sync, then answers the
    /// customer info. A purchase another subscriber holds stays theirs (only ``restore()``, the user's own
    /// request, may move it under the server's `transfer` policy), and the user is never asked to sign in
    /// to the App Store, so an app calls it at launch: it runs once per install and user (remembered in
    /// the cache folder) and later calls only answer the customer info, unless `force`.
    ///
    /// Throws ``EntitleError/Code/network`` when the server can't be reached (nothing is remembered, so
    /// the next launch tries again); a transaction the server refuses is left out, the others still sent.
    @discardableResult
    public func syncPurchases(force: Bool = false) async throws(EntitleError) -> CustomerInfo {
        guard let store = configuration.store else { throw EntitleError(.invalidRequest, "no store is configured") }
        let synced = PurchaseSyncFile(folder: configuration.cacheFolder)
        if !force, synced.syncedAt(appUserID: appUserID) != nil { return try await customerInfo() }
        let all: [SignedTransaction]
        do {
            all = try await store.allTransactions()
        } catch {
            throw EntitleError(.network, "the store could not list the purchases: \(error.message)")
        }
        for transaction in all {
            if case .networkError(let message) = await deliver(transaction, through: store, claim: false, answering: false) {
                throw EntitleError(.network, message)
            }
        }
        let info = try await customerInfo(fetchPolicy: .fetchCurrent)
        synced.record(configuration.now(), appUserID: appUserID)
        return info
    }
}
