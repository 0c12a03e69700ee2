import EntitleAPI
import EntitleWire
import Foundation

/// What an app's "delete account" button calls (App Review guideline 5.1.1(v); docs/deletion.md).
extension Entitle {
    /// Deletes the current user on the server — their attributes, aliases, item names and ID erased
    /// from every record, their purchases kept under a random pseudonym for the app's accounts — and then
    /// forgets them here: their cached answer, key, queued uses and paywall events, and their purchase
    /// sync. This instance becomes a new anonymous user's, as after ``logOut()``.
    ///
    /// The App Store subscription itself is the customer's, on their Apple Account: deleting the account
    /// doesn't cancel it (tell them to, in Settings). If they sign up again and restore, the purchase
    /// moves to the new account whatever the server's restore policy.
    ///
    /// - Returns: whether the server knew anything of the user (`false`: nothing was kept, also when
    ///   asked again).
    /// - Throws: ``EntitleError/Code/network`` when the server can't be reached: nothing is forgotten
    ///   here, so the app can ask again; the server's refusal (`auth.logInTokenRequired` for an app key
    ///   of an app that asks for log-in tokens) as it gave it.
    @discardableResult
    public func deleteCustomer() async throws(EntitleError) -> Bool {
        let deleted: Bool
        do {
            deleted = try await api.deleteSubscriber(appUserID).deleted
        } catch {
            throw Self.error(error)
        }
        let user = appUserID
        usage.remove(usage.items().filter { $0.appUserID == user })
        paywallEvents.remove(paywallEvents.items().filter { $0.appUserID == user })
        PurchaseSyncFile(folder: configuration.cacheFolder).forget(appUserID: user)
        try logOut()
        return deleted
    }
}
