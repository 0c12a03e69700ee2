import AppStoreModels
import EntitleCore
import Foundation

/// An order ID looked up with Apple: its transactions and whose purchases they are here.
public struct OrderLookup: Sendable {
    public struct Purchase: Sendable {
        public var transaction: JWSTransactionDecodedPayload
        /// The subscriber the purchase is linked to, if any.
        public var owner: AppUserID?
    }

    public var orderID: String
    /// Whether Apple knows the order ID.
    public var found: Bool
    public var purchases: [Purchase]
}
