import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Logging

/// Analytics: the aggregates kept up to date from the ledger (refresh, recompute), the reports, and
/// the events analytics set aside.
public struct AnalyticsService: EventAppending {
    let context: AppContext
    let events: any EventLog
    /// Whether the ledger answers reads.
    let health: any LedgerHealth
    /// The analytics aggregates, kept in the ledger's database.
    let analytics: any AnalyticsStore
    /// The operator's exchange rates: reports add their amounts in one currency.
    let exchangeRates: ExchangeRates?
    /// Whose figures reports, checks and experiments count unless asked otherwise: real customers' when
    /// the app accepts Production, everyone's when it accepts only test environments (a local demo).
    public let defaultScope: AnalyticsScope

    init(
        context: AppContext, events: any EventLog, health: any LedgerHealth, analytics: any AnalyticsStore, exchangeRates: ExchangeRates? = nil,
        defaultScope: AnalyticsScope = .all
    ) {
        self.exchangeRates = exchangeRates
        self.defaultScope = defaultScope
        self.context = context
        self.events = events
        self.health = health
        self.analytics = analytics
    }

    /// The longest range a report covers, in days.
    public static let longestAnalyticsRange = 3_660
    /// Ledger events read per refresh transaction.
    static let analyticsBatch = 500
    /// Subscribers per recompute transaction: fewer, larger transactions add to each aggregate cell
    /// fewer times, and hold the writer for a fraction of a second each.
    static let recomputeBatch = 1_000

    /// Each subscriber's cells under this server's catalog, from the events analytics can process:
    /// one with a value out of range (stored before the edge checked it) is left out and noted in
    /// `setAside`.
    func analyticsCells(setAside: SetAsideCollector) -> @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells {
        let contributor = AnalyticsContributor(catalog: catalog)
        let at = now()
        return { appUserID, events in
            contributor.cells(appUserID: appUserID, events: setAside.keepingProcessable(events, appUserID: appUserID, at: at))
        }
    }

    /// The events background consumers set aside, newest first.
    public func setAsideEvents(limit: Int = 100) async throws(ServiceError) -> [SetAsideEvent] {
        guard (1...1_000).contains(limit) else { throw ServiceError(.invalidRequest, "limit is 1 to 1000") }
        do {
            return try await setAsideStore.setAsideEvents(limit: limit)
        } catch {
            throw ServiceError(error)
        }
    }

    /// Adds what changed since the last refresh to the daily aggregates, after finishing a recompute
    /// under way (one a crash or a shutdown interrupted, or one another instance or the CLI runs), so
    /// the aggregates count every subscriber. Returns how many subscribers were recomputed and refreshed.
    @discardableResult
    public func refreshAnalytics() async throws(ServiceError) -> Int {
        let start = ContinuousClock.now
        let setAside = SetAsideCollector(consumer: "analytics")
        do {
            let cells = analyticsCells(setAside: setAside)
            if try await analytics.startRecompute(unlessDefinitionsAre: AnalyticsContributor.definitionsVersion) {
                logger.notice("analytics recompute started: the aggregates were computed under other definitions")
            }
            let recomputed = try await analytics.finishRecompute(batchSize: Self.recomputeBatch, cells: cells)
            if recomputed > 0 { logger.info("analytics recompute continued", metadata: ["subscribers": "\(recomputed)"]) }
            let refreshed = try await analytics.refreshAnalytics(batchSize: Self.analyticsBatch, cells: cells)
            await recordSetAside(setAside)
            metrics.recordAnalyticsRefresh(duration: ContinuousClock.now - start, at: now())
            if let health = try? await currentHealth() { metrics.recordBusinessHealth(app: bundleID, health) }
            return recomputed + refreshed
        } catch {
            await recordSetAside(setAside)
            // Cut short by graceful shutdown, it failed nothing: its caller says so.
            if !Task.isCancelled { logger.error("analytics refresh failed", metadata: ["error.code": "\(error.code)"]) }
            throw ServiceError(error)
        }
    }

    /// Computes the aggregates again from the whole ledger (after a catalog change, say).
    public func recomputeAnalytics() async throws(ServiceError) -> Int {
        let setAside = SetAsideCollector(consumer: "analytics")
        do {
            let recomputed = try await analytics.recomputeAnalytics(batchSize: Self.recomputeBatch, cells: analyticsCells(setAside: setAside))
            await recordSetAside(setAside)
            return recomputed
        } catch {
            await recordSetAside(setAside)
            throw ServiceError(error)
        }
    }

    /// The report of `from...to` (`YYYY-MM-DD`, UTC days). By default the last twelve calendar months
    /// up to today, of ``defaultScope``'s subscribers (`environment`: `production`, `sandbox` or `all`).
    /// The aggregates are brought up to date first.
    public func analytics(from: String?, to: String?, environment: String? = nil) async throws(ServiceError) -> AnalyticsReport {
        let (first, last) = try analyticsRange(from: from, to: to)
        let scope = try self.scope(environment)
        try await refreshAnalytics()
        var report = AnalyticsReport(cells: try await cells(through: last, scope: scope), catalog: catalog, from: first, to: last)
        report.reporting = exchangeRates?.reporting(report)
        report.environment = scope
        return report
    }

    /// The paywall funnels of `from...to` (`YYYY-MM-DD`, UTC days; by default as ``analytics(from:to:environment:)``).
    /// The aggregates are brought up to date first.
    public func funnels(from: String?, to: String?, environment: String? = nil) async throws(ServiceError) -> FunnelReport {
        let (first, last) = try analyticsRange(from: from, to: to)
        let scope = try self.scope(environment)
        try await refreshAnalytics()
        var report = FunnelReport(cells: try await cells(through: last, scope: scope), from: first, to: last)
        report.environment = scope
        return report
    }

    /// The aggregate cells up to `day` (all when `nil`) that `scope` counts, as they stand.
    func cells(through day: Int?, scope: AnalyticsScope) async throws(ServiceError) -> AnalyticsCells {
        do {
            return try await analytics.analyticsCells(through: day).scoped(to: scope)
        } catch {
            throw ServiceError(error)
        }
    }

    /// The scope a request names (`production`, `sandbox` or `all`), else ``defaultScope``.
    func scope(_ text: String?) throws(ServiceError) -> AnalyticsScope {
        guard let text else { return defaultScope }
        guard let scope = AnalyticsScope(rawValue: text) else {
            throw ServiceError(.invalidRequest, "environment is production, sandbox or all")
        }
        return scope
    }

    /// The business checks today (docs/growth.md), the aggregates brought up to date first.
    public func businessHealth() async throws(ServiceError) -> BusinessHealth {
        try await refreshAnalytics()
        return try await currentHealth()
    }

    /// The business checks today from the aggregates as they stand, of ``defaultScope``'s subscribers
    /// (a tester's trials don't set off a real business's alerts).
    func currentHealth() async throws(ServiceError) -> BusinessHealth {
        let today = AnalyticsCalendar.day(of: now())
        return BusinessHealth(cells: try await cells(through: today, scope: defaultScope), thresholds: catalog.alertThresholds, today: today)
    }

    /// The days a report covers, validated.
    func analyticsRange(from: String?, to: String?) throws(ServiceError) -> (Int, Int) {
        let today = AnalyticsCalendar.day(of: now())
        let last = try to.map { text throws(ServiceError) in try Self.day(text, name: "to") } ?? today
        let first = try from.map { text throws(ServiceError) in try Self.day(text, name: "from") }
            ?? AnalyticsCalendar.firstDayOfMonth(containing: last - 334)
        guard first <= last else { throw ServiceError(.invalidRequest, "from must not be after to") }
        guard last - first < Self.longestAnalyticsRange else {
            throw ServiceError(.invalidRequest, "a report covers at most \(Self.longestAnalyticsRange) days")
        }
        return (first, last)
    }

    static func day(_ text: String, name: String) throws(ServiceError) -> Int {
        guard let day = AnalyticsCalendar.day(ofISODate: text) else { throw ServiceError(.invalidRequest, "\(name) is a date written YYYY-MM-DD") }
        return day
    }

    /// A subscriber's timeline with the state of each entitlement after every event (at the event's
    /// instant), folded in Apple's order.
    public func stateTimeline(appUserID: AppUserID) async throws(ServiceError) -> [StateChange] {
        try Self.validate(appUserID)
        let events: [LedgerEvent]
        do {
            events = try await self.events.events(appUserID: appUserID)
        } catch {
            throw ServiceError(error)
        }
        var facts = SubscriberFacts(appUserID: appUserID)
        var previous: [String: String] = [:]
        var changes: [StateChange] = []
        for event in LedgerFold.ordered(events) {
            facts.apply(event)
            let at = event.signedDate ?? event.receivedAt
            let access = resolver.resolve(facts, at: at)
            let states = Dictionary(access.entitlements.map { ($0.id, $0.state.rawValue) }, uniquingKeysWith: { first, _ in first })
            changes.append(StateChange(
                at: at, source: event.source.rawValue, kind: event.payload.kind, transactionID: event.transactionID,
                originalTransactionID: event.originalTransactionID, states: states, changed: states != previous))
            previous = states
        }
        return changes
    }
}
