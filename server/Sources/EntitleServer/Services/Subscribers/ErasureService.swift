import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Logging

/// Customers' deletion (docs/deletion.md): an app's "delete account" button, or its backend, asks; the
/// customer's personal data becomes unreadable in the ledger (``SubscriberErasure``), the financial facts
/// stay under a random pseudonym, and the app's webhooks are told.
public struct ErasureService: SubscriberReading {
    let context: AppContext
    let projections: any ProjectionStore
    let identity: any IdentityStore
    let erasing: any SubscriberErasing
    /// Where the `subscriber_deleted` webhook goes, and whose cached snapshots are dropped.
    let webhooks: WebhookService

    init(context: AppContext, projections: any ProjectionStore, identity: any IdentityStore, erasing: any SubscriberErasing, webhooks: WebhookService) {
        self.context = context
        self.projections = projections
        self.identity = identity
        self.erasing = erasing
        self.webhooks = webhooks
    }

    /// Deletes the customer `appUserID` reaches (an anonymous ID merged at log-in reaches the account it
    /// was merged into). The `subscriber_deleted` webhooks are written first, so a deletion that stops
    /// halfway is told and, asked again, completed; nothing known of the ID: `deleted: false`.
    public func delete(appUserID: AppUserID) async throws(ServiceError) -> SubscriberDeletionResponse {
        try Self.validate(appUserID)
        let subject = try await canonical(appUserID)
        let known: Bool
        do {
            let projected = try await projections.projection(appUserID: subject)
            let target = try await identity.aliasTarget(subject)
            known = projected != nil || target != nil
        } catch {
            throw ServiceError(error)
        }
        guard known else { return SubscriberDeletionResponse(appUserID: appUserID.rawValue, deleted: false) }
        var generator = SystemRandomNumberGenerator()
        let erasure = SubscriberErasure(subject: subject, pseudonym: SubscriberErasure.newPseudonym(using: &generator), at: now())
        try await webhooks.publishDeletion(of: erasure)
        let outcome: ErasureOutcome?
        do {
            outcome = try await erasing.erase(erasure, eventID: UUID())
        } catch {
            logger.error("customer deletion failed", metadata: ["error.code": "\(error.code)"])
            throw ServiceError(error)
        }
        accountTokens.forget(subject)
        webhooks.webhookSnapshots.forget()
        guard let outcome else { return SubscriberDeletionResponse(appUserID: appUserID.rawValue, deleted: false) }
        // The pseudonym only: the erased ID is not logged.
        logger.info(
            "customer deleted",
            metadata: ["subscriber.pseudonym": "\(erasure.pseudonym)", "erasure.events": "\(outcome.events)", "erasure.mentions": "\(outcome.mentions)"])
        return SubscriberDeletionResponse(
            appUserID: appUserID.rawValue, deleted: true, deletedAt: erasure.at, events: outcome.events, mentions: outcome.mentions)
    }
}
