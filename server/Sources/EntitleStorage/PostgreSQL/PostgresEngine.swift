import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// PostgreSQL: a pool of connections shared by any number of server instances. Writers of one
/// subscriber or purchase are serialised with transaction-scoped advisory locks; idempotency rests
/// on unique constraints.
final class PostgresEngine: SQLEngine {
    /// Writes, and reads from tasks not on an event loop the lease serves.
    let pool: PostgresPool<ContinuousClock>
    /// Reads from tasks on an event loop it serves use that loop's connections.
    let lease: PostgresLoopLease?
    let logger: Logger
    let observer: StorageObserver
    let sequenceColumn = "BIGSERIAL PRIMARY KEY"
    let sequenceReset: String? = """
        SELECT setval(pg_get_serial_sequence('ledger_events', 'sequence'), MAX(sequence)) FROM ledger_events HAVING MAX(sequence) IS NOT NULL
        """
    /// Out of line (TOAST) as before, without pglz's attempt at compressing each payload first.
    let uncompressedPayloads: String? = "ALTER TABLE ledger_events ALTER COLUMN signed_payload SET STORAGE EXTERNAL"
    let byteOrder = #" COLLATE "C""#

    init(pool: PostgresPool<ContinuousClock>, lease: PostgresLoopLease? = nil, logger: Logger, observer: StorageObserver = .none) {
        self.pool = pool
        self.lease = lease
        self.logger = logger
        self.observer = observer
    }

    /// Sequences are taken before commit, so concurrent writers may commit out of sequence order.
    /// Every append holds this lock shared until it commits; ``readHorizon()`` takes it exclusively
    /// for an instant, when no append is between its sequence and its commit.
    static let appendLock = "hashtextextended('\(LedgerLock.appends.key)', 0)"
    let appendGuardStatement: String? = "SELECT pg_advisory_xact_lock_shared(\(appendLock))"
    let secureDeletion: (on: String, off: String)? = nil
    func instant(_ milliseconds: String) -> String { "to_timestamp(\(milliseconds) / 1000.0)" }
    func date(_ day: String) -> String { "(DATE '1970-01-01' + CAST(\(day) AS INTEGER))" }
    let aggregates = AggregateCache()
    let chains = CertificateChainCache()

    func readHorizon() async throws(StorageError) -> Int64 {
        try await transaction { session throws(StorageError) in
            _ = try await session.execute("SELECT pg_advisory_xact_lock(\(Self.appendLock))", [])
            return try await session.execute(
                "SELECT COALESCE(pg_sequence_last_value(pg_get_serial_sequence('ledger_events', 'sequence')), 0) AS horizon", []
            ).first?.nullableInteger("horizon") ?? 0
        }
    }

    func transaction<T: Sendable>(_ work: @escaping @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        do {
            let asked = ContinuousClock.now
            return try await pool.withConnection { [observer, logger] connection in
                // A connection to close is closed after the transaction ends (PostgresNIO's ROLLBACK on a
                // closed one is never answered).
                let closeAfter = NIOLockedValueBox(false)
                do {
                    let result = try await connection.withTransaction(logger: logger) { connection in
                        try await observer.session(.write, askedAt: asked) { () throws(StorageError) in
                            try await work(Session(connection: connection, logger: logger, closeAfter: closeAfter))
                        }
                    }
                    if closeAfter.withLockedValue({ $0 }) { try? await connection.close() }
                    return result
                } catch {
                    if closeAfter.withLockedValue({ $0 }) { try? await connection.close() }
                    throw error
                }
            }
        } catch let error as StorageError {
            throw error
        } catch let error as PostgresPool<ContinuousClock>.NoConnection {
            throw StorageError(.unavailable, "PostgreSQL is unavailable: \(error)", underlying: error)
        } catch let error as PostgresTransactionError {
            if let closure = error.closureError as? StorageError { throw closure }
            throw StorageError(.queryFailed, "a PostgreSQL transaction failed: \(String(reflecting: error))", underlying: error)
        } catch {
            throw StorageError(.unavailable, "PostgreSQL is unavailable: \(String(reflecting: error))", underlying: error)
        }
    }

    /// A write that is one statement runs outside any transaction, as reads do: PostgreSQL commits it
    /// when it completes, which saves BEGIN and COMMIT's two round trips.
    func statement<T: Sendable>(_ work: @escaping @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        try await outsideTransaction(.write, work)
    }

    /// Reads are single statements, each atomic on its own: they run outside any transaction
    /// (PostgreSQL runs them beside writers, MVCC), which saves BEGIN and COMMIT's two round trips per
    /// read; on the calling task's event loop's connection when the lease serves that loop, else on a
    /// pooled one.
    func read<T: Sendable>(_ work: @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        try await outsideTransaction(.read, work)
    }

    /// `work` outside any transaction, each statement committed on its own: a read from a task on an
    /// event loop the lease serves on one of that loop's connections, anything else on a pooled one.
    private func outsideTransaction<T: Sendable>(
        _ kind: StorageObserver.SessionKind, _ work: @Sendable (any SQLSession) async throws(StorageError) -> T
    ) async throws(StorageError) -> T {
        do {
            let asked = ContinuousClock.now
            func session(_ connection: PostgresConnection) async throws -> T {
                try await observer.session(kind, askedAt: asked) { () throws(StorageError) in
                    try await work(Session(connection: connection, logger: logger))
                }
            }
            if kind == .read, let lease, let slot = lease.currentSlot() {
                return try await lease.withConnection(on: slot, session)
            }
            return try await withoutActuallyEscaping(work) { work in
                try await pool.withConnection { [observer, logger] connection in
                    try await observer.session(kind, askedAt: asked) { () throws(StorageError) in
                        try await work(Session(connection: connection, logger: logger))
                    }
                }
            }
        } catch let error as StorageError {
            throw error
        } catch let error as PostgresPool<ContinuousClock>.NoConnection {
            throw StorageError(.unavailable, "PostgreSQL is unavailable: \(error)", underlying: error)
        } catch {
            throw StorageError(.unavailable, "PostgreSQL is unavailable: \(String(reflecting: error))", underlying: error)
        }
    }

    /// The client is run (and stopped) by its owner, as a service.
    func close() async {}

    /// Prepares the reads' kept statements on `connection`, each run ``plannedRuns`` times finding
    /// nothing: PostgreSQL parses them, loads what it knows of the tables they read, and settles on
    /// the plan it keeps for them, all of which a new backend's first reads would otherwise wait for.
    static func prepareReads(on connection: PostgresConnection, logger: Logger) async throws(StorageError) {
        let session = Session(connection: connection, logger: logger)
        for (statement, binds) in LedgerStatements.findingNothing {
            for _ in 0..<plannedRuns { _ = try await session.execute(statement, binds) }
        }
    }

    /// PostgreSQL plans a prepared statement's first five runs for their bound values, each anew
    /// (~0.3 ms a read); the sixth also makes the generic plan it weighs against them, and keeps for
    /// the runs after it when it costs no more (the reads' does).
    static let plannedRuns = 6

    private struct Session: SQLSession {
        let connection: PostgresConnection
        let logger: Logger
        /// In a transaction: set to have the connection closed once the transaction ends; `nil`: closed at once.
        var closeAfter: NIOLockedValueBox<Bool>? = nil

        func execute(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow] {
            try ensureOpen()
            let query = PostgresQuery(unsafeSQL: PostgresEngine.numberPlaceholders(sql), binds: Self.bindings(binds))
            do {
                return try await Self.rows(connection.query(query, logger: logger))
            } catch {
                throw Self.failure(error)
            }
        }

        func execute<Statement: KeptStatement>(_ statement: Statement.Type, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow] {
            try ensureOpen()
            do {
                return try await Self.rows(connection.execute(PreparedKeptStatement<Statement>(bindings: Self.bindings(binds)), logger: logger))
            } catch {
                // PostgresNIO answers a statement whose preparation failed with that failure for the rest
                // of the connection's life: closed (in a transaction, once it ends: PostgresNIO's ROLLBACK
                // on a closed connection is never answered), the pool opens another that prepares it
                // afresh. Not when the statement was prepared and its run failed (a broken constraint,
                // bad data, a serialization failure or deadlock: SQLSTATE classes 22, 23 and 40): the
                // connection is sound.
                if !Self.failedRunning(error) {
                    if let closeAfter { closeAfter.withLockedValue { $0 = true } } else { try? await connection.close() }
                }
                throw Self.failure(error)
            }
        }

        /// SQLSTATE classes of a statement that was prepared and failed while it ran.
        static let runClasses: Set<Substring> = ["22", "23", "40"]

        static func failedRunning(_ error: any Error) -> Bool {
            guard let state = (error as? PSQLError)?.serverInfo?[.sqlState] else { return false }
            return runClasses.contains(state.prefix(2))
        }

        /// A failed statement's error; a unique violation (SQLSTATE 23505) carries which constraint.
        static func failure(_ error: any Error) -> StorageError {
            let info = (error as? PSQLError)?.serverInfo
            let unique = info?[.sqlState] == "23505" ? UniqueViolation(postgresTable: info?[.tableName], detail: info?[.detail]) : nil
            return StorageError(.queryFailed, "a PostgreSQL statement failed: \(String(reflecting: error))", underlying: unique ?? error)
        }

        /// PostgresNIO drops a statement written to a connection already closed and never answers it:
        /// a closed connection fails here instead. On the connection's own event loop nothing can
        /// close it between this check and the write.
        func ensureOpen() throws(StorageError) {
            if connection.isClosed { throw StorageError(.unavailable, "the PostgreSQL connection closed") }
        }

        static func bindings(_ binds: [SQLValue]) -> PostgresBindings {
            var bindings = PostgresBindings(capacity: binds.count)
            for value in binds {
                switch value {
                case .text(let text): bindings.append(text)
                case .integer(let integer): bindings.append(integer)
                case .null: bindings.appendNull()
                }
            }
            return bindings
        }

        /// Each row, its columns by name.
        static func rows<Rows: AsyncSequence>(_ rows: Rows) async throws -> [SQLRow] where Rows.Element == PostgresRow {
            var read: [SQLRow] = []
            for try await row in rows {
                var columns: [String: SQLValue] = [:]
                for cell in row {
                    switch cell.dataType {
                    case .int8, .int4, .int2:
                        columns[cell.columnName] = SQLValue(try cell.decode(Int64?.self))
                    default:
                        columns[cell.columnName] = SQLValue(try cell.decode(String?.self))
                    }
                }
                read.append(SQLRow(columns))
            }
            return read
        }

        func lock(_ lock: LedgerLock) async throws(StorageError) {
            _ = try await execute("SELECT \(LedgerLock.advisoryLock(key: "?"))", [.text(lock.key)])
        }

        /// Up to 500 locks a statement, taken in the order of the VALUES list as it is scanned.
        func lock(_ locks: [LedgerLock]) async throws(StorageError) {
            var start = 0
            while start < locks.count {
                let part = locks[start..<min(locks.count, start + 500)]
                let values = Array(repeating: "(?)", count: part.count).joined(separator: ", ")
                _ = try await execute(
                    "SELECT \(LedgerLock.advisoryLock(key: "k")) FROM (VALUES \(values)) AS t(k)", part.map { SQLValue.text($0.key) })
                start += part.count
            }
        }
    }

    /// The statements PostgreSQL keeps prepared: the ledger's and the append routines' calls.
    static let keptStatements: [any KeptStatement.Type] = LedgerStatements.kept + [AppendRoutine.self, KeptAppendRoutine.self, LinkPurchaseStatement.self]

    /// Their texts with numbered placeholders, made once (PostgresNIO asks for a prepared statement's
    /// text at each of its runs).
    static let numberedKeptTexts = Dictionary(uniqueKeysWithValues: keptStatements.map { (ObjectIdentifier($0), numberPlaceholders($0.sql)) })

    /// `?` → `$1`, `$2`, … (the ledger's statements have no `?` inside literals).
    static func numberPlaceholders(_ sql: String) -> String {
        let question = UInt8(ascii: "?")
        guard sql.utf8.contains(question) else { return sql }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sql.utf8.count + 32)
        var index = 0
        for byte in sql.utf8 {
            if byte == question {
                index += 1
                bytes.append(UInt8(ascii: "$"))
                bytes.append(contentsOf: String(index).utf8)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
