import Crypto
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Logging

/// Webhooks: the app's endpoints and deliveries, derived from the ledger by a consumer with a durable
/// cursor (``publishWebhooks(holder:)``) and sent by ``WebhookSender``.
public struct WebhookService: SubscriberReading, EventAppending {
    let context: AppContext
    let events: any EventLog
    let projections: any ProjectionStore
    let identity: any IdentityStore
    /// Its ledger consumers' durable cursors (webhooks, forwarding).
    let cursors: any ConsumerCursors
    /// Whole events (with Apple's signed payload), for forwarding.
    let feed: any LedgerFeed
    /// The leases of its background jobs.
    let leases: any JobLeases
    /// The app's endpoints, deliveries and schedule.
    public let webhookStore: any WebhookStore
    /// The webhooks' leases this instance holds.
    let heldLeases = HeldLeases()
    /// The webhook snapshots this instance stored last, while it publishes.
    let webhookSnapshots = WebhookSnapshotCache()
    /// How long publishing, sending and forwarding each hold their lease without renewing it (each step,
    /// or a sending round's renewals, renew it): after a crash, another instance takes over within this.
    let lease: TimeInterval

    init(
        context: AppContext, events: any EventLog, projections: any ProjectionStore, identity: any IdentityStore,
        cursors: any ConsumerCursors, feed: any LedgerFeed, leases: any JobLeases, webhookStore: any WebhookStore,
        lease: TimeInterval = WebhookService.defaultLease
    ) {
        self.lease = lease
        self.feed = feed
        self.context = context
        self.events = events
        self.projections = projections
        self.identity = identity
        self.cursors = cursors
        self.leases = leases
        self.webhookStore = webhookStore
    }

    /// What each step of publishing reads and stamps with.
    var stepDependencies: WebhookStep.Dependencies {
        WebhookStep.Dependencies(
            app: bundleID, now: now, resolver: resolver, accountTokens: accountTokens, events: events, projections: projections,
            identity: identity, webhookStore: webhookStore, snapshots: webhookSnapshots)
    }

    /// What ``WebhookSender`` sends this app's deliveries with.
    public var deliveryTarget: WebhookSender.Target {
        WebhookSender.Target(
            webhookStore: webhookStore, now: now, logger: logger, metrics: metrics, lease: lease,
            holdLease: { job, holder throws(ServiceError) in try await self.holdWebhookLease(job, holder: holder) != nil },
            releaseLease: { job, holder in await self.releaseWebhookLease(job, holder: holder) })
    }

    /// Releases the lease `holder` holds on `job`, if any, for another instance to take at once.
    func releaseWebhookLease(_ job: LeasedJob, holder: String) async {
        guard let lease = heldLeases.take(job, holder: holder) else { return }
        try? await leases.completeJob(lease, mark: nil)
    }

    /// The ledger consumer webhooks are derived by.
    static let webhookConsumer: LedgerConsumer = "webhooks"
    /// The job publishing holds, so one instance publishes at a time.
    static let webhookJob: LeasedJob = "webhooks"
    /// Events read per step.
    static let webhookBatchSize = 500
    /// ``lease`` unless a server is configured otherwise (`--webhook-lease`).
    public static let defaultLease: TimeInterval = 15
    /// The shortest and longest lease a server may be configured with, in seconds.
    public static let leaseRange: ClosedRange<Int> = 2...300

    /// Takes the lease of a webhooks job for `holder`, or renews it once half of `duration` has gone;
    /// `nil` when another instance has it. A lease is kept between passes (an idle instance writes
    /// nothing) until graceful shutdown releases it (``releaseWebhookLeases()``).
    func holdWebhookLease(_ job: LeasedJob, holder: String) async throws(ServiceError) -> JobLease? {
        let at = now()
        if let held = heldLeases.lease(job, holder: holder, at: at, lasting: lease) { return held }
        // Publishing without a break is what keeps the snapshots this instance stored current.
        if job == Self.webhookJob, (heldLeases.kept(job, holder: holder)?.until ?? .distantPast) <= at { webhookSnapshots.forget() }
        do {
            let taken = try await leases.acquireJob(job, holder: holder, now: at, until: at + lease)
            heldLeases.keep(taken, job: job, holder: holder)
            if job == Self.webhookJob { metrics.recordWebhookPublisher(app: bundleID, holding: taken != nil) }
            return taken
        } catch {
            throw ServiceError(error)
        }
    }

    /// Releases the webhooks' leases this instance holds, for another instance to take over at once.
    public func releaseWebhookLeases() async {
        for lease in heldLeases.takeAll() {
            try? await leases.completeJob(lease, mark: nil)
            if lease.job == Self.webhookJob { metrics.recordWebhookPublisher(app: bundleID, holding: false) }
        }
    }

    /// Derives what happened since the last pass into deliveries for the app's endpoints: every ledger
    /// event past the webhooks' durable cursor (and the changes time brought before it), then the
    /// schedule's due entries (answers that change by time alone, renewal reminders). Each step writes
    /// its deliveries, the subscribers' snapshots, the schedule and the cursor in one transaction, so
    /// a crash repeats a step and never loses or half-writes one. Of instances sharing a database, the
    /// one holding the lease publishes. Returns how many deliveries were written.
    public func publishWebhooks(holder: String) async throws(ServiceError) -> Int {
        // An app with no endpoint writes nothing: its first endpoint starts the cursor.
        guard try await !webhookEndpoints().isEmpty else { return 0 }
        guard try await holdWebhookLease(Self.webhookJob, holder: holder) != nil else { return 0 }
        // While tracing, the events' traces are kept a day (docs/operations.md, "Traces"): once a pass.
        if TraceParent.isTracing { _ = try? await context.traces.deleteTraces(before: now().addingTimeInterval(-86_400)) }
        var written = try await publishLedgerEvents(holder: holder)
        written += try await publishSchedule(holder: holder)
        return written
    }

    /// Steps through the ledger past the cursor until it is caught up.
    private func publishLedgerEvents(holder: String) async throws(ServiceError) -> Int {
        var written = 0
        while try await holdWebhookLease(Self.webhookJob, holder: holder) != nil {
            let endpoints = try await webhookEndpoints()
            let batch: (position: Int64, events: [(sequence: Int64, event: LedgerEvent)])
            do {
                // The first pass starts with the events since the first endpoint was added (now, without
                // one): earlier history is the "before" of each subscriber's next change.
                batch = try await cursors.consumerEvents(
                    Self.webhookConsumer, limit: Self.webhookBatchSize, since: endpoints.map(\.createdAt).min() ?? now())
            } catch {
                throw ServiceError(error)
            }
            guard let last = batch.events.last?.sequence else { return written }
            var step = WebhookStep(stepDependencies, endpoints: endpoints)
            if TraceParent.isTracing { step.traceParents = await traceParents(of: batch.events.map(\.event)) }
            // With no endpoint nothing is derived: the cursor moves on, and a subscriber's next change
            // after an endpoint is added is told against the history before it.
            if !endpoints.isEmpty {
                try await step.add(batch.events, cursorAt: batch.position)
            }
            var write = step.batch(at: now())
            write.cursor = (Self.webhookConsumer, batch.position, last)
            guard let count = try await store(write) else { return written }
            await recordSetAside(step.setAside)
            webhookSnapshots.stored(write.snapshots, cursorAt: last)
            written += count
            if batch.events.count < Self.webhookBatchSize { return written }
        }
        return written
    }

    /// Fires the schedule's due entries, in steps.
    private func publishSchedule(holder: String) async throws(ServiceError) -> Int {
        var written = 0
        while try await holdWebhookLease(Self.webhookJob, holder: holder) != nil {
            let at = now()
            let due: [ScheduledEvent]
            do {
                due = try await webhookStore.dueSchedule(at: at, limit: Self.webhookBatchSize)
            } catch {
                throw ServiceError(error)
            }
            guard !due.isEmpty else { return written }
            let endpoints = try await webhookEndpoints()
            guard !endpoints.isEmpty else { return written }
            var step = WebhookStep(stepDependencies, endpoints: endpoints)
            try await step.fire(due)
            let write = step.batch(at: at)
            guard let count = try await store(write) else { return written }
            webhookSnapshots.stored(write.snapshots, cursorAt: nil)
            written += count
            if due.count < Self.webhookBatchSize { return written }
        }
        return written
    }

    /// Stores one step; the deliveries it wrote, or `nil` when another instance did the step first.
    private func store(_ write: WebhookBatch) async throws(ServiceError) -> Int? {
        do {
            guard try await webhookStore.publish(write) else {
                // Another instance stored the step first: what this one kept may be behind.
                webhookSnapshots.forget()
                return nil
            }
        } catch {
            webhookSnapshots.forget()
            throw ServiceError(error)
        }
        metrics.recordWebhookPublished(write.deliveries)
        return write.deliveries.count
    }

    func webhookEndpoints() async throws(ServiceError) -> [WebhookEndpoint] {
        do {
            return try await webhookStore.endpoints(includingRemoved: false)
        } catch {
            throw ServiceError(error)
        }
    }

    /// The traces the events were appended under, by their cause in a step (``WebhookStep/cause(of:)``). A
    /// trace that can't be read loses only its link.
    private func traceParents(of events: [LedgerEvent]) async -> [String: String] {
        let causes = Dictionary(events.map { ($0.id.uuidString.lowercased(), WebhookStep.cause(of: $0)) }) { first, _ in first }
        guard let found = try? await context.traces.traceParents(eventIDs: Array(causes.keys)) else { return [:] }
        return Dictionary(found.compactMap { id, parent in causes[id].map { ($0, parent) } }) { first, _ in first }
    }

    /// A webhook event's ID: the same for the same change whichever path derives it (an event, the
    /// schedule) and however often.
    static func webhookEventID(app: BundleID, appUserID: AppUserID, cause: String, change: SubscriberChange) -> String {
        let digest = SHA256.hash(data: Data([app.rawValue, appUserID.rawValue, cause, change.subject].joined(separator: "\u{1F}").utf8))
        return "evt_" + Hex.encode(digest.prefix(16))
    }
}
