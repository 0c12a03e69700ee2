import Foundation

/// An anonymous subscriber merged into a known one at log-in: the two ledger events that record it,
/// one on each timeline. Built here so that every store records a merge alike.
public struct SubscriberMerge: Sendable {
    public let anonymous: AppUserID
    public let known: AppUserID
    public let at: Date
    /// The incoming event's id.
    public let id: UUID
    /// The outgoing event's id.
    public let outgoingID: UUID

    public init(anonymous: AppUserID, into known: AppUserID, at: Date, id: UUID, outgoingID: UUID) {
        self.anonymous = anonymous
        self.known = known
        self.at = at
        self.id = id
        self.outgoingID = outgoingID
    }

    /// The known subscriber's event: the anonymous one's facts (`carried`) arrive.
    public func incoming(carrying carried: SubscriberFacts) -> LedgerEvent {
        LedgerEvent(
            id: id, appUserID: known, source: .login, idempotencyKey: "merge:\(anonymous)→\(known)", signedDate: at, receivedAt: at,
            payload: .subscriberMerged(from: anonymous, into: known, facts: carried))
    }

    /// The anonymous subscriber's event: it becomes an alias of the known one.
    public var outgoing: LedgerEvent {
        LedgerEvent(
            id: outgoingID, appUserID: anonymous, source: .login, idempotencyKey: "merged:\(anonymous)→\(known)", signedDate: at, receivedAt: at,
            payload: .subscriberMerged(from: anonymous, into: known, facts: nil))
    }
}
