import AppStoreModels
import AppStoreServerAPI
import AppStoreVerification
import Crypto
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// The subscription service: turns verified inputs into ledger events and answers from projections.
/// Knows nothing of HTTP: it takes and returns the core's types, and throws ``ServiceError`` codes
/// that the HTTP edge maps to statuses.
public final class SubscriptionService: Sendable {
    let store: any LedgerStore
    /// The analytics aggregates, kept in the ledger's database.
    let analytics: any AnalyticsStore
    /// The events background consumers set aside, kept in the ledger's database.
    let setAsideStore: any SetAsideStore
    public let catalog: Catalog
    /// The app this service is for: its store's app.
    public var bundleID: String { store.app }
    let resolver: EntitlementResolver
    /// One verifier per accepted environment, tried in order.
    let verifiers: [SignedDataVerifier]
    let restorePolicy: RestorePolicy
    let now: @Sendable () -> Date
    let logger: Logger
    let metrics: ServerMetrics
    let accountTokens: AccountTokens
    /// Apple's App Store Server API for this app, when configured.
    let serverAPI: AppStoreServerAPIClient?
    /// The key promotional offers are signed with, when configured.
    let offerKey: InAppPurchaseKey?
    /// Opened once the ledger is migrated; background work waits for it.
    let ledgerReadiness: LedgerReadiness
    /// The app backend's log-in token keys, when its entitlements file lists them.
    let logInTokens: LogInTokenVerifier?
    /// This server instance's name in job leases.
    let instanceID = UUID().uuidString
    /// The webhooks' leases this instance holds.
    let heldLeases = HeldLeases()
    /// The webhook snapshots this instance stored last, while it publishes.
    let webhookSnapshots = WebhookSnapshotCache()

    public init(
        store: any LedgerStore, catalog: Catalog, verifiers: [SignedDataVerifier], restorePolicy: RestorePolicy = .keepWithOriginal,
        metrics: ServerMetrics = ServerMetrics(), now: @escaping @Sendable () -> Date, logger: Logger,
        serverAPI: AppStoreServerAPIClient? = nil, offerKey: InAppPurchaseKey? = nil, ledgerReadiness: LedgerReadiness = .ready
    ) {
        self.ledgerReadiness = ledgerReadiness
        self.serverAPI = serverAPI
        self.offerKey = offerKey
        self.store = store
        self.analytics = store.analyticsStore()
        self.setAsideStore = store.setAsideStore()
        self.catalog = catalog
        self.resolver = EntitlementResolver(catalog: catalog)
        self.verifiers = verifiers
        self.restorePolicy = restorePolicy
        self.now = now
        self.logger = logger
        self.metrics = metrics
        self.accountTokens = AccountTokens(bundleID: store.app)
        // Keys that don't parse are refused when the server starts (``buildApplication``).
        self.logInTokens = catalog.logInTokens.flatMap { try? LogInTokenVerifier(policy: $0, app: store.app) }
    }

    // MARK: - App Store Server Notifications

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
        let event = LedgerEvent(
            id: UUID(), appUserID: nil, source: source, idempotencyKey: "notification:\(uuid)", notificationUUID: uuid,
            transactionID: transaction?.transactionId,
            originalTransactionID: transaction?.originalTransactionId ?? verified.renewalInfo?.originalTransactionId,
            signedDate: notification.signedDate, receivedAt: now(),
            payload: .notification(
                type: notification.notificationType, subtype: notification.subtype, transaction: transaction, renewalInfo: verified.renewalInfo),
            rawSignedPayload: signedPayload)
        let outcome = try await append(event)
        if case .appended = outcome {
            metrics.recordNotificationType(notification.notificationType.flatMap { $0.isKnown ? $0.rawValue : nil } ?? "UNKNOWN")
            // Answered at once; the consumption responder answers from the cursor what this misses.
            if notification.notificationType == .consumptionRequest, answersConsumptionRequests {
                Task { [self] in _ = try? await answerConsumptionRequests(holder: instanceID) }
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

    // MARK: - Subscribers

    /// Verifies a transaction the app submitted for `appUserID`, links its purchase, and returns the
    /// subscriber.
    public func submitTransaction(
        appUserID: String, signedTransaction: String, source: LedgerEventSource = .appTransaction
    ) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let transaction = try await verify { verifier throws(VerificationError) in try await verifier.verifyTransaction(signedTransaction) }
        guard let transactionID = transaction.transactionId else {
            throw ServiceError(.invalidRequest, "the transaction has no transactionId")
        }
        let original = transaction.originalTransactionId ?? transactionID
        let owner: String?
        do {
            owner = try await store.owner(originalTransactionID: original)
        } catch {
            throw ServiceError(error)
        }
        if let owner, owner != appUserID {
            switch restorePolicy {
            case .keepWithOriginal:
                throw ServiceError(
                    .purchaseOwnedByAnotherSubscriber, "this purchase belongs to another subscriber; the restore policy keeps it there")
            case .transferToNewest:
                do {
                    _ = try await store.transfer(originalTransactionID: original, to: appUserID, at: now())
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
        _ = try await append(event)
        // A token the app chose for this purchase is the subscriber's from now on (a taken one stays put).
        if let token = transaction.appAccountToken, token != accountTokens.token(for: appUserID) {
            do {
                _ = try await store.registerAccountToken(token, appUserID: appUserID, at: now())
            } catch {
                throw ServiceError(error)
            }
        }
        return try await subscriber(appUserID: appUserID)
    }

    /// The subscriber as the API reports them, resolved now. An unknown subscriber has nothing. Their
    /// derived appAccountToken is registered first (once per process), linking any purchase that
    /// arrived with it before.
    public func subscriber(appUserID: String, accessPeriods: Bool = false) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let token = accountTokens.token(for: appUserID)
        if accountTokens.needsRegistering(appUserID) {
            do {
                _ = try await store.registerAccountToken(token, appUserID: appUserID, at: now())
            } catch {
                accountTokens.forget(appUserID)
                throw ServiceError(error)
            }
        }
        let context = try await resolutionContext(appUserID)
        var answer = SubscriberAnswer(facts: context.facts, access: context.resolve(context.facts), appAccountToken: token)
        if accessPeriods { answer.accessPeriods = Self.periods(context, current: answer.access) }
        return answer
    }

    /// The access now, and after each of the next two changes that need no new event.
    static func periods(_ context: ResolutionContext, current: SubscriberAccess) -> [(from: Date, until: Date?, access: SubscriberAccess)] {
        var periods: [(from: Date, until: Date?, access: SubscriberAccess)] = []
        var (from, access) = (context.at, current)
        for _ in 0..<3 {
            let change = context.resolver.nextChange(of: context.facts, households: context.households, openAccess: context.openAccess, after: from)
            periods.append((from, change?.at, access))
            guard let change else { break }
            (from, access) = (change.at, change.after)
        }
        return periods
    }

    /// Registers an appAccountToken the app chose for the subscriber (beside the derived one), linking
    /// the purchases that arrived with it. A token another subscriber holds is refused.
    public func registerAccountToken(appUserID: String, token: UUID) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let outcome: AccountTokenRegistration
        do {
            outcome = try await store.registerAccountToken(token, appUserID: appUserID, at: now())
        } catch {
            throw ServiceError(error)
        }
        if case .ownedBy = outcome {
            throw ServiceError(.accountTokenTaken, "this appAccountToken belongs to another subscriber")
        }
        return try await subscriber(appUserID: appUserID)
    }

    /// Whether the ledger has a projection for `appUserID`.
    public func isKnown(appUserID: String) async throws(ServiceError) -> Bool {
        try Self.validate(appUserID)
        do {
            return try await store.projection(appUserID: appUserID) != nil
        } catch {
            throw ServiceError(error)
        }
    }

    /// Starts the app-managed trial at the subscriber's first launch. Idempotent: later calls keep
    /// the first start.
    public func startTrial(appUserID: String) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let at = now()
        _ = try await append(LedgerEvent(
            id: UUID(), appUserID: appUserID, source: .appTrialStart, idempotencyKey: "trial:\(appUserID)", signedDate: at, receivedAt: at,
            payload: .appTrialStarted(at: at)))
        return try await subscriber(appUserID: appUserID)
    }

    /// Records that the app's purchase of `productID` awaits a parent's approval (Ask to Buy: StoreKit
    /// answered `.pending`). The subscriber shows it until the approved transaction arrives, a decline
    /// is reported, or 24 hours pass without an answer; asking again restarts the 24 hours.
    public func reportPendingPurchase(appUserID: String, productID: String) async throws(ServiceError) -> SubscriberAnswer {
        try await recordPurchaseRequest(appUserID: appUserID, productID: productID, kind: "requested") { .purchaseRequested(productID: productID, at: $0) }
    }

    /// Records that the Ask to Buy request for `productID` was declined.
    public func declinePendingPurchase(appUserID: String, productID: String) async throws(ServiceError) -> SubscriberAnswer {
        try await recordPurchaseRequest(appUserID: appUserID, productID: productID, kind: "declined") { .purchaseDeclined(productID: productID, at: $0) }
    }

    private func recordPurchaseRequest(
        appUserID: String, productID: String, kind: String, payload: (Date) -> LedgerEventPayload
    ) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        guard catalog.product(productID) != nil else {
            throw ServiceError(.unknownProduct, "\(productID) is not a product of this app")
        }
        let at = now()
        let key = "purchase-\(kind):\(appUserID):\(productID):\(at.millisecondsSince1970(rounding: .down))"
        _ = try await append(LedgerEvent(
            id: UUID(), appUserID: appUserID, source: .purchaseRequest, idempotencyKey: key, signedDate: at, receivedAt: at,
            payload: payload(at)))
        return try await subscriber(appUserID: appUserID)
    }

    /// Sets (or, with `nil`, clears) the subscriber's attributes, each checked against its rule; the time
    /// zone moves calendar quota resets to the subscriber's midnight. One ledger event, on the timeline.
    public func setAttributes(appUserID: String, _ values: [String: String?]) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        guard !values.isEmpty else { throw ServiceError(.invalidRequest, "name at least one attribute") }
        for (key, value) in values {
            guard let attribute = SubscriberAttribute(rawValue: key) else {
                throw ServiceError(
                    .invalidRequest, "\(key) is not an attribute: \(SubscriberAttribute.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if let value, let problem = attribute.problem(with: value) { throw ServiceError(.invalidRequest, "\(key): \(problem)") }
        }
        let at = now()
        var attributes = values
        let zone = attributes.removeValue(forKey: SubscriberAttribute.timeZone.rawValue)
        let stamp = at.millisecondsSince1970(rounding: .down)
        if let zone {
            _ = try await append(LedgerEvent(
                id: UUID(), appUserID: appUserID, source: .attributes, idempotencyKey: "time-zone:\(appUserID):\(stamp):\(zone ?? "UTC")",
                signedDate: at, receivedAt: at, payload: .timeZoneSet(identifier: zone ?? "UTC")))
        }
        if !attributes.isEmpty {
            let digest = attributes.keys.sorted().map { "\($0)=\(attributes[$0]! ?? "-")" }.joined(separator: "&")
            _ = try await append(LedgerEvent(
                id: UUID(), appUserID: appUserID, source: .attributes, idempotencyKey: "attributes:\(appUserID):\(stamp):\(digest)",
                signedDate: at, receivedAt: at, payload: .attributesSet(attributes)))
        }
        return try await subscriber(appUserID: appUserID)
    }

    /// The most one use may consume, and the most usage an access question may ask about.
    public static let maximumUsage = 1_000_000

    /// Records metered usage; refused when it would exceed the quota. The same idempotency key
    /// again is accepted and counted once.
    public func recordUsage(
        appUserID: String, feature: String, amount: Int, idempotencyKey: String
    ) async throws(ServiceError) -> AccessAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        guard amount > 0, amount <= Self.maximumUsage, !idempotencyKey.isEmpty, idempotencyKey.utf8.count <= 200 else {
            throw ServiceError(.invalidRequest, "amount must be 1 to \(Self.maximumUsage) and idempotencyKey 1 to 200 bytes")
        }
        guard catalog.quota(feature) != nil else {
            throw catalog.features.contains(feature) || catalog.limits.contains(feature)
                ? ServiceError(.notMetered, "\(feature) is not a metered quota")
                : ServiceError(.unknownFeature, "\(feature) is not a feature of this app")
        }
        let context = try await resolutionContext(appUserID)
        let at = context.at
        let key = "usage:\(appUserID):\(feature):\(idempotencyKey)"
        let event = LedgerEvent(
            id: UUID(), appUserID: appUserID, source: .usage, idempotencyKey: key, signedDate: at, receivedAt: at,
            payload: .usage(UsageRecord(feature: feature, amount: amount, at: at, idempotencyKey: idempotencyKey)))
        // The quota is checked against the projection inside the append's transaction: concurrent
        // uses (from any number of server instances) can't both take the last unit.
        let outcome = try await measuredAppend(event) { () async throws(StorageError) in
            try await self.store.append(event) { facts in
                context.resolve(facts).access(feature, usage: amount).isAllowed
            }
        }
        if outcome == .refused {
            let decision = try await resolutionContext(appUserID).resolve().access(feature, usage: amount)
            throw ServiceError(.quotaExhausted, decision.explanation)
        }
        return try await self.access(appUserID: appUserID, feature: feature, usage: 0)
    }

    /// The gating answer for `feature`.
    public func access(appUserID: String, feature: String, usage: Int) async throws(ServiceError) -> AccessAnswer {
        guard (0...Self.maximumUsage).contains(usage) else {
            throw ServiceError(.invalidRequest, "usage must be 0 to \(Self.maximumUsage)")
        }
        let context = try await resolutionContext(appUserID)
        return AccessAnswer(decision: context.resolve().access(feature, usage: usage), at: context.at)
    }

    // MARK: - Helpers

    /// Everything an answer about a subscriber depends on, read once: their facts, the households
    /// they belong to, the open-access window, and the instant.
    struct ResolutionContext: Sendable {
        let resolver: EntitlementResolver
        let facts: SubscriberFacts
        let households: [SubscriberFacts]
        let openAccess: OpenAccessWindow?
        let at: Date

        /// Resolves `facts` (the subscriber's as read, unless given, e.g. inside a transaction).
        func resolve(_ facts: SubscriberFacts? = nil) -> SubscriberAccess {
            resolver.resolve(facts ?? self.facts, households: households, openAccess: openAccess, at: at)
        }
    }

    /// Reads the subscriber's projection and the open-access switch together (one statement), then
    /// their households.
    func resolutionContext(_ appUserID: String) async throws(ServiceError) -> ResolutionContext {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let read: (facts: SubscriberFacts?, global: LedgerEvent?)
        do {
            read = try await store.projection(appUserID: appUserID, latestGlobalEvent: .openAccess)
        } catch {
            throw ServiceError(error)
        }
        let at = now()
        let facts = read.facts ?? SubscriberFacts(appUserID: appUserID)
        return ResolutionContext(
            resolver: resolver, facts: facts, households: try await householdFacts(of: facts, at: at),
            openAccess: Self.openAccessWindow(read.global), at: at)
    }

    /// The projections of the households the subscriber belongs to at `at`.
    func householdFacts(of facts: SubscriberFacts, at: Date) async throws(ServiceError) -> [SubscriberFacts] {
        var households: [SubscriberFacts] = []
        for id in facts.householdIDs(at: at) {
            do {
                if let household = try await store.projection(appUserID: id) { households.append(household) }
            } catch {
                throw ServiceError(error)
            }
        }
        return households
    }

    func append(_ event: LedgerEvent) async throws(ServiceError) -> AppendOutcome {
        try await measuredAppend(event) { () async throws(StorageError) in try await self.store.append(event) }
    }

    /// Runs an append of `event`, recording its outcome and how long it took to be durable.
    private func measuredAppend(
        _ event: LedgerEvent, _ append: () async throws(StorageError) -> AppendOutcome
    ) async throws(ServiceError) -> AppendOutcome {
        let start = ContinuousClock.now
        do {
            let outcome = try await append()
            let name = switch outcome {
            case .appended: "appended"
            case .duplicate: "duplicate"
            case .refused: "refused"
            }
            metrics.recordAppend(source: event.source.rawValue, outcome: name, duration: ContinuousClock.now - start)
            return outcome
        } catch {
            metrics.recordAppend(source: event.source.rawValue, outcome: "failed", duration: ContinuousClock.now - start)
            logger.error("ledger append failed", metadata: ["error.code": "\(error.code)", "event.source": "\(event.source.rawValue)"])
            throw ServiceError(error)
        }
    }

    /// Tries each accepted environment's verifier; an environment mismatch moves to the next.
    private func verify<T>(_ body: (SignedDataVerifier) async throws(VerificationError) -> T) async throws(ServiceError) -> T {
        var last: VerificationError?
        for verifier in verifiers {
            do {
                return try await body(verifier)
            } catch {
                guard error.code == .environment else {
                    metrics.recordRefusedVerification(code: error.code.rawValue)
                    throw ServiceError(error)
                }
                last = error
            }
        }
        let refused = last ?? VerificationError(.environment, "no environment is accepted")
        metrics.recordRefusedVerification(code: refused.code.rawValue)
        throw ServiceError(refused)
    }

    /// A signed transaction is identified by its content, not its ID alone: StoreKit hands the app the
    /// same `transactionId` again, re-signed, when it changes (a refund, a revocation, an upgrade), and
    /// each version is an event; the fold keeps the most recently signed. The same version again is
    /// a duplicate.
    static func idempotencyKey(transactionID: String, signedDate: Date?, jws: String) -> String {
        if let signedDate { return "transaction:\(transactionID):\(signedDate.millisecondsSince1970())" }
        let payload = jws.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first ?? Substring(jws)
        return "transaction:\(transactionID):" + Hex.encode(SHA256.hash(data: Data(payload.utf8)))
    }

    /// App user ids are opaque strings chosen by the app: 1 to 200 printable characters.
    /// The subscriber an ID reaches: an anonymous ID merged at log-in reaches the subscriber it was
    /// merged into; every other ID is its own.
    func canonical(_ appUserID: String) async throws(ServiceError) -> String {
        guard appUserID.hasPrefix(Self.anonymousPrefix) else { return appUserID }
        do {
            return try await store.aliasTarget(appUserID) ?? appUserID
        } catch {
            throw ServiceError(error)
        }
    }

    /// Anonymous subscriber IDs: `$anon:` and a UUID, made by the app before the user signs in.
    public static let anonymousPrefix = "$anon:"

    /// Logs the anonymous subscriber `anonymous` in as `known` (docs/identity.md): merged, then an
    /// alias of `known`. Repeating it changes nothing; `anonymous` merged into someone else is refused.
    public func logIn(anonymous: String, as known: String) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(anonymous)
        try Self.validate(known)
        guard anonymous.hasPrefix(Self.anonymousPrefix) else {
            throw ServiceError(.invalidRequest, "only an anonymous subscriber (\(Self.anonymousPrefix)<uuid>) logs in; \(anonymous) is known")
        }
        guard !known.hasPrefix(Self.anonymousPrefix) else {
            throw ServiceError(.invalidRequest, "log in as a known app user ID, not an anonymous one")
        }
        let outcome: MergeOutcome
        do {
            outcome = try await store.merge(anonymous: anonymous, into: known, at: now())
        } catch {
            throw ServiceError(error)
        }
        if case .mergedElsewhere = outcome {
            throw ServiceError(.alreadyMerged, "\(anonymous) already logged in as another subscriber")
        }
        logger.info("anonymous subscriber logged in", metadata: ["login.outcome": "\(outcome)"])
        return try await subscriber(appUserID: known)
    }

    static func validate(_ appUserID: String) throws(ServiceError) {
        guard !appUserID.isEmpty else { throw ServiceError(.invalidAppUserID, "the app user ID is empty") }
        guard appUserID.utf8.count <= 200 else {
            throw ServiceError(.invalidAppUserID, "the app user ID is \(appUserID.utf8.count) bytes of UTF-8; at most 200")
        }
        guard appUserID.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }) else {
            throw ServiceError(.invalidAppUserID, "the app user ID holds a control character; it is printable text")
        }
        if appUserID.hasPrefix(anonymousPrefix), UUID(uuidString: String(appUserID.dropFirst(anonymousPrefix.count))) == nil {
            throw ServiceError(.invalidAppUserID, "an anonymous app user ID is \(anonymousPrefix) and a UUID")
        }
    }
}
