import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// Growth: what the app's paywalls did, recorded on the ledger so funnels recount from it
/// (docs/growth.md).
public struct GrowthService: SubscriberReading, EventAppending {
    let context: AppContext
    let events: any EventLog
    let projections: any ProjectionStore
    let identity: any IdentityStore

    init(context: AppContext, events: any EventLog, projections: any ProjectionStore, identity: any IdentityStore) {
        self.context = context
        self.events = events
        self.projections = projections
        self.identity = identity
    }

    /// How long after the server's now a device may date an event (its clock may run ahead).
    static let clockSkew: TimeInterval = 300

    /// Records what the subscriber's paywall did, each event once (by its ID). The whole report is
    /// checked first, so a refused one stores nothing: 1 to 100 events of distinct IDs, each valid
    /// (``PaywallEvent/problem``), naming an offering and products of this app, dated within the
    /// ledger's window and not ahead of the server's clock by more than five minutes.
    public func recordPaywallEvents(appUserID: AppUserID, _ events: [PaywallEvent]) async throws(ServiceError) -> PaywallReport {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        guard (1...PaywallEvent.maximumBatch).contains(events.count) else {
            throw ServiceError(.invalidPaywallEvent, "a report carries 1 to \(PaywallEvent.maximumBatch) events")
        }
        guard Set(events.map(\.id)).count == events.count else { throw ServiceError(.invalidPaywallEvent, "the events' IDs repeat") }
        let at = now()
        for event in events {
            if let problem = event.problem { throw ServiceError(.invalidPaywallEvent, "event \(event.id): \(problem)") }
            guard catalog.offeringIDs.contains(event.offeringID) else {
                throw ServiceError(.unknownOffering, "\(event.offeringID) is not an offering of \(bundleID): \(catalog.offeringIDs.joined(separator: ", "))")
            }
            if let product = event.productID, catalog.product(product) == nil {
                throw ServiceError(.unknownProduct, "\(product) is not a product of \(bundleID)")
            }
            try InputRules.checkInstant(event.at, "event \(event.id) at")
            guard event.at <= at.addingTimeInterval(Self.clockSkew) else {
                throw ServiceError(.invalidPaywallEvent, "event \(event.id) is dated after the server's now")
            }
        }
        var report = PaywallReport()
        for event in events {
            let outcome = try await append(LedgerEvent(
                id: UUID(), appUserID: appUserID, source: .paywall, idempotencyKey: "paywall:\(event.id.uuidString.lowercased())",
                signedDate: event.at, receivedAt: at, payload: .paywall(event)))
            if case .appended = outcome { report.recorded += 1 } else { report.duplicates += 1 }
        }
        return report
    }
}
