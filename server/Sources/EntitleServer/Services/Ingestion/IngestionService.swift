import AppStoreModels
import AppStoreVerification
import EntitleCore
import EntitleStorage
import Foundation
import Logging
import Tracing

/// Ingestion: verifies what Apple signed (a notification, a transaction the app submits), appends it
/// to the ledger idempotently, and links the purchase to its subscriber.
public struct IngestionService: SubscriberReading, EventAppending {
    let context: AppContext
    let events: any EventLog
    let projections: any ProjectionStore
    let identity: any IdentityStore
    /// One verifier per accepted environment, tried in order.
    let verifiers: [SignedDataVerifier]
    let restorePolicy: RestorePolicy
    /// The subscriber a submitted transaction answers with.
    let subscribers: SubscriberService
    /// Answers a consumption request as soon as it arrives.
    let consumption: ConsumptionService

    init(
        context: AppContext, events: any EventLog, projections: any ProjectionStore, identity: any IdentityStore, verifiers: [SignedDataVerifier], restorePolicy: RestorePolicy, subscribers: SubscriberService,
        consumption: ConsumptionService
    ) {
        self.context = context
        self.events = events
        self.projections = projections
        self.identity = identity
        self.verifiers = verifiers
        self.restorePolicy = restorePolicy
        self.subscribers = subscribers
        self.consumption = consumption
    }

    /// Verifies a notification and stores it durably. Returns whether it was new. A duplicate (same
    /// notificationUUID) is accepted and changes nothing.
    public func ingestNotification(
        signedPayload: String, source: LedgerEventSource = .appStoreNotification
    ) async throws(ServiceError) -> AppendOutcome {
        let verified = try await verify { verifier throws(VerificationError) in try await verifier.verifyNotification(signedPayload) }
        return try await ingest(verified, signedPayload: signedPayload, source: source)
    }

    /// Stores a notification one of this app's verifiers accepted (as the App Store Server API client's
    /// answers are) durably; a duplicate changes nothing.
    func ingest(_ verified: VerifiedNotification, signedPayload: String, source: LedgerEventSource) async throws(ServiceError) -> AppendOutcome {
        let notification = verified.notification
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else {
            throw ServiceError(.invalidRequest, "the notification has no notificationUUID")
        }
        let transaction = verified.transactionInfo
        // What Apple says of the app rather than a purchase (RESCIND_CONSENT) reaches the subscriber its app
        // transaction is linked to, held until then.
        let appTransaction = verified.appTransactionInfo?.appTransactionId.map(OriginalTransactionID.appTransaction)
        let event = LedgerEvent(
            id: UUID(), appUserID: nil, source: source, idempotencyKey: "notification:\(uuid)", notificationUUID: uuid,
            transactionID: transaction?.transactionId,
            originalTransactionID: transaction?.purchaseChain ?? verified.renewalInfo?.purchaseChain ?? appTransaction,
            signedDate: notification.signedDate, receivedAt: now(),
            payload: .notification(
                type: notification.notificationType, subtype: notification.subtype, transaction: transaction, renewalInfo: verified.renewalInfo),
            rawSignedPayload: signedPayload)
        let outcome = try await append(event)
        if case .appended(_, let owner?) = outcome, let transaction { try await linkAppTransaction(of: transaction, to: owner) }
        if case .appended = outcome {
            metrics.recordNotificationType(notification.notificationType.flatMap { $0.isKnown ? $0.rawValue : nil } ?? "UNKNOWN")
            // Answered at once; the consumption responder answers from the cursor what this misses.
            if notification.notificationType == .consumptionRequest, consumption.answersConsumptionRequests {
                let (consumption, holder) = (consumption, instanceID)
                _ = context.work.start { _ = try? await consumption.answerConsumptionRequests(holder: holder) }
            }
        }
        logger.info(
            "app store notification",
            metadata: [
                "notification.uuid": "\(uuid)", "notification.type": "\(notification.notificationType?.rawValue ?? "unknown")",
                "notification.duplicate": "\(outcome == .duplicate)",
            ])
        return outcome
    }

    /// Verifies a transaction the app submitted for `appUserID`, links its purchase, and returns the
    /// subscriber.
    public func submitTransaction(
        appUserID: AppUserID, signedTransaction: String, source: LedgerEventSource = .appTransaction, claims: Bool = true
    ) async throws(ServiceError) -> SubscriberAnswer {
        let (_, appUserID) = try await recordTransaction(appUserID: appUserID, signedTransaction: signedTransaction, source: source, claims: claims)
        return try await subscribers.subscriber(appUserID: appUserID)
    }

    /// Verifies and records a transaction for `appUserID`, as ``submitTransaction(appUserID:signedTransaction:source:claims:)``
    /// does, without answering the subscriber (an import records many): whether it was new, and the
    /// subscriber it went to (the canonical one of an alias).
    func recordTransaction(
        appUserID: AppUserID, signedTransaction: String, source: LedgerEventSource, claims: Bool
    ) async throws(ServiceError) -> (outcome: AppendOutcome, appUserID: AppUserID) {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let transaction = try await verify { verifier throws(VerificationError) in try await verifier.verifyTransaction(signedTransaction) }
        guard let transactionID = transaction.transactionId else {
            throw ServiceError(.invalidRequest, "the transaction has no transactionId")
        }
        let original = OriginalTransactionID(transaction.originalTransactionId ?? transactionID)
        let owner: AppUserID?
        do {
            owner = try await identity.owner(originalTransactionID: original)
        } catch {
            throw ServiceError(error)
        }
        if let owner, owner != appUserID {
            // The owner's record of the claim, before the policy keeps or moves the purchase (a move
            // carries it along): several accounts claiming one purchase is flagged (docs/anomalies.md).
            if claims { try await recordClaim(of: original, owner: owner, claimant: appUserID) }
            // Only a claim (a purchase or restore the user made) moves a purchase; a background sync never does.
            // A deleted customer's purchase goes to whoever restores it: the account it was bought on is gone.
            switch claims ? (owner.isErased ? .transferToNewest : restorePolicy) : .keepWithOriginal {
            case .keepWithOriginal:
                throw ServiceError(
                    .purchaseOwnedByAnotherSubscriber, "this purchase belongs to another subscriber; the restore policy keeps it there")
            case .transferToNewest:
                do {
                    _ = try await identity.transfer(originalTransactionID: original, to: appUserID, at: now())
                } catch {
                    throw ServiceError(error)
                }
                logger.info("purchase transferred", metadata: ["purchase.original_transaction_id": "\(original)"])
            }
        }
        let event = LedgerEvent(
            id: UUID(), appUserID: appUserID, source: source,
            idempotencyKey: Self.idempotencyKey(transactionID: transactionID, signedDate: transaction.signedDate, jws: signedTransaction),
            transactionID: transactionID, originalTransactionID: original, signedDate: transaction.signedDate, receivedAt: now(),
            payload: .transaction(transaction), rawSignedPayload: signedTransaction)
        let outcome = try await append(event)
        logger.debug(
            "transaction recorded",
            metadata: [
                "purchase.original_transaction_id": "\(original)", "event.source": "\(source.rawValue)", "event.duplicate": "\(outcome == .duplicate)",
            ])
        try await linkAppTransaction(of: transaction, to: appUserID)
        // A token the app chose for this purchase is the subscriber's from now on (a taken one stays put).
        if let token = transaction.appAccountToken, token != accountTokens.token(for: appUserID) {
            do {
                _ = try await identity.registerAccountToken(token, appUserID: appUserID, at: now())
            } catch {
                throw ServiceError(error)
            }
        }
        return (outcome, appUserID)
    }

    /// Records on `owner` that `claimant` submitted their purchase `original` as theirs: once per claimant
    /// and purchase (the earliest stands).
    private func recordClaim(of original: OriginalTransactionID, owner: AppUserID, claimant: AppUserID) async throws(ServiceError) {
        let at = now()
        _ = try await append(LedgerEvent(
            // No originalTransactionID: the event links nothing (the purchase is the owner's already).
            id: UUID(), appUserID: owner, source: .restore, idempotencyKey: "purchase-claim:\(original):\(claimant)",
            signedDate: at, receivedAt: at, payload: .purchaseClaimed(originalTransactionID: original, by: claimant, at: at)))
    }

    /// Links the customer's app transaction, which `transaction` names (iOS 18.4 and later), to `appUserID`:
    /// once per app transaction, so a RESCIND_CONSENT about it, before or after, reaches them.
    private func linkAppTransaction(of transaction: JWSTransactionDecodedPayload, to appUserID: AppUserID) async throws(ServiceError) {
        guard let id = transaction.appTransactionId, !id.isEmpty, id.utf8.count <= 64, context.linkedAppTransactions.isNew(id) else { return }
        let at = now()
        do {
            _ = try await append(LedgerEvent(
                id: UUID(), appUserID: appUserID, source: .appTransaction, idempotencyKey: "app-transaction-link:\(id)",
                originalTransactionID: .appTransaction(id), signedDate: transaction.signedDate ?? at, receivedAt: at,
                payload: .appTransactionLinked(appTransactionID: id)))
        } catch {
            context.linkedAppTransactions.forget(id)
            throw error
        }
    }

    /// Tries each accepted environment's verifier; an environment mismatch moves to the next.
    private func verify<T>(_ body: (SignedDataVerifier) async throws(VerificationError) -> T) async throws(ServiceError) -> T {
        let start = ContinuousClock.now
        let span = TraceParent.isTracing ? startSpan("verify signed data") : nil
        defer { span?.end() }
        do {
            let verified = try await verifiers.firstAccepting(body)
            metrics.recordVerification(refusedCode: nil, duration: ContinuousClock.now - start)
            return verified
        } catch {
            metrics.recordVerification(refusedCode: error.code.rawValue, duration: ContinuousClock.now - start)
            span?.attributes["error.code"] = error.code.rawValue
            logger.debug("signed data refused", metadata: ["error.code": "\(error.code.rawValue)"])
            throw ServiceError(error)
        }
    }
}
