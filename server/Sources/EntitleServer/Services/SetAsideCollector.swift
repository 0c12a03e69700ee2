import AppStoreModels
import EntitleCore
import EntitleStorage
import Foundation
import Synchronization

/// The events a background pass set aside while it ran: noted from the pure work (a subscriber's
/// analytics cells are computed inside the store's transaction, in parallel), then recorded once the
/// pass is over (``AppService/recordSetAside(_:)``).
final class SetAsideCollector: Sendable {
    let consumer: String
    private let noted = Mutex<[UUID: SetAsideEvent]>([:])

    init(consumer: String) {
        self.consumer = consumer
    }

    /// `events` without those whose values are out of range, each of which is noted with the reason.
    func keepingProcessable(_ events: [LedgerEvent], appUserID: AppUserID?, at: Date) -> [LedgerEvent] {
        events.filter { !setsAside($0, appUserID: appUserID, at: at) }
    }

    /// Notes `event`, which the consumer could not process for `reason`.
    func note(_ event: LedgerEvent, appUserID: AppUserID? = nil, reason: String, at: Date) {
        note(eventID: event.id, appUserID: event.appUserID ?? appUserID, reason: reason, at: at)
    }

    /// Notes an input that never became a ledger event (a notification of Apple's history the ledger
    /// refused), by an ID of its own.
    func note(eventID: UUID, appUserID: AppUserID?, reason: String, at: Date) {
        let record = SetAsideEvent(consumer: consumer, eventID: eventID, appUserID: appUserID, reason: reason, setAsideAt: at)
        noted.withLock { $0[eventID] = record }
    }

    /// Whether the consumer should set `event` aside rather than process it: a value out of range
    /// (noted, with the reason).
    func setsAside(_ event: LedgerEvent, appUserID: AppUserID? = nil, at: Date) -> Bool {
        guard let problem = event.outOfRangeValue else { return false }
        note(event, appUserID: appUserID, reason: problem.description, at: at)
        return true
    }

    /// Whether `error`, met while processing one event, is the event's own: neither retryable (the
    /// database or Apple for now) nor shutdown, which stop the pass instead, to retry it whole.
    static func isEventsOwn(_ error: ServiceError) -> Bool {
        !error.code.isRetryable && error.code != .shuttingDown
    }

    /// What was noted since the last call, forgotten here.
    func take() -> [SetAsideEvent] {
        noted.withLock { noted in
            defer { noted.removeAll() }
            return noted.values.sorted { $0.eventID.uuidString < $1.eventID.uuidString }
        }
    }
}
