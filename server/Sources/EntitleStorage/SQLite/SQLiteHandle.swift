import Foundation
import CSQLite
import EntitleCore

/// One SQLite connection, used through SQLite's C API (Entitle's embedded copy, `CSQLite`) on the calling
/// thread: a statement runs where it is asked, with no hop to another thread, and prepared
/// statements are kept and reused by their SQL.
///
/// Not thread-safe by itself: its owner serialises every use (``SQLiteEngine`` holds a mutex per
/// connection), which is also what SQLite's multi-thread mode asks.
final class SQLiteHandle: @unchecked Sendable {
    private var database: OpaquePointer?
    private var statements: [String: Statement] = [:]
    private let path: String
    /// Statements kept at most; statements built for a variable number of `IN` values vary, so the
    /// cache is emptied when it grows past this, rather than growing without bound.
    private static let cacheLimit = 512

    private final class Statement {
        let pointer: OpaquePointer
        let columns: [String]
        let parameters: Int32

        init(pointer: OpaquePointer) {
            self.pointer = pointer
            self.parameters = entitle_sqlite3_bind_parameter_count(pointer)
            self.columns = (0..<entitle_sqlite3_column_count(pointer)).map { index in
                entitle_sqlite3_column_name(pointer, index).map { String(cString: $0) } ?? ""
            }
        }
    }

    /// Opens (creating when missing) the database at `path`.
    init(path: String) throws(StorageError) {
        self.path = path
        var database: OpaquePointer?
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let status = entitle_sqlite3_open_v2(path, &database, flags, nil)
        guard status == SQLITE_OK, let database else {
            let message = database.flatMap { entitle_sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "status \(status)"
            entitle_sqlite3_close_v2(database)
            throw StorageError(.unavailable, "cannot open the SQLite database \(path): \(message)")
        }
        self.database = database
    }

    deinit {
        close()
    }

    /// Runs `body` with the open database's pointer (SQLite's own APIs beside statements: the online backup).
    func withDatabase<T>(_ body: (OpaquePointer) throws(StorageError) -> T) throws(StorageError) -> T {
        guard let database else { throw StorageError(.unavailable, "the SQLite database \(path) is closed") }
        return try body(database)
    }

    /// Runs one statement with `binds` for its `?` placeholders; returns its rows, column name →
    /// value (a real reads as its integer part; blobs are not used).
    func execute(_ sql: String, _ binds: [SQLValue]) throws(StorageError) -> [SQLRow] {
        guard let database else { throw StorageError(.unavailable, "the SQLite database \(path) is closed") }
        let statement = try prepared(sql, database)
        let pointer = statement.pointer
        // Every parameter is bound again below, so the bindings are not cleared: clearing expires a
        // statement whose plan looked at a bound value (SQLite's planner does for any `WHERE c = ?`
        // with an ORDER BY, most of the ledger's reads), and SQLite would then prepare it again on
        // every run. Rebinding expires it only when such a value changes.
        defer { entitle_sqlite3_reset(pointer) }
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .text(let text):
                var text = text
                status = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        guard let start = chars.baseAddress, !chars.isEmpty else {
                            return entitle_sqlite3_bind_text64(pointer, index, "", 0, Self.transient, UInt8(SQLITE_UTF8))
                        }
                        return entitle_sqlite3_bind_text64(pointer, index, start, UInt64(chars.count), Self.transient, UInt8(SQLITE_UTF8))
                    }
                }
            case .integer(let integer): status = entitle_sqlite3_bind_int64(pointer, index, integer)
            case .null: status = entitle_sqlite3_bind_null(pointer, index)
            }
            guard status == SQLITE_OK else { throw failure(status, sql, database) }
        }
        // Placeholders without a value are NULL, whatever the last run bound to them.
        for index in Int32(binds.count + 1)..<max(Int32(binds.count + 1), statement.parameters + 1) {
            let status = entitle_sqlite3_bind_null(pointer, index)
            guard status == SQLITE_OK else { throw failure(status, sql, database) }
        }
        var rows: [SQLRow] = []
        let columns = statement.columns
        while true {
            let status = entitle_sqlite3_step(pointer)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw failure(status, sql, database) }
            var row = [String: SQLValue](minimumCapacity: columns.count)
            for (index, name) in columns.enumerated() {
                let column = Int32(index)
                switch entitle_sqlite3_column_type(pointer, column) {
                case SQLITE_INTEGER:
                    row[name] = .integer(entitle_sqlite3_column_int64(pointer, column))
                case SQLITE_FLOAT:
                    // The ledger stores no real numbers; one in a damaged file is read saturated, never trapping.
                    row[name] = .integer(Int64(saturating: entitle_sqlite3_column_double(pointer, column), rounding: .towardZero))
                case SQLITE_TEXT:
                    let count = Int(entitle_sqlite3_column_bytes(pointer, column))
                    if let text = entitle_sqlite3_column_text(pointer, column) {
                        row[name] = .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
                    } else {
                        row[name] = .text("")
                    }
                default:
                    row[name] = .null
                }
            }
            rows.append(SQLRow(row))
        }
    }

    /// How many times SQLite prepared the kept statement `sql` again since it was first prepared
    /// (`nil` when it isn't kept).
    func repreparations(_ sql: String) -> Int? {
        statements[sql].map { Int(entitle_sqlite3_stmt_status($0.pointer, SQLITE_STMTSTATUS_REPREPARE, 0)) }
    }

    /// Finalizes every statement and closes the connection; later statements fail.
    func close() {
        for statement in statements.values { entitle_sqlite3_finalize(statement.pointer) }
        statements.removeAll()
        if let database { entitle_sqlite3_close_v2(database) }
        database = nil
    }

    private func prepared(_ sql: String, _ database: OpaquePointer) throws(StorageError) -> Statement {
        if let statement = statements[sql] { return statement }
        var pointer: OpaquePointer?
        let status = entitle_sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard status == SQLITE_OK, let pointer else {
            entitle_sqlite3_finalize(pointer)
            throw failure(status, sql, database)
        }
        if statements.count >= Self.cacheLimit {
            for statement in statements.values { entitle_sqlite3_finalize(statement.pointer) }
            statements.removeAll(keepingCapacity: true)
        }
        let statement = Statement(pointer: pointer)
        statements[sql] = statement
        return statement
    }

    private func failure(_ status: Int32, _ sql: String, _ database: OpaquePointer) -> StorageError {
        let message = entitle_sqlite3_errmsg(database).map { String(cString: $0) } ?? "status \(status)"
        let statement = sql.split(separator: " ", maxSplits: 1).first.map(String.init) ?? sql
        // Extended result codes are on (SQLITE_OPEN_EXRESCODE): a broken unique constraint or primary key
        // says which, for the ledger to tell.
        let unique = status == Self.constraintUnique || status == Self.constraintPrimaryKey ? UniqueViolation(sqliteMessage: message) : nil
        return StorageError(.queryFailed, "an SQLite \(statement) statement failed (\(status)): \(message)", underlying: unique)
    }

    /// SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY (C macros Swift doesn't import).
    private static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
    private static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)

    /// SQLite copies a value bound with this destructor before the bind returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
