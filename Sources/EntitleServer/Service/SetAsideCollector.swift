import AppStoreModels
import EntitleCore
import EntitleStorage
import Foundation
import Synchronization

/// The events a background pass set aside while it ran: noted from the pure work (a subscriber's
/// analytics cells are computed inside the store's transaction, in parallel), then recorded once the
/// pass is over (``SubscriptionService/recordSetAside(_:)``).
final class SetAsideCollector: Sendable {
    let consumer: String
    private let noted = Mutex<[UUID: SetAsideEvent]>([:])

    init(consumer: String) {
        self.consumer = consumer
    }

    /// `events` without those whose values are out of range, each of which is noted with the reason.
    func keepingProcessable(_ events: [LedgerEvent], appUserID: String?, at: Date) -> [LedgerEvent] {
        var refused: [SetAsideEvent] = []
        let kept = events.filter { event in
            guard let problem = event.outOfRangeValue else { return true }
            refused.append(SetAsideEvent(
                consumer: consumer, eventID: event.id, appUserID: event.appUserID ?? appUserID, reason: problem.description, setAsideAt: at))
            return false
        }
        if !refused.isEmpty {
            noted.withLock { noted in
                for event in refused { noted[event.eventID] = event }
            }
        }
        return kept
    }

    /// What was noted since the last call, forgotten here.
    func take() -> [SetAsideEvent] {
        noted.withLock { noted in
            defer { noted.removeAll() }
            return noted.values.sorted { $0.eventID.uuidString < $1.eventID.uuidString }
        }
    }
}
