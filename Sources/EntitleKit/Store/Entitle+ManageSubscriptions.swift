#if canImport(StoreKit) && canImport(UIKit) && os(iOS)
import StoreKit
import UIKit

@available(iOS 15.0, *)
extension Entitle {
    /// Shows the App Store's sheet where the user manages their subscriptions (cancel, change plan,
    /// resubscribe), then fetches the customer info again: what they did there reaches the server through
    /// Apple's notifications and the transactions StoreKit reports, and the answer reflects it.
    /// - Parameter scene: the window scene the sheet is shown in.
    /// - Returns: the customer info after the sheet closed.
    /// - Throws: ``EntitleError`` `store.unavailable` when the App Store can't show the sheet; the fetch's
    ///   errors after it.
    @MainActor
    public func showManageSubscriptions(in scene: UIWindowScene) async throws(EntitleError) -> CustomerInfo {
        do {
            try await AppStore.showManageSubscriptions(in: scene)
        } catch {
            throw EntitleError(.storeUnavailable, "the App Store's manage-subscriptions sheet could not be shown: \(error)")
        }
        return try await customerInfo(fetchPolicy: .fetchCurrent)
    }
}
#endif
