import EntitleCore
import Foundation

/// One app's webhooks in memory (``MemoryWebhookStore``): endpoints, deliveries and their attempts,
/// snapshots, the schedule.
struct MemoryWebhooks: Sendable {
    struct ScheduleKey: Hashable, Sendable {
        let appUserID: AppUserID
        let kind: ScheduledEvent.Kind
        let periodKey: String
    }

    /// Endpoints in the order they were added.
    var endpoints: [WebhookEndpoint] = []
    /// Deliveries in the order they were written (their ids ascending).
    var deliveries: [WebhookDelivery] = []
    /// Each delivery's endpoint and event, written once (an endpoint is its app's alone).
    var deliveryKeys: Set<String> = []
    var attempts: [Int64: [WebhookAttempt]] = [:]
    var snapshots: [AppUserID: WebhookSnapshot] = [:]
    var schedule: [ScheduleKey: ScheduledEvent] = [:]

    /// What makes a delivery unique: its endpoint and event.
    static func deliveryKey(_ delivery: WebhookDelivery) -> String { delivery.endpointID + "\u{1F}" + delivery.eventID }

    func endpointIndex(_ id: String) -> Int? { endpoints.firstIndex { $0.id == id } }
    func deliveryIndex(_ id: Int64) -> Int? {
        var low = 0
        var high = deliveries.count
        while low < high {
            let middle = (low + high) / 2
            if deliveries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < deliveries.count && deliveries[low].id == id ? low : nil
    }

    /// Schedule entries in the order the SQL engines list them: due time, subscriber, kind, period.
    static func scheduleOrder(_ a: ScheduledEvent, _ b: ScheduledEvent) -> Bool {
        if a.dueAt != b.dueAt { return a.dueAt < b.dueAt }
        if a.appUserID != b.appUserID { return MemoryLedger.byteOrder(a.appUserID, b.appUserID) }
        if a.kind != b.kind { return a.kind.rawValue.utf8.lexicographicallyPrecedes(b.kind.rawValue.utf8) }
        return a.periodKey.utf8.lexicographicallyPrecedes(b.periodKey.utf8)
    }
}
