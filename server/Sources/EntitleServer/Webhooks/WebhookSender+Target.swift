import EntitleStorage
import Foundation
import Logging

extension WebhookSender {
    /// One app's deliveries as the sender works on them: their store, the clock attempts are stamped
    /// with, where it logs and counts, and the lease instances take turns with. Given by the app's
    /// ``WebhookService`` (``WebhookService/deliveryTarget``).
    public struct Target: Sendable {
        let webhookStore: any WebhookStore
        let now: @Sendable () -> Date
        let logger: Logger
        let metrics: ServerMetrics
        /// How long the delivery lease lasts without renewal: how long a crashed instance holds sending.
        let lease: TimeInterval
        /// Takes or renews the delivery lease for `holder` for ``lease``; `false` when another instance has it.
        let holdLease: @Sendable (_ job: LeasedJob, _ holder: String) async throws(ServiceError) -> Bool
        /// Releases `holder`'s delivery lease, if it holds it.
        let releaseLease: @Sendable (_ job: LeasedJob, _ holder: String) async -> Void
    }
}
