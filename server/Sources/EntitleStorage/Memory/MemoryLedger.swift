import EntitleCore
import Foundation

/// One app's ledger in memory, as a value: the events in the order they were stored, who owns what,
/// the projections, consumers' cursors and job leases. Its mutating methods are the ledger's write
/// logic, each a whole transaction (``MemoryDatabase`` runs them one at a time, under its lock): the
/// same steps the SQL engines take — find the owner, insert idempotently, link the purchase and adopt
/// its held events, fold, store the projection.
struct MemoryLedger: Sendable {
    /// A stored event: its ledger position and owner (`nil` while held, or global).
    struct Row: Sendable {
        let sequence: Int64
        var appUserID: AppUserID?
        var event: LedgerEvent
    }

    /// A subscriber's stored projection.
    struct Projection: Sendable {
        var facts: SubscriberFacts
        var eventCount: Int
        var updatedAt: Date
    }

    /// A job's run record (``JobLeases``).
    struct JobRun: Sendable {
        var mark: Date?
        var holder: String?
        var until: Date?
    }

    private(set) var rows: [Row] = []
    /// The stored events' IDs (an ID is unique in the whole database: ``MemoryDatabase`` looks in
    /// every app's ledger).
    private(set) var ids: Set<UUID> = []
    /// Indexes into `rows`.
    private var byKey: [String: Int] = [:]
    private var bySubscriber: [AppUserID: [Int]] = [:]
    private var held: [OriginalTransactionID: [Int]] = [:]
    /// Events of no subscriber and no purchase (the open-access switch, experiments), by source: every
    /// answer reads the latest open-access one.
    private var global: [LedgerEventSource: [Int]] = [:]

    private(set) var links: [OriginalTransactionID: AppUserID] = [:]
    private(set) var tokens: [UUID: AppUserID] = [:]
    private(set) var aliases: [AppUserID: AppUserID] = [:]
    private(set) var projections: [AppUserID: Projection] = [:]
    var cursors: [LedgerConsumer: Int64] = [:]
    var jobs: [LeasedJob: JobRun] = [:]

    var isEmpty: Bool { rows.isEmpty && projections.isEmpty }

    // MARK: - Appends

    /// Appends `event` (``EventLog/append(_:admitting:)``); `sequence` is the database's next position.
    /// `touched` collects the subscribers whose projection changed and the latest arrival applied to each
    /// (a batch stores its projections once). An event to store whose ID is taken (in this ledger, or
    /// `elsewhere`: another app's) fails before anything is written, as the SQL engines' unique ID does.
    mutating func append(
        _ event: LedgerEvent, admit: (@Sendable (SubscriberFacts) -> Bool)?, elsewhere: (UUID) -> Bool, sequence: inout Int64,
        touched: inout [AppUserID: Date]
    ) throws(StorageError) -> AppendOutcome {
        var appUserID = event.appUserID
        var owner: AppUserID?
        if let original = event.originalTransactionID {
            owner = links[original]
            if appUserID == nil { appUserID = owner }
        }
        // A purchase no app submitted: the subscriber its appAccountToken was registered for.
        if appUserID == nil, event.originalTransactionID != nil, let token = event.appAccountToken {
            appUserID = tokens[token]
        }
        if let admit {
            if byKey[event.idempotencyKey] != nil { return .duplicate }
            guard admit(appUserID.flatMap { projections[$0]?.facts } ?? SubscriberFacts(appUserID: appUserID ?? "")) else { return .refused }
        }
        if byKey[event.idempotencyKey] == nil, ids.contains(event.id) || elsewhere(event.id) { throw .eventIDTaken(event.id) }
        guard let position = insert(event, appUserID: appUserID, sequence: &sequence) else { return .duplicate }
        guard let appUserID else { return .appended(sequence: position, appUserID: nil) }
        var facts = projections[appUserID]?.facts ?? SubscriberFacts(appUserID: appUserID)
        var applied = 1
        if let original = event.originalTransactionID, owner == nil {
            applied += link(original, to: appUserID, folding: &facts)
        }
        facts.apply(event)
        store(facts, appUserID: appUserID, addedEvents: applied, at: event.receivedAt)
        touched[appUserID] = max(touched[appUserID] ?? event.receivedAt, event.receivedAt)
        return .appended(sequence: position, appUserID: appUserID)
    }

    /// Throws ``StorageError/Code/eventIDTaken`` when an event of `events` that a batch would store (its
    /// idempotency key new to the ledger and to the events before it) has an ID taken, in this ledger,
    /// `elsewhere` (another app's) or by an event before it: checked before the batch writes anything,
    /// so a refused batch writes nothing, as the SQL engines' transaction does.
    func checkIDs(_ events: [LedgerEvent], elsewhere: (UUID) -> Bool) throws(StorageError) {
        var keys = Set<String>()
        var batch = Set<UUID>()
        for event in events where byKey[event.idempotencyKey] == nil && keys.insert(event.idempotencyKey).inserted {
            guard !ids.contains(event.id), !elsewhere(event.id), batch.insert(event.id).inserted else { throw .eventIDTaken(event.id) }
        }
    }

    /// Stores `event` for `appUserID` unless its idempotency key is known; its sequence, or `nil`.
    private mutating func insert(_ event: LedgerEvent, appUserID: AppUserID?, sequence: inout Int64) -> Int64? {
        guard byKey[event.idempotencyKey] == nil else { return nil }
        let position = sequence
        sequence += 1
        let index = rows.count
        rows.append(Row(sequence: position, appUserID: appUserID, event: event))
        ids.insert(event.id)
        byKey[event.idempotencyKey] = index
        if let appUserID {
            bySubscriber[appUserID, default: []].append(index)
        } else if let original = event.originalTransactionID {
            held[original, default: []].append(index)
        } else {
            global[event.source, default: []].append(index)
        }
        return position
    }

    /// Links the unowned purchase `original` to `appUserID` and adopts its held events, folding them into
    /// `facts` in the order they were stored; returns how many.
    private mutating func link(_ original: OriginalTransactionID, to appUserID: AppUserID, folding facts: inout SubscriberFacts) -> Int {
        links[original] = appUserID
        let adopted = held.removeValue(forKey: original) ?? []
        for index in adopted {
            rows[index].appUserID = appUserID
            facts.apply(rows[index].event)
        }
        if !adopted.isEmpty { bySubscriber[appUserID, default: []] = (bySubscriber[appUserID] ?? []).merging(sorted: adopted) }
        return adopted.count
    }

    /// Stores `facts` as `appUserID`'s projection, counting `addedEvents` more, updated `at`.
    private mutating func store(_ facts: SubscriberFacts, appUserID: AppUserID, addedEvents: Int, at: Date) {
        let count = (projections[appUserID]?.eventCount ?? 0) + addedEvents
        projections[appUserID] = Projection(facts: facts, eventCount: count, updatedAt: at.storedPrecision)
    }

    /// Stores the batch's projections with the latest arrival each one saw (an append of one event stores
    /// its own arrival, which ``append(_:admit:sequence:touched:)`` already did).
    mutating func stamp(_ touched: [AppUserID: Date]) {
        for (appUserID, at) in touched { projections[appUserID]?.updatedAt = at.storedPrecision }
    }

    // MARK: - Identity

    mutating func registerAccountToken(_ token: UUID, appUserID: AppUserID, at: Date) -> AccountTokenRegistration {
        if let existing = tokens[token] {
            guard existing == appUserID else { return .ownedBy(existing) }
        } else {
            tokens[token] = appUserID
        }
        // Purchases that arrived before the token was known, with no owner yet: they are this subscriber's.
        let originals = held.filter { _, indexes in indexes.contains { rows[$0].event.appAccountToken == token } }.keys
            .sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
        var facts = projections[appUserID]?.facts ?? SubscriberFacts(appUserID: appUserID)
        var applied = 0
        var linked: [OriginalTransactionID] = []
        for original in originals where links[original] == nil {
            applied += link(original, to: appUserID, folding: &facts)
            linked.append(original)
        }
        if applied > 0 { store(facts, appUserID: appUserID, addedEvents: applied, at: at) }
        return .registered(linkedPurchases: linked)
    }

    mutating func merge(anonymous: AppUserID, into known: AppUserID, at: Date, sequence: inout Int64) -> MergeOutcome {
        if let target = aliases[anonymous] { return target == known ? .alreadyMerged : .mergedElsewhere(target) }
        var anonymousFacts = projections[anonymous]?.facts ?? SubscriberFacts(appUserID: anonymous)
        var knownFacts = projections[known]?.facts ?? SubscriberFacts(appUserID: known)
        let merge = SubscriberMerge(anonymous: anonymous, into: known, at: at, id: UUID(), outgoingID: UUID())
        let incoming = merge.incoming(carrying: anonymousFacts)
        let outgoing = merge.outgoing
        for event in [incoming, outgoing] { _ = insert(event, appUserID: event.appUserID, sequence: &sequence) }
        for (original, owner) in links where owner == anonymous { links[original] = known }
        for (token, owner) in tokens where owner == anonymous { tokens[token] = known }
        aliases[anonymous] = known
        knownFacts.apply(incoming)
        anonymousFacts.apply(outgoing)
        store(knownFacts, appUserID: known, addedEvents: 1, at: at)
        store(anonymousFacts, appUserID: anonymous, addedEvents: 1, at: at)
        return .merged
    }

    mutating func transfer(_ original: OriginalTransactionID, to newOwner: AppUserID, at: Date, sequence: inout Int64) -> AppUserID? {
        guard let previous = links[original], previous != newOwner else { return links[original] }
        var previousFacts = projections[previous]?.facts ?? SubscriberFacts(appUserID: previous)
        var newFacts = projections[newOwner]?.facts ?? SubscriberFacts(appUserID: newOwner)
        let transfer = PurchaseTransfer(originalTransactionID: original, from: previous, to: newOwner, at: at, id: UUID(), outgoingID: UUID())
        let outgoing = transfer.outgoing
        let incoming = transfer.incoming(carrying: previousFacts.carried(original))
        for event in [outgoing, incoming] { _ = insert(event, appUserID: event.appUserID, sequence: &sequence) }
        links[original] = newOwner
        previousFacts.apply(outgoing)
        newFacts.apply(incoming)
        store(previousFacts, appUserID: previous, addedEvents: 1, at: at)
        store(newFacts, appUserID: newOwner, addedEvents: 1, at: at)
        return previous
    }

    // MARK: - Erasure

    /// Erases `erasure.subject` as ``SubscriberErasing/erase(_:eventID:)`` says, within the ledger (the
    /// store does the rest of the database): `nil` when nothing is known of them.
    mutating func erase(_ erasure: SubscriberErasure, eventID: UUID, sequence: inout Int64) -> ErasureOutcome? {
        let (subject, pseudonym) = (erasure.subject, erasure.pseudonym)
        let own = bySubscriber[subject] ?? []
        let aliased = aliases.contains { $0.key == subject || $0.value == subject }
        guard !own.isEmpty || projections[subject] != nil || aliased else { return nil }
        var others = Set<AppUserID>()
        var mentions = 0
        for index in rows.indices {
            let row = rows[index]
            let rewritten: LedgerEvent
            if row.appUserID == subject {
                rewritten = erasure.erasingOwn(row.event)
                rows[index].appUserID = pseudonym
            } else if erasure.mentionsSubject(row.event) {
                rewritten = erasure.renaming(row.event)
                if let owner = row.appUserID { others.insert(owner) }
                mentions += 1
            } else {
                continue
            }
            if rewritten.idempotencyKey != row.event.idempotencyKey {
                byKey[row.event.idempotencyKey] = nil
                byKey[rewritten.idempotencyKey] = index
            }
            rows[index].event = rewritten
        }
        bySubscriber[pseudonym] = (bySubscriber[pseudonym] ?? []).merging(sorted: own)
        bySubscriber[subject] = nil
        for (original, owner) in links where owner == subject { links[original] = pseudonym }
        tokens = tokens.filter { $0.value != subject }
        aliases = aliases.filter { $0.key != subject && $0.value != subject }
        projections[subject] = nil
        _ = insert(erasure.event(id: eventID), appUserID: pseudonym, sequence: &sequence)
        for id in [pseudonym] + others.sorted() {
            let events = (bySubscriber[id] ?? []).map { rows[$0].event }
            projections[id] = Projection(
                facts: SubscriberFacts.fold(appUserID: id, events: events), eventCount: events.count,
                updatedAt: (events.map(\.receivedAt).max() ?? erasure.at).storedPrecision)
        }
        return ErasureOutcome(events: own.count, mentions: mentions, others: others.sorted())
    }

    // MARK: - Rebuild

    /// Folds every subscriber with events again and replaces their projections (``ProjectionStore/rebuildProjections(keepingDifferences:)``).
    mutating func rebuildProjections(keepingDifferences limit: Int) -> ProjectionRebuild {
        var report = ProjectionRebuild()
        for appUserID in bySubscriber.keys.sorted(by: Self.byteOrder) {
            guard let indexes = bySubscriber[appUserID], !indexes.isEmpty else { continue }
            let events = indexes.map { rows[$0].event }
            let facts = SubscriberFacts.fold(appUserID: appUserID, events: events)
            let previous = projections[appUserID]?.facts
            projections[appUserID] = Projection(
                facts: facts, eventCount: events.count, updatedAt: (events.map(\.receivedAt).max() ?? .distantPast).storedPrecision)
            report.rebuilt += 1
            report.events += events.count
            if previous != facts {
                report.differed += 1
                if report.firstDiffering.count < limit { report.firstDiffering.append(appUserID) }
            }
        }
        return report
    }

    // MARK: - Reads

    /// A subscriber's events, in order.
    func events(of appUserID: AppUserID) -> [Row] { (bySubscriber[appUserID] ?? []).map { rows[$0] } }

    /// The events of `source` that belong to no subscriber and no purchase, in order.
    func globalEvents(_ source: LedgerEventSource) -> [Row] { (global[source] ?? []).map { rows[$0] } }

    /// The latest of them.
    func latestGlobalEvent(_ source: LedgerEventSource) -> Row? { global[source]?.last.map { rows[$0] } }

    /// The events held for `original`, in order.
    func heldEvents(of original: OriginalTransactionID) -> [Row] { (held[original] ?? []).map { rows[$0] } }

    /// The purchases with held events, in byte order.
    var heldPurchases: [OriginalTransactionID] {
        held.filter { !$0.value.isEmpty }.keys.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
    }

    var heldEventCount: Int { held.values.map(\.count).reduce(0, +) }

    /// The events past `sequence`, in order (`rows` is sorted by sequence).
    func rows(after sequence: Int64) -> ArraySlice<Row> {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].sequence <= sequence { low = middle + 1 } else { high = middle }
        }
        return rows[low...]
    }

    static func byteOrder(_ a: AppUserID, _ b: AppUserID) -> Bool { a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8) }
}

extension Array where Element == Int {
    /// Both sorted arrays' elements, sorted.
    fileprivate func merging(sorted other: [Int]) -> [Int] {
        var merged: [Int] = []
        merged.reserveCapacity(count + other.count)
        var (i, j) = (0, 0)
        while i < count || j < other.count {
            if j == other.count || (i < count && self[i] < other[j]) {
                merged.append(self[i])
                i += 1
            } else {
                merged.append(other[j])
                j += 1
            }
        }
        return merged
    }
}

extension Date {
    /// The date as the SQL engines store it: to the millisecond.
    var storedPrecision: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970()) / 1000) }
}
