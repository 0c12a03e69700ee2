import AppStoreModels
import Crypto
import EntitleCore
import EntitleStorage
import Foundation
import Logging
import Tracing

/// A service of one app: it reads the app's catalog, clock, logger and metrics from the shared
/// ``AppContext``, and is given the storage roles it uses through its initialiser (no service reaches
/// the whole ledger). What every service does alike — validate a subscriber ID, record metrics and
/// set-aside events — is written once, here; what needs a role, in ``SubscriberReading`` and
/// ``EventAppending``.
protocol AppService: Sendable {
    var context: AppContext { get }
}

/// A service that answers about subscribers: it reads their projections and follows the IDs merged
/// at log-in.
protocol SubscriberReading: AppService {
    /// The subscribers' projections.
    var projections: any ProjectionStore { get }
    /// Who owns what: purchases, appAccountTokens, the IDs merged at log-in.
    var identity: any IdentityStore { get }
}

/// A service that appends events to the ledger (and reads the global ones, such as the open-access switch).
protocol EventAppending: AppService {
    /// The event log it appends to and reads global events from.
    var events: any EventLog { get }
}

extension AppService {
    var catalog: Catalog { context.catalog }
    var resolver: EntitlementResolver { context.resolver }
    var now: @Sendable () -> Date { context.now }
    var logger: Logger { context.logger }
    var metrics: ServerMetrics { context.metrics }
    var ledgerReadiness: LedgerReadiness { context.ledgerReadiness }
    var instanceID: String { context.instanceID }
    var setAsideStore: any SetAsideStore { context.setAsideStore }
    /// The app this service is for.
    var bundleID: BundleID { context.bundleID }
    /// Each subscriber's appAccountToken, derived.
    var accountTokens: AccountTokens { context.accountTokens }

    /// Runs an append of `event`, recording its outcome and how long it took to be durable.
    func measuredAppend(
        _ event: LedgerEvent, _ append: () async throws(StorageError) -> AppendOutcome
    ) async throws(ServiceError) -> AppendOutcome {
        let start = ContinuousClock.now
        // A span only while tracing (docs/operations.md, "Traces"): otherwise not even its name is built.
        let span = TraceParent.isTracing ? startSpan("ledger append", ofKind: .client) : nil
        defer { span?.end() }
        do {
            let outcome = try await append()
            metrics.recordAppend(source: event.source.rawValue, outcome: outcome.label, duration: ContinuousClock.now - start)
            span?.attributes["entitle.event.source"] = event.source.rawValue
            span?.attributes["entitle.append.outcome"] = outcome.label
            // The request's trace, for the webhooks this event causes later; a trace not kept loses only its link.
            if span != nil, case .appended = outcome, let parent = TraceParent.current() {
                try? await context.traces.recordTrace(eventID: event.id.uuidString.lowercased(), traceParent: parent, at: now())
            }
            return outcome
        } catch {
            span?.recordError(error)
            metrics.recordAppend(source: event.source.rawValue, outcome: "failed", duration: ContinuousClock.now - start)
            logger.error("ledger append failed", metadata: ["error.code": "\(error.code)", "event.source": "\(event.source.rawValue)"])
            throw ServiceError(error)
        }
    }

    static func validate(_ appUserID: AppUserID) throws(ServiceError) { try InputRules.validate(appUserID) }

    /// A signed transaction is identified by its content, not its ID alone: StoreKit hands the app the
    /// same `transactionId` again, re-signed, when it changes (a refund, a revocation, an upgrade), and
    /// each version is an event; the fold keeps the most recently signed. The same version again is
    /// a duplicate.
    static func idempotencyKey(transactionID: String, signedDate: Date?, jws: String) -> String {
        if let signedDate { return "transaction:\(transactionID):\(signedDate.millisecondsSince1970())" }
        let payload = jws.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first ?? Substring(jws)
        return "transaction:\(transactionID):" + Hex.encode(SHA256.hash(data: Data(payload.utf8)))
    }

    /// Refuses an instant outside the ledger's window (``InputRules/checkInstant(_:_:)``).
    static func checkInstant(_ date: Date?, _ name: String) throws(ServiceError) { try InputRules.checkInstant(date, name) }

    /// Records the events `collector` noted: in the ledger's database for the operator, in
    /// `entitle_events_set_aside_total`, and in the log (the first time each is set aside).
    func recordSetAside(_ collector: SetAsideCollector) async {
        let events = collector.take()
        guard !events.isEmpty else { return }
        do {
            let added = try await setAsideStore.setAside(events)
            guard added > 0 else { return }
            metrics.recordSetAside(consumer: collector.consumer, count: added)
        } catch {
            // Noted again by the next pass, which meets the same events.
            logger.error("set-aside events not recorded", metadata: ["error.code": "\(error.code)", "consumer": "\(collector.consumer)"])
            return
        }
        for event in events.prefix(10) {
            logger.error(
                "event set aside",
                metadata: [
                    "consumer": "\(event.consumer)", "event.id": "\(event.eventID)", "subscriber.id": "\(event.appUserID ?? "")",
                    "reason": "\(event.reason)",
                ])
        }
    }
}

extension SubscriberReading {
    /// Reads the subscriber's projection and the open-access switch together (one statement), then
    /// their households.
    func resolutionContext(_ appUserID: AppUserID) async throws(ServiceError) -> ResolutionContext {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let read: (facts: SubscriberFacts?, global: LedgerEvent?)
        do {
            read = try await projections.projection(appUserID: appUserID, latestGlobalEvent: .openAccess)
        } catch {
            throw ServiceError(error)
        }
        let at = now()
        let facts = read.facts ?? SubscriberFacts(appUserID: appUserID)
        return ResolutionContext(
            resolver: resolver, facts: facts, households: try await householdFacts(of: facts, at: at),
            openAccess: AnswerReads.openAccessWindow(read.global), at: at)
    }

    /// The projections of the households the subscriber belongs to at `at`.
    func householdFacts(of facts: SubscriberFacts, at: Date) async throws(ServiceError) -> [SubscriberFacts] {
        try await AnswerReads.households(of: facts, at: at, in: projections)
    }

    /// The subscriber an ID reaches: an anonymous ID merged at log-in reaches the subscriber it was
    /// merged into; every other ID is its own.
    func canonical(_ appUserID: AppUserID) async throws(ServiceError) -> AppUserID {
        guard appUserID.isAnonymous else { return appUserID }
        do {
            return try await identity.aliasTarget(appUserID) ?? appUserID
        } catch {
            throw ServiceError(error)
        }
    }
}

extension EventAppending {
    /// The global open-access window in force (or scheduled), if any.
    func currentOpenAccess() async throws(ServiceError) -> OpenAccessWindow? {
        try await AnswerReads.openAccess(in: events)
    }

    func append(_ event: LedgerEvent) async throws(ServiceError) -> AppendOutcome {
        try await measuredAppend(event) { () async throws(StorageError) in try await events.append(event) }
    }
}
