import AppStoreModels
import Foundation

/// Apple's notifications about the app rather than a purchase, as the local App Store sends them:
/// RESCIND_CONSENT, when a parent or guardian withdraws consent to the app for a minor. It carries the
/// customer's app transaction (`appData.signedAppTransactionInfo`), whose `appTransactionId` the customer's
/// transactions carry too.
public struct ConsentNotifier: Sendable {
    public let signer: AppStoreSigner
    public let bundleID: String
    public let environment: Environment
    public let appAppleID: Int64?

    public init(signer: AppStoreSigner, bundleID: String, environment: Environment = .sandbox, appAppleID: Int64? = nil) {
        self.signer = signer
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
    }

    /// RESCIND_CONSENT for the customer of `subscription`, signed at `now`.
    public func rescindConsent(of subscription: SimulatedSubscription, at now: Date) throws(LocalStoreError) -> SignedNotification {
        let appTransaction = AppTransaction(
            receiptType: environment, appAppleId: appAppleID, bundleId: bundleID, applicationVersion: "1.0", receiptCreationDate: now,
            originalPurchaseDate: subscription.originalPurchaseDate, originalApplicationVersion: "1.0", appTransactionId: subscription.appTransactionID,
            originalPlatform: .ios, signedDate: now)
        let uuid = UUID().uuidString.lowercased()
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: .rescindConsent, notificationUUID: uuid,
            appData: AppData(appAppleId: appAppleID, bundleId: bundleID, environment: environment, signedAppTransactionInfo: try signer.sign(appTransaction)),
            version: "2.0", signedDate: now)
        return SignedNotification(
            notificationUUID: uuid, type: .rescindConsent, subtype: nil, signedDate: now, originalTransactionID: nil, signedPayload: try signer.sign(payload))
    }
}
