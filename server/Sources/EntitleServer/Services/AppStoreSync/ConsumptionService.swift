import AppStoreModels
import AppStoreServerAPI
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// Answers Apple's CONSUMPTION_REQUEST notifications with Send Consumption Information, from what the
/// ledger knows, when the app opted in (`consumptionPolicy`) and has a key.
public struct ConsumptionService: SubscriberReading {
    let context: AppContext
    let projections: any ProjectionStore
    let identity: any IdentityStore
    /// Its ledger consumer's durable cursor.
    let cursors: any ConsumerCursors
    /// The leases of its background jobs.
    let leases: any JobLeases
    /// Apple's App Store Server API for this app, when configured.
    let serverAPI: AppStoreServerAPIClient?

    /// The ledger consumer that answers CONSUMPTION_REQUEST notifications.
    static let consumptionConsumer: LedgerConsumer = "consumption-requests"
    /// The job answering holds, so one instance answers at a time.
    static let consumptionJob: LeasedJob = "consumption-requests"
    /// Apple takes consumption information for 12 hours after its request.
    static let consumptionWindow: TimeInterval = 12 * 3_600

    /// Whether this app answers CONSUMPTION_REQUEST notifications: it opted in and has a key.
    var answersConsumptionRequests: Bool { catalog.consumptionPolicy != nil && serverAPI != nil }

    /// Answers the CONSUMPTION_REQUEST notifications the ledger received since the last call (a
    /// durable cursor) with Send Consumption Information, from what the ledger knows; returns how many
    /// were answered. A request Apple can't take now (retryable) stops the batch there, to be tried
    /// again next time while its 12-hour window lasts; one Apple refuses for good, or past its window,
    /// is logged and passed. Instances sharing a database take turns through a lease.
    public func answerConsumptionRequests(holder: String) async throws(ServiceError) -> Int {
        guard let policy = catalog.consumptionPolicy, let serverAPI else { return 0 }
        let start = now()
        let lease: JobLease?
        do {
            lease = try await leases.acquireJob(Self.consumptionJob, holder: holder, now: start, until: start + 300)
        } catch {
            throw ServiceError(error)
        }
        guard let lease else { return 0 }
        let outcome: Result<Int, ServiceError>
        do {
            outcome = .success(try await drainConsumptionRequests(serverAPI, policy: policy))
        } catch {
            outcome = .failure(error)
        }
        // In a task of its own: shutdown cancelling this one would cut the release short too.
        await Task { [leases] in try? await leases.completeJob(lease, mark: nil) }.value
        return try outcome.get()
    }

    private func drainConsumptionRequests(_ serverAPI: AppStoreServerAPIClient, policy: ConsumptionPolicy) async throws(ServiceError) -> Int {
        var answered = 0
        while true {
            let batch: (position: Int64, events: [(sequence: Int64, event: LedgerEvent)])
            do {
                batch = try await cursors.consumerEvents(Self.consumptionConsumer, limit: 200, since: now() - Self.consumptionWindow)
            } catch {
                throw ServiceError(error)
            }
            guard !batch.events.isEmpty else { return answered }
            var processed = batch.position
            var stopped: ServiceError?
            let setAside = SetAsideCollector(consumer: "consumption")
            for (sequence, event) in batch.events {
                if setAside.setsAside(event, at: now()) {
                    processed = sequence
                    continue
                }
                if case .notification(let type, _, let transaction?, _) = event.payload, type == .consumptionRequest, let id = transaction.transactionId {
                    let requestedAt = event.signedDate ?? event.receivedAt
                    if now().timeIntervalSince(requestedAt) > Self.consumptionWindow {
                        logger.notice("a consumption request passed its 12-hour window unanswered", metadata: ["transaction.id": "\(id)"])
                    } else {
                        let request: ConsumptionRequest
                        do {
                            request = try await consumptionInformation(for: transaction, appUserID: event.appUserID, policy: policy)
                        } catch where SetAsideCollector.isEventsOwn(error) {
                            setAside.note(event, reason: "\(error.code): \(error.message)", at: now())
                            processed = sequence
                            continue
                        }
                        do {
                            try await serverAPI.sendConsumptionInformation(id, request)
                            answered += 1
                            logger.info(
                                "consumption information sent",
                                metadata: ["transaction.id": "\(id)", "delivery": "\(request.deliveryStatus.rawValue)"])
                        } catch where error.isRetryable {
                            stopped = ServiceError(error)
                            break
                        } catch {
                            logger.warning("Apple refused the consumption information", metadata: ["transaction.id": "\(id)", "error": "\(error)"])
                        }
                    }
                }
                processed = sequence
            }
            await recordSetAside(setAside)
            let moved: Bool
            do {
                moved = try await cursors.advanceConsumer(Self.consumptionConsumer, from: batch.position, to: processed)
            } catch {
                throw ServiceError(error)
            }
            if let stopped { throw stopped }
            guard moved, batch.events.count == 200 else { return answered }
        }
    }

    /// What the ledger knows about the purchase Apple asks about: delivered when it reached a
    /// subscriber here; for a subscription, how much of the paid period had passed when the refund
    /// was asked for; whether a free trial (the app's own or an introductory offer) came first.
    func consumptionInformation(
        for transaction: JWSTransactionDecodedPayload, appUserID: AppUserID?, policy: ConsumptionPolicy
    ) async throws(ServiceError) -> ConsumptionRequest {
        let original = transaction.purchaseChain ?? ""
        let owner: AppUserID?
        let facts: SubscriberFacts?
        do {
            owner = try await appUserID.asyncOr { () async throws(StorageError) in try await identity.owner(originalTransactionID: original) }
            facts = try await owner.asyncFlatMap { id async throws(StorageError) in try await projections.projection(appUserID: id) }
        } catch {
            throw ServiceError(error)
        }
        let delivered = owner != nil
        var percentage: Int?
        if delivered, let purchased = transaction.purchaseDate, let expires = transaction.expiresDate, expires > purchased {
            let share = now().timeIntervalSince(purchased) / expires.timeIntervalSince(purchased)
            percentage = Int((min(1, max(0, share)) * 100_000).rounded())
        } else if !delivered {
            percentage = 0
        }
        let product = transaction.productId.flatMap { catalog.product(ProductID($0)) }
        let trial = catalog.appTrial != nil || product?.introductoryOffer?.paymentMode == .freeTrial || facts?.appTrialStartedAt != nil
            || transaction.offerDiscountType == .freeTrial
        return ConsumptionRequest(
            customerConsented: true, consumptionPercentage: percentage, deliveryStatus: delivered ? .delivered : .undeliveredOther,
            sampleContentProvided: trial, refundPreference: policy.refundPreference.flatMap(ConsumptionRequest.RefundPreference.init(rawValue:)))
    }
}

extension Optional {
    fileprivate func asyncOr(_ fallback: () async throws(StorageError) -> Wrapped?) async throws(StorageError) -> Wrapped? {
        if let value = self { return value }
        return try await fallback()
    }

    fileprivate func asyncFlatMap<T>(_ transform: (Wrapped) async throws(StorageError) -> T?) async throws(StorageError) -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
