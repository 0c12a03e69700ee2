import EntitleCore
import Foundation

/// What registering an appAccountToken did.
public enum AccountTokenRegistration: Hashable, Sendable {
    /// The token is the subscriber's; these purchases, held until now, were linked to them.
    case registered(linkedPurchases: [OriginalTransactionID])
    /// The token already belongs to another subscriber, and stays theirs.
    case ownedBy(AppUserID)
}
