import EntitleCore

/// What a ledger takes on disk, split as an operator sizes it: each table (with PostgreSQL's
/// out-of-line storage) and each index, the events and the bytes of their two stored columns.
public struct LedgerFootprint: Sendable {
    /// The whole database file (SQLite) or database (PostgreSQL).
    public var total: Int64
    public var tables: [String: Int64]
    public var indexes: [String: Int64]
    /// Events of every app.
    public var events: Int64
    /// `ledger_events.signed_payload` as stored (compact, or as received), summed.
    public var storedSignedPayloads: Int64
    /// `ledger_events.event` (the decoded event's JSON), summed.
    public var eventJSON: Int64

    public var indexTotal: Int64 { indexes.values.reduce(0, +) }

    /// Measures `store`'s database (every app's rows). Reads every event's length: seconds on millions.
    public static func measure(_ store: any LedgerStore) async throws(StorageError) -> LedgerFootprint {
        guard let store = store as? SQLLedgerStore else { throw StorageError(.unavailable, "this ledger can't be measured") }
        let postgres = store.engine is PostgresEngine
        return try await store.engine.read { session throws(StorageError) in
            let columns = try await session.execute(
                postgres
                    ? "SELECT COUNT(*) AS n, COALESCE(SUM(pg_column_size(signed_payload)), 0) AS signed, COALESCE(SUM(pg_column_size(event)), 0) AS json FROM ledger_events"
                    : "SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(CAST(signed_payload AS BLOB))), 0) AS signed, COALESCE(SUM(LENGTH(CAST(event AS BLOB))), 0) AS json FROM ledger_events",
                []
            ).first ?? [:]
            var footprint = LedgerFootprint(
                total: 0, tables: [:], indexes: [:], events: try columns.nullableInteger("n") ?? 0, storedSignedPayloads: try columns.nullableInteger("signed") ?? 0,
                eventJSON: try columns.nullableInteger("json") ?? 0)
            if postgres {
                let relations = try await session.execute(
                    """
                    SELECT c.relname AS name, c.relkind::text AS kind,
                        CASE WHEN c.relkind = 'r' THEN pg_table_size(c.oid) ELSE pg_relation_size(c.oid) END AS bytes
                    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i')
                    """, [])
                for row in relations {
                    guard let name = try row.nullableText("name"), let bytes = try row.nullableInteger("bytes") else { continue }
                    if try row.nullableText("kind") == "i" { footprint.indexes[name] = bytes } else { footprint.tables[name] = bytes }
                }
                footprint.total = try await session.execute("SELECT pg_database_size(current_database()) AS bytes", []).first?.nullableInteger("bytes") ?? 0
            } else {
                let objects = try await session.execute(
                    """
                    SELECT s.name AS name, m.type AS kind, SUM(s.pgsize) AS bytes FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name
                    GROUP BY s.name
                    """, [])
                for row in objects {
                    guard let name = try row.nullableText("name"), let bytes = try row.nullableInteger("bytes") else { continue }
                    if try row.nullableText("kind") == "index" || name.hasPrefix("sqlite_autoindex") { footprint.indexes[name] = bytes } else { footprint.tables[name] = bytes }
                }
                let pages = try await session.execute("SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()", [])
                footprint.total = try pages.first?.nullableInteger("bytes") ?? 0
            }
            return footprint
        }
    }
}
