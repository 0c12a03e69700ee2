import AppStoreModels
import Crypto
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// A service of one app: it reads what it needs from the app's shared ``AppContext``. What every
/// service does alike — validate a subscriber ID, find the subscriber an ID reaches, read what an
/// answer depends on, append an event with its metrics — is written once, here.
protocol AppService: Sendable {
    var context: AppContext { get }
}

extension AppService {
    var store: any LedgerStore { context.store }
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

    /// Reads the subscriber's projection and the open-access switch together (one statement), then
    /// their households.
    func resolutionContext(_ appUserID: AppUserID) async throws(ServiceError) -> ResolutionContext {
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

    /// The global open-access window in force (or scheduled), if any.
    func currentOpenAccess() async throws(ServiceError) -> OpenAccessWindow? {
        let event: LedgerEvent?
        do {
            event = try await store.latestGlobalEvent(source: .openAccess)
        } catch {
            throw ServiceError(error)
        }
        return Self.openAccessWindow(event)
    }

    /// The open-access window an `openAccessSet` event sets, if it is one.
    static func openAccessWindow(_ event: LedgerEvent?) -> OpenAccessWindow? {
        guard case .openAccessSet(let window)? = event?.payload else { return nil }
        return window
    }

    func append(_ event: LedgerEvent) async throws(ServiceError) -> AppendOutcome {
        try await measuredAppend(event) { () async throws(StorageError) in try await store.append(event) }
    }

    /// Runs an append of `event`, recording its outcome and how long it took to be durable.
    func measuredAppend(
        _ event: LedgerEvent, _ append: () async throws(StorageError) -> AppendOutcome
    ) async throws(ServiceError) -> AppendOutcome {
        let start = ContinuousClock.now
        do {
            let outcome = try await append()
            metrics.recordAppend(source: event.source.rawValue, outcome: outcome.label, duration: ContinuousClock.now - start)
            return outcome
        } catch {
            metrics.recordAppend(source: event.source.rawValue, outcome: "failed", duration: ContinuousClock.now - start)
            logger.error("ledger append failed", metadata: ["error.code": "\(error.code)", "event.source": "\(event.source.rawValue)"])
            throw ServiceError(error)
        }
    }

    /// The subscriber an ID reaches: an anonymous ID merged at log-in reaches the subscriber it was
    /// merged into; every other ID is its own.
    func canonical(_ appUserID: AppUserID) async throws(ServiceError) -> AppUserID {
        guard appUserID.isAnonymous else { return appUserID }
        do {
            return try await store.aliasTarget(appUserID) ?? appUserID
        } catch {
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
