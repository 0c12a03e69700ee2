import AppStoreModels
import Foundation

/// Why the App Store revoked a transaction.
public enum RevocationCause: String, Hashable, Sendable, Codable, CaseIterable {
    /// Refunded because of an issue with the app (revocationReason 1).
    case refundAppIssue = "refund_app_issue"
    /// Refunded for another reason (revocationReason 0, or none given).
    case refund
    /// The family organizer stopped sharing, or the member left the family (REVOKE).
    case familySharingRemoved = "family_sharing_removed"

    public init(_ transaction: JWSTransactionDecodedPayload) {
        if transaction.revocationType == .familyRevoke
            || (transaction.inAppOwnershipType == .familyShared && transaction.revocationReason == nil)
        {
            self = .familySharingRemoved
        } else if transaction.revocationReason == .appIssue {
            self = .refundAppIssue
        } else {
            self = .refund
        }
    }
}
