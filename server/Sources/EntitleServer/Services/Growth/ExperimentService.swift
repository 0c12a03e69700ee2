import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Logging

/// Experiments on offerings (docs/growth.md): their definitions, kept as global ledger events (each
/// change the whole experiment anew), the offering each subscriber is served with their enrolment
/// recorded once, and the results from the analytics aggregates.
public struct ExperimentService: SubscriberReading, EventAppending {
    let context: AppContext
    let events: any EventLog
    let projections: any ProjectionStore
    let identity: any IdentityStore
    let analytics: AnalyticsService

    init(
        context: AppContext, events: any EventLog, projections: any ProjectionStore, identity: any IdentityStore,
        analytics: AnalyticsService
    ) {
        self.context = context
        self.events = events
        self.projections = projections
        self.identity = identity
        self.analytics = analytics
    }

    /// The app's experiments, each as last changed, in the order they were created.
    public func experiments() async throws(ServiceError) -> [Experiment] {
        let events: [LedgerEvent]
        do {
            events = try await self.events.globalEvents(source: .experiment)
        } catch {
            throw ServiceError(error)
        }
        var order: [String] = []
        var latest: [String: Experiment] = [:]
        for event in events {
            guard case .experimentChanged(let experiment) = event.payload else { continue }
            if latest[experiment.id] == nil { order.append(experiment.id) }
            latest[experiment.id] = experiment
        }
        return order.compactMap { latest[$0] }
    }

    public func experiment(_ id: String) async throws(ServiceError) -> Experiment {
        guard let experiment = try await experiments().first(where: { $0.id == id }) else {
            throw ServiceError(.experimentNotFound, "no experiment \(id)")
        }
        return experiment
    }

    /// Creates `experiment` as a draft.
    public func create(_ experiment: Experiment) async throws(ServiceError) -> Experiment {
        var experiment = experiment
        experiment.state = .draft
        experiment.createdAt = now()
        (experiment.startedAt, experiment.endedAt, experiment.rolledOutVariantID) = (nil, nil, nil)
        if let problem = experiment.problem(in: catalog) { throw ServiceError(.invalidExperiment, problem) }
        guard try await experiments().first(where: { $0.id == experiment.id }) == nil else {
            throw ServiceError(.experimentExists, "an experiment \(experiment.id) exists")
        }
        try await store(experiment)
        return experiment
    }

    /// Moves the experiment to `state` (start, pause, stop, roll out `variantID`): refused unless
    /// its state allows it (``ExperimentState/next``).
    public func transition(_ id: String, to state: ExperimentState, variantID: String? = nil) async throws(ServiceError) -> Experiment {
        var experiment = try await experiment(id)
        guard experiment.state.next.contains(state) else {
            throw ServiceError(.experimentTransition, "a \(experiment.state.rawValue) experiment can't become \(state.rawValue)")
        }
        let at = now()
        switch state {
        case .running:
            if experiment.startedAt == nil { experiment.startedAt = at }
        case .stopped:
            experiment.endedAt = at
        case .rolledOut:
            guard let variantID, experiment.variant(variantID) != nil else {
                throw ServiceError(.invalidExperiment, "a roll-out names one of the variants: \(experiment.variants.map(\.id).joined(separator: ", "))")
            }
            experiment.rolledOutVariantID = variantID
            experiment.endedAt = at
        case .draft, .paused:
            break
        }
        experiment.state = state
        if let problem = experiment.problem(in: catalog) { throw ServiceError(.invalidExperiment, problem) }
        try await store(experiment)
        return experiment
    }

    /// The experiment's results, from aggregates brought up to date first.
    public func results(_ id: String) async throws(ServiceError) -> (Experiment, ExperimentReport) {
        let experiment = try await experiment(id)
        try await analytics.refreshAnalytics()
        // Real customers' results when the app accepts Production: testers don't decide an experiment.
        let cells = try await analytics.cells(through: nil, scope: analytics.defaultScope)
        return (experiment, ExperimentReport(experiment: experiment, cells: cells, today: AnalyticsCalendar.day(of: now())))
    }

    /// The offering the subscriber is served on a device reporting `storefront` and `appVersion`, and
    /// why; a first serving by a running experiment records the enrolment (once, whichever instance or
    /// device gets there first: the earliest stands). Also the subscriber's facts as read, for what else
    /// the answer says of them.
    public func servedOffering(
        appUserID: AppUserID, storefront: String?, appVersion: String?
    ) async throws(ServiceError) -> (served: ServedOffering, facts: SubscriberFacts) {
        if let storefront, !TargetingContext.isStorefrontCode(storefront.uppercased()) {
            throw ServiceError(.invalidRequest, "storefront is an ISO 3166-1 alpha-3 code such as FRA")
        }
        if let appVersion, AppVersion(appVersion) == nil { throw ServiceError(.invalidRequest, "appVersion is 1 to 4 numbers such as 2.4.1") }
        let resolution = try await resolutionContext(appUserID)
        let facts = resolution.facts
        let targeting = TargetingContext(
            storefront: storefront?.uppercased(), appVersion: appVersion, audience: Audience(resolution.resolve()), attributes: facts.attributes)
        let live = try await experiments().filter { [.running, .paused, .rolledOut].contains($0.state) }
            .sorted { ($0.startedAt ?? $0.createdAt, $0.id) < ($1.startedAt ?? $1.createdAt, $1.id) }
        var served = ServedOffering.serve(
            catalog: catalog, experiments: live, appUserID: facts.appUserID, enrolments: facts.experiments, context: targeting, now: resolution.at)
        if let enrolment = served.newEnrolment {
            _ = try await append(LedgerEvent(
                id: UUID(), appUserID: facts.appUserID, source: .experiment,
                idempotencyKey: "experiment:\(enrolment.experimentID):\(facts.appUserID.rawValue)", signedDate: enrolment.at, receivedAt: enrolment.at,
                payload: .experimentEnrolled(enrolment)))
            // Another instance or device may have enrolled them first: the stored enrolment stands.
            if let stored = try await resolutionContext(facts.appUserID).facts.experiments[enrolment.experimentID], stored != enrolment {
                served = ServedOffering(offeringID: stored.offeringID, reason: .experiment(id: stored.experimentID, variantID: stored.variantID))
            }
        }
        return (served, facts)
    }

    private func store(_ experiment: Experiment) async throws(ServiceError) {
        let id = UUID()
        _ = try await append(LedgerEvent(
            id: id, appUserID: nil, source: .experiment, idempotencyKey: "experiment:\(experiment.id):\(id.uuidString.lowercased())",
            signedDate: now(), receivedAt: now(), payload: .experimentChanged(experiment)))
    }
}
