import EntitleCore

/// An advisory lock serialising writers that share a database (PostgreSQL; SQLite has one writer),
/// each kind's key made here once: Swift's statements take a lock by its ``key``, and PostgreSQL's
/// routines build the same key from their parameters with ``routineStatement(_:app:id:)``.
struct LedgerLock: Hashable, Sendable {
    /// What a routine locks on its own: a subscriber or a purchase of the app.
    enum Kind: String, Sendable {
        case subscriber, purchase
    }

    let key: String

    /// Writers of one subscriber of `app`.
    static func subscriber(_ app: BundleID, _ appUserID: AppUserID) -> LedgerLock { LedgerLock(.subscriber, app.rawValue, appUserID.rawValue) }
    /// Writers of one purchase of `app`.
    static func purchase(_ app: BundleID, _ original: OriginalTransactionID) -> LedgerLock { LedgerLock(.purchase, app.rawValue, original.rawValue) }
    /// The app's ledger consumer `consumer` moving its cursor.
    static func consumer(_ app: BundleID, _ consumer: LedgerConsumer) -> LedgerLock { LedgerLock(key: "entitle.consumer.\(app).\(consumer.rawValue)") }
    /// The app's leased job `job` changing hands.
    static func job(_ app: BundleID, _ job: LeasedJob) -> LedgerLock { LedgerLock(key: "entitle.job.\(app).\(job.rawValue)") }
    /// Writers of the app's analytics aggregates (refreshes and a recompute's steps), one at a time.
    static func analytics(_ app: BundleID) -> LedgerLock { LedgerLock(key: "entitle.analytics:\(app)") }
    /// Held shared by every append until it commits, exclusively for an instant by a read of the
    /// horizon (PostgreSQL's ``PostgresEngine/readHorizon()``).
    static let appends = LedgerLock(key: "entitle.ledger.appends")
    /// Migrations of the schema, server-wide.
    static let migrations = LedgerLock(key: "entitle.migrations")

    private init(key: String) { self.key = key }

    /// `kind`'s key: its name, the app, the unit separator, the ID.
    private init(_ kind: Kind, _ app: String, _ id: String) { key = "\(kind.rawValue):\(app)\u{1F}\(id)" }

    /// The same key as a PostgreSQL expression over the expressions `app` and `id`.
    static func routineKey(_ kind: Kind, app: String, id: String) -> String { "'\(kind.rawValue):' || \(app) || chr(31) || \(id)" }

    /// PostgreSQL's call taking the transaction's lock whose key is the expression `key`.
    static func advisoryLock(key: String) -> String { "pg_advisory_xact_lock(hashtextextended(\(key), 0))" }

    /// The PL/pgSQL statement locking `kind`'s `id` of `app` (both expressions), as ``key`` would.
    static func routineStatement(_ kind: Kind, app: String, id: String) -> String {
        "PERFORM \(advisoryLock(key: routineKey(kind, app: app, id: id)));"
    }
}
