import EntitleCore
import Foundation

/// A ledger event a background consumer could not process and left out, with the reason: kept for
/// the operator (`GET /v1/admin/set-aside-events`), counted in `/metrics`, never retried by itself.
public struct SetAsideEvent: Hashable, Sendable {
    /// The consumer that set the event aside (`analytics`).
    public var consumer: String
    public var eventID: UUID
    /// The subscriber the event belongs to, when it has one.
    public var appUserID: AppUserID?
    /// Why, in words an operator reads (`transaction.expiresDate is … outside 0000-01-01…2200-01-01`).
    public var reason: String
    /// When the consumer first set it aside.
    public var setAsideAt: Date

    public init(consumer: String, eventID: UUID, appUserID: AppUserID?, reason: String, setAsideAt: Date) {
        self.consumer = consumer
        self.eventID = eventID
        self.appUserID = appUserID
        self.reason = reason
        self.setAsideAt = setAsideAt
    }
}
