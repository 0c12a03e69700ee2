import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation

/// One step of publishing webhooks for one app: the ledger events and schedule entries it takes in,
/// turned into deliveries, snapshots and schedule entries that ``WebhookService/publishWebhooks(holder:)``
/// stores together.
///
/// Every change is reported against the subscriber's snapshot (what was last reported, and when), so a
/// change reaches receivers once however many inputs carry it, changes that time alone brought are
/// reported at their instant before the event that follows them, and the subscriber in each payload is
/// the one `GET /v1/subscribers/{id}` showed right after the change.
struct WebhookStep {
    /// What a step reads and stamps with, given by the service that runs it.
    struct Dependencies: Sendable {
        let app: BundleID
        let now: @Sendable () -> Date
        let resolver: EntitlementResolver
        let accountTokens: AccountTokens
        let events: any EventLog
        let projections: any ProjectionStore
        let identity: any IdentityStore
        let webhookStore: any WebhookStore
        /// The snapshots this instance stored last.
        let snapshots: WebhookSnapshotCache
    }

    let dependencies: Dependencies
    let endpoints: [WebhookEndpoint]
    /// The events the step could not report: left out, and recorded once the step is stored.
    let setAside = SetAsideCollector(consumer: "webhooks")
    private var snapshots: [AppUserID: WebhookSnapshot] = [:]
    private var histories: [AppUserID: [LedgerEvent]] = [:]
    private var deliveries: [WebhookDelivery] = []
    private var schedule: [ScheduledEvent] = []
    private var fired: [ScheduledEvent] = []
    /// The trace each cause (`event:<id>`) was appended under, while tracing: its deliveries continue it.
    var traceParents: [String: String] = [:]
    /// The open-access window, read once per step.
    private var openAccess: OpenAccessWindow??
    /// What the step read of its subscribers before taking their events in, each kind in one query.
    private var stored = Stored()
    /// How many instants of time-driven change one input reports at most (a subscriber silent for years).
    static let maximumTimeChanges = 64

    init(_ dependencies: Dependencies, endpoints: [WebhookEndpoint]) {
        self.dependencies = dependencies
        self.endpoints = endpoints
    }

    /// The cause an event's changes are reported under (its webhook events' IDs derive from it).
    static func cause(of event: LedgerEvent) -> String { "event:\(event.id.uuidString.lowercased())" }

    /// What the step stores.
    func batch(at now: Date) -> WebhookBatch {
        WebhookBatch(deliveries: deliveries, snapshots: snapshots, schedule: schedule, fired: fired, firedAt: now)
    }

    /// What a step reads of its subscribers up front.
    private struct Stored {
        /// Owners of the events' purchases (events that name no subscriber).
        var owners: [OriginalTransactionID: AppUserID] = [:]
        var snapshots: [AppUserID: WebhookSnapshot] = [:]
        var projections: [AppUserID: SubscriberFacts] = [:]
        /// Schedule entries due by the last event's arrival.
        var due: [AppUserID: [ScheduledEvent]] = [:]
        /// Each subscriber's events from the step's first on, in ledger order.
        var events: [AppUserID: [(sequence: Int64, event: LedgerEvent)]] = [:]
    }

    /// Takes in ledger events, in ledger order, each with its position, read past the cursor at `position`.
    mutating func add(_ events: [(sequence: Int64, event: LedgerEvent)], cursorAt position: Int64) async throws(ServiceError) {
        try await read(events, cursorAt: position)
        for (sequence, event) in events {
            try Self.checkCancellation()
            if setAside.setsAside(event, at: dependencies.now()) { continue }
            do {
                try await add(event, sequence: sequence)
            } catch where SetAsideCollector.isEventsOwn(error) {
                // One event that can't be reported must not stop every later one for good.
                setAside.note(event, appUserID: owner(of: event), reason: "\(error.code): \(error.message)", at: dependencies.now())
            }
        }
    }

    /// Fires due schedule entries.
    mutating func fire(_ entries: [ScheduledEvent]) async throws(ServiceError) {
        try await readSnapshots(Set(entries.map(\.appUserID)), cursorAt: nil)
        for entry in entries {
            try Self.checkCancellation()
            try await fire(entry)
        }
    }

    /// Graceful shutdown stops a step between its inputs, and within one (``EntitlementResolver``'s
    /// search for the next change stops too): nothing of the step is stored, the next one redoes it.
    static func checkCancellation() throws(ServiceError) {
        if Task.isCancelled { throw ServiceError(.shuttingDown, "webhook step stopped by shutdown") }
    }

    /// Reads what taking `events` in needs, a query for each kind rather than for each event.
    private mutating func read(_ events: [(sequence: Int64, event: LedgerEvent)], cursorAt position: Int64) async throws(ServiceError) {
        guard let last = events.last?.sequence else { return }
        do {
            stored.owners = try await dependencies.identity.owners(
                originalTransactionIDs: Set(events.compactMap { $0.event.appUserID == nil ? $0.event.originalTransactionID : nil }))
            var subscribers = Set<AppUserID>()
            for (sequence, event) in events {
                guard let appUserID = owner(of: event) else { continue }
                subscribers.insert(appUserID)
                stored.events[appUserID, default: []].append((sequence, event))
            }
            for later in try await dependencies.events.events(appUserIDs: subscribers, after: last) {
                stored.events[later.appUserID, default: []].append((later.sequence, later.event))
            }
            stored.projections = try await dependencies.projections.projections(appUserIDs: subscribers)
            if let arrived = events.map(\.event.receivedAt).max() {
                stored.due = Dictionary(grouping: try await dependencies.webhookStore.dueSchedule(appUserIDs: subscribers, by: arrived), by: \.appUserID)
            }
        } catch {
            throw ServiceError(error)
        }
        try await readSnapshots(Set(stored.events.keys), cursorAt: position)
    }

    /// The snapshots of `appUserIDs`: those this instance kept, the others from the store.
    private mutating func readSnapshots(_ appUserIDs: Set<AppUserID>, cursorAt position: Int64?) async throws(ServiceError) {
        let kept = dependencies.snapshots.snapshots(of: appUserIDs, cursorAt: position)
        do {
            stored.snapshots = kept.found.merging(try await dependencies.webhookStore.snapshots(appUserIDs: kept.missing)) { kept, _ in kept }
        } catch {
            throw ServiceError(error)
        }
    }

    /// Takes in one ledger event, stored at the ledger position `sequence`.
    private mutating func add(_ event: LedgerEvent, sequence: Int64) async throws(ServiceError) {
        guard let appUserID = owner(of: event) else { return }
        // What the schedule had due before the event is reported first, at its instant.
        for entry in due(of: appUserID, by: event.receivedAt) { try await fire(entry) }
        let after: SubscriberFacts
        let previous: WebhookSnapshot
        if let snapshot = snapshot(of: appUserID), let caughtUp = applied(event, sequence: sequence, to: snapshot) {
            // The usual case: the subscriber's snapshot plus the event, and the events stored after it,
            // is their projection; no history to read.
            (after, previous) = (caughtUp, snapshot)
        } else {
            let history = try await history(of: appUserID)
            // An event no longer among the subscriber's (moved by a transfer or a merge) is reported
            // through the events that moved it.
            guard let index = history.firstIndex(where: { $0.id == event.id }) else { return }
            after = LedgerFold.fold(Array(history[...index]), into: SubscriberFacts(appUserID: appUserID))
            previous = snapshot(of: appUserID)
                ?? WebhookSnapshot(facts: LedgerFold.fold(Array(history[..<index]), into: SubscriberFacts(appUserID: appUserID)), at: event.receivedAt)
        }
        let at = Self.instant(max(event.receivedAt, previous.at))
        // A deleted customer's record: no one to tell (the `subscriber_deleted` webhook was the last word).
        if appUserID.isErased {
            snapshots[appUserID] = WebhookSnapshot(facts: after, at: at)
            return
        }
        // History imported from Apple (an app moving in) is the baseline, not news: no webhooks for it or
        // for what time did before it; the subscriber's next change is told against it.
        if event.source == .import {
            snapshots[appUserID] = WebhookSnapshot(facts: after, at: at)
            let context = try await self.context(after, at: at)
            try plan(appUserID, facts: after, access: context.resolve(after, at: at), context: context, at: at)
            return
        }
        let context = try await self.context(previous.facts, at: at)
        var reportedAt = previous.at
        for _ in 0..<Self.maximumTimeChanges {
            let next = context.nextChange(of: previous.facts, after: reportedAt)
            try Self.checkCancellation()
            guard let change = next, Self.instant(change.at) < at else { break }
            let changedAt = Self.instant(change.at)
            let before = context.resolve(previous.facts, at: reportedAt)
            let after = context.resolve(previous.facts, at: changedAt)
            report(
                SubscriberChanges.between(before, after), appUserID: appUserID, cause: Self.timeCause(changedAt), at: changedAt, before: before,
                after: after, facts: previous.facts)
            reportedAt = changedAt
        }
        let afterContext = try await self.context(after, at: at)
        // Against the last answer reported: a change time brings at the event's very instant is told
        // with the event's.
        let before = context.resolve(previous.facts, at: reportedAt)
        let now = afterContext.resolve(after, at: at)
        var transferred = Set<OriginalTransactionID>()
        if case .purchaseTransferred(let original, _, _, _) = event.payload { transferred.insert(original) }
        report(
            SubscriberChanges.between(before, now, transferred: transferred), appUserID: appUserID, cause: Self.cause(of: event), at: at,
            before: before, after: now, facts: after)
        snapshots[appUserID] = WebhookSnapshot(facts: after, at: at)
        try plan(appUserID, facts: after, access: now, context: afterContext, at: at)
    }

    /// Fires one due schedule entry, its subscriber's snapshot read.
    private mutating func fire(_ entry: ScheduledEvent) async throws(ServiceError) {
        guard !fired.contains(where: { Self.key($0) == Self.key(entry) }) else { return }
        fired.append(entry)
        // Already reported when a later event (or entry) of the subscriber was.
        guard let snapshot = snapshot(of: entry.appUserID), entry.dueAt > snapshot.at, !entry.appUserID.isErased else { return }
        let context = try await self.context(snapshot.facts, at: entry.dueAt)
        switch entry.kind {
        case .accessChange:
            let before = context.resolve(snapshot.facts, at: snapshot.at)
            let after = context.resolve(snapshot.facts, at: entry.dueAt)
            report(
                SubscriberChanges.between(before, after), appUserID: entry.appUserID, cause: Self.timeCause(entry.dueAt), at: entry.dueAt,
                before: before, after: after, facts: snapshot.facts)
            snapshots[entry.appUserID] = WebhookSnapshot(facts: snapshot.facts, at: entry.dueAt)
            try plan(entry.appUserID, facts: snapshot.facts, access: after, context: context, at: entry.dueAt)
        case .renewalReminder, .expiryWarning, .trialEnding, .appTrialGraceReminder, .appTrialEnding, .subscriptionGraceReminder:
            let access = context.resolve(snapshot.facts, at: entry.dueAt)
            // Still due as planned: a renewal, a purchase or auto-renew turned on or off since settled it otherwise.
            guard let reminder = Reminder.reminders(access).first(where: { Self.kind(of: $0.kind) == entry.kind && $0.periodKey == entry.periodKey })
            else { return }
            let change = SubscriberChange(Self.eventType(of: reminder.kind), originalTransactionID: reminder.originalTransactionID, productID: reminder.productID)
            report(
                [change], appUserID: entry.appUserID, cause: "reminder:\(entry.periodKey)", at: entry.dueAt, before: access, after: access,
                facts: snapshot.facts, reminder: reminder)
        }
    }

    /// The subscriber's schedule entries due by `instant` and not fired in this step: stored ones and
    /// the ones this step planned, earliest first.
    private func due(of appUserID: AppUserID, by instant: Date) -> [ScheduledEvent] {
        let stored = (stored.due[appUserID] ?? []).filter { $0.dueAt <= instant }
        let planned = schedule.filter { $0.appUserID == appUserID && $0.dueAt <= instant }
        var seen = Set(fired.map(Self.key))
        return (stored + planned).sorted { ($0.dueAt, $0.kind.rawValue, $0.periodKey) < ($1.dueAt, $1.kind.rawValue, $1.periodKey) }
            .filter { seen.insert(Self.key($0)).inserted }
    }

    private static func key(_ entry: ScheduledEvent) -> String { "\(entry.appUserID)\u{1F}\(entry.kind.rawValue)\u{1F}\(entry.periodKey)" }

    // MARK: - Reporting

    /// Writes a delivery of each change to each endpoint that wants it.
    private mutating func report(
        _ changes: [SubscriberChange], appUserID: AppUserID, cause: String, at: Date, before: SubscriberAccess, after: SubscriberAccess,
        facts: SubscriberFacts, reminder: Reminder? = nil
    ) {
        guard !changes.isEmpty, !endpoints.isEmpty else { return }
        var subscriber = SubscriberResponseBuilder.response(after, facts: facts)
        subscriber.appAccountToken = dependencies.accountTokens.token(for: appUserID)
        let now = dependencies.now()
        for change in changes {
            // An endpoint gets the changes from when it was added on.
            let receivers = endpoints.filter { $0.receives(change.type.rawValue) && $0.createdAt <= at }
            guard !receivers.isEmpty else { continue }
            let id = WebhookService.webhookEventID(app: dependencies.app, appUserID: appUserID, cause: cause, change: change)
            var data = WebhookEventData(
                originalTransactionID: change.originalTransactionID?.rawValue, productID: change.productID?.rawValue,
                previousProductID: change.previousProductID?.rawValue,
                feature: change.feature, renewsAt: reminder?.kind == .renewal ? reminder?.endsAt : nil, itemID: change.itemID)
            if let reminder, reminder.kind != .renewal {
                data.endsAt = reminder.endsAt
                data.willRenew = reminder.willRenew
            }
            data.daysLeft = reminder.map { DaysLeft.until($0.endsAt, from: $0.dueAt) }
            data.anomaly = change.anomaly.map(SubscriberResponseBuilder.anomaly)
            if change.type == .entitlementChanged {
                data.entitlementsBefore = SubscriberResponseBuilder.response(before, facts: facts).entitlements
                data.entitlementsAfter = subscriber.entitlements
            }
            let event = WebhookEvent(
                id: id, type: WebhookEventTypeValue(rawValue: change.type.rawValue), app: dependencies.app.rawValue, occurredAt: at, appUserID: appUserID.rawValue, data: data, subscriber: subscriber)
            guard let body = try? WebhookPayload.encode(event) else { continue }
            for endpoint in receivers {
                deliveries.append(WebhookDelivery(
                    endpointID: endpoint.id, eventID: id, eventType: change.type.rawValue, appUserID: appUserID, occurredAt: at, payload: body,
                    nextAttemptAt: now, createdAt: now, traceParent: traceParents[cause]))
            }
        }
    }

    /// Schedules the subscriber's next time-driven change and reminders.
    private mutating func plan(_ appUserID: AppUserID, facts: SubscriberFacts, access: SubscriberAccess, context: Context, at: Date) throws(ServiceError) {
        let next = context.nextChange(of: facts, after: at)
        try Self.checkCancellation()
        if let change = next {
            let due = Self.instant(change.at)
            schedule.append(ScheduledEvent(appUserID: appUserID, kind: .accessChange, periodKey: Self.milliseconds(due), dueAt: due))
        }
        for reminder in Reminder.reminders(access) where reminder.dueAt > at {
            schedule.append(ScheduledEvent(appUserID: appUserID, kind: Self.kind(of: reminder.kind), periodKey: reminder.periodKey, dueAt: Self.instant(reminder.dueAt)))
        }
    }

    /// The schedule's kind of a reminder.
    static func kind(of reminder: Reminder.Kind) -> ScheduledEvent.Kind {
        switch reminder {
        case .renewal: .renewalReminder
        case .expiryWarning: .expiryWarning
        case .trialEnding: .trialEnding
        case .appTrialGrace: .appTrialGraceReminder
        case .appTrialEnding: .appTrialEnding
        case .subscriptionGrace: .subscriptionGraceReminder
        }
    }

    /// The webhook event a reminder is sent as.
    static func eventType(of reminder: Reminder.Kind) -> WebhookEventType {
        switch reminder {
        case .renewal: .renewalReminder
        case .expiryWarning: .expiryWarning
        case .trialEnding: .trialEndingSoon
        case .appTrialGrace: .appTrialGraceReminder
        case .appTrialEnding: .appTrialEndingSoon
        case .subscriptionGrace: .subscriptionGraceReminder
        }
    }

    static func timeCause(_ at: Date) -> String { "time:" + milliseconds(at) }

    /// `date` moved up to the next whole millisecond: the database keeps instants in milliseconds, and
    /// an answer resolved at a stored instant must already include everything that happened by it.
    static func instant(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.up) / 1000)
    }

    static func milliseconds(_ date: Date) -> String { String(date.millisecondsSince1970()) }

    // MARK: - Reading

    /// What answers depend on besides the subscriber's facts: their households, the open-access window.
    struct Context {
        let resolver: EntitlementResolver
        let households: [SubscriberFacts]
        let openAccess: OpenAccessWindow?

        func resolve(_ facts: SubscriberFacts, at: Date) -> SubscriberAccess {
            resolver.resolve(facts, households: households, openAccess: openAccess, at: at)
        }

        func nextChange(of facts: SubscriberFacts, after: Date) -> AccessChange? {
            resolver.nextChange(of: facts, households: households, openAccess: openAccess, after: after)
        }
    }

    private mutating func context(_ facts: SubscriberFacts, at: Date) async throws(ServiceError) -> Context {
        if openAccess == nil { openAccess = .some(try await AnswerReads.openAccess(in: dependencies.events)) }
        let households = facts.householdIDs(at: at).isEmpty ? [] : try await AnswerReads.households(of: facts, at: at, in: dependencies.projections)
        return Context(resolver: dependencies.resolver, households: households, openAccess: openAccess ?? nil)
    }

    /// The snapshot's facts with `event` applied, when those facts with the subscriber's events stored
    /// after it applied too are their projection (nothing joined them without an event of theirs, such
    /// as purchases linked by a registered appAccountToken or a merge); `nil` otherwise. Publishing that
    /// runs behind ingestion applies the few events since, instead of folding the subscriber's history.
    private func applied(_ event: LedgerEvent, sequence: Int64, to snapshot: WebhookSnapshot) -> SubscriberFacts? {
        var facts = snapshot.facts
        facts.apply(event)
        guard let projection = stored.projections[facts.appUserID] else { return nil }
        if projection == facts { return facts }
        let later = (stored.events[facts.appUserID] ?? []).filter { $0.sequence > sequence }
        guard !later.isEmpty else { return nil }
        var caughtUp = facts
        for (_, event) in later { caughtUp.apply(event) }
        return caughtUp == projection ? facts : nil
    }

    private func owner(of event: LedgerEvent) -> AppUserID? {
        event.appUserID ?? event.originalTransactionID.flatMap { stored.owners[$0] }
    }

    private mutating func history(of appUserID: AppUserID) async throws(ServiceError) -> [LedgerEvent] {
        if let known = histories[appUserID] { return known }
        do {
            let events = try await dependencies.events.events(appUserID: appUserID)
            histories[appUserID] = events
            return events
        } catch {
            throw ServiceError(error)
        }
    }

    private func snapshot(of appUserID: AppUserID) -> WebhookSnapshot? {
        snapshots[appUserID] ?? stored.snapshots[appUserID]
    }
}
