import AppStoreModels
import AppStoreServerAPI
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// The subscribers' side: answers (the subscriber, access, usage), what the app records for them
/// (trial start, Ask to Buy, attributes, usage, appAccountTokens), and identity (log-in).
public struct SubscriberService: SubscriberReading, EventAppending {
    let context: AppContext
    let events: any EventLog
    let projections: any ProjectionStore
    let identity: any IdentityStore
    /// The app backend's log-in token keys, when its entitlements file lists them.
    let logInTokens: LogInTokenVerifier?
    /// The key promotional offers are signed with, when configured.
    let offerKey: InAppPurchaseKey?

    init(
        context: AppContext, events: any EventLog, projections: any ProjectionStore, identity: any IdentityStore,
        offerKey: InAppPurchaseKey?
    ) {
        self.context = context
        self.events = events
        self.projections = projections
        self.identity = identity
        // Keys that don't parse are refused when the server starts (``buildApplication``).
        self.logInTokens = context.catalog.logInTokens.flatMap { try? LogInTokenVerifier(policy: $0, app: context.bundleID) }
        self.offerKey = offerKey
    }

    /// The subscriber as the API reports them, resolved now. An unknown subscriber has nothing. Their
    /// derived appAccountToken is registered first (once per process), linking any purchase that
    /// arrived with it before.
    public func subscriber(appUserID: AppUserID, accessPeriods: Bool = false) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let token = accountTokens.token(for: appUserID)
        if accountTokens.needsRegistering(appUserID) {
            do {
                _ = try await identity.registerAccountToken(token, appUserID: appUserID, at: now())
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
    public func registerAccountToken(appUserID: AppUserID, token: UUID) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let outcome: AccountTokenRegistration
        do {
            outcome = try await identity.registerAccountToken(token, appUserID: appUserID, at: now())
        } catch {
            throw ServiceError(error)
        }
        if case .ownedBy = outcome {
            throw ServiceError(.accountTokenTaken, "this appAccountToken belongs to another subscriber")
        }
        return try await subscriber(appUserID: appUserID)
    }

    /// Whether the ledger has a projection for `appUserID`.
    public func isKnown(appUserID: AppUserID) async throws(ServiceError) -> Bool {
        try Self.validate(appUserID)
        do {
            return try await projections.projection(appUserID: appUserID) != nil
        } catch {
            throw ServiceError(error)
        }
    }

    /// Starts the app-managed trial at the subscriber's first launch. Idempotent: later calls keep
    /// the first start.
    public func startTrial(appUserID: AppUserID) async throws(ServiceError) -> SubscriberAnswer {
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
    public func reportPendingPurchase(appUserID: AppUserID, productID: ProductID) async throws(ServiceError) -> SubscriberAnswer {
        return try await recordPurchaseRequest(appUserID: appUserID, productID: productID, kind: "requested") { .purchaseRequested(productID: productID, at: $0) }
    }

    /// Records that the Ask to Buy request for `productID` was declined.
    public func declinePendingPurchase(appUserID: AppUserID, productID: ProductID) async throws(ServiceError) -> SubscriberAnswer {
        return try await recordPurchaseRequest(appUserID: appUserID, productID: productID, kind: "declined") { .purchaseDeclined(productID: productID, at: $0) }
    }

    private func recordPurchaseRequest(
        appUserID: AppUserID, productID: ProductID, kind: String, payload: (Date) -> LedgerEventPayload
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

    /// Sets (or, with `nil`, clears) the subscriber's attributes — the documented ones (``SubscriberAttribute``)
    /// and the app's own (``CustomAttribute``: what targeting matches), each checked against its rule; the
    /// time zone moves calendar quota resets to the subscriber's midnight. One ledger event, on the timeline.
    public func setAttributes(appUserID: AppUserID, _ values: [String: String?]) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        guard !values.isEmpty else { throw ServiceError(.invalidRequest, "name at least one attribute") }
        var current: [String: String] = [:]
        if values.keys.contains(where: { SubscriberAttribute(rawValue: $0) == nil }) {
            do {
                current = try await projections.projection(appUserID: appUserID)?.attributes ?? [:]
            } catch {
                throw ServiceError(error)
            }
        }
        if let problem = CustomAttribute.problem(setting: values, over: current) { throw ServiceError(.invalidRequest, problem) }
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
            let digest = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value ?? "-")" }.joined(separator: "&")
            _ = try await append(LedgerEvent(
                id: UUID(), appUserID: appUserID, source: .attributes, idempotencyKey: "attributes:\(appUserID):\(stamp):\(digest)",
                signedDate: at, receivedAt: at, payload: .attributesSet(attributes)))
        }
        return try await subscriber(appUserID: appUserID)
    }

    /// Records metered usage; refused when it would exceed the quota. The same idempotency key
    /// again is accepted and counted once.
    public func recordUsage(
        appUserID: AppUserID, feature: String, amount: Int, idempotencyKey: String
    ) async throws(ServiceError) -> AccessAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        if let problem = UsageRecord.problem(amount: amount, idempotencyKey: idempotencyKey) { throw ServiceError(.invalidRequest, problem) }
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
            try await self.events.append(event) { facts in
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
    public func access(appUserID: AppUserID, feature: String, usage: Int) async throws(ServiceError) -> AccessAnswer {
        guard (0...InputRules.maximumUsage).contains(usage) else {
            throw ServiceError(.invalidRequest, "usage must be 0 to \(InputRules.maximumUsage)")
        }
        let context = try await resolutionContext(appUserID)
        return AccessAnswer(decision: context.resolve().access(feature, usage: usage), at: context.at)
    }

    /// Logs the anonymous subscriber `anonymous` in as `known` (docs/identity.md): merged, then an
    /// alias of `known`. Repeating it changes nothing; `anonymous` merged into someone else is refused.
    public func logIn(anonymous: AppUserID, as known: AppUserID) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(anonymous)
        try Self.validate(known)
        guard anonymous.isAnonymous else {
            throw ServiceError(.invalidRequest, "only an anonymous subscriber (\(InputRules.anonymousPrefix)<uuid>) logs in; \(anonymous) is known")
        }
        guard !known.isAnonymous else {
            throw ServiceError(.invalidRequest, "log in as a known app user ID, not an anonymous one")
        }
        let outcome: MergeOutcome
        do {
            outcome = try await identity.merge(anonymous: anonymous, into: known, at: now())
        } catch {
            throw ServiceError(error)
        }
        if case .mergedElsewhere = outcome {
            throw ServiceError(.alreadyMerged, "\(anonymous) already logged in as another subscriber")
        }
        logger.info("anonymous subscriber logged in", metadata: ["login.outcome": "\(outcome)"])
        return try await subscriber(appUserID: known)
    }
}
