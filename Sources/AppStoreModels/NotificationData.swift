import Foundation

/// The app metadata and the signed transaction and renewal info of a version 2 notification: the
/// `data` field of ``ResponseBodyV2DecodedPayload``. (Apple names this object `data`; it is
/// `NotificationData` here so it doesn't shadow Foundation's `Data`.)
///
/// [data](https://developer.apple.com/documentation/appstoreservernotifications/data)
public struct NotificationData: Codable, Hashable, Sendable {
    public var environment: Environment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var bundleVersion: String?
    /// The transaction, signed by the App Store (a JWS).
    public var signedTransactionInfo: String?
    /// The renewal info, signed by the App Store (a JWS).
    public var signedRenewalInfo: String?
    /// The subscription's status as of the notification's `signedDate`.
    public var status: Status?
    public var consumptionRequestReason: ConsumptionRequestReason?

    public init(
        environment: Environment? = nil, appAppleId: Int64? = nil, bundleId: String? = nil, bundleVersion: String? = nil,
        signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil, status: Status? = nil,
        consumptionRequestReason: ConsumptionRequestReason? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
    }
}
