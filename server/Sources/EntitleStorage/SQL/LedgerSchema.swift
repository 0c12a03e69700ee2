import Foundation

/// The ledger's versioned migrations. A migration is never edited once released; changes are new
/// versions.
enum LedgerSchema {
    /// - Parameters:
    ///   - sequenceReset: the engine's statement that moves `ledger_events`' sequence past the rows a
    ///     migration copied in, when the engine needs one (PostgreSQL).
    ///   - uncompressedPayloads: the engine's statement that stores signed payloads without trying to
    ///     compress them, when the engine would otherwise try (PostgreSQL).
    static func migrations(
        sequenceColumn: String, sequenceReset: String? = nil, uncompressedPayloads: String? = nil, byteOrder: String = "",
        instant: (String) -> String = { $0 }, date: (String) -> String = { $0 }
    ) -> [(version: Int, statements: [String])] {
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
            (5, [
                // Several apps per server: every row belongs to one app (its bundle ID). Rows written
                // before are the unassigned app's ('') until a server adopts them for its first app.
                """
                CREATE TABLE ledger_events_v5 (
                    sequence \(sequenceColumn),
                    id TEXT NOT NULL UNIQUE,
                    app_id TEXT NOT NULL,
                    idempotency_key TEXT NOT NULL,
                    app_user_id TEXT,
                    source TEXT NOT NULL,
                    notification_uuid TEXT,
                    transaction_id TEXT,
                    original_transaction_id TEXT,
                    signed_date BIGINT,
                    received_at BIGINT NOT NULL,
                    event TEXT NOT NULL,
                    UNIQUE (app_id, idempotency_key)
                )
                """,
                """
                INSERT INTO ledger_events_v5 (sequence, id, app_id, idempotency_key, app_user_id, source, notification_uuid, transaction_id,
                    original_transaction_id, signed_date, received_at, event)
                SELECT sequence, id, '', idempotency_key, app_user_id, source, notification_uuid, transaction_id, original_transaction_id,
                    signed_date, received_at, event FROM ledger_events ORDER BY sequence
                """,
                "DROP TABLE ledger_events",
                "ALTER TABLE ledger_events_v5 RENAME TO ledger_events",
                "CREATE INDEX ledger_events_app ON ledger_events (app_id, sequence)",
                "CREATE INDEX ledger_events_subscriber ON ledger_events (app_id, app_user_id, sequence)",
                "CREATE INDEX ledger_events_purchase ON ledger_events (app_id, original_transaction_id, sequence)",
                "CREATE INDEX ledger_events_source ON ledger_events (app_id, source, sequence)",
            ] + (sequenceReset.map { [$0] } ?? []) + [
                """
                CREATE TABLE purchase_links_v5 (
                    app_id TEXT NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    app_user_id TEXT NOT NULL,
                    linked_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, original_transaction_id)
                )
                """,
                """
                INSERT INTO purchase_links_v5 (app_id, original_transaction_id, app_user_id, linked_at)
                SELECT '', original_transaction_id, app_user_id, linked_at FROM purchase_links
                """,
                "DROP TABLE purchase_links",
                "ALTER TABLE purchase_links_v5 RENAME TO purchase_links",
                "CREATE INDEX purchase_links_subscriber ON purchase_links (app_id, app_user_id)",
                """
                CREATE TABLE subscribers_v5 (
                    app_id TEXT NOT NULL,
                    app_user_id TEXT NOT NULL,
                    projection TEXT NOT NULL,
                    event_count BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, app_user_id)
                )
                """,
                """
                INSERT INTO subscribers_v5 (app_id, app_user_id, projection, event_count, updated_at)
                SELECT '', app_user_id, projection, event_count, updated_at FROM subscribers
                """,
                "DROP TABLE subscribers",
                "ALTER TABLE subscribers_v5 RENAME TO subscribers",
                """
                CREATE TABLE analytics_contributions_v5 (
                    app_id TEXT NOT NULL, app_user_id TEXT NOT NULL, cells TEXT NOT NULL, PRIMARY KEY (app_id, app_user_id)
                )
                """,
                "INSERT INTO analytics_contributions_v5 (app_id, app_user_id, cells) SELECT '', app_user_id, cells FROM analytics_contributions",
                "DROP TABLE analytics_contributions",
                "ALTER TABLE analytics_contributions_v5 RENAME TO analytics_contributions",
                """
                CREATE TABLE analytics_daily_v5 (
                    app_id TEXT NOT NULL,
                    day INTEGER NOT NULL,
                    metric TEXT NOT NULL,
                    product TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    cohort TEXT NOT NULL,
                    value BIGINT NOT NULL,
                    PRIMARY KEY (app_id, day, metric, product, currency, cohort)
                )
                """,
                """
                INSERT INTO analytics_daily_v5 (app_id, day, metric, product, currency, cohort, value)
                SELECT '', day, metric, product, currency, cohort, value FROM analytics_daily
                """,
                "DROP TABLE analytics_daily",
                "ALTER TABLE analytics_daily_v5 RENAME TO analytics_daily",
                "CREATE TABLE ledger_cursors_v5 (app_id TEXT NOT NULL, consumer TEXT NOT NULL, sequence BIGINT NOT NULL, PRIMARY KEY (app_id, consumer))",
                "INSERT INTO ledger_cursors_v5 (app_id, consumer, sequence) SELECT '', consumer, sequence FROM ledger_cursors",
                "DROP TABLE ledger_cursors",
                "ALTER TABLE ledger_cursors_v5 RENAME TO ledger_cursors",
            ]),
            (6, [
                // appAccountToken → subscriber, per app: derived tokens and the ones apps chose.
                """
                CREATE TABLE account_tokens (
                    app_id TEXT NOT NULL, token TEXT NOT NULL, app_user_id TEXT NOT NULL, registered_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, token)
                )
                """,
                "CREATE INDEX account_tokens_subscriber ON account_tokens (app_id, app_user_id)",
                // The token Apple signed into an event, so held events can be found by it.
                "ALTER TABLE ledger_events ADD COLUMN app_account_token TEXT",
                "CREATE INDEX ledger_events_token ON ledger_events (app_id, app_account_token)",
            ]),
            (7, [
                // API keys, hashed: app keys (safe to ship) and secret keys, each of one app.
                """
                CREATE TABLE api_keys (
                    id TEXT PRIMARY KEY, app_id TEXT NOT NULL, kind TEXT NOT NULL, name TEXT, prefix TEXT NOT NULL,
                    key_hash TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL, revoked_at BIGINT
                )
                """,
                "CREATE INDEX api_keys_app ON api_keys (app_id, created_at)",
            ]),
            (8, [
                // Anonymous subscribers merged into the one they logged in as: the alias reaches it.
                """
                CREATE TABLE subscriber_aliases (
                    app_id TEXT NOT NULL, alias TEXT NOT NULL, app_user_id TEXT NOT NULL, merged_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, alias)
                )
                """,
            ]),
            (9, [
                // Background jobs of an app (reconciliation): how far the last completed run reached, and
                // who runs it now, so that several server instances run one at a time.
                """
                CREATE TABLE job_runs (
                    app_id TEXT NOT NULL, job TEXT NOT NULL, mark BIGINT, holder TEXT, lease_until BIGINT,
                    PRIMARY KEY (app_id, job)
                )
                """,
            ]),
            (10, [
                // Webhooks: each app's endpoints (signing secrets, newest first, as a JSON array; a failing
                // endpoint rests until paused_until), the deliveries derived from the ledger with their
                // attempts, the last answer reported per subscriber, and the durable schedule of events
                // that time alone brings (fired once: fired_at).
                """
                CREATE TABLE webhook_endpoints (
                    id TEXT PRIMARY KEY, app_id TEXT NOT NULL, url TEXT NOT NULL, event_types TEXT NOT NULL, secrets TEXT NOT NULL,
                    description TEXT, created_at BIGINT NOT NULL, removed_at BIGINT, consecutive_failures BIGINT NOT NULL DEFAULT 0,
                    paused_until BIGINT
                )
                """,
                "CREATE INDEX webhook_endpoints_app ON webhook_endpoints (app_id, created_at)",
                """
                CREATE TABLE webhook_deliveries (
                    id \(sequenceColumn),
                    app_id TEXT NOT NULL, endpoint_id TEXT NOT NULL, event_id TEXT NOT NULL, event_type TEXT NOT NULL, app_user_id TEXT NOT NULL,
                    occurred_at BIGINT NOT NULL, payload TEXT NOT NULL, status TEXT NOT NULL, attempts BIGINT NOT NULL DEFAULT 0,
                    next_attempt_at BIGINT NOT NULL, last_status BIGINT, last_error TEXT, delivered_at BIGINT, created_at BIGINT NOT NULL,
                    UNIQUE (endpoint_id, event_id)
                )
                """,
                "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (app_id, status, id)",
                "CREATE INDEX webhook_deliveries_line ON webhook_deliveries (endpoint_id, app_user_id, status, id)",
                """
                CREATE TABLE webhook_attempts (
                    delivery_id BIGINT NOT NULL, attempt BIGINT NOT NULL, at BIGINT NOT NULL, status BIGINT, latency_ms BIGINT NOT NULL, error TEXT,
                    PRIMARY KEY (delivery_id, attempt)
                )
                """,
                """
                CREATE TABLE webhook_snapshots (
                    app_id TEXT NOT NULL, app_user_id TEXT NOT NULL, facts TEXT NOT NULL, at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, app_user_id)
                )
                """,
                """
                CREATE TABLE scheduled_events (
                    app_id TEXT NOT NULL, app_user_id TEXT NOT NULL, kind TEXT NOT NULL, period_key TEXT NOT NULL, due_at BIGINT NOT NULL,
                    fired_at BIGINT,
                    PRIMARY KEY (app_id, app_user_id, kind, period_key)
                )
                """,
                "CREATE INDEX scheduled_events_due ON scheduled_events (app_id, fired_at, due_at)",
            ]),
            (11, [
                // The signed payload as received, apart from the decoded event: folds and consumers
                // decode events without reading it. Events stored before keep it inside `event`.
                "ALTER TABLE ledger_events ADD COLUMN signed_payload TEXT",
            ]),
            (12, [
                // A random revision per stored projection, so a decoded copy kept in memory is used only
                // while the row is the very one it came from (0 or NULL: none).
                "ALTER TABLE subscribers ADD COLUMN revision BIGINT",
            ]),
            (13, [
                // Events waiting for an owner are few: found without reading every purchase's events.
                "CREATE INDEX ledger_events_held ON ledger_events (app_id, original_transaction_id, sequence) WHERE app_user_id IS NULL",
            ]),
            (14, [
                // Aggregate rows that reached zero, which every update of the aggregates deletes: found
                // without reading the app's other rows.
                "CREATE INDEX analytics_daily_zero ON analytics_daily (app_id) WHERE value = 0",
            ]),
            (15, [
                // A full recompute under way: the app's subscribers after `after` (in the database's order
                // of app_user_id) are not counted in the aggregates yet, whatever cells they have stored.
                "CREATE TABLE analytics_recompute (app_id TEXT PRIMARY KEY, after TEXT NOT NULL)",
            ]),
            // A signed payload is base64url text (a JWS and its certificates), which does not compress
            // by the quarter PostgreSQL asks of it: trying, on every insert, only cost time.
            (16, uncompressedPayloads.map { [$0] } ?? []),
            (17, [
                // A random revision of each app's aggregates, new with every change of its analytics_daily
                // rows, so a copy of them kept in memory is used only while they are the very ones it
                // came from (no row: none).
                "CREATE TABLE analytics_revisions (app_id TEXT PRIMARY KEY, revision BIGINT NOT NULL)",
            ]),
            (18, [
                // Events a background consumer could not process and left out, for the operator.
                """
                CREATE TABLE set_aside_events (
                    app_id TEXT NOT NULL, consumer TEXT NOT NULL, event_id TEXT NOT NULL, app_user_id TEXT,
                    reason TEXT NOT NULL, set_aside_at BIGINT NOT NULL, PRIMARY KEY (app_id, consumer, event_id))
                """,
            ]),
            (19, [
                // Dashboard sign-ins by the SHA-256 of their cookie: signing out revokes one on every instance.
                """
                CREATE TABLE dashboard_sessions (
                    session_hash TEXT PRIMARY KEY, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, revoked_at BIGINT)
                """,
                "CREATE INDEX dashboard_sessions_expiry ON dashboard_sessions (expires_at)",
            ]),
            (20, [
                // Long admin work a request starts and the caller polls (a reconciliation pass), by app.
                """
                CREATE TABLE admin_jobs (
                    id TEXT NOT NULL, app_id TEXT NOT NULL, kind TEXT NOT NULL, state TEXT NOT NULL, holder TEXT NOT NULL,
                    created_at BIGINT NOT NULL, finished_at BIGINT, result TEXT, error_code TEXT, error_message TEXT, PRIMARY KEY (app_id, id))
                """,
            ]),
            (21, [
                // The dashboard's list of recent subscribers: the latest updated first, without reading the others.
                "CREATE INDEX subscribers_recent ON subscribers (app_id, updated_at, app_user_id)",
            ]),
            (22, [
                // The version of the analytics definitions each app's aggregates were computed under: a
                // server with other definitions recomputes them once.
                "CREATE TABLE analytics_definitions (app_id TEXT PRIMARY KEY, version BIGINT NOT NULL)",
            ]),
            (23, [
                // The version of the projections' definitions each app's stored projections were folded
                // under: a server with other definitions rebuilds them once (SQLLedgerStore.migrate()).
                "CREATE TABLE projection_definitions (app_id TEXT PRIMARY KEY, version BIGINT NOT NULL)",
            ]),
            (24, [
                // Each distinct certificate chain of the signed payloads, once: a payload stored since refers to
                // its chains by digest (StoredSignedPayload). Apple's, so shared by every app.
                "CREATE TABLE certificate_chains (digest TEXT PRIMARY KEY, chain TEXT NOT NULL)",
            ]),
            // Support search by the start of a subscriber's ID reads a range of IDs in byte order: on
            // PostgreSQL, whose default collation may order them otherwise, an index in that order.
            (25, byteOrder.isEmpty ? [] : ["CREATE INDEX subscribers_id_bytes ON subscribers (app_id, app_user_id\(byteOrder))"]),
            (26, [
                // Customer imports an app started (`POST /v1/imports/jobs`): the customers to import, written once,
                // and the progress every batch rewrites; any instance holding the job's lease carries one on.
                """
                CREATE TABLE import_jobs (
                    app_id TEXT NOT NULL, id TEXT NOT NULL, state TEXT NOT NULL, digest TEXT NOT NULL, input TEXT NOT NULL, progress TEXT NOT NULL,
                    created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, finished_at BIGINT, PRIMARY KEY (app_id, id))
                """,
                "CREATE INDEX import_jobs_running ON import_jobs (app_id, state, created_at)",
            ]),
            // Read-only views for a data team's SQL (docs/exports.md): the columns a query may rely on, under
            // names that don't change when the tables do, instants as instants. What an event says is in
            // its compact JSON, which SQL doesn't read: `GET /v1/exports/transactions` gives it in columns.
            (27, [
                """
                CREATE VIEW entitle_events AS SELECT sequence, app_id, app_user_id, source, notification_uuid, transaction_id,
                    original_transaction_id, app_account_token, \(instant("signed_date")) AS signed_at, \(instant("received_at")) AS received_at
                FROM ledger_events
                """,
                """
                CREATE VIEW entitle_purchases AS SELECT app_id, original_transaction_id, app_user_id, \(instant("linked_at")) AS linked_at
                FROM purchase_links
                """,
                """
                CREATE VIEW entitle_subscribers AS SELECT app_id, app_user_id, event_count, \(instant("updated_at")) AS updated_at,
                    CASE WHEN app_user_id LIKE '$erased:%' THEN 1 ELSE 0 END AS erased
                FROM subscribers
                """,
                """
                CREATE VIEW entitle_analytics_daily AS SELECT app_id, \(date("day")) AS day,
                    CASE WHEN metric LIKE 'sandbox:%' THEN 'sandbox' ELSE 'production' END AS environment,
                    CASE WHEN metric LIKE 'sandbox:%' THEN SUBSTR(metric, 9) ELSE metric END AS metric, product, currency, cohort, value
                FROM analytics_daily
                """,
                """
                CREATE VIEW entitle_webhook_deliveries AS SELECT id, app_id, endpoint_id, event_id, event_type, app_user_id, status, attempts,
                    last_status, \(instant("created_at")) AS created_at, \(instant("delivered_at")) AS delivered_at
                FROM webhook_deliveries
                """,
            ]),
            (28, [
                // The audit log of operators' changes (docs/operations.md): append-only.
                """
                CREATE TABLE audit_log (
                    sequence \(sequenceColumn), app_id TEXT NOT NULL, at BIGINT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL, subject TEXT,
                    request TEXT, status BIGINT NOT NULL, request_id TEXT)
                """,
                "CREATE INDEX audit_log_app ON audit_log (app_id, sequence)",
            ]),
            // A secret key's scope (admin when none, as every key before).
            (29, ["ALTER TABLE api_keys ADD COLUMN scope TEXT"]),
            (30, [
                // The dashboard's people (docs/dashboard.md, "Accounts"): accounts with a role and a password
                // hash, invitations by the SHA-256 of their token, passkeys, WebAuthn challenges in flight,
                // and people's sessions — in a table of their own, which binaries of schema 29 don't read.
                """
                CREATE TABLE dashboard_accounts (
                    id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT, role TEXT NOT NULL, password_hash TEXT, created_at BIGINT NOT NULL,
                    disabled_at BIGINT, failed_sign_ins BIGINT NOT NULL DEFAULT 0, locked_until BIGINT, last_sign_in_at BIGINT)
                """,
                """
                CREATE TABLE dashboard_invitations (
                    token_hash TEXT PRIMARY KEY, email TEXT NOT NULL, role TEXT NOT NULL, invited_by TEXT NOT NULL, created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL, accepted_at BIGINT)
                """,
                """
                CREATE TABLE dashboard_account_sessions (
                    session_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, revoked_at BIGINT)
                """,
                "CREATE INDEX dashboard_account_sessions_account ON dashboard_account_sessions (account_id)",
                """
                CREATE TABLE dashboard_passkeys (
                    credential_id TEXT PRIMARY KEY, account_id TEXT NOT NULL, public_key TEXT NOT NULL, sign_count BIGINT NOT NULL, name TEXT,
                    created_at BIGINT NOT NULL, last_used_at BIGINT)
                """,
                "CREATE INDEX dashboard_passkeys_account ON dashboard_passkeys (account_id)",
                """
                CREATE TABLE dashboard_challenges (
                    challenge_hash TEXT PRIMARY KEY, purpose TEXT NOT NULL, account_id TEXT, expires_at BIGINT NOT NULL)
                """,
                // What an audited change found and left.
                "ALTER TABLE audit_log ADD COLUMN state_before TEXT",
                "ALTER TABLE audit_log ADD COLUMN state_after TEXT",
            ]),
            (31, [
                // Traces (docs/operations.md, "Traces"): the context each event was appended under, and each
                // webhook delivery's, so a delivery's span continues the request that caused it.
                """
                CREATE TABLE event_traces (
                    app_id TEXT NOT NULL, event_id TEXT NOT NULL, trace_parent TEXT NOT NULL, recorded_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, event_id))
                """,
                "CREATE INDEX event_traces_recorded ON event_traces (app_id, recorded_at)",
                "ALTER TABLE webhook_deliveries ADD COLUMN trace_parent TEXT",
            ]),
        ]
    }

    /// The oldest schema whose binaries still read and write a database at `version` correctly: the
    /// rolling-upgrade rule (docs/operations.md, "Upgrading"). From version 26 on, a migration either
    /// expands — adds a table, a nullable column, an index, a view, a routine under a new name — and the
    /// previous release goes on beside it (its entry here is the version before it), or contracts — drops,
    /// renames, or changes what existing rows mean — which ships a release after the expansion it
    /// contracts, once no instance runs the older binary (its entry is itself). Versions up to 25 predate
    /// the rule: each is its own.
    static func oldestReader(of version: Int) -> Int {
        switch version {
        case 26, 27, 28, 29, 30, 31: 25
        default: version
        }
    }

    /// The tables whose rows belong to an app, which adopting unassigned rows moves.
    static let appTables = [
        "ledger_events", "purchase_links", "subscribers", "analytics_contributions", "analytics_daily", "ledger_cursors", "account_tokens",
        "subscriber_aliases", "job_runs",
    ]
}
