#if (canImport(StoreKit) && canImport(UIKit) && (os(iOS) || os(visionOS))) || (!canImport(StoreKit) && canImport(StoreKitMirror))
import Foundation
#if canImport(StoreKit)
import StoreKit
import UIKit
#else
import StoreKitMirror
#endif

/// StoreKit's sheets, shown in the app's window scene (iOS, iPadOS, Mac Catalyst, visionOS; on Linux
/// through StoreKitMirror). Where no sheet exists, ``Entitle/manageSubscriptionsURL`` is Apple's page.
@available(iOS 17.0, visionOS 1.0, *)
extension Entitle {
    /// Shows the App Store's sheet where the user manages their subscriptions (cancel, change plan,
    /// resubscribe), then fetches the customer info again: what they did there reaches the server through
    /// Apple's notifications and the transactions StoreKit reports, and the answer reflects it.
    /// - Parameter scene: the window scene the sheet is shown in.
    /// - Returns: the customer info after the sheet closed.
    /// - Throws: ``EntitleError`` `store.unavailable` when the App Store can't show the sheet (then open
    ///   ``Entitle/manageSubscriptionsURL``); the fetch's errors after it.
    @MainActor
    public func showManageSubscriptions(in scene: UIWindowScene) async throws(EntitleError) -> CustomerInfo {
        do {
            try await AppStore.showManageSubscriptions(in: scene)
        } catch {
            throw EntitleError(.storeUnavailable, "the App Store's manage-subscriptions sheet could not be shown: \(error)")
        }
        return try await customerInfo(fetchPolicy: .fetchCurrent)
    }

    /// Shows the App Store's sheet for redeeming an offer code (App Store Connect's one-time codes); the
    /// redeemed purchase arrives as a transaction update (``startTransactionUpdates()``) and through
    /// Apple's notifications. Returns the customer info fetched after the sheet closed.
    @MainActor
    public func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws(EntitleError) -> CustomerInfo {
        do {
            try await AppStore.presentOfferCodeRedeemSheet(in: scene)
        } catch {
            throw EntitleError(.storeUnavailable, "the App Store's offer-code sheet could not be shown: \(error)")
        }
        return try await customerInfo(fetchPolicy: .fetchCurrent)
    }

    /// Shows Apple's refund request sheet for the user's latest transaction of `productID`. The answer is
    /// the request's status, not the refund: Apple decides later, and a refund arrives as a transaction
    /// update and a REFUND notification.
    /// - Throws: ``EntitleError`` `request.invalid` when the user has no transaction of `productID` on
    ///   this device; `store.unavailable` when the sheet can't be shown.
    @MainActor
    public func beginRefundRequest(for productID: String, in scene: UIWindowScene) async throws(EntitleError) -> Transaction.RefundRequestStatus {
        var latest: Transaction?
        for await verification in Transaction.currentEntitlements where verification.unsafePayloadValue.productID == productID {
            latest = verification.unsafePayloadValue
        }
        guard let latest else { throw EntitleError(.invalidRequest, "no transaction of \(productID) on this device to ask a refund for") }
        do {
            return try await latest.beginRefundRequest(in: scene)
        } catch {
            throw EntitleError(.storeUnavailable, "the App Store's refund sheet could not be shown: \(error)")
        }
    }
}
#endif
