import EntitleAnalytics
import EntitleCore
import Foundation

/// The analytics aggregates in the ledger's database, written once over ``SQLEngine``: a refresh
/// reads the events past the analytics cursor, computes each subscriber they touch from all their
/// events, adds the difference from what that subscriber added before, and advances the cursor in
/// the same transaction — so the daily aggregates always equal the sum of every subscriber's cells.
///
/// Every transaction that changes an app's aggregate rows stores a new revision of them
/// (`analytics_revisions`), and the cells it leaves are kept in memory under that revision
/// (``AggregateCache``), so a read of the aggregates after a refresh, or after nothing changed, costs
/// one row rather than every cell.
final class SQLAnalyticsStore: AnalyticsStore {
    let engine: any SQLEngine
    /// The app whose aggregates these are.
    let app: BundleID
    let cursor: LedgerCursor
    /// The aggregates kept in memory: the engine's (shared by the stores of every app on it), unless
    /// given (another instance's, in tests).
    let aggregates: AggregateCache

    init(engine: any SQLEngine, app: BundleID, aggregates: AggregateCache? = nil) {
        self.engine = engine
        self.app = app
        self.cursor = LedgerCursor(app: app, consumer: "analytics")
        self.aggregates = aggregates ?? engine.aggregates
    }

    /// Inside the transaction that moves the rows written before apps existed to `app`: the app's
    /// aggregates now hold the rows adopted, so no revision is theirs until the next write.
    static func forgetRevisions(adoptedBy app: BundleID, _ session: any SQLSession) async throws(StorageError) {
        _ = try await session.execute("DELETE FROM analytics_revisions WHERE app_id IN ('', ?)", [.id(app)])
    }

    func refreshAnalytics(
        batchSize: Int, cells: @escaping @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> Int {
        let batchSize = max(1, batchSize)
        var refreshed = Set<String>()
        let (app, cursor) = (app, cursor)
        while !Task.isCancelled {
            let horizon = try await engine.readHorizon()
            let (subscribers, events, change): ([String], Int, AggregateChange?) = try await engine.transaction { session throws(StorageError) in
                // One refresher at a time, so aggregate rows are updated in one order.
                try await session.lock(.analytics(app))
                let position = try await cursor.position(session)
                let entries = try await cursor.entries(after: position, horizon: horizon, limit: batchSize, session)
                guard let last = entries.last else { return ([], 0, nil) }
                let ids = Set(entries.compactMap(\.appUserID)).sorted()
                // During a recompute, the subscribers it hasn't reached are left to it: it reads all their
                // events, these included, when it gets there.
                let uncounted = try await Self.uncounted(ids, app: app, session)
                let change = try await Self.recompute(ids.filter { !uncounted.contains($0) }, app: app, counted: true, cells: cells, session)
                try await cursor.advance(to: last.sequence, session)
                return (ids, entries.count, change)
            }
            change?.apply(to: aggregates, app: app)
            refreshed.formUnion(subscribers)
            if events < batchSize { break }
        }
        return refreshed.count
    }

    /// Drops the aggregates and starts a recompute from the first subscriber (taking over one under
    /// way). Everything up to the ledger's head is recomputed by the batches; what comes after, the
    /// next refresh reads.
    ///
    /// How far the recompute has reached is stored (`analytics_recompute`): the subscribers past it are
    /// not counted in the aggregates, so their stored cells are overwritten as they are reached, not
    /// deleted first, and a refresh in between leaves them alone.
    func startRecompute() async throws(StorageError) {
        let horizon = try await engine.readHorizon()
        let (app, cursor) = (app, cursor)
        let revision = try await engine.transaction { session throws(StorageError) in
            try await session.lock(.analytics(app))
            return try await Self.beginRecompute(app: app, cursor: cursor, horizon: horizon, session)
        }
        aggregates.keep([:], revision: revision, app: app)
    }

    func startRecompute(unlessDefinitionsAre version: Int) async throws(StorageError) -> Bool {
        let horizon = try await engine.readHorizon()
        let (app, cursor) = (app, cursor)
        let revision: Int64? = try await engine.transaction { session throws(StorageError) in
            try await session.lock(.analytics(app))
            let stored = try await session.execute("SELECT version FROM analytics_definitions WHERE app_id = ?", [.id(app)]).first?.nullableInteger("version")
            // Computed by a newer release (a rolling upgrade under way): its aggregates stand.
            if let stored, stored >= Int64(version) { return nil }
            let revision = try await Self.beginRecompute(app: app, cursor: cursor, horizon: horizon, session)
            _ = try await session.execute(
                "INSERT INTO analytics_definitions (app_id, version) VALUES (?, ?) ON CONFLICT (app_id) DO UPDATE SET version = excluded.version",
                [.id(app), .integer(Int64(version))])
            return revision
        }
        guard let revision else { return false }
        aggregates.keep([:], revision: revision, app: app)
        return true
    }

    /// Under the app's analytics lock: drops the app's aggregates, marks that no subscriber is counted yet and moves the cursor to the
    /// ledger's head; returns the aggregates' new revision.
    private static func beginRecompute(
        app: BundleID, cursor: LedgerCursor, horizon: Int64, _ session: any SQLSession
    ) async throws(StorageError) -> Int64 {
        _ = try await session.execute("DELETE FROM analytics_daily WHERE app_id = ?", [.id(app)])
        _ = try await session.execute(
            "INSERT INTO analytics_recompute (app_id, after) VALUES (?, '') ON CONFLICT (app_id) DO UPDATE SET after = ''", [.id(app)])
        let head = try await cursor.head(horizon: horizon, session)
        try await cursor.advance(to: head, session)
        return try await storeNewRevision(app: app, session).to
    }

    /// Recomputes the next `batchSize` subscribers of the recompute under way, in one transaction;
    /// `finished` once none is left (or none was under way).
    func recomputeBatch(
        batchSize: Int, cells: @escaping @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> (subscribers: Int, finished: Bool) {
        let batchSize = max(1, batchSize)
        let app = app
        let (subscribers, finished, change): (Int, Bool, AggregateChange?) = try await engine.transaction { session throws(StorageError) in
            try await session.lock(.analytics(app))
            guard let from = try await Self.recomputeProgress(app: app, session) else { return (0, true, nil) }
            let ids = try await session.execute(
                "SELECT app_user_id FROM subscribers WHERE app_id = ? AND app_user_id > ? ORDER BY app_user_id LIMIT ?",
                [.id(app), .text(from), .integer(Int64(batchSize))]
            ).map { row throws(StorageError) in try row.text("app_user_id") }
            let change = try await Self.recompute(ids, app: app, counted: false, cells: cells, session)
            let last = ids.count < batchSize ? nil : ids.last
            // Cells stored for ids this batch passed over (no subscriber) are dropped.
            let list = SQLValue.inList(ids.map(SQLValue.text))
            _ = try await session.execute(
                "DELETE FROM analytics_contributions WHERE app_id = ? AND app_user_id > ?"
                    + (last == nil ? "" : " AND app_user_id <= ?") + (ids.isEmpty ? "" : " AND app_user_id NOT IN \(list.placeholders)"),
                [.id(app), .text(from)] + (last.map { [.text($0)] } ?? []) + list.values)
            if let last {
                _ = try await session.execute("UPDATE analytics_recompute SET after = ? WHERE app_id = ?", [.text(last), .id(app)])
            } else {
                _ = try await session.execute("DELETE FROM analytics_recompute WHERE app_id = ?", [.id(app)])
            }
            return (ids.count, last == nil, change)
        }
        change?.apply(to: aggregates, app: app)
        return (subscribers, finished)
    }

    func recomputeUnderWay() async throws(StorageError) -> Bool {
        let app = app
        return try await engine.read { session throws(StorageError) in try await Self.recomputeProgress(app: app, session) != nil }
    }

    /// How far the recompute under way has reached (`nil` when none is).
    private static func recomputeProgress(app: BundleID, _ session: any SQLSession) async throws(StorageError) -> String? {
        try await session.execute("SELECT after FROM analytics_recompute WHERE app_id = ?", [.id(app)]).first?.nullableText("after")
    }

    /// Those of `ids` a recompute under way hasn't reached, compared in the database's order.
    private static func uncounted(_ ids: [String], app: BundleID, _ session: any SQLSession) async throws(StorageError) -> Set<String> {
        guard !ids.isEmpty, let progress = try await recomputeProgress(app: app, session) else { return [] }
        var beyond = Set<String>()
        for start in stride(from: 0, to: ids.count, by: chunk) {
            let list = SQLValue.inList(ids[start..<min(start + chunk, ids.count)].map(SQLValue.text))
            for row in try await session.execute(
                "SELECT app_user_id FROM subscribers WHERE app_id = ? AND app_user_id > ? AND app_user_id IN \(list.placeholders)",
                [.id(app), .text(progress)] + list.values)
            {
                if let id = try row.nullableText("app_user_id") { beyond.insert(id) }
            }
        }
        return beyond
    }

    /// Computes the cells of `ids` from all their events, stores them, and adds to the aggregates what
    /// changed: from the cells stored before when they are `counted` in the aggregates, else all of them.
    /// Returns that change (`nil` when the aggregates are unchanged).
    ///
    /// The events of up to ``chunk`` subscribers are read in one query, decoded and turned into cells
    /// on every core, then written; all inside the caller's transaction. A chunk's cells are computed
    /// while the session reads the next chunk and writes the one before, so the statements (one at a
    /// time, on one connection) and the computation overlap instead of taking turns.
    private static func recompute(
        _ ids: [String], app: BundleID, counted: Bool, cells: @escaping @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells,
        _ session: any SQLSession
    ) async throws(StorageError) -> AggregateChange? {
        var delta = AnalyticsCells()
        var pending: Computing?
        defer { pending?.task.cancel() }
        for start in stride(from: 0, to: ids.count, by: chunk) {
            let ids = Array(ids[start..<min(start + chunk, ids.count)])
            let (rows, old) = try await read(ids, app: app, counted: counted, session)
            let computing = Computing(ids: ids, old: old, task: Task { await computeCells(ids, rows, old, cells) })
            if let previous = pending { try await write(previous, app: app, counted: counted, into: &delta, session) }
            pending = computing
        }
        if let last = pending {
            pending = nil
            try await write(last, app: app, counted: counted, into: &delta, session)
        }
        return try await addToAggregates(delta, app: app, session)
    }

    /// A chunk's cells being computed, with what its subscribers stored before.
    private struct Computing {
        let ids: [String]
        let old: [String: String]
        let task: Task<Result<[Computed], StorageError>, Never>
    }

    /// A subscriber's computed cells: what they change from those stored before, and their text to
    /// store (`nil` when there are none).
    private typealias Computed = (difference: AnalyticsCells, encoded: String?)

    /// The event rows of `ids` (locked first, in order), by subscriber, and the cells each stored
    /// before (none when what they stored isn't `counted`).
    private static func read(
        _ ids: [String], app: BundleID, counted: Bool, _ session: any SQLSession
    ) async throws(StorageError) -> (rows: [String: [SQLRow]], old: [String: String]) {
        for id in ids { try await session.lock(LedgerLock.subscriber(app, AppUserID(id))) }
        let list = SQLValue.inList(ids.map(SQLValue.text))
        let binds = [SQLValue.id(app)] + list.values
        var rows: [String: [SQLRow]] = [:]
        for row in try await session.execute(
            "SELECT app_user_id, event FROM ledger_events WHERE app_id = ? AND app_user_id IN \(list.placeholders) ORDER BY app_user_id, sequence",
            binds)
        {
            guard let id = try row.nullableText("app_user_id") else { throw StorageError(.corruptRecord, "a ledger row has no owner") }
            rows[id, default: []].append(row)
        }
        var old: [String: String] = [:]
        if counted {
            for row in try await session.execute(
                "SELECT app_user_id, cells FROM analytics_contributions WHERE app_id = ? AND app_user_id IN \(list.placeholders)",
                binds)
            {
                if let id = try row.nullableText("app_user_id"), let text = try row.nullableText("cells") { old[id] = text }
            }
        }
        return (rows, old)
    }

    /// Waits for a chunk's cells, stores them and adds what they change to `delta`.
    private static func write(
        _ chunk: Computing, app: BundleID, counted: Bool, into delta: inout AnalyticsCells, _ session: any SQLSession
    ) async throws(StorageError) {
        let computed = try await chunk.task.value.get()
        for (id, contribution) in zip(chunk.ids, computed) {
            delta.add(contribution.difference)
            if let encoded = contribution.encoded {
                _ = try await session.execute(
                    """
                    INSERT INTO analytics_contributions (app_id, app_user_id, cells) VALUES (?, ?, ?)
                    ON CONFLICT (app_id, app_user_id) DO UPDATE SET cells = excluded.cells
                    """, [.id(app), .text(id), .text(encoded)])
            } else if chunk.old[id] != nil || !counted {
                _ = try await session.execute("DELETE FROM analytics_contributions WHERE app_id = ? AND app_user_id = ?", [.id(app), .text(id)])
            }
        }
    }

    /// Subscribers whose events are read in one query: small enough that several chunks make a
    /// refresh's batch, so reading, computing and writing overlap.
    static let chunk = 100

    /// Decodes each subscriber's events, computes their cells, what they change from the cells stored
    /// before (`old`, as stored), and the cells' text to store, in as many parallel parts as the machine
    /// has cores; in the order of `ids`.
    private static func computeCells(
        _ ids: [String], _ rows: [String: [SQLRow]], _ old: [String: String],
        _ cells: @escaping @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells
    ) async -> Result<[Computed], StorageError> {
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, ids.count / 50))
        let size = (ids.count + parts - 1) / max(1, parts)
        let work: @Sendable (ArraySlice<String>) -> Result<[Computed], StorageError> = { slice in
            do throws(StorageError) {
                return .success(try slice.map { id throws(StorageError) in
                    let computed = cells(AppUserID(id), try StoredJSON.decodeEvents(rows[id] ?? []))
                    let previous = try old[id].map { text throws(StorageError) in try StoredAnalyticsCells.decode(text, appUserID: AppUserID(id)) } ?? [:]
                    return (computed.difference(from: previous), computed.isEmpty ? nil : StoredAnalyticsCells.encode(computed))
                })
            } catch {
                return .failure(error)
            }
        }
        guard parts > 1 else { return work(ids[...]) }
        let results = await withTaskGroup(of: (Int, Result<[Computed], StorageError>).self) { group in
            for part in 0..<parts {
                let slice = ids[min(part * size, ids.count)..<min((part + 1) * size, ids.count)]
                group.addTask { (part, work(slice)) }
            }
            return await group.reduce(into: [Int: Result<[Computed], StorageError>]()) { $0[$1.0] = $1.1 }
        }
        var all: [Computed] = []
        all.reserveCapacity(ids.count)
        for part in 0..<parts {
            switch results[part] ?? .success([]) {
            case .success(let computed): all += computed
            case .failure(let error): return .failure(error)
            }
        }
        return .success(all)
    }

    func analyticsCells(through day: Int?) async throws(StorageError) -> AnalyticsCells {
        let (app, aggregates) = (app, aggregates)
        return try await engine.read { session throws(StorageError) in
            try await Self.keptOrRead(app: app, aggregates: aggregates, through: day, session)
        }
    }

    /// The kept cells when the stored revision is theirs; else every row, kept under the revision only
    /// when it reads the same before the rows and after them. A read's statements each see a committed
    /// state, not necessarily the same one: rows that a write committed between the revision and the
    /// rows, kept under the earlier revision, would later have that write's own change added to them
    /// again (its ``AggregateChange`` advances the cells kept at the revision it started from). Equal
    /// revisions mean no write of the aggregates committed between (none is ever stored twice).
    static func keptOrRead(
        app: BundleID, aggregates: AggregateCache, through day: Int?, _ session: any SQLSession
    ) async throws(StorageError) -> AnalyticsCells {
        let revision = try await revision(app: app, session)
        if let kept = aggregates.cells(app, revision: revision, through: day) { return kept }
        let cells = try await readAggregates(app: app, session)
        if try await Self.revision(app: app, session) == revision { aggregates.keep(cells, revision: revision, app: app) }
        guard let day else { return cells }
        return cells.filter { $0.key.day <= day }
    }

    /// Every aggregate cell of `app`.
    private static func readAggregates(app: BundleID, _ session: any SQLSession) async throws(StorageError) -> AnalyticsCells {
        let rows = try await session.execute(
            "SELECT day, metric, product, currency, cohort, value FROM analytics_daily WHERE app_id = ?", [.id(app)])
        var cells = AnalyticsCells(minimumCapacity: rows.count)
        for row in rows {
            guard let day = try row.nullableInteger("day"), let name = try row.nullableText("metric"), let (metric, environment) = AnalyticsKey.parseStoredMetric(name),
                let value = try row.nullableInteger("value")
            else { throw StorageError(.corruptRecord, "an analytics row has an unknown metric or no value") }
            let key = AnalyticsKey(
                day: Int(day), metric: metric, product: try row.nullableText("product") ?? "", currency: try row.nullableText("currency") ?? "",
                cohort: try row.nullableText("cohort") ?? "", environment: environment)
            cells[key] = value
        }
        return cells
    }

    /// The revision of `app`'s aggregates stored last; 0 when none is stored (none is ever 0).
    private static func revision(app: BundleID, _ session: any SQLSession) async throws(StorageError) -> Int64 {
        try await session.execute("SELECT revision FROM analytics_revisions WHERE app_id = ?", [.id(app)]).first?.nullableInteger("revision") ?? 0
    }

    /// Stores a new revision of `app`'s aggregates, in the transaction that changes them (which holds
    /// the app's analytics lock, so the revision it replaces is the one the rows were at).
    private static func storeNewRevision(app: BundleID, _ session: any SQLSession) async throws(StorageError) -> (from: Int64, to: Int64) {
        let from = try await revision(app: app, session)
        let to = AggregateCache.newRevision()
        _ = try await session.execute(
            "INSERT INTO analytics_revisions (app_id, revision) VALUES (?, ?) ON CONFLICT (app_id) DO UPDATE SET revision = excluded.revision",
            [.id(app), .integer(to)])
        return (from, to)
    }

    func pendingAnalytics() async throws(StorageError) -> Int {
        try await engine.read { session throws(StorageError) in
            try await cursor.backlog(after: try await cursor.position(session), session)
        }
    }

    /// Adds `delta` to the daily aggregates, drops the rows that reach zero, and stores a new revision;
    /// returns the change (`nil` when `delta` is empty: nothing is written). Every writer of an app's
    /// aggregates holds that app's analytics lock, so no two update its rows at once, and any order will
    /// do (sorting the keys first was ~9% of a refresh's samples).
    ///
    /// The cells go up to ``aggregateRows`` at a time in one upsert (a recompute's batch touches most of
    /// an app's cells: one statement each was 40% of a recompute), in chunks of a power of two so only a
    /// few statements are ever prepared; the rows that reach zero are then deleted in one statement.
    private static func addToAggregates(
        _ delta: AnalyticsCells, app: BundleID, _ session: any SQLSession
    ) async throws(StorageError) -> AggregateChange? {
        guard !delta.isEmpty else { return nil }
        var remaining = delta[...]
        while !remaining.isEmpty {
            let count = remaining.count >= aggregateRows ? aggregateRows : 1 << (Int.bitWidth - 1 - remaining.count.leadingZeroBitCount)
            var binds: [SQLValue] = []
            binds.reserveCapacity(count * 7)
            for (key, value) in remaining.prefix(count) {
                binds += [
                    .id(app), .integer(Int64(key.day)), .text(key.storedMetric), .text(key.product), .text(key.currency),
                    .text(key.cohort), .integer(value),
                ]
            }
            remaining = remaining.dropFirst(count)
            _ = try await session.execute(
                """
                INSERT INTO analytics_daily (app_id, day, metric, product, currency, cohort, value) VALUES \(aggregateValues(count))
                ON CONFLICT (app_id, day, metric, product, currency, cohort) DO UPDATE SET value = analytics_daily.value + excluded.value
                """, binds)
        }
        _ = try await session.execute(zeroAggregatesDeletion, [.id(app)])
        let (from, to) = try await storeNewRevision(app: app, session)
        return AggregateChange(from: from, to: to, delta: delta)
    }

    /// Deletes an app's aggregate rows at zero (through the schema's `analytics_daily_zero` index).
    static let zeroAggregatesDeletion = "DELETE FROM analytics_daily WHERE app_id = ? AND value = 0"

    /// Aggregate cells written by one statement at most (7 values each).
    static let aggregateRows = 256

    /// `count` rows of seven placeholders.
    private static func aggregateValues(_ count: Int) -> String {
        Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: count).joined(separator: ", ")
    }
}
