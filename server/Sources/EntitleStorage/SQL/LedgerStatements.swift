import Foundation

/// The statements ``SQLLedgerStore`` keeps prepared: those of a subscriber's read, and the readiness
/// check's.
enum LedgerStatements {
    /// Every kept statement.
    static let kept: [any KeptStatement.Type] = findingNothing.map { $0.statement }

    /// Each kept statement with binds of the types its callers bind that find nothing (the readiness
    /// check binds nothing): run on a new PostgreSQL connection before its first read, they leave it
    /// prepared and planned.
    static let findingNothing: [(statement: any KeptStatement.Type, binds: [SQLValue])] = [
        (SubscriberRead.self, [.integer(0), .text(""), .text(""), .text(""), .text("")]),
        (ProjectionRead.self, [.integer(0), .text(""), .text("")]),
        (AliasTarget.self, [.text(""), .text("")]),
        (Ping.self, []),
    ]

    /// A subscriber's projection (unless its revision is the bound one, kept in memory) and the
    /// latest event of a source that belongs to no subscriber, in one row whether or not the
    /// subscriber has a projection: `found` says which (binds: kept revision, app, source, app,
    /// subscriber).
    enum SubscriberRead: KeptStatement {
        static let name = "entitle_subscriber_read"
        static let sql = """
            SELECT s.app_user_id AS found, s.revision AS revision,
                CASE WHEN s.revision = ? THEN NULL ELSE s.projection END AS projection,
                (\(latestGlobalEvent)) AS event
            FROM (SELECT 1 AS one) AS o LEFT JOIN subscribers s ON s.app_id = ? AND s.app_user_id = ?
            """
    }

    /// A subscriber's projection, unless its revision is the bound one (binds: kept revision, app,
    /// subscriber).
    enum ProjectionRead: KeptStatement {
        static let name = "entitle_projection_read"
        static let sql = """
            SELECT revision, CASE WHEN revision = ? THEN NULL ELSE projection END AS projection
            FROM subscribers WHERE app_id = ? AND app_user_id = ?
            """
    }

    /// The subscriber an anonymous ID was logged in as (binds: app, alias).
    enum AliasTarget: KeptStatement {
        static let name = "entitle_alias_target"
        static let sql = "SELECT app_user_id FROM subscriber_aliases WHERE app_id = ? AND alias = ?"
    }

    /// One row from the database and nothing read from a table: the least a read can ask, for the
    /// readiness check (``LedgerStore/ping()``).
    enum Ping: KeptStatement {
        static let name = "entitle_ping"
        static let sql = "SELECT 1 AS answered"
    }

    /// The latest event of a source that belongs to no subscriber (binds: app, source); alone, or as a
    /// subquery beside a subscriber's projection.
    static let latestGlobalEvent = """
        SELECT event FROM ledger_events WHERE app_id = ? AND source = ? AND app_user_id IS NULL AND original_transaction_id IS NULL
        ORDER BY sequence DESC LIMIT 1
        """
}
