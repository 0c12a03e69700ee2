import EntitleCore
import Foundation

/// The ledger logic, written once over ``SQLEngine``: idempotent appends, purchase links, held
/// events, projections updated in the same transaction. Every statement is confined to the store's
/// app: several apps share a database, never a row.
final class SQLLedgerStore: LedgerStore {
    let engine: any SQLEngine
    /// The steps of its writes the engine takes its own way.
    let writePath: any LedgerWritePath
    let app: BundleID
    /// Decoded projections, shared by the stores of every app on this engine.
    let projections: ProjectionCache

    /// The statements the operations share, over this store's engine, app and cache.
    var rows: LedgerRows { LedgerRows(engine: engine, writePath: writePath, app: app, projections: projections) }

    init(engine: any SQLEngine, writePath: any LedgerWritePath, app: BundleID = "", projections: ProjectionCache = ProjectionCache()) {
        self.engine = engine
        self.writePath = writePath
        self.app = app
        self.projections = projections
    }

    func forApp(_ app: BundleID) -> any LedgerStore {
        SQLLedgerStore(engine: engine, writePath: writePath, app: app, projections: projections)
    }

    func migrate() async throws(StorageError) {
        try await migrate(through: nil)
        if !app.rawValue.isEmpty { try await adoptUnassignedRows() }
        try await backfillHeldTokens()
        try await rebuildStaleProjections()
    }

    /// Rebuilds the app's projections from the ledger when they were folded under other definitions
    /// than ``SubscriberFacts/definitionsVersion`` (a fact now kept that earlier ones dropped), then
    /// stores that they are current: once, whichever instance gets there first; a new ledger only
    /// records the version.
    private func rebuildStaleProjections() async throws(StorageError) {
        let app = app
        let version = Int64(SubscriberFacts.definitionsVersion)
        let stored = try await engine.read { session throws(StorageError) in
            try await session.execute("SELECT version FROM projection_definitions WHERE app_id = ?", [.id(app)]).first?.nullableInteger("version")
        }
        // Folded by a newer release (a rolling upgrade under way): its projections stand.
        if let stored, stored >= version { return }
        _ = try await rebuildProjections()
        _ = try await engine.transaction { session throws(StorageError) in
            try await session.execute(
                "INSERT INTO projection_definitions (app_id, version) VALUES (?, ?) ON CONFLICT (app_id) DO UPDATE SET version = excluded.version",
                [.id(app), .integer(version)])
        }
    }

    /// Held events written before version 6 carry their appAccountToken only in their JSON: copy it to
    /// its column, so registering the token finds them.
    private func backfillHeldTokens() async throws(StorageError) {
        try await engine.transaction { session throws(StorageError) in
            let rows = try await session.execute(
                "SELECT id, event FROM ledger_events WHERE app_user_id IS NULL AND original_transaction_id IS NOT NULL AND app_account_token IS NULL",
                [])
            for row in rows {
                guard let id = try row.nullableText("id"), let token = try StoredJSON.decodeEvents([row]).first?.appAccountToken else { continue }
                _ = try await session.execute(
                    "UPDATE ledger_events SET app_account_token = ? WHERE id = ?", [.text(token.uuidString.lowercased()), .text(id)])
            }
        }
    }

    /// Moves rows written before apps existed (schema version 4 and older, app '') to this store's app,
    /// in one transaction; nothing when there are none.
    func adoptUnassignedRows() async throws(StorageError) {
        let app = app
        try await engine.transaction { session throws(StorageError) in
            try await session.lock(.migrations)
            let unassigned = try await session.execute("SELECT 1 AS found FROM subscribers WHERE app_id = '' LIMIT 1", [])
            let events = try await session.execute("SELECT 1 AS found FROM ledger_events WHERE app_id = '' LIMIT 1", [])
            guard !unassigned.isEmpty || !events.isEmpty else { return }
            for table in LedgerSchema.appTables {
                _ = try await session.execute("UPDATE \(table) SET app_id = ? WHERE app_id = ''", [.id(app)])
            }
            try await SQLAnalyticsStore.forgetRevisions(adoptedBy: app, session)
        }
    }

    /// Brings the schema to `version` (the latest when `nil`); tests start from an older version.
    func migrate(through version: Int?) async throws(StorageError) {
        let migrations = LedgerSchema.migrations(
            sequenceColumn: engine.sequenceColumn, sequenceReset: engine.sequenceReset, uncompressedPayloads: engine.uncompressedPayloads,
            byteOrder: engine.byteOrder, instant: engine.instant, date: engine.date
        ).filter { $0.version <= version ?? .max }
        try await engine.transaction { session throws(StorageError) in
            try await session.lock(.migrations)
            _ = try await session.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)", [])
            // The oldest schema a binary may know and still read and write the database: a rolling upgrade's
            // previous release (docs/operations.md, "Upgrading").
            _ = try await session.execute("CREATE TABLE IF NOT EXISTS schema_readers (version INTEGER PRIMARY KEY, oldest_reader INTEGER NOT NULL)", [])
            let current = try await session.execute("SELECT MAX(version) AS version FROM schema_migrations", []).first?.nullableInteger("version") ?? 0
            let latest = migrations.map(\.version).max() ?? 0
            if current > latest {
                // A newer release migrated the database. Its changes since this one's schema only added
                // (tables, columns, views, routines under new names): this binary goes on beside it.
                let needed = try await session.execute(
                    "SELECT MAX(oldest_reader) AS reader FROM schema_readers WHERE version > ?", [.integer(Int64(latest))]
                ).first?.nullableInteger("reader")
                guard let needed, needed <= latest else {
                    throw StorageError(
                        .schemaTooNew,
                        "the database is at schema version \(current), which this version of Entitle (schema \(latest)) can't use: upgrade it")
                }
            }
            for migration in migrations where migration.version > current {
                for statement in migration.statements {
                    _ = try await session.execute(statement, [])
                }
                _ = try await session.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", [.integer(Int64(migration.version)), SQLValue(Date.now)])
                _ = try await session.execute(
                    "INSERT INTO schema_readers (version, oldest_reader) VALUES (?, ?) ON CONFLICT (version) DO NOTHING",
                    [.integer(Int64(migration.version)), .integer(Int64(LedgerSchema.oldestReader(of: migration.version)))])
            }
            if version == nil {
                for routine in self.writePath.routines { _ = try await session.execute(routine, []) }
            }
        }
    }

    func appIDs() async throws(StorageError) -> [BundleID] {
        try await engine.read { session throws(StorageError) in
            try await session.execute(
                "SELECT app_id FROM ledger_events UNION SELECT app_id FROM subscribers ORDER BY app_id", []
            ).map { row throws(StorageError) in try row.id("app_id", as: BundleID.self) }
        }
    }

    func ping() async throws(StorageError) {
        _ = try await engine.read { session throws(StorageError) in try await session.execute(LedgerStatements.Ping.self, []) }
    }

    var companions: any CompanionStores { SQLCompanionStores(engine: engine, app: app) }

    func close() async {
        await engine.close()
    }

}
