import EntitleCore
import Foundation

/// What one step of publishing writes, in one transaction: the deliveries it derived, the subscribers'
/// new snapshots, the schedule's new entries and the ones it fired, and the ledger cursor moved past
/// the events it read. Either all of it is stored or none: a crash repeats the step, never half of it.
public struct WebhookBatch: Sendable {
    /// The ledger consumer's cursor, moved from `from` to `to` (`nil`: a step that read no events).
    public var cursor: (consumer: LedgerConsumer, from: Int64, to: Int64)?
    public var deliveries: [WebhookDelivery]
    public var snapshots: [AppUserID: WebhookSnapshot]
    public var schedule: [ScheduledEvent]
    /// Entries fired by this step: each is marked, and the step fails if another marked it first.
    public var fired: [ScheduledEvent]
    public var firedAt: Date

    public init(
        cursor: (consumer: LedgerConsumer, from: Int64, to: Int64)? = nil, deliveries: [WebhookDelivery] = [], snapshots: [AppUserID: WebhookSnapshot] = [:],
        schedule: [ScheduledEvent] = [], fired: [ScheduledEvent] = [], firedAt: Date
    ) {
        self.cursor = cursor
        self.deliveries = deliveries
        self.snapshots = snapshots
        self.schedule = schedule
        self.fired = fired
        self.firedAt = firedAt
    }

    public var isEmpty: Bool { cursor == nil && deliveries.isEmpty && snapshots.isEmpty && schedule.isEmpty && fired.isEmpty }
}
