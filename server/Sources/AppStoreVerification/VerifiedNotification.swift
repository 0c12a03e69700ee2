import AppStoreModels
import Foundation

/// A verified App Store Server Notification with its nested signed parts verified and decoded.
public struct VerifiedNotification: Codable, Hashable, Sendable {
    public var notification: ResponseBodyV2DecodedPayload
    /// `data.signedTransactionInfo`, verified.
    public var transactionInfo: JWSTransactionDecodedPayload?
    /// `data.signedRenewalInfo`, verified.
    public var renewalInfo: JWSRenewalInfoDecodedPayload?
    /// `appData.signedAppTransactionInfo`, verified.
    public var appTransactionInfo: AppTransaction?

    public init(
        notification: ResponseBodyV2DecodedPayload, transactionInfo: JWSTransactionDecodedPayload? = nil,
        renewalInfo: JWSRenewalInfoDecodedPayload? = nil, appTransactionInfo: AppTransaction? = nil
    ) {
        self.notification = notification
        self.transactionInfo = transactionInfo
        self.renewalInfo = renewalInfo
        self.appTransactionInfo = appTransactionInfo
    }
}
