import Foundation
import Logging
import SQLiteNIO

/// The embedded engine: one SQLite file in WAL mode. Writes go through one connection (SQLite has a
/// single writer), with group commit: transactions waiting for the writer commit together, each in
/// its own savepoint, under one fsync. Reads use a second connection and see a consistent snapshot
/// while writes proceed (WAL).
final class SQLiteEngine: SQLEngine {
    let connection: SQLiteConnection
    let reader: SQLiteConnection
    private let readerMutex = AsyncMutex()
    private let writer: GroupCommit
    private let observer: StorageObserver
    let sequenceColumn = "INTEGER PRIMARY KEY AUTOINCREMENT"
    let sequenceReset: String? = nil
    /// One writer commits in sequence order: every visible event is below any later one.
    let appendGuardStatement: String? = nil

    func readHorizon() async throws(StorageError) -> Int64 { .max }

    private init(connection: SQLiteConnection, reader: SQLiteConnection, observer: StorageObserver) {
        self.connection = connection
        self.reader = reader
        self.observer = observer
        self.writer = GroupCommit(session: Session(connection: connection), observer: observer) { statement throws(StorageError) in
            _ = try await Self.run(statement, [], on: connection)
        }
    }

    /// Opens (creating when missing) the database file at `path`, creating its folder too.
    static func open(path: String, logger: Logger, observer: StorageObserver = .none) async throws(StorageError) -> SQLiteEngine {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StorageError(.unavailable, "cannot create the data folder \(folder.path)", underlying: error)
        }
        let connection: SQLiteConnection
        let reader: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
            reader = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        } catch {
            throw StorageError(.unavailable, "cannot open the SQLite database \(path)", underlying: error)
        }
        let engine = SQLiteEngine(connection: connection, reader: reader, observer: observer)
        for pragma in ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", "PRAGMA busy_timeout = 5000", "PRAGMA foreign_keys = ON"] {
            _ = try await engine.run(pragma, [])
        }
        _ = try await run("PRAGMA busy_timeout = 5000", [], on: reader)
        return engine
    }

    func transaction<T: Sendable>(_ work: @escaping @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        let asked = ContinuousClock.now
        let observer = observer
        return try await writer.transaction { session throws(StorageError) in
            try await observer.session(.write, askedAt: asked) { () throws(StorageError) in try await work(session) }
        }
    }

    /// Reads are single statements, one at a time on the reader connection.
    func read<T: Sendable>(_ work: @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        let asked = ContinuousClock.now
        return try await readerMutex.withLock { () throws(StorageError) -> T in
            try await observer.session(.read, askedAt: asked) { () throws(StorageError) in try await work(Session(connection: self.reader)) }
        }
    }

    func close() async {
        try? await reader.close()
        try? await connection.close()
    }

    fileprivate func run(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [[String: SQLValue]] {
        try await Self.run(sql, binds, on: connection)
    }

    fileprivate static func run(_ sql: String, _ binds: [SQLValue], on connection: SQLiteConnection) async throws(StorageError) -> [[String: SQLValue]] {
        let data: [SQLiteData] = binds.map { value in
            switch value {
            case .text(let text): .text(text)
            case .integer(let integer): .integer(Int(integer))
            case .null: .null
            }
        }
        do {
            let rows = try await connection.query(sql, data)
            return rows.map { row in
                var columns: [String: SQLValue] = [:]
                for column in row.columns {
                    switch column.data {
                    case .integer(let integer): columns[column.name] = .integer(Int64(integer))
                    case .text(let text): columns[column.name] = .text(text)
                    case .float(let double): columns[column.name] = .integer(Int64(double))
                    case .blob, .null: columns[column.name] = .null
                    }
                }
                return columns
            }
        } catch {
            throw StorageError(.queryFailed, "an SQLite statement failed: \(String(describing: error))", underlying: error)
        }
    }

    private struct Session: SQLSession {
        let connection: SQLiteConnection
        func execute(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [[String: SQLValue]] {
            try await SQLiteEngine.run(sql, binds, on: connection)
        }
        /// Transactions are already one at a time.
        func lock(_ key: String) async throws(StorageError) {}
    }
}
