import AppStoreModels
import Foundation

/// What a purchase produces: the transaction the app receives (StoreKit 2's `jwsRepresentation`,
/// which it submits to its server) and the notifications the App Store sends the server.
public struct StorePurchase: Sendable {
    public let originalTransactionID: String
    public let transaction: JWSTransactionDecodedPayload
    public let signedTransaction: String
    public let notifications: [SignedNotification]
}
