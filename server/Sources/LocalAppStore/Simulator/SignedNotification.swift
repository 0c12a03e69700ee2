import AppStoreModels
import Foundation

/// A V2 notification as the App Store sends it: the signed payload, with what it says for routing
/// and reporting.
public struct SignedNotification: Hashable, Sendable {
    public let notificationUUID: String
    public let type: NotificationTypeV2
    public let subtype: Subtype?
    public let signedDate: Date
    public let originalTransactionID: String?
    /// The body's `signedPayload`.
    public let signedPayload: String
}
