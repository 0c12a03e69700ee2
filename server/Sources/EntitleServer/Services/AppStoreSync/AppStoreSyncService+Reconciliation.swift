import AppStoreModels
import AppStoreServerAPI
import AppStoreVerification
import Crypto
import EntitleCore
import EntitleStorage
import Foundation
import Logging

extension AppStoreSyncService {
    /// The job name reconciliation leases.
    static let reconciliationJob: LeasedJob = "reconciliation"
    /// How far back Apple keeps Notification History.
    static let notificationHistoryLimit: TimeInterval = 180 * 86_400
    /// How much of the last pass's window the next one reads again, for notifications Apple recorded late.
    static let reconciliationOverlap: TimeInterval = 3_600
    /// Subscribers read at a time when looking for unsettled purchases.
    public static let reconciliationPage = 500
    /// How long a pass holds its lease without renewing it; each page of a long pass renews it, so a
    /// pass longer than this keeps it, and after a crash another instance takes over within this.
    static let reconciliationLease: TimeInterval = 15 * 60

    /// One reconciliation pass: reads Apple's Notification History from `since` (default: where the
    /// last pass ended, less an hour; the first pass reads Apple's 180 days) to now and ingests every
    /// notification the ledger lacks through the same idempotent path as the webhook (source
    /// `app_store_server_api`); then asks Get All Subscription Statuses about each subscription past
    /// its expiry with no news since, and records what Apple answers when it says something new.
    /// Instances sharing a database take a lease first: while one runs a pass, the others skip.
    public func reconcile(since: Date? = nil, holder: String, wallClock: @Sendable () -> ContinuousClock.Instant = { .now })
        async throws(ServiceError) -> ReconciliationReport
    {
        guard let serverAPI else {
            throw ServiceError(.appStoreNotConfigured, "\(bundleID) has no App Store Server API key (--app-store-key)")
        }
        let started = wallClock()
        let end = now()
        let lease: JobLease?
        do {
            lease = try await leases.acquireJob(Self.reconciliationJob, holder: holder, now: end, until: end + Self.reconciliationLease)
        } catch {
            throw ServiceError(error)
        }
        let earliest = end - Self.notificationHistoryLimit
        guard let lease else {
            var report = ReconciliationReport(app: bundleID, from: since ?? earliest, to: end)
            report.skipped = true
            metrics.recordReconciliation(app: bundleID, outcome: "skipped")
            return report
        }
        let from = max(earliest, since ?? lease.mark.map { $0 - Self.reconciliationOverlap } ?? earliest)
        var report = ReconciliationReport(app: bundleID, from: from, to: end)
        // A pass that fails keeps its lease until it lapses (this instance renews it when it retries;
        // the others don't add to what Apple is refusing), and the mark where the last completed pass
        // left it. One cut short by shutdown releases it: the next instance starts at once.
        do throws(ServiceError) {
            try await readNotificationHistory(serverAPI, holder: holder, into: &report)
            try await checkUnsettledPurchases(serverAPI, at: end, holder: holder, into: &report)
            try await checkHeldPurchases(serverAPI, into: &report)
            do {
                try await leases.completeJob(lease, mark: end)
            } catch {
                throw ServiceError(error)
            }
        } catch {
            if Task.isCancelled {
                // In a task of its own: this one's cancellation would cut the release short too.
                await Task { [leases] in try? await leases.completeJob(lease, mark: nil) }.value
            } else {
                metrics.recordReconciliation(app: bundleID, outcome: "failed")
            }
            throw error
        }
        metrics.recordReconciliation(app: bundleID, outcome: "completed", eventsAdded: report.eventsAdded, at: end)
        let elapsed = wallClock() - started
        report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        logger.info(
            "reconciliation pass",
            metadata: [
                "app": "\(bundleID)", "notifications.read": "\(report.notificationsRead)", "notifications.added": "\(report.notificationsAdded)",
                "purchases.checked": "\(report.purchasesChecked)", "status.added": "\(report.statusEventsAdded)",
                "purchases.unanswered": "\(report.purchasesUnanswered)",
                "duration.seconds": "\(String(format: "%.1f", report.seconds))",
            ])
        return report
    }

    /// Renews the pass's lease, as each page of a long pass does; throws `reconciliation.leaseLost` when
    /// another instance holds it (this pass's lapsed), so the two don't run side by side.
    private func renewReconciliationLease(holder: String) async throws(ServiceError) {
        let at = now()
        let renewed: JobLease?
        do {
            renewed = try await leases.acquireJob(Self.reconciliationJob, holder: holder, now: at, until: at + Self.reconciliationLease)
        } catch {
            throw ServiceError(error)
        }
        guard renewed != nil else {
            throw ServiceError(.reconciliationLeaseLost, "another instance holds the reconciliation lease of \(bundleID): this pass stops")
        }
    }

    private func readNotificationHistory(
        _ serverAPI: AppStoreServerAPIClient, holder: String, into report: inout ReconciliationReport
    ) async throws(ServiceError) {
        let request = NotificationHistoryRequest(startDate: report.from, endDate: report.to)
        var token: String?
        repeat {
            if token != nil { try await renewReconciliationLease(holder: holder) }
            let page: (notifications: [(signedPayload: String, verified: VerifiedNotification)], refused: Int, next: String?)
            do {
                page = try await serverAPI.notificationHistory(request, paginationToken: token)
            } catch {
                throw ServiceError(error)
            }
            report.notificationsRead += page.notifications.count + page.refused
            report.notificationsRefused += page.refused
            let setAside = SetAsideCollector(consumer: "reconciliation")
            for notification in page.notifications {
                // Verified by the client with this app's verifiers.
                do {
                    if case .appended = try await ingestion.ingest(notification.verified, signedPayload: notification.signedPayload, source: .appStoreServerAPI) {
                        report.notificationsAdded += 1
                    }
                } catch where SetAsideCollector.isEventsOwn(error) {
                    // One notification the ledger refuses must not stop every pass after it.
                    report.notificationsRefused += 1
                    setAside.note(
                        eventID: Self.inputID(notification.verified.notification.notificationUUID, signedPayload: notification.signedPayload),
                        appUserID: nil, reason: "\(error.code): \(error.message)", at: now())
                }
            }
            await recordSetAside(setAside)
            token = page.next
        } while token != nil
    }

    /// Subscriptions whose current period ended before `now` with nothing signed since: Apple is asked.
    /// The subscribers are read a page at a time, so a pass holds one page whatever their number; a
    /// page's purchases are asked about ``statusChecksInFlight`` at a time, at the pace the client keeps
    /// within Apple's rate limit (Get All Subscription Statuses: 50 a second per app in production).
    private func checkUnsettledPurchases(
        _ serverAPI: AppStoreServerAPIClient, at now: Date, holder: String, into report: inout ReconciliationReport
    ) async throws(ServiceError) {
        var cursor: AppUserID?
        while true {
            try await renewReconciliationLease(holder: holder)
            let page: [(appUserID: AppUserID, facts: SubscriberFacts)]
            do {
                page = try await projections.projections(after: cursor, limit: Self.reconciliationPage)
            } catch {
                throw ServiceError(error)
            }
            guard let last = page.last else { return }
            cursor = last.appUserID
            let unsettled = page.flatMap { entry in
                entry.facts.purchases.values.filter { Self.isUnsettled($0, at: now) }.map { (appUserID: entry.appUserID, purchase: $0) }
            }
            report.purchasesChecked += unsettled.count
            for (check, outcome) in await checkStatuses(unsettled, serverAPI) {
                switch outcome {
                case .success(let added):
                    report.statusEventsAdded += added
                case .failure(let error) where SetAsideCollector.isEventsOwn(error):
                    // Apple refusing one purchase (or its answer refused here) leaves the others to check;
                    // the first few are logged, the count is in the pass's report.
                    report.purchasesUnanswered += 1
                    if report.purchasesUnanswered <= Self.unansweredLogged {
                        logger.warning(
                            "a purchase's statuses could not be recorded",
                            metadata: ["purchase.original_transaction_id": "\(check.purchase.originalTransactionID)", "error.code": "\(error.code)"])
                    }
                case .failure(let error):
                    throw error
                }
            }
        }
    }

    /// Status checks a pass has in flight at once: enough to reach Apple's rate limit at Apple's latency.
    public static let statusChecksInFlight = 8
    /// Unanswered purchases a pass logs one by one; the rest are counted.
    static let unansweredLogged = 20

    /// Each purchase's status check, ``statusChecksInFlight`` at a time. A failure that isn't the
    /// purchase's own (storage, Apple unreachable or limiting) stops the checks not yet started.
    private func checkStatuses(
        _ checks: [(appUserID: AppUserID, purchase: SubscriptionFacts)], _ serverAPI: AppStoreServerAPIClient
    ) async -> [(check: (appUserID: AppUserID, purchase: SubscriptionFacts), outcome: Result<Int, ServiceError>)] {
        await withTaskGroup(of: (Int, Result<Int, ServiceError>).self) { group in
            var outcomes: [(check: (appUserID: AppUserID, purchase: SubscriptionFacts), outcome: Result<Int, ServiceError>)] = []
            var next = 0
            var stopped = false
            func start() {
                let index = next
                let check = checks[index]
                next += 1
                group.addTask {
                    do throws(ServiceError) {
                        return (index, .success(try await refreshFromStatuses(check.purchase, appUserID: check.appUserID, serverAPI)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            while next < min(checks.count, Self.statusChecksInFlight) { start() }
            while let (index, outcome) = await group.next() {
                outcomes.append((checks[index], outcome))
                if case .failure(let error) = outcome, !SetAsideCollector.isEventsOwn(error) { stopped = true }
                if !stopped, next < checks.count { start() }
            }
            return outcomes
        }
    }

    /// Purchases whose events are held with no owner: Apple's transaction history is read for an
    /// appAccountToken a subscriber here registered (one set later with Set App Account Token, or carried
    /// by a renewal); the first found links the purchase, through its latest transaction recorded for
    /// that subscriber.
    private func checkHeldPurchases(_ serverAPI: AppStoreServerAPIClient, into report: inout ReconciliationReport) async throws(ServiceError) {
        let held: [OriginalTransactionID]
        do {
            held = try await events.heldPurchases()
        } catch {
            throw ServiceError(error)
        }
        // An app transaction waits for the customer's transactions to name it; Apple has no purchase to ask about.
        for original in held where original.appTransactionID == nil {
            report.heldPurchasesChecked += 1
            let history: [JWSTransactionDecodedPayload]
            do {
                history = try await serverAPI.allTransactionHistory(original.rawValue)
            } catch where error.kind == .apple && error.status == 404 {
                continue
            } catch {
                throw ServiceError(error)
            }
            var owner: AppUserID?
            for token in Set(history.compactMap(\.appAccountToken)) where owner == nil {
                do {
                    owner = try await identity.accountTokenOwner(token)
                } catch {
                    throw ServiceError(error)
                }
            }
            guard let owner, let latest = history.max(by: { ($0.signedDate ?? .distantPast) < ($1.signedDate ?? .distantPast) }),
                let id = latest.transactionId
            else { continue }
            let event = LedgerEvent(
                id: UUID(), appUserID: owner, source: .appStoreServerAPI,
                idempotencyKey: Self.idempotencyKey(transactionID: id, signedDate: latest.signedDate, jws: id), transactionID: id,
                originalTransactionID: original, signedDate: latest.signedDate, receivedAt: now(), payload: .transaction(latest))
            if case .appended = try await append(event) {
                report.heldPurchasesLinked += 1
                logger.info("a held purchase linked by its appAccountToken", metadata: ["purchase.original_transaction_id": "\(original)"])
            }
        }
    }

    /// The ID a refused notification is set aside under: its notificationUUID, else one drawn from its
    /// signed bytes, so the same notification read again is the same record.
    static func inputID(_ notificationUUID: String?, signedPayload: String) -> UUID {
        if let notificationUUID, let id = UUID(uuidString: notificationUUID) { return id }
        let digest = Array(SHA256.hash(data: Data(signedPayload.utf8)))
        return UUID(uuid: (
            digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7], digest[8], digest[9], digest[10], digest[11],
            digest[12], digest[13], digest[14], digest[15]))
    }

    /// An auto-renewable subscription past its expiry, with neither its transaction nor its renewal
    /// info signed since, nor an expiration or revocation on record.
    static func isUnsettled(_ purchase: SubscriptionFacts, at now: Date) -> Bool {
        guard let current = purchase.currentTransaction, current.type == .autoRenewable, current.revocationDate == nil,
            let expires = current.expiresDate, expires < now, purchase.renewalInfo?.expirationIntent == nil
        else { return false }
        let lastNews = max(current.signedDate ?? .distantPast, purchase.renewalInfo?.signedDate ?? .distantPast)
        return lastNews < expires
    }

    /// Asks Get All Subscription Statuses about `purchase` and records its latest transaction and
    /// renewal info where they differ from what the ledger holds; returns how many events that added.
    func refreshFromStatuses(_ purchase: SubscriptionFacts, appUserID: AppUserID?, _ serverAPI: AppStoreServerAPIClient) async throws(ServiceError) -> Int {
        let statuses: [(status: Int?, transaction: JWSTransactionDecodedPayload?, renewalInfo: JWSRenewalInfoDecodedPayload?)]
        do {
            statuses = try await serverAPI.subscriptionStatuses(purchase.originalTransactionID.rawValue)
        } catch {
            throw ServiceError(error)
        }
        var added = 0
        for status in statuses where (status.transaction?.originalTransactionId ?? status.renewalInfo?.originalTransactionId) == purchase.originalTransactionID.rawValue {
            if let transaction = status.transaction, let id = transaction.transactionId, Self.tellsSomethingNew(transaction, purchase) {
                let event = LedgerEvent(
                    id: UUID(), appUserID: appUserID, source: .appStoreServerAPI,
                    idempotencyKey: Self.idempotencyKey(transactionID: id, signedDate: transaction.signedDate, jws: id),
                    transactionID: id, originalTransactionID: purchase.originalTransactionID, signedDate: transaction.signedDate, receivedAt: now(),
                    payload: .transaction(transaction))
                if case .appended = try await append(event) { added += 1 }
            }
            if let renewal = status.renewalInfo, Self.tellsSomethingNew(renewal, purchase) {
                let signed = (renewal.signedDate ?? now()).millisecondsSince1970()
                let event = LedgerEvent(
                    id: UUID(), appUserID: appUserID, source: .appStoreServerAPI,
                    idempotencyKey: "renewal:\(purchase.originalTransactionID):\(signed)", originalTransactionID: purchase.originalTransactionID,
                    signedDate: renewal.signedDate, receivedAt: now(), payload: .renewalInfo(renewal))
                if case .appended = try await append(event) { added += 1 }
            }
        }
        return added
    }

    /// Whether Apple's latest transaction differs from the ledger's in what decides state.
    static func tellsSomethingNew(_ transaction: JWSTransactionDecodedPayload, _ purchase: SubscriptionFacts) -> Bool {
        guard let known = transaction.transactionId.flatMap({ purchase.transactions[$0] }) else { return true }
        return known.expiresDate != transaction.expiresDate || known.revocationDate != transaction.revocationDate
            || known.isUpgraded != transaction.isUpgraded || known.productId != transaction.productId
    }

    /// Whether Apple's renewal info differs from the ledger's in what decides state.
    static func tellsSomethingNew(_ renewal: JWSRenewalInfoDecodedPayload, _ purchase: SubscriptionFacts) -> Bool {
        guard let known = purchase.renewalInfo else { return true }
        return known.autoRenewStatus != renewal.autoRenewStatus || known.expirationIntent != renewal.expirationIntent
            || known.isInBillingRetryPeriod != renewal.isInBillingRetryPeriod || known.gracePeriodExpiresDate != renewal.gracePeriodExpiresDate
            || known.autoRenewProductId != renewal.autoRenewProductId || known.renewalDate != renewal.renewalDate
    }
}
