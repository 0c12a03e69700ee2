import Foundation

/// A version 2 App Store Server Notification, decoded from its `signedPayload`.
///
/// Exactly one of `data`, `summary`, `externalPurchaseToken` and `appData` is present.
///
/// [responseBodyV2DecodedPayload](https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2decodedpayload)
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
    public var notificationType: NotificationTypeV2?
    public var subtype: Subtype?
    /// The notification's unique identifier: the same on every retry of one notification.
    public var notificationUUID: String?
    public var data: NotificationData?
    public var summary: Summary?
    public var externalPurchaseToken: ExternalPurchaseToken?
    public var appData: AppData?
    /// The notification format version, `2.0`.
    public var version: String?
    public var signedDate: Date?

    public init(
        notificationType: NotificationTypeV2? = nil, subtype: Subtype? = nil, notificationUUID: String? = nil,
        data: NotificationData? = nil, summary: Summary? = nil, externalPurchaseToken: ExternalPurchaseToken? = nil,
        appData: AppData? = nil, version: String? = nil, signedDate: Date? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
        self.appData = appData
        self.version = version
        self.signedDate = signedDate
    }
}
