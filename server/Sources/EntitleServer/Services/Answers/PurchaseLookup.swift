import EntitleCore
import Foundation

/// Who owns a purchase, and how many events wait for its link.
public struct PurchaseLookup: Hashable, Sendable {
    public let originalTransactionID: OriginalTransactionID
    /// The subscriber the purchase is linked to; `nil` while no app has submitted it.
    public let owner: AppUserID?
    /// Events stored for the purchase before it had an owner.
    public let heldEvents: Int
}
