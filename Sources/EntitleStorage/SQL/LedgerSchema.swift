import Foundation

/// The ledger's versioned migrations. A migration is never edited once released; changes are new
/// versions.
enum LedgerSchema {
    static func migrations(sequenceColumn: String) -> [(version: Int, statements: [String])] {
        [
            (1, [
                """
                CREATE TABLE ledger_events (
                    sequence \(sequenceColumn),
                    id TEXT NOT NULL UNIQUE,
                    idempotency_key TEXT NOT NULL UNIQUE,
                    app_user_id TEXT,
                    source TEXT NOT NULL,
                    notification_uuid TEXT,
                    transaction_id TEXT,
                    original_transaction_id TEXT,
                    signed_date BIGINT,
                    received_at BIGINT NOT NULL,
                    event TEXT NOT NULL
                )
                """,
                "CREATE INDEX ledger_events_subscriber ON ledger_events (app_user_id, sequence)",
                "CREATE INDEX ledger_events_purchase ON ledger_events (original_transaction_id, sequence)",
                """
                CREATE TABLE purchase_links (
                    original_transaction_id TEXT PRIMARY KEY,
                    app_user_id TEXT NOT NULL,
                    linked_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX purchase_links_subscriber ON purchase_links (app_user_id)",
                """
                CREATE TABLE subscribers (
                    app_user_id TEXT PRIMARY KEY,
                    projection TEXT NOT NULL,
                    event_count BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
            ]),
            (2, [
                "CREATE INDEX ledger_events_source ON ledger_events (source, sequence)"
            ]),
            (3, [
                // Subscribers whose analytics cells are out of date (marked with every projection write).
                "CREATE TABLE analytics_pending (app_user_id TEXT PRIMARY KEY)",
                // Each subscriber's cells as last added to the aggregates, so a refresh adds the difference.
                "CREATE TABLE analytics_contributions (app_user_id TEXT PRIMARY KEY, cells TEXT NOT NULL)",
                """
                CREATE TABLE analytics_daily (
                    day INTEGER NOT NULL,
                    metric TEXT NOT NULL,
                    product TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    cohort TEXT NOT NULL,
                    value BIGINT NOT NULL,
                    PRIMARY KEY (day, metric, product, currency, cohort)
                )
                """,
                "INSERT INTO analytics_pending (app_user_id) SELECT app_user_id FROM subscribers",
            ]),
            (4, [
                // Consumers of the ledger (analytics; webhooks and reconciliation next) read it through
                // durable cursors on the events' sequence, advanced in their own transactions.
                "CREATE TABLE ledger_cursors (consumer TEXT PRIMARY KEY, sequence BIGINT NOT NULL)",
                // Analytics reads the whole ledger once more through its cursor, which replaces the
                // pending marks (its aggregates are kept by difference, so reading again is exact).
                "DROP TABLE analytics_pending",
            ]),
        ]
    }
}
